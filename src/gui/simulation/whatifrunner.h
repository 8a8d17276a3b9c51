#pragma once
// WhatIfRunner: runs what-if trials (whatif/trials.h: the step time under K random cable
// failures, T times, on J threads) on a worker without blocking the UI thread, reports progress
// per finished trial and can be cancelled (the trials running then finish, no other starts);
// one run at a time.

// clang-format off
#include <QFutureWatcher> // Qt first: moc cannot parse <concept> on its own
#include <QObject>
// clang-format on

#include "whatif/trials.h"

#include <atomic>
#include <memory>

namespace weft {

class WhatIfRunner : public QObject
{
    Q_OBJECT
public:
    explicit WhatIfRunner(QObject *parent = nullptr);
    /// Cancels a running run and waits for its worker threads to return.
    ~WhatIfRunner() override;

    [[nodiscard]] bool isRunning() const { return m_watcher.isRunning(); }
    /// The last finished run (cancelled: the trials that finished).
    [[nodiscard]] const WhatIfResult &result() const { return m_result; }

    /// Starts `options` (its progress callback is replaced) on a copy of `design`. Returns
    /// false (and starts nothing) while another run is going.
    bool start(const Design &design, WhatIfOptions options);

public slots:
    void cancel();

signals:
    /// A trial finished: `done` of `total`.
    void progress(int done, int total);
    /// The run ended (also after cancel()); result() holds it.
    void finished();

private:
    QFutureWatcher<WhatIfResult> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    WhatIfResult m_result;
};

} // namespace weft
