#pragma once
// Helpers of the GUI tests that drive a whole main window: show it, open a design and wait for
// the simulation runner to settle on a result of the current design.

#include "gui/mainwindow.h"
#include "gui/simulation/simulationrunner.h"

#include <QTest>
#include <memory>

namespace weft::test {

/// A main window of `size`, shown and exposed (nullptr if the platform never exposes it).
inline std::unique_ptr<MainWindow> shownWindow(QSize size)
{
    auto w = std::make_unique<MainWindow>();
    w->resize(size);
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get()))
        return nullptr;
    return w;
}

/// Waits (up to 2 min) until `runner` is idle with a result of the current design; returns
/// it, or nullptr on timeout.
inline std::shared_ptr<const SimResult> settledResult(const SimulationRunner &runner)
{
    if (!QTest::qWaitFor([&runner] { return !runner.isStale() && !runner.isRunning(); }, 120000))
        return nullptr;
    return runner.result();
}

/// Opens `path` in `w`, makes edits re-simulate without debounce and waits for the first
/// result. False when the file did not open or nothing was simulated in time.
inline bool openSimulated(MainWindow &w, const QString &path)
{
    if (!w.openFile(path))
        return false;
    w.simulation()->setDebounce(0);
    if (!QTest::qWaitFor([&w] { return w.simulation()->result() != nullptr; }, 120000))
        return false;
    return settledResult(*w.simulation()) != nullptr;
}

} // namespace weft::test
