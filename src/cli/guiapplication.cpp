#include "guiapplication.h"

#include <QApplication>

// The canvas draws icons from weft_gui's resources; a static library's resources must be
// registered by hand, outside any namespace (Q_INIT_RESOURCE declares a global function).
static void initGuiResources()
{
    Q_INIT_RESOURCE(weft);
}

namespace weft::cli {

std::unique_ptr<QCoreApplication> makeOffscreenApplication(int &argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    auto app = std::make_unique<QApplication>(argc, argv);
    initGuiResources();
    return app;
}

} // namespace weft::cli
