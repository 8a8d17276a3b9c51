#pragma once
// SimulationRunner: keeps one document's findings and simulation result up to date without ever
// blocking the UI thread. After each edit (debounced) a job on a worker thread re-checks the
// design (model validation and the simulator's preflight: parallelism, placement, memory) and,
// for designs up to autoLimit() accelerators with auto-simulation on, simulates the step. Larger
// designs simulate on request (simulate()). A newer edit cancels the running job.
// A design that carries what-if faults (Design::scenario) is simulated with them applied
// (whatif/scenario.h), and its healthy self on the same worker (or the last healthy step time
// again when only the faults changed), so the result can say the slowdown.

// clang-format off
#include <QFutureWatcher> // Qt first: moc cannot parse <concept> on its own
#include <QObject>
#include <QTimer>
// clang-format on

#include "model/finding.h"
#include "sim/result.h"

#include <atomic>
#include <memory>
#include <optional>

namespace weft {

class DesignDocument;

class SimulationRunner : public QObject
{
    Q_OBJECT
public:
    /// What one worker job produced.
    struct Outcome
    {
        std::vector<Finding> findings; ///< validation + preflight of the design as it was
        std::shared_ptr<const SimResult> result; ///< null when the job did not simulate
        bool cancelled = false;
        int faults = 0; ///< what-if faults applied to the design simulated
        std::optional<double> healthyStepTime; ///< s; with faults, when the healthy design ran
        std::size_t healthyKey = 0; ///< the healthy design's fingerprint (faults and view aside)
    };

    explicit SimulationRunner(DesignDocument *doc, QObject *parent = nullptr);
    /// Cancels a running job and waits for the worker to return.
    ~SimulationRunner() override;

    /// Designs with at most this many accelerators re-simulate after each edit.
    [[nodiscard]] static int autoLimit() { return 1024; }
    [[nodiscard]] bool autoSimulate() const { return m_auto; }
    [[nodiscard]] bool isRunning() const { return m_watcher.isRunning(); }
    /// True while the running job simulates (not just checks).
    [[nodiscard]] bool isSimulating() const { return isRunning() && m_jobSimulates; }
    /// The last completed simulation (null before the first); see isStale().
    [[nodiscard]] std::shared_ptr<const SimResult> result() const { return m_result; }
    /// What-if faults applied to the shown result (0: the healthy design).
    [[nodiscard]] int resultFaults() const { return m_resultFaults; }
    /// With faults: the healthy design's step time, s (nullopt when it could not simulate).
    [[nodiscard]] std::optional<double> healthyStepTime() const { return m_healthyStepTime; }
    /// True when the design changed after the shown result was computed.
    [[nodiscard]] bool isStale() const { return m_stale; }
    /// Findings of the design as last checked: validation, preflight, then the result's own
    /// warnings when the result is current.
    [[nodiscard]] const std::vector<Finding> &findings() const { return m_findings; }
    /// Debounce between an edit and the re-check, milliseconds.
    void setDebounce(int ms) { m_debounce.setInterval(ms); }

public slots:
    /// Simulates the current design now (cancelling a running job).
    void simulate();
    /// Cancels the running job; the previous result stays (marked stale).
    void cancel();
    void setAutoSimulate(bool on);

signals:
    void started(bool simulating);
    /// Fraction 0..1 of the running simulation.
    void progress(double fraction);
    /// A job ended (completed, cancelled or superseded).
    void finished();
    void resultChanged();
    void findingsChanged();
    void staleChanged(bool stale);

private:
    void designEdited();
    void startJob(bool simulate);
    void jobFinished();
    void setStale(bool stale);

    DesignDocument *m_doc;
    QTimer m_debounce;
    QFutureWatcher<Outcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_jobSimulates = false;
    bool m_pending = false; ///< a job is wanted once the running one has stopped
    bool m_pendingSimulates = false;
    quint64 m_revision = 0; ///< counts edits of the design
    quint64 m_jobRevision = 0; ///< the revision the running job works on
    bool m_auto = true;
    bool m_stale = false;
    std::shared_ptr<const SimResult> m_result;
    std::vector<Finding> m_findings;
    int m_resultFaults = 0;
    std::optional<double> m_healthyStepTime;
    std::size_t m_healthyKey = 0; ///< fingerprint of the design m_healthyStepTime belongs to
};

} // namespace weft
