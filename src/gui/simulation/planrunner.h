#pragma once
// PlanRunner: runs one plan (core/plan: candidates screened, bounded and simulated on several
// threads) on a worker without blocking the UI thread; reports progress and each simulated
// candidate as it arrives, can be cancelled, and simulates a chosen candidate in full for the
// comparison. One plan at a time.

// clang-format off
#include <QFutureWatcher> // Qt first: moc cannot parse <concept> on its own
#include <QObject>
// clang-format on

#include "gui/simulation/comparison.h"
#include "plan/planner.h"

#include <atomic>
#include <memory>

namespace weft {

class PlanRunner : public QObject
{
    Q_OBJECT
public:
    explicit PlanRunner(QObject *parent = nullptr);
    /// Cancels a running plan and waits for its worker threads to return.
    ~PlanRunner() override;

    /// From start() until finished() is emitted (the worker may be done a little earlier: its
    /// result is not handed over until then).
    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] bool isComparing() const { return m_compareWatcher.isRunning(); }
    /// The last finished plan (cancelled: what was simulated before).
    [[nodiscard]] const TrainingPlan &result() const { return m_result; }

    /// Starts planning `space` on a copy of `design`. Returns false (and starts nothing) while
    /// another plan runs.
    bool start(const Design &design, const PlanSpace &space, const PlanOptions &options);

    /// Simulates `row` of the last plan on a copy of `design` (with `base` as workload) on a
    /// worker; emits comparisonReady() with the entry, or comparisonFailed(). Returns false
    /// (and starts nothing) while the previous one runs.
    bool simulateForComparison(const Design &design, const Workload &base, const PlanRow &row,
                               const QString &label);

public slots:
    /// Stops the running plan: running simulations stop, no further candidate starts.
    void cancel();

signals:
    /// `pruned`: by the bound or stopped in simulation past the K-th best (PlanProgress).
    void progress(qint64 done, qint64 total, qint64 simulated, qint64 pruned);
    /// Before the first simulation: memory and bounds of `prepared` of `total` configurations
    /// and placements computed (PlanProgress::preparing).
    void preparing(qint64 prepared, qint64 total);
    /// A candidate was simulated and fits (in the order they finish).
    void rowFound(const weft::PlanRow &row);
    /// The plan ended (also after cancel()); result() holds it.
    void finished();
    void comparisonReady(const weft::ComparedDesign &entry);
    void comparisonFailed(const QString &message);

private:
    QFutureWatcher<TrainingPlan> m_watcher;
    bool m_running = false;
    QFutureWatcher<void> m_compareWatcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    TrainingPlan m_result;
};

} // namespace weft
