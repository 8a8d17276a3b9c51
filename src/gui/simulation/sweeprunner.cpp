#include "gui/simulation/sweeprunner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace weft {

SweepRunner::SweepRunner(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<SweepTable>::finished, this, [this] {
        m_table = m_watcher.result();
        emit finished();
    });
}

SweepRunner::~SweepRunner()
{
    cancel();
    m_watcher.waitForFinished();
}

bool SweepRunner::start(const Design &design, const Catalog &catalog, SweepParam p,
                        const std::vector<double> &values, int jobs)
{
    if (isRunning() || values.empty())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    SweepRunOptions options;
    options.jobs = std::max(1, jobs);
    options.cancel = m_cancel.get();
    // Worker thread: queue to the UI thread. The destructor waits for the worker, so `this`
    // outlives every call; events still queued when it is deleted are discarded by Qt.
    options.progress = [this](int done, int total) {
        QMetaObject::invokeMethod(
            this, [this, done, total] { emit progress(done, total); }, Qt::QueuedConnection);
    };
    // The worker owns copies: the document may change (or close) while the sweep runs.
    m_watcher.setFuture(QtConcurrent::run([design, catalog, p, values, options, cancel = m_cancel] {
        return runSweep(design, catalog, p, values, options);
    }));
    return true;
}

void SweepRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace weft
