#include "gui/canvas/tools/selecttool.h"

#include "document/designdocument.h"
#include "document/tieredlayout.h"
#include "gui/canvas/nodeitem.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QApplication>
#include <QMouseEvent>
#include <QRubberBand>
#include <cmath>

namespace weft {

SelectTool::SelectTool(TopologyView *view)
    : Tool(view)
{
}
SelectTool::~SelectTool() = default;

namespace {

template<class Id> void toggle(std::set<Id> &set, Id id)
{
    if (!set.erase(id))
        set.insert(id);
}

} // namespace

void SelectTool::press(QMouseEvent *event, QPointF scenePos)
{
    DesignDocument *doc = m_view->document();
    const CanvasHit hit = m_view->topologyScene()->hitAt(scenePos, 5 / m_view->zoom());
    m_additive = event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier);
    m_pressViewPos = event->position().toPoint();
    m_pressScenePos = scenePos;
    IdSet sel = doc->selection();

    if (hit.node.valid() || hit.group.valid()) {
        const bool isSelected
            = hit.node.valid() ? sel.nodes.count(hit.node) > 0 : sel.groups.count(hit.group) > 0;
        if (m_additive) {
            if (hit.node.valid())
                toggle(sel.nodes, hit.node);
            else
                toggle(sel.groups, hit.group);
        } else if (!isSelected) {
            sel = {};
            if (hit.node.valid())
                sel.nodes.insert(hit.node);
            else
                sel.groups.insert(hit.group);
        }
        doc->setSelection(sel);
        // Anchor for snapping: the pressed node, or the first member of the pressed domain.
        NodeId anchor = hit.node;
        if (!anchor.valid())
            if (const Group *g = doc->design().group(hit.group); g && !g->members.empty())
                anchor = g->members.front();
        const Node *n = doc->design().node(anchor);
        m_anchorStart = n ? QPointF(n->x, n->y) : scenePos;
        m_moving = doc->selectedNodesForMove();
        m_applied = {};
        m_mode = Mode::Pressed;
        return;
    }
    if (!hit.links.empty()) {
        if (!m_additive)
            sel = {};
        for (const LinkId id : hit.links)
            toggle(sel.links, id);
        doc->setSelection(sel);
        m_mode = Mode::Idle;
        return;
    }
    if (!m_additive)
        doc->setSelection({});
    m_band = std::make_unique<QRubberBand>(QRubberBand::Rectangle, m_view->viewport());
    m_band->setGeometry(QRect(m_pressViewPos, QSize()));
    m_band->show();
    m_mode = Mode::RubberBand;
}

void SelectTool::move(QMouseEvent *event, QPointF scenePos)
{
    if (m_mode == Mode::RubberBand) {
        m_band->setGeometry(QRect(m_pressViewPos, event->position().toPoint()).normalized());
        return;
    }
    if (m_mode == Mode::Pressed
        && (event->position().toPoint() - m_pressViewPos).manhattanLength()
            >= QApplication::startDragDistance()) {
        m_mode = Mode::Moving;
        m_gesture = m_view->document()->nextGesture();
    }
    if (m_mode != Mode::Moving)
        return;
    QPointF total = scenePos - m_pressScenePos;
    if (!(event->modifiers() & Qt::AltModifier)) { // snap the anchor node to the grid
        const QPointF target = m_anchorStart + total;
        const QPointF snapped(std::round(target.x() / layout::kGrid) * layout::kGrid,
                              std::round(target.y() / layout::kGrid) * layout::kGrid);
        total = snapped - m_anchorStart;
    }
    const QPointF step = total - m_applied;
    if (step.isNull())
        return;
    m_view->document()->moveNodes(m_moving, step, m_gesture);
    m_applied = total;
}

NodeId SelectTool::acceleratorUnder(QPointF scenePos, NodeId dragged) const
{
    const Design &d = m_view->document()->design();
    for (QGraphicsItem *item : m_view->topologyScene()->items(scenePos))
        if (item->type() == NodeItem::Type) {
            const NodeId id = static_cast<NodeItem *>(item)->nodeId();
            if (const Node *n = d.node(id); id != dragged && n && n->isAccelerator())
                return id;
        }
    return {};
}

bool SelectTool::finishAsSwap(QPointF scenePos)
{
    DesignDocument *doc = m_view->document();
    if (m_mode != Mode::Moving || m_moving.size() != 1
        || !m_view->topologyScene()->rankColouring().placed())
        return false;
    const NodeId dragged = m_moving.front();
    const Node *n = doc->design().node(dragged);
    const NodeId target = n && n->isAccelerator() ? acceleratorUnder(scenePos, dragged) : NodeId();
    if (!target.valid())
        return false;
    // Take the move back inside the same gesture (the merged step becomes obsolete and goes),
    // then swap: the whole drag is one undo step.
    if (!m_applied.isNull())
        doc->moveNodes(m_moving, -m_applied, m_gesture);
    QString error;
    if (!doc->swapRanks(dragged, target, &error))
        emit m_view->message(error);
    return true;
}

void SelectTool::release(QMouseEvent *event, QPointF scenePos)
{
    if (finishAsSwap(scenePos)) {
        cancel();
        return;
    }
    if (m_mode == Mode::RubberBand) {
        const QRect r = QRect(m_pressViewPos, event->position().toPoint()).normalized();
        const QRectF sceneRect = m_view->mapToScene(r).boundingRect();
        IdSet found = m_view->topologyScene()->idsInRect(sceneRect);
        IdSet sel = m_additive ? m_view->document()->selection() : IdSet {};
        sel.nodes.insert(found.nodes.begin(), found.nodes.end());
        sel.groups.insert(found.groups.begin(), found.groups.end());
        m_view->document()->setSelection(sel);
    }
    cancel();
}

void SelectTool::cancel()
{
    m_band.reset();
    m_mode = Mode::Idle;
    m_moving.clear();
}

} // namespace weft
