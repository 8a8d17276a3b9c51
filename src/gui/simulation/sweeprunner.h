#pragma once
// SweepRunner: runs one parameter sweep (core/sweep: variants of a design simulated on several
// threads) on a worker without blocking the UI thread, reports progress per finished variant
// and can be cancelled; one sweep at a time.

// clang-format off
#include <QFutureWatcher> // Qt first: moc cannot parse <concept> on its own
#include <QObject>
// clang-format on

#include "sweep/sweep.h"

#include <atomic>
#include <memory>

namespace weft {

class SweepRunner : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(QObject *parent = nullptr);
    /// Cancels a running sweep and waits for its worker threads to return.
    ~SweepRunner() override;

    [[nodiscard]] bool isRunning() const { return m_watcher.isRunning(); }
    /// The last finished sweep (rows of cancelled variants say "cancelled").
    [[nodiscard]] const SweepTable &table() const { return m_table; }

    /// Starts sweeping `p` over `values` on a copy of `design` with `jobs` threads. Returns
    /// false (and starts nothing) while another sweep runs, or when `values` is empty.
    bool start(const Design &design, const Catalog &catalog, SweepParam p,
               const std::vector<double> &values, int jobs);

public slots:
    /// Stops the running sweep: running simulations stop, no further variant starts.
    void cancel();

signals:
    /// A variant finished: `done` of `total`.
    void progress(int done, int total);
    /// The sweep ended (also after cancel()); table() holds its rows.
    void finished();

private:
    QFutureWatcher<SweepTable> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    SweepTable m_table;
};

} // namespace weft
