#pragma once
// The application object of the weft-cli commands that render widgets (report, export): a
// QApplication on the offscreen platform, so they run without a display.

#include <QCoreApplication>
#include <memory>

namespace weft::cli {

/// Forces QT_QPA_PLATFORM=offscreen and creates a QApplication.
std::unique_ptr<QCoreApplication> makeOffscreenApplication(int &argc, char **argv);

} // namespace weft::cli
