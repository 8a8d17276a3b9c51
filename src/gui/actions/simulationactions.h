#pragma once
// SimulationActions: Simulation > Simulate (F5), Cancel (Shift+F5) and Auto-simulate after each
// edit (for designs up to SimulationRunner::autoLimit() accelerators; remembered in QSettings).

#include <QObject>

class QAction;
class QMenu;
class QToolBar;

namespace weft {

class SimulationRunner;

class SimulationActions : public QObject
{
    Q_OBJECT
public:
    SimulationActions(SimulationRunner *runner, QObject *parent);
    void addTo(QMenu *menu, QToolBar *toolbar);

    QAction *simulate, *cancel, *autoSimulate;

private:
    void sync();
    SimulationRunner *m_runner;
};

} // namespace weft
