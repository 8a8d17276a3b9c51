#include "gui/docks/parallelgrouptree.h"

#include "document/designdocument.h"
#include "gui/canvas/rankgroupdrop.h"

#include <QHeaderView>
#include <set>

namespace weft {

namespace {

constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kIndexRole = Qt::UserRole + 2;
constexpr int kMaxEntries = 2048; ///< per category; more are summarised in one row

// "24–31" for a contiguous run, else the first ranks and the count.
QString ranksText(const std::vector<int> &ranks)
{
    if (ranks.empty())
        return {};
    if (ranks.back() - ranks.front() + 1 == int(ranks.size()))
        return ranks.size() == 1 ? QString::number(ranks.front())
                                 : QStringLiteral("%1–%2").arg(ranks.front()).arg(ranks.back());
    QStringList parts;
    for (std::size_t i = 0; i < ranks.size() && i < 4; ++i)
        parts << QString::number(ranks[i]);
    if (ranks.size() > 4)
        parts << QObject::tr("… (%1)").arg(ranks.size());
    return parts.join(QStringLiteral(", "));
}

// Where the accelerators are: the domain names (or accelerator names without a domain).
QString placesText(const Design &d, const std::vector<NodeId> &nodes, QString *tooltip)
{
    std::vector<std::string> domains;
    std::set<GroupId> seen;
    QStringList names;
    for (const NodeId id : nodes) {
        const Node *n = d.node(id);
        if (!n)
            continue;
        if (names.size() < 32)
            names << QString::fromStdString(n->name);
        else if (names.size() == 32)
            names << QObject::tr("…");
        const Group *g = d.group(n->group);
        const std::string place = g ? g->name : n->name;
        if (!g || seen.insert(g->id).second)
            domains.push_back(place);
    }
    *tooltip = names.join(QStringLiteral(", "));
    if (domains.size() == 1)
        return QString::fromStdString(domains.front());
    return QObject::tr("%n domains", nullptr, int(domains.size()));
}

QString categoryName(RankGroupKind kind)
{
    switch (kind) {
    case RankGroupKind::Tp:
        return QObject::tr("TP groups");
    case RankGroupKind::Stage:
        return QObject::tr("Pipeline stages");
    case RankGroupKind::DpReplica:
        return QObject::tr("DP replicas");
    case RankGroupKind::Cp:
        return QObject::tr("CP groups");
    case RankGroupKind::Ep:
        return QObject::tr("EP groups (MoE layers)");
    case RankGroupKind::ExpertDp:
        return QObject::tr("Expert-DP groups (MoE layers)");
    }
    return {};
}

QString entryName(RankGroupKind kind, int index)
{
    switch (kind) {
    case RankGroupKind::Tp:
        return QObject::tr("TP group %1").arg(index);
    case RankGroupKind::Stage:
        return QObject::tr("Stage %1").arg(index);
    case RankGroupKind::DpReplica:
        return QObject::tr("Replica %1").arg(index);
    case RankGroupKind::Cp:
        return QObject::tr("CP group %1").arg(index);
    case RankGroupKind::Ep:
        return QObject::tr("EP group %1").arg(index);
    case RankGroupKind::ExpertDp:
        return QObject::tr("Expert-DP group %1").arg(index);
    }
    return {};
}

} // namespace

ParallelGroupTree::ParallelGroupTree(QWidget *parent)
    : QTreeWidget(parent)
{
    setColumnCount(3);
    setHeaderLabels({tr("Group"), tr("Ranks"), tr("Accelerators")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setSelectionMode(ExtendedSelection);
    setDragEnabled(true);
    setDragDropMode(DragOnly);
    setUniformRowHeights(true);
    setToolTip(tr("Select a group to see its accelerators; drag it onto a scale-up domain or "
                  "onto selected accelerators to place it there."));
    connect(this, &QTreeWidget::itemSelectionChanged, this, &ParallelGroupTree::selectOnCanvas);
}

void ParallelGroupTree::setDocument(DesignDocument *doc)
{
    m_doc = doc;
    rebuild();
}

void ParallelGroupTree::rebuild()
{
    // Keep which categories were open across rebuilds (every placement edit rebuilds).
    std::set<int> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->isExpanded())
            expanded.insert(topLevelItem(i)->data(0, kKindRole).toInt());
    const bool first = topLevelItemCount() == 0;
    const QSignalBlocker block(this);
    clear();
    if (!m_doc || !m_doc->design().workload)
        return;
    const Design &d = m_doc->design();
    std::vector<Finding> findings;
    const RankMap rm(d, d.workload->config, d.workload->placement, findings);
    if (!rm.valid())
        return;
    const TrainingConfig &c = d.workload->config;
    const std::pair<RankGroupKind, int> kinds[]
        = {{RankGroupKind::Tp, c.tp},        {RankGroupKind::Stage, c.pp},
           {RankGroupKind::DpReplica, c.dp}, {RankGroupKind::Cp, c.cp},
           {RankGroupKind::Ep, c.ep},        {RankGroupKind::ExpertDp, c.expertDp()}};
    for (const auto &[kind, degree] : kinds) {
        if (degree <= 1)
            continue; // a degree of 1 has no groups worth listing
        if (kind == RankGroupKind::ExpertDp
            && ((c.ep <= 1 && c.expertTp() == c.tp) || d.workload->model.experts <= 1))
            continue; // without EP (and ETP = TP) the expert-DP groups are the DP groups
        const std::vector<RankGroup> groups = rankGroups(rm, kind);
        auto *cat = new QTreeWidgetItem(
            this,
            {categoryName(kind), tr("%n group(s)", nullptr, int(groups.size())),
             tr("%n rank(s) each", nullptr,
                groups.empty() ? 0 : int(groups.front().ranks.size()))});
        cat->setData(0, kKindRole, int(kind));
        cat->setFlags(Qt::ItemIsEnabled);
        QFont f = cat->font(0);
        f.setBold(true);
        cat->setFont(0, f);
        for (const RankGroup &g : groups) {
            if (g.index >= kMaxEntries) {
                auto *more = new QTreeWidgetItem(
                    cat, {tr("… %n more", nullptr, int(groups.size()) - kMaxEntries)});
                more->setFlags(Qt::ItemIsEnabled);
                break;
            }
            std::vector<NodeId> nodes;
            for (const int r : g.ranks)
                nodes.push_back(rm.node(r));
            QString tip;
            const QString places = placesText(d, nodes, &tip);
            auto *e
                = new QTreeWidgetItem(cat, {entryName(kind, g.index), ranksText(g.ranks), places});
            e->setToolTip(2, tip);
            e->setData(0, kKindRole, int(kind));
            e->setData(0, kIndexRole, g.index);
            e->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
        }
        const bool open = first ? kind == RankGroupKind::Stage : expanded.count(int(kind)) > 0;
        cat->setExpanded(open);
    }
}

std::optional<RankGroupRef> ParallelGroupTree::groupOf(const QTreeWidgetItem *item)
{
    if (!item || !item->data(0, kIndexRole).isValid())
        return std::nullopt;
    return RankGroupRef {RankGroupKind(item->data(0, kKindRole).toInt()),
                         item->data(0, kIndexRole).toInt()};
}

QTreeWidgetItem *ParallelGroupTree::entry(const RankGroupRef &group) const
{
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem *cat = topLevelItem(i);
        for (int j = 0; j < cat->childCount(); ++j)
            if (groupOf(cat->child(j)) == group)
                return cat->child(j);
    }
    return nullptr;
}

void ParallelGroupTree::selectOnCanvas()
{
    if (!m_doc || !m_doc->design().workload)
        return;
    const Design &d = m_doc->design();
    std::vector<Finding> findings;
    const RankMap rm(d, d.workload->config, d.workload->placement, findings);
    if (!rm.valid())
        return;
    IdSet sel;
    for (const QTreeWidgetItem *item : selectedItems())
        if (const auto g = groupOf(item)) {
            const auto groups = rankGroups(rm, g->kind);
            if (g->index < int(groups.size()))
                for (const int r : groups[std::size_t(g->index)].ranks)
                    sel.nodes.insert(rm.node(r));
        }
    if (!sel.empty())
        m_doc->setSelection(std::move(sel));
}

QMimeData *ParallelGroupTree::mimeData(const QList<QTreeWidgetItem *> &items) const
{
    if (items.isEmpty())
        return nullptr;
    const auto g = groupOf(items.front());
    return g ? rankGroupMimeData(*g).release() : nullptr; // QDrag takes ownership
}

QStringList ParallelGroupTree::mimeTypes() const
{
    return {QString::fromLatin1(kRankGroupMime)};
}

} // namespace weft
