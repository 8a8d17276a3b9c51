#include "gui/simulation/simulationrunner.h"

#include "document/designdocument.h"
#include "io/designfile.h"
#include "model/validate.h"
#include "sim/memoryheadroom.h"
#include "sim/simulator.h"
#include "whatif/scenario.h"

#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace weft {

namespace {

// A fingerprint of `design` without its faults and view state: equal fingerprints simulate alike.
std::size_t healthyKey(Design design)
{
    design.scenario = {};
    design.view = {};
    return std::hash<std::string> {}(serializeDesign(design));
}

struct HealthyCache
{
    std::size_t key = 0;
    std::optional<double> stepTime;
};

// Runs on the worker: checks `design` and, when asked and nothing forbids it, simulates it (with
// its what-if faults applied, and then healthy unless `cache` already knows its step time).
SimulationRunner::Outcome runJob(const Design &design, bool simulate,
                                 const std::shared_ptr<std::atomic<bool>> &cancel,
                                 const std::function<void(double)> &report, HealthyCache cache)
{
    SimulationRunner::Outcome out;
    out.findings = validateDesign(design);
    const Design *target = &design;
    std::optional<FailedDesign> failed;
    if (!design.scenario.empty()) {
        std::string error;
        failed = applyScenario(design, design.scenario, error);
        if (!failed) {
            out.findings.emplace_back(Severity::Error, "whatif.target", "What if: " + error);
            return out;
        }
        target = &failed->design;
        out.faults = static_cast<int>(design.scenario.faults.size());
    }
    const std::vector<Finding> pre = preflight(*target);
    out.findings.insert(out.findings.end(), pre.begin(), pre.end());
    // A workload over HBM is still simulated, as `weft-cli simulate` does: the Memory chart
    // shows which stage is over and by how much, the one view that helps fix it (the charts
    // said "Not simulated yet" and F5 did nothing). Any other error stops the run.
    const bool blocked
        = std::any_of(out.findings.begin(), out.findings.end(), [](const Finding &f) {
              return f.severity == Severity::Error && f.code != "memory-over-capacity";
          });
    if (!simulate || !design.workload || blocked || cancel->load()) {
        out.cancelled = cancel->load();
        return out;
    }
    const double share = failed ? 0.5 : 1.0; // with faults: the healthy run is the other half
    SimOptions options;
    options.cancel = cancel.get();
    options.progress = [&report, share](double f) {
        report(f * share);
        return true;
    };
    if (failed)
        options.exploitSymmetry = failed->exploitSymmetry;
    SimResult simulated = weft::simulate(*target, options);
    for (Finding &f : memoryHeadroomFindings(simulated)) // sim/memoryheadroom.h
        simulated.warnings.push_back(std::move(f));
    auto result = std::make_shared<SimResult>(std::move(simulated));
    out.cancelled = result->cancelled;
    if (failed && result->ok && !out.cancelled) {
        out.healthyKey = healthyKey(design);
        if (out.healthyKey == cache.key && cache.stepTime) {
            out.healthyStepTime = cache.stepTime;
        } else {
            SimOptions healthy;
            healthy.cancel = cancel.get();
            healthy.progress = [&report](double f) {
                report(0.5 + f / 2);
                return true;
            };
            const SimResult h = weft::simulate(design, healthy);
            out.cancelled = h.cancelled;
            if (h.ok)
                out.healthyStepTime = h.stepTime;
        }
    }
    if (!failed && result->ok && !out.cancelled) { // the baseline a later what-if reuses
        out.healthyKey = healthyKey(design);
        out.healthyStepTime = result->stepTime;
    }
    if (!out.cancelled)
        out.result = std::move(result);
    return out;
}

} // namespace

SimulationRunner::SimulationRunner(DesignDocument *doc, QObject *parent)
    : QObject(parent)
    , m_doc(doc)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        startJob(m_auto && m_doc->design().acceleratorCount() <= std::size_t(autoLimit()));
    });
    // Every change to a design goes through the undo stack (edits, undo, redo); a load resets.
    connect(doc->undoStack(), &QUndoStack::indexChanged, this, &SimulationRunner::designEdited);
    connect(doc, &DesignDocument::reset, this, [this] { // another design: the result is void
        m_result.reset();
        m_resultFaults = 0;
        m_healthyStepTime.reset();
        m_healthyKey = 0;
        m_findings.clear();
        setStale(false);
        emit resultChanged();
        emit findingsChanged();
        designEdited();
    });
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &SimulationRunner::jobFinished);
    designEdited();
}

SimulationRunner::~SimulationRunner()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void SimulationRunner::designEdited()
{
    ++m_revision; // a running job now works on an old design: stop it, drop what it returns
    if (m_cancel)
        m_cancel->store(true);
    setStale(m_result != nullptr);
    m_debounce.start();
}

void SimulationRunner::simulate()
{
    m_debounce.stop();
    startJob(true);
}

void SimulationRunner::cancel()
{
    m_debounce.stop();
    m_pending = false;
    if (m_cancel)
        m_cancel->store(true);
}

void SimulationRunner::setAutoSimulate(bool on)
{
    if (m_auto == on)
        return;
    m_auto = on;
    if (on && m_stale)
        m_debounce.start();
}

void SimulationRunner::startJob(bool simulate)
{
    if (isRunning()) {
        if (m_jobRevision == m_revision && (m_jobSimulates || !simulate))
            return; // the running job already does what is asked
        // Supersede: cancel, and start again once the worker has returned.
        m_pending = true;
        m_pendingSimulates = m_pendingSimulates || simulate;
        m_cancel->store(true);
        return;
    }
    m_pending = false;
    m_pendingSimulates = false;
    m_jobSimulates = simulate && m_doc->design().workload.has_value();
    m_jobRevision = m_revision;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Progress is posted to this object's thread at most once per percent.
    auto lastPercent = std::make_shared<std::atomic<int>>(-1);
    auto report = [this, lastPercent](double f) {
        const int pc = static_cast<int>(f * 100);
        if (lastPercent->exchange(pc) != pc)
            QMetaObject::invokeMethod(
                this, [this, f] { emit progress(f); }, Qt::QueuedConnection);
    };
    m_watcher.setFuture(QtConcurrent::run(runJob, m_doc->design(), m_jobSimulates, m_cancel,
                                          std::function<void(double)>(report),
                                          HealthyCache {m_healthyKey, m_healthyStepTime}));
    emit started(m_jobSimulates);
}

void SimulationRunner::jobFinished()
{
    const Outcome out = m_watcher.result();
    const bool superseded = m_pending || m_jobRevision != m_revision;
    if (!superseded) { // a cancelled simulation still checked the design
        m_findings = out.findings;
        if (out.result) {
            m_result = out.result;
            m_resultFaults = out.faults;
            if (out.healthyKey != 0) {
                m_healthyStepTime = out.healthyStepTime;
                m_healthyKey = out.healthyKey;
            }
            // Preflight findings are the first warnings of the result: keep only the rest.
            for (const Finding &f : m_result->warnings)
                if (std::none_of(m_findings.begin(), m_findings.end(), [&](const Finding &g) {
                        return g.code == f.code && g.message == f.message;
                    }))
                    m_findings.push_back(f);
            setStale(false);
            emit resultChanged();
        }
        emit findingsChanged();
    }
    emit finished();
    if (m_pending)
        startJob(m_pendingSimulates);
}

void SimulationRunner::setStale(bool stale)
{
    if (m_stale == stale)
        return;
    m_stale = stale;
    emit staleChanged(stale);
}

} // namespace weft
