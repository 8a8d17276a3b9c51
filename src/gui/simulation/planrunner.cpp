#include "gui/simulation/planrunner.h"

#include "sim/simulator.h"

#include <QtConcurrent/QtConcurrentRun>

namespace weft {

PlanRunner::PlanRunner(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<TrainingPlan>::finished, this, [this] {
        m_result = m_watcher.result();
        m_running = false;
        emit finished();
    });
}

PlanRunner::~PlanRunner()
{
    cancel();
    m_watcher.waitForFinished();
    m_compareWatcher.waitForFinished();
}

bool PlanRunner::start(const Design &design, const PlanSpace &space, const PlanOptions &options)
{
    if (isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    PlanOptions o = options;
    o.jobs = std::max(1, o.jobs);
    o.cancel = m_cancel.get();
    // Worker threads: queue to the UI thread. The destructor waits for the worker, so `this`
    // outlives every call; events still queued when it is deleted are discarded by Qt.
    o.progress = [this](const PlanProgress &p) {
        QMetaObject::invokeMethod(
            this,
            [this, p] {
                if (p.preparing)
                    emit preparing(p.prepared, p.toPrepare);
                else
                    emit progress(p.done, p.total, p.simulated, p.pruned + p.stopped);
            },
            Qt::QueuedConnection);
    };
    o.row = [this](const PlanRow &row) {
        QMetaObject::invokeMethod(
            this, [this, row] { emit rowFound(row); }, Qt::QueuedConnection);
    };
    // The worker owns copies: the document may change (or close) while the plan runs.
    m_watcher.setFuture(QtConcurrent::run([design, space, o, cancel = m_cancel] {
        try {
            return runPlan(design, space, o);
        } catch (const std::exception &) {
            return TrainingPlan {};
        }
    }));
    return true;
}

bool PlanRunner::simulateForComparison(const Design &design, const Workload &base,
                                       const PlanRow &row, const QString &label)
{
    if (isComparing())
        return false;
    Design d = design;
    d.workload = candidateWorkload(base, row.config, row.order);
    const QString source = tr("plan of %1").arg(QString::fromStdString(design.name));
    m_compareWatcher.setFuture(QtConcurrent::run([this, d, label, source] {
        auto result = std::make_shared<const SimResult>(simulate(d));
        QMetaObject::invokeMethod(
            this,
            [this, d, label, source, result] {
                if (result->ok)
                    emit comparisonReady(comparedDesign(label, source, d, result));
                else
                    emit comparisonFailed(tr("%1 could not be simulated").arg(label));
            },
            Qt::QueuedConnection);
    }));
    return true;
}

void PlanRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace weft
