#include "gui/docks/partitionsdock.h"

#include "document/designdocument.h"
#include "gui/docks/parallelgrouptree.h"
#include "gui/docks/workloadform.h"
#include "gui/widgets/workloadsummary.h"
#include "sim/schedule.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace weft {

Workload suggestedWorkload(const Design &d)
{
    Workload w;
    const std::vector<NodeId> acc = acceleratorsInOrder(d);
    const int n = int(acc.size());
    w.model = *modelPreset(n >= 64 ? "llama3-70b" : "llama3-8b");
    // TP over the first domain's accelerators (at most 8, a divisor of the heads).
    int domain = 0;
    if (!acc.empty())
        if (const Group *g = d.group(d.node(acc.front())->group))
            for (const NodeId m : g->members)
                domain += d.node(m) && d.node(m)->isAccelerator() ? 1 : 0;
    TrainingConfig &c = w.config;
    c.tp = 1;
    while (c.tp * 2 <= std::min(8, std::max(1, domain)) && n % (c.tp * 2) == 0)
        c.tp *= 2;
    c.pp = 1;
    c.dp = std::max(1, n / c.tp);
    c.microBatch = 1;
    c.recompute = Recompute::Selective;
    c.sequenceParallel = c.tp > 1;
    c.distributedOptimizer = true;
    const AcceleratorSpec *spec = acc.empty() ? nullptr : d.acceleratorSpec(*d.node(acc.front()));
    const auto fits = [&] {
        c.globalBatch = c.dp * 4 * c.pp;
        if (!spec || hasError(validate(w.model, c, std::size_t(n))))
            return true;
        for (const MemoryBreakdown &m : stageMemories(w.model, c, *spec))
            if (m.total() > spec->hbmBytes)
                return false;
        return true;
    };
    // More stages until a GPU's memory holds its share (as long as DP stays whole).
    while (!fits() && c.dp % 2 == 0 && c.pp * 2 <= w.model.layers) {
        c.pp *= 2;
        c.dp /= 2;
    }
    fits(); // sets the batch for the final degrees
    return w;
}

PartitionsDock::PartitionsDock(QWidget *parent)
    : QDockWidget(tr("Partitions"), parent)
    , m_stack(new QStackedWidget)
{
    setObjectName(QStringLiteral("PartitionsDock"));
    m_stack->addWidget(buildEmptyPage());

    auto *page = new QWidget;
    auto *lay = new QVBoxLayout(page);
    lay->setContentsMargins(4, 4, 4, 4);
    auto *derived = new QGroupBox(tr("Derived"));
    auto *dl = new QVBoxLayout(derived);
    m_summary = new WorkloadSummary;
    dl->addWidget(m_summary);
    lay->addWidget(derived);

    m_tabs = new QTabWidget;
    m_form = new WorkloadForm;
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // fields shrink to the dock
    // The dock no narrower than the form (the scroll area would clip its fields on the right).
    scroll->setMinimumWidth(m_form->minimumSizeHint().width()
                            + scroll->verticalScrollBar()->sizeHint().width());
    m_tabs->addTab(scroll, tr("Model and training"));
    m_tabs->addTab(buildPlacementTab(), tr("Placement"));
    lay->addWidget(m_tabs, 1);
    auto *remove = new QPushButton(tr("Remove workload"));
    remove->setToolTip(tr("Remove the training workload from this design (undoable)"));
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_doc)
            m_doc->setWorkload(std::nullopt, tr("Remove workload"));
    });
    lay->addWidget(remove, 0, Qt::AlignRight);
    m_stack->addWidget(page);
    setWidget(m_stack);
}

QWidget *PartitionsDock::buildEmptyPage()
{
    auto *empty = new QWidget;
    auto *lay = new QVBoxLayout(empty);
    auto *text = new QLabel(tr("This design has no training workload. Add one to place a model's "
                               "ranks on the accelerators and see the parallel groups."));
    text->setWordWrap(true);
    lay->addWidget(text);
    m_add = new QPushButton(tr("Add workload"));
    m_add->setToolTip(tr("Adds Llama 3 70B (8B on small designs) filling the accelerators; "
                         "every field stays editable"));
    connect(m_add, &QPushButton::clicked, this, [this] {
        if (m_doc)
            m_doc->setWorkload(suggestedWorkload(m_doc->design()), tr("Add workload"));
    });
    lay->addWidget(m_add, 0, Qt::AlignLeft);
    m_emptyHint = new QLabel;
    m_emptyHint->setWordWrap(true);
    lay->addWidget(m_emptyHint);
    lay->addStretch(1);
    return empty;
}

