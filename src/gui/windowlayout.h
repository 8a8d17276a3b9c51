#pragma once
// WindowLayout: where the main window's docks go on first run, their first-run sizes for the
// window's size, and the geometry and dock state saved in QSettings ("window/geometry",
// "window/state") at close and restored at the next start.

#include <QRect>

class QDockWidget;
class QMainWindow;

namespace weft {

/// The docks of a main window that the first-run arrangement places.
struct MainDocks
{
    QDockWidget *palette = nullptr;
    QDockWidget *properties = nullptr;
    QDockWidget *partitions = nullptr;
    QDockWidget *results = nullptr;
    QDockWidget *findings = nullptr;
    QDockWidget *compare = nullptr;
};

class WindowLayout
{
public:
    /// Where a window opens when no geometry was saved: 90% of the screen's `available`
    /// geometry, centred.
    [[nodiscard]] static QRect firstRunGeometry(const QRect &available);
    /// Version of the saved dock arrangement; a state saved by another version is ignored and
    /// the first-run arrangement stays.
    static constexpr int kVersion = 1;

    /// The first-run arrangement: Properties / Partitions run the full height on the right;
    /// Results spans the bottom below the palette and the canvas, Findings and Compare tabbed
    /// beside it.
    static void arrange(QMainWindow *window, const MainDocks &docks);
    /// First-run dock sizes: absolute sizes that suit a large screen, capped to a share of a
    /// small window.
    static void sizeDocks(QMainWindow *window, const MainDocks &docks);
    /// Restores the saved geometry (else firstRunGeometry) and dock state. Returns false when
    /// no state was restored: the docks need sizeDocks once the window is shown.
    static bool restore(QMainWindow *window);
    /// Saves the geometry and dock state.
    static void save(const QMainWindow *window);
};

} // namespace weft
