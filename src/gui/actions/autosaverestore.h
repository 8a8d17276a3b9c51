#pragma once
// Start-up of the desktop app: the files named on the command line open first, then the
// autosaves left by a crashed or killed instance are offered (MainWindow::offerAutosaveRestore,
// defined in autosaverestore.cpp beside this).

#include <QStringList>

namespace weft {

/// Opens the first main window and `files` in it (or in new windows), then, once the event loop
/// runs, offers the autosaves whose owner is no longer running. The files never wait behind
/// that question.
void openAtStartup(const QStringList &files);

} // namespace weft
