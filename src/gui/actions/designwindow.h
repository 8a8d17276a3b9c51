#pragma once
// DesignWindow and WindowManager: what the action handlers may ask of the main windows without
// knowing MainWindow, so that the GUI layers point one way (gui/mainwindow.h includes the action
// handlers, never the reverse). MainWindow implements DesignWindow; MainWindows
// (gui/mainwindows.h) implements WindowManager over the application's top-level windows.

#include <QList>

class QWidget;

namespace weft {

class Autosave;
class DesignDocument;
class FileActions;
class TopologyView;

/// One open design in its window.
class DesignWindow
{
public:
    DesignWindow() = default;
    virtual ~DesignWindow() = default;
    DesignWindow(const DesignWindow &) = delete;
    DesignWindow &operator=(const DesignWindow &) = delete;

    /// The window itself: the parent of its dialogs, what Close closes.
    [[nodiscard]] virtual QWidget *widget() = 0;
    [[nodiscard]] virtual DesignDocument *document() const = 0;
    [[nodiscard]] virtual TopologyView *view() const = 0;
    [[nodiscard]] virtual FileActions *fileActions() const = 0;
    [[nodiscard]] virtual Autosave *autosave() const = 0;
    /// True for an untitled, unmodified, empty design without undo history.
    [[nodiscard]] virtual bool isPristine() const = 0;
};

/// Opens and enumerates the design windows.
class WindowManager
{
public:
    WindowManager() = default;
    virtual ~WindowManager() = default;
    WindowManager(const WindowManager &) = delete;
    WindowManager &operator=(const WindowManager &) = delete;

    /// A new window with an empty design, deleted on close, not shown yet (a file is loaded
    /// into it first; delete its widget() when that fails).
    virtual DesignWindow *createWindow() = 0;
    /// All open windows (not those closing).
    [[nodiscard]] virtual QList<DesignWindow *> windows() const = 0;

    /// createWindow(), shown.
    DesignWindow *openWindow();
    /// Closes every window (each may ask about unsaved changes); false when one refused.
    bool closeAllWindows();
};

} // namespace weft
