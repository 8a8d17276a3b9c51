#include "gui/canvas/topologyscene.h"

#include "document/designdocument.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/linkcrossings.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/nodeitem.h"

#include <QApplication>
#include <algorithm>

namespace weft {

TopologyScene::TopologyScene(DesignDocument *doc, QObject *parent)
    : QGraphicsScene(parent)
    , m_doc(doc)
    , m_palette(QApplication::palette())
    , m_style(CanvasStyle::fromPalette(m_palette))
{
    // Nodes and domains stay in the BSP index (hit tests, culling); links live in LinkLayer.
    setItemIndexMethod(BspTreeIndex);
    m_ranks.setDark(m_style.dark);
    connect(doc, &DesignDocument::reset, this, &TopologyScene::rebuild);
    connect(doc, &DesignDocument::added, this, &TopologyScene::onAdded);
    connect(doc, &DesignDocument::removed, this, &TopologyScene::onRemoved);
    connect(doc, &DesignDocument::changed, this, &TopologyScene::onChanged);
    connect(doc, &DesignDocument::selectionChanged, this, &TopologyScene::onSelectionChanged);
    connect(doc, &DesignDocument::workloadChanged, this, &TopologyScene::onWorkloadChanged);
    rebuild();
}

TopologyScene::~TopologyScene() = default;

void TopologyScene::setStylePalette(const QPalette &palette)
{
    m_palette = palette;
    m_style = CanvasStyle::fromPalette(palette);
    m_ranks.setDark(m_style.dark);
    emit rankColouringChanged();
    setBackgroundBrush(m_style.background);
    if (m_links)
        m_links->refresh();
    update();
}

void TopologyScene::setSimResult(std::shared_ptr<const SimResult> result, bool stale)
{
    m_heat.setResult(std::move(result), stale);
    m_heat.highlightGroup(m_doc->selection().nodes);
    m_links->refresh();
    emit linkHeatChanged();
}

void TopologyScene::setResultStale(bool stale)
{
    if (m_heat.stale() == stale)
        return;
    m_heat.setStale(stale);
    emit linkHeatChanged();
}

void TopologyScene::rebuild()
{
    clear();
    m_nodes.clear();
    m_groups.clear();
    setBackgroundBrush(m_style.background);
    const Design &d = m_doc->design();
    m_links = new LinkLayer(m_doc, [this](NodeId id) {
        const Node *n = m_doc->design().node(id);
        if (!n)
            return LinkLayer::Endpoint {};
        if (auto it = m_groups.find(n->group); it != m_groups.end() && it->second->collapsed())
            return LinkLayer::Endpoint {(std::uint64_t(1) << 32) | n->group.value,
                                        it->second->anchor(), it->second->frame()};
        return LinkLayer::Endpoint {id.value, QPointF(n->x, n->y), {}};
    });
    addItem(m_links);
    auto *crossings = new LinkCrossings(m_links);
    addItem(crossings);
    m_links->setOverlay(crossings);
    for (const Group &g : d.groups())
        if (g.kind == GroupKind::ScaleUpDomain) {
            auto *item = new GroupItem(m_doc, g.id);
            m_groups.emplace(g.id, item);
            addItem(item);
        }
    for (const Node &n : d.nodes())
        ensureNodeItem(n.id);
    m_shownSelection = m_doc->selection();
    m_ranks.recompute(d);
    restackGroups();
    updateExtent();
}

void TopologyScene::onWorkloadChanged()
{
    m_ranks.recompute(m_doc->design());
    update(); // every accelerator and domain may change colour
    emit rankColouringChanged();
}

void TopologyScene::setRankColourMode(RankColouring::Mode mode)
{
    if (mode == m_ranks.mode())
        return;
    m_ranks.setMode(mode);
    update();
    emit rankColouringChanged();
}

bool TopologyScene::hiddenInCollapsedDomain(NodeId id) const
{
    const Node *n = m_doc->design().node(id);
    if (!n)
        return true;
    auto it = m_groups.find(n->group);
    return it != m_groups.end() && it->second->collapsed();
}

void TopologyScene::ensureNodeItem(NodeId id)
{
    if (m_nodes.count(id) || hiddenInCollapsedDomain(id))
        return;
    auto *item = new NodeItem(m_doc, id);
    m_nodes.emplace(id, item);
    addItem(item);
}

void TopologyScene::removeNodeItem(NodeId id)
{
    if (auto it = m_nodes.find(id); it != m_nodes.end()) {
        delete it->second;
        m_nodes.erase(it);
    }
}

void TopologyScene::syncGroup(GroupId gid)
{
    auto it = m_groups.find(gid);
    const Group *g = m_doc->design().group(gid);
    if (it == m_groups.end() || !g)
        return;
    it->second->syncFromModel();
    for (const NodeId m : g->members) {
        if (g->collapsed)
            removeNodeItem(m);
        else
            ensureNodeItem(m);
    }
}

void TopologyScene::onAdded(const IdSet &ids)
{
    const Design &d = m_doc->design();
    for (const GroupId gid : ids.groups)
        if (const Group *g = d.group(gid);
            g && g->kind == GroupKind::ScaleUpDomain && !m_groups.count(gid)) {
            auto *item = new GroupItem(m_doc, gid);
            m_groups.emplace(gid, item);
            addItem(item);
        }
    std::set<GroupId> touched;
    for (const NodeId id : ids.nodes) {
        ensureNodeItem(id);
        if (const Node *n = d.node(id))
            touched.insert(n->group);
    }
    for (const GroupId g : touched)
        if (auto it = m_groups.find(g); it != m_groups.end())
            it->second->syncFromModel();
    // Ranks follow the accelerators in order: an added one can shift them.
    if (!ids.nodes.empty() && m_doc->design().workload)
        onWorkloadChanged();
    restackGroups();
    m_links->invalidate();
    updateExtent();
}

void TopologyScene::onRemoved(const IdSet &ids)
{
    for (const NodeId id : ids.nodes)
        removeNodeItem(id);
    for (const GroupId id : ids.groups)
        if (auto it = m_groups.find(id); it != m_groups.end()) {
            delete it->second;
            m_groups.erase(it);
        }
    for (auto &[gid, item] : m_groups) // membership of surviving domains may have changed
        item->syncFromModel();
    if (!ids.nodes.empty() && m_doc->design().workload) // it may have held a rank
        onWorkloadChanged();
    restackGroups();
    m_links->invalidate();
}

void TopologyScene::onChanged(const IdSet &ids)
{
    const Design &d = m_doc->design();
    std::set<GroupId> touched(ids.groups.begin(), ids.groups.end());
    for (const NodeId id : ids.nodes) {
        if (auto it = m_nodes.find(id); it != m_nodes.end()) {
            it->second->syncFromModel();
            it->second->update();
        }
        if (const Node *n = d.node(id))
            touched.insert(n->group);
    }
    for (const GroupId g : touched)
        syncGroup(g);
    if (!touched.empty())
        restackGroups();
    m_links->invalidate();
    updateExtent();
}

void TopologyScene::restackGroups()
{
    // Generated racks stand in rows as far apart as their collapsed boxes: an expanded one
    // reaches over the rows below it. Usually few domains are expanded: O(groups x expanded).
    std::vector<QRectF> expanded;
    for (const auto &[id, item] : m_groups)
        if (!item->collapsed())
            expanded.push_back(item->frame());
    for (const auto &[id, item] : m_groups) {
        if (!item->collapsed())
            continue;
        const QRectF box = item->frame();
        item->setCovered(std::any_of(expanded.begin(), expanded.end(),
                                     [&box](const QRectF &f) { return f.intersects(box); }));
    }
}

void TopologyScene::onSelectionChanged()
{
    const IdSet &now = m_doc->selection();
    for (const IdSet *s : {static_cast<const IdSet *>(&m_shownSelection), &now}) {
        for (const NodeId id : s->nodes)
            if (NodeItem *item = nodeItem(id))
                item->update();
        for (const GroupId id : s->groups)
            if (GroupItem *item = groupItem(id))
                item->update();
    }
    const bool hadHighlight = m_heat.hasHighlight();
    m_heat.highlightGroup(now.nodes);
    if (!now.links.empty() || !m_shownSelection.links.empty() || hadHighlight
        || m_heat.hasHighlight())
        m_links->refresh();
    if (hadHighlight || m_heat.hasHighlight())
        emit linkHeatChanged();
    m_shownSelection = now;
}

NodeItem *TopologyScene::nodeItem(NodeId id) const
{
    auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : it->second;
}

GroupItem *TopologyScene::groupItem(GroupId id) const
{
    auto it = m_groups.find(id);
    return it == m_groups.end() ? nullptr : it->second;
}

CanvasHit TopologyScene::hitAt(QPointF scenePos, double linkTolerance) const
{
    CanvasHit hit;
    for (QGraphicsItem *item : items(scenePos)) { // topmost first
        if (item->type() == NodeItem::Type) {
            hit.node = static_cast<NodeItem *>(item)->nodeId();
            return hit;
        }
        if (item->type() == GroupItem::Type) {
            hit.group = static_cast<GroupItem *>(item)->groupId();
            break;
        }
    }
    hit.links = m_links->linksAt(scenePos, linkTolerance);
    if (!hit.links.empty() && hit.group.valid() && !groupItem(hit.group)->collapsed())
        hit.group = GroupId(); // a link inside an expanded domain wins over its frame
    else if (hit.group.valid())
        hit.links.clear();
    return hit;
}

IdSet TopologyScene::idsInRect(const QRectF &rect) const
{
    IdSet ids;
    for (QGraphicsItem *item : items(rect, Qt::ContainsItemBoundingRect)) {
        if (item->type() == NodeItem::Type)
            ids.nodes.insert(static_cast<NodeItem *>(item)->nodeId());
        else if (item->type() == GroupItem::Type)
            ids.groups.insert(static_cast<GroupItem *>(item)->groupId());
    }
    return ids;
}

QRectF TopologyScene::boundsOf(const IdSet &ids) const
{
    QRectF r;
    const Design &d = m_doc->design();
    for (const NodeId id : ids.nodes) {
        if (const NodeItem *item = nodeItem(id))
            r |= item->sceneBoundingRect();
        else if (const Node *n = d.node(id))
            r |= QRectF(n->x - 20, n->y - 20, 40, 40);
    }
    for (const GroupId id : ids.groups)
        if (const GroupItem *item = groupItem(id))
            r |= item->sceneBoundingRect();
    for (const LinkId id : ids.links)
        if (const Link *l = d.link(id))
            for (const NodeId n : {l->a, l->b})
                if (const Node *node = d.node(n))
                    r |= QRectF(node->x - 20, node->y - 20, 40, 40);
    return r;
}

void TopologyScene::updateExtent()
{
    QRectF r;
    for (const auto &[id, item] : m_groups)
        r |= item->sceneBoundingRect();
    for (const auto &[id, item] : m_nodes)
        r |= item->sceneBoundingRect();
    m_content = r;
    // A generous margin so that dragging near the edge does not resize the scene each move, and
    // at least the design's own size: a view fitted beside the legends must be able to scroll
    // the design off-centre (a scene smaller than the viewport is always centred).
    const double m = std::max({2000.0, r.width(), r.height()});
    const QRectF extent = r.adjusted(-m, -m, m, m);
    if (!sceneRect().contains(extent) || sceneRect().width() > 4 * extent.width() + 8000)
        setSceneRect(extent);
    // A rebuilt layer starts with no extent: it must get the scene's even when the scene rect
    // stays (a design of the same size replacing another), else no link is painted.
    if (m_links->boundingRect() != sceneRect())
        m_links->setExtent(sceneRect());
}

} // namespace weft
