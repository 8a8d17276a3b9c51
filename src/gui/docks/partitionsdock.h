#pragma once
// PartitionsDock (product.md, Main window: Partitions): the design's training workload. Without
// one, a button adds a suggested workload; with one, the derived figures, every model and
// training field (WorkloadForm), auto-map with a choice of order, the list of parallel groups
// (ParallelGroupTree, drag a group onto the canvas to place it) and the accelerator colouring.

#include "gui/canvas/rankcolouring.h"
#include "workload/workload.h"

#include <QDockWidget>
#include <QPointer>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace weft {

class DesignDocument;
class ParallelGroupTree;
class WorkloadForm;
class WorkloadSummary;

/// A workload that fits `d`: Llama 3 70B (8B below 64 accelerators), TP the domain size (at
/// most 8), PP doubled until a GPU's memory fits, DP filling the rest, 4 x PP micro-batches.
Workload suggestedWorkload(const Design &d);

class PartitionsDock : public QDockWidget
{
    Q_OBJECT
public:
    explicit PartitionsDock(QWidget *parent = nullptr);
    void setDocument(DesignDocument *doc);

    [[nodiscard]] WorkloadForm *form() const { return m_form; }
    [[nodiscard]] WorkloadSummary *summary() const { return m_summary; }
    [[nodiscard]] ParallelGroupTree *groupTree() const { return m_tree; }
    [[nodiscard]] QPushButton *addButton() const { return m_add; }
    [[nodiscard]] QPushButton *autoMapButton() const { return m_autoMap; }
    [[nodiscard]] QComboBox *orderCombo() const { return m_order; }
    [[nodiscard]] QComboBox *colourCombo() const { return m_colour; }
    [[nodiscard]] QTabWidget *tabs() const { return m_tabs; }
    [[nodiscard]] RankColouring::Mode colourMode() const;

signals:
    /// The user chose how to colour accelerators (the canvas follows).
    void colourModeChanged(weft::RankColouring::Mode mode);

private:
    void refresh();
    QWidget *buildEmptyPage();
    QWidget *buildPlacementTab();

    QPointer<DesignDocument> m_doc;
    QStackedWidget *m_stack;
    QPushButton *m_add = nullptr;
    QLabel *m_emptyHint = nullptr;
    QTabWidget *m_tabs = nullptr;
    WorkloadForm *m_form = nullptr;
    WorkloadSummary *m_summary = nullptr;
    ParallelGroupTree *m_tree = nullptr;
    QComboBox *m_order = nullptr;
    QPushButton *m_autoMap = nullptr;
    QLabel *m_placementState = nullptr;
    QComboBox *m_colour = nullptr;
    std::vector<QMetaObject::Connection> m_connections;
};

} // namespace weft