QWidget *PartitionsDock::buildPlacementTab()
{
    auto *tab = new QWidget;
    auto *lay = new QVBoxLayout(tab);
    auto *row = new QHBoxLayout;
    m_order = new QComboBox;
    m_order->setObjectName(QStringLiteral("order"));
    m_order->setToolTip(tr("Order of the parallel dimensions, fastest first: ranks of the first "
                           "one sit next to each other, domain by domain"));
    for (const std::string &o : placementOrders())
        m_order->addItem(o == placementOrders().front()
                             ? tr("%1 (Megatron)").arg(QString::fromStdString(o))
                             : QString::fromStdString(o),
                         QString::fromStdString(o));
    m_autoMap = new QPushButton(tr("Auto-map"));
    m_autoMap->setToolTip(tr("Place all ranks in the chosen order, domain by domain (drops any "
                             "placement made by hand)"));
    connect(m_autoMap, &QPushButton::clicked, this, [this] {
        if (m_doc)
            m_doc->autoMap(m_order->currentData().toString().toStdString());
    });
    row->addWidget(new QLabel(tr("Order")));
    row->addWidget(m_order, 1);
    row->addWidget(m_autoMap);
    lay->addLayout(row);
    m_placementState = new QLabel;
    m_placementState->setWordWrap(true);
    lay->addWidget(m_placementState);

    auto *colourRow = new QHBoxLayout;
    m_colour = new QComboBox;
    m_colour->setObjectName(QStringLiteral("colourMode"));
    m_colour->addItem(tr("Nothing"), int(RankColouring::Mode::None));
    m_colour->addItem(tr("Pipeline stage"), int(RankColouring::Mode::Stage));
    m_colour->addItem(tr("DP replica"), int(RankColouring::Mode::DpReplica));
    m_colour->addItem(tr("TP group"), int(RankColouring::Mode::TpGroup));
    m_colour->setCurrentIndex(1);
    connect(m_colour, &QComboBox::currentIndexChanged, this,
            [this] { emit colourModeChanged(colourMode()); });
    colourRow->addWidget(new QLabel(tr("Colour accelerators by")));
    colourRow->addWidget(m_colour, 1);
    lay->addLayout(colourRow);

    m_tree = new ParallelGroupTree;
    lay->addWidget(m_tree, 1);
    return tab;
}

RankColouring::Mode PartitionsDock::colourMode() const
{
    return RankColouring::Mode(m_colour->currentData().toInt());
}

void PartitionsDock::setDocument(DesignDocument *doc)
{
    for (const auto &c : m_connections)
        disconnect(c);
    m_connections.clear();
    m_doc = doc;
    m_form->setDocument(doc);
    m_tree->setDocument(doc);
    if (doc) {
        m_connections.push_back(
            connect(doc, &DesignDocument::workloadChanged, this, &PartitionsDock::refresh));
        for (auto sig : {&DesignDocument::added, &DesignDocument::removed})
            m_connections.push_back(connect(doc, sig, this, &PartitionsDock::refresh));
    }
    refresh();
}

void PartitionsDock::refresh()
{
    if (!m_doc || !m_doc->design().workload) {
        m_stack->setCurrentIndex(0);
        const bool any = m_doc && m_doc->design().acceleratorCount() > 0;
        m_add->setEnabled(any);
        m_emptyHint->setText(any ? QString()
                                 : tr("Add accelerators or a scale-up domain first (palette, or "
                                      "File › New cluster…)."));
        m_tree->rebuild();
        return;
    }
    m_stack->setCurrentIndex(1);
    const Design &d = m_doc->design();
    const Workload &w = *d.workload;
    m_form->refresh();
    m_summary->refresh(d);
    m_tree->rebuild();
    const int i = m_order->findData(QString::fromStdString(w.placement.order));
    if (i >= 0)
        m_order->setCurrentIndex(i);
    std::vector<Finding> findings;
    const bool placed = RankMap(d, w.config, w.placement, findings).valid();
    m_placementState->setText(
        !placed ? tr("Not placed: %1")
                      .arg(findings.empty() ? tr("fix the parallel degrees first.")
                                            : QString::fromStdString(findings.front().message))
            : w.placement.explicitMap.empty()
            ? tr("Ranks follow the order %1, domain by domain.")
                  .arg(QString::fromStdString(w.placement.order))
            : tr("Placed by hand (an explicit map of %n rank(s)). Drag a group onto a domain, or "
                 "one accelerator onto another to swap their ranks.",
                 nullptr, int(w.placement.explicitMap.size())));
    m_autoMap->setEnabled(w.config.worldSize() > 0);
}

} // namespace weft
