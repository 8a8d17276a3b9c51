#pragma once
// Comparison: the designs (or placements of one design) a window compares with its current
// result, side by side in the Results dock's charts and the Compare dock's table (product.md,
// Compare). An entry is a simulated snapshot: pinned from the current result ("Add Result to
// Comparison"), or loaded from a design file and simulated on a worker thread. Snapshots do not
// follow later edits; that is what makes "before and after" comparisons possible.

// clang-format off
#include <QFutureWatcher> // Qt first: moc cannot parse <concept> on its own
#include <QObject>
// clang-format on

#include "gui/charts/chartreport.h"
#include "sim/result.h"

#include <memory>

namespace weft {

class DesignDocument;
struct Design;

/// One compared design: its label, where it came from, its result and its report charts.
struct ComparedDesign
{
    QString label; ///< shown in charts and the table; unique within a Comparison
    QString source; ///< "pinned from <design>" or the file path
    QString parallelism; ///< e.g. "TP 8 · PP 8 · DP 4 · 256 GPUs"
    std::shared_ptr<const SimResult> result; ///< ok
    ReportChartData charts; ///< without the collective chart
};

/// The parallelism of `design`'s workload in a few words ("TP 8 · PP 8 · DP 4 · 256 GPUs"); the
/// accelerator count alone without a workload.
QString parallelismSummary(const Design &design);

/// How charts and tables name the window's own design while comparing: "<file base name>
/// (current)".
QString currentDesignLabel(const DesignDocument &doc);

/// Builds an entry from a successful result of `design` (the label is made unique on add()).
ComparedDesign comparedDesign(const QString &label, const QString &source, const Design &design,
                              std::shared_ptr<const SimResult> result);

class Comparison : public QObject
{
    Q_OBJECT
public:
    explicit Comparison(QObject *parent = nullptr);
    /// Waits for a file being simulated (it is cancelled first).
    ~Comparison() override;

    [[nodiscard]] const std::vector<ComparedDesign> &entries() const { return m_entries; }
    [[nodiscard]] bool isEmpty() const { return m_entries.empty(); }
    [[nodiscard]] bool isBusy() const { return m_watcher.isRunning(); }

    /// Adds `entry`; a label already in use gets " (2)", " (3)", ... Returns its index.
    int add(ComparedDesign entry);
    void remove(int index);
    /// Renames entry `index`; an empty or taken label is refused (returns false).
    bool rename(int index, const QString &label);
    void clear();

    /// Loads `path` and simulates it on a worker thread; the entry is added when done. A file
    /// that cannot be read, has no workload or cannot be simulated emits failed() with the
    /// reason and adds nothing. Returns false while another file is being simulated.
    bool addFile(const QString &path);
    /// Stops simulating the file given to addFile().
    void cancelFile();

signals:
    void changed();
    /// addFile() started (true) or ended (false).
    void busyChanged(bool busy);
    /// addFile() failed: a title and a message naming the file and the problem.
    void failed(const QString &title, const QString &message);

private:
    struct FileOutcome
    {
        std::optional<ComparedDesign> entry;
        QString error;
    };
    [[nodiscard]] QString uniqueLabel(const QString &label, int except = -1) const;

    std::vector<ComparedDesign> m_entries;
    QFutureWatcher<FileOutcome> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
};

} // namespace weft
