#pragma once
// MainWindows: the WindowManager of the desktop app, over the application's top-level
// MainWindows (one per open design). The action handlers receive it as a WindowManager.

#include "gui/actions/designwindow.h"

namespace weft {

class MainWindow;

class MainWindows final : public WindowManager
{
public:
    /// The one manager of the application's windows.
    static MainWindows &instance();

    DesignWindow *createWindow() override;
    [[nodiscard]] QList<DesignWindow *> windows() const override;
    /// The open windows (not those closing) as MainWindows.
    [[nodiscard]] static QList<MainWindow *> mainWindows();
};

} // namespace weft
