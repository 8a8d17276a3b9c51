#include "gui/canvas/tools/connecttool.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QGraphicsLineItem>
#include <QPen>

namespace weft {

ConnectTool::ConnectTool(TopologyView *view)
    : Tool(view)
{
}
ConnectTool::~ConnectTool()
{
    cancel();
}

void ConnectTool::press(QMouseEvent *, QPointF scenePos)
{
    const CanvasHit hit = m_view->topologyScene()->hitAt(scenePos, 0);
    if (!hit.node.valid()) {
        if (hit.group.valid())
            emit m_view->message(QObject::tr("Expand the domain to connect one of its nodes."));
        return;
    }
    m_from = hit.node;
    const Node *n = m_view->document()->design().node(m_from);
    m_line = std::make_unique<QGraphicsLineItem>(QLineF(QPointF(n->x, n->y), scenePos));
    QPen pen(m_view->topologyScene()->style().selection, 2, Qt::DashLine);
    pen.setCosmetic(true);
    m_line->setPen(pen);
    m_line->setZValue(10);
    m_view->topologyScene()->addItem(m_line.get());
}

void ConnectTool::move(QMouseEvent *, QPointF scenePos)
{
    if (m_line)
        m_line->setLine(QLineF(m_line->line().p1(), scenePos));
}

void ConnectTool::release(QMouseEvent *, QPointF scenePos)
{
    if (!m_line)
        return;
    const NodeId from = m_from;
    cancel(); // remove the line first so the hit test below does not see it
    const CanvasHit hit = m_view->topologyScene()->hitAt(scenePos, 0);
    if (!hit.node.valid() || hit.node == from)
        return;
    QString error;
    if (!m_view->document()->connectNodes(from, hit.node, &error))
        emit m_view->message(error);
}

void ConnectTool::cancel()
{
    m_line.reset(); // the item removes itself from the scene
    m_from = NodeId();
}

} // namespace weft
