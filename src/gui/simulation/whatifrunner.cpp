#include "gui/simulation/whatifrunner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace weft {

WhatIfRunner::WhatIfRunner(QObject *parent)
    : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcher<WhatIfResult>::finished, this, [this] {
        m_result = m_watcher.result();
        emit finished();
    });
}

WhatIfRunner::~WhatIfRunner()
{
    cancel();
    m_watcher.waitForFinished();
}

bool WhatIfRunner::start(const Design &design, WhatIfOptions options)
{
    if (isRunning())
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Worker threads: queue to the UI thread. The destructor waits for the worker, so `this`
    // outlives every call; events still queued when it is deleted are discarded by Qt.
    options.progress = [this, cancel = m_cancel](int done, int total) {
        QMetaObject::invokeMethod(
            this, [this, done, total] { emit progress(done, total); }, Qt::QueuedConnection);
        return !cancel->load();
    };
    // The worker owns a copy: the document may change (or close) while the trials run.
    m_watcher.setFuture(QtConcurrent::run(
        [design, options, cancel = m_cancel] { return runWhatIf(design, options); }));
    return true;
}

void WhatIfRunner::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace weft
