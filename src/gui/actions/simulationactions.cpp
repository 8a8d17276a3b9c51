#include "gui/actions/simulationactions.h"

#include "gui/simulation/simulationrunner.h"

#include <QAction>
#include <QIcon>
#include <QMenu>
#include <QSettings>
#include <QToolBar>

namespace weft {

namespace {
const QString kAutoKey = QStringLiteral("simulation/auto");
} // namespace

SimulationActions::SimulationActions(SimulationRunner *runner, QObject *parent)
    : QObject(parent)
    , m_runner(runner)
{
    simulate = new QAction(QIcon::fromTheme(QStringLiteral("media-playback-start")),
                           tr("&Simulate"), this);
    simulate->setObjectName(QStringLiteral("actionSimulate"));
    simulate->setShortcut(Qt::Key_F5);
    simulate->setToolTip(tr("Simulate one training step of the workload on this fabric (F5)"));
    cancel = new QAction(QIcon::fromTheme(QStringLiteral("process-stop")), tr("&Cancel Simulation"),
                         this);
    cancel->setObjectName(QStringLiteral("actionCancelSimulation"));
    cancel->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    autoSimulate = new QAction(tr("&Auto-simulate After Each Edit"), this);
    autoSimulate->setObjectName(QStringLiteral("actionAutoSimulate"));
    autoSimulate->setCheckable(true);
    autoSimulate->setToolTip(tr("Re-simulate after each edit for designs of up to %1 "
                                "accelerators; larger designs simulate on request")
                                 .arg(SimulationRunner::autoLimit()));
    autoSimulate->setChecked(QSettings().value(kAutoKey, true).toBool());
    runner->setAutoSimulate(autoSimulate->isChecked());

    connect(simulate, &QAction::triggered, runner, &SimulationRunner::simulate);
    connect(cancel, &QAction::triggered, runner, &SimulationRunner::cancel);
    connect(autoSimulate, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kAutoKey, on);
        m_runner->setAutoSimulate(on);
    });
    connect(runner, &SimulationRunner::started, this, &SimulationActions::sync);
    connect(runner, &SimulationRunner::finished, this, &SimulationActions::sync);
    sync();
}

void SimulationActions::addTo(QMenu *menu, QToolBar *toolbar)
{
    menu->addAction(simulate);
    menu->addAction(cancel);
    menu->addSeparator();
    menu->addAction(autoSimulate);
    toolbar->addAction(simulate);
}

void SimulationActions::sync()
{
    cancel->setEnabled(m_runner->isSimulating());
}

} // namespace weft
