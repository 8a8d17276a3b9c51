#include "gui/canvas/linkcrossings.h"

#include "gui/canvas/linklayer.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace weft {

LinkCrossings::LinkCrossings(const LinkLayer *layer)
    : m_layer(layer)
{
    setZValue(2.5); // over collapsed boxes (2), under nodes (3)
    setFlag(ItemUsesExtendedStyleOption); // exposedRect for culling
    setAcceptedMouseButtons(Qt::NoButton);
}

void LinkCrossings::setExtent(const QRectF &rect)
{
    prepareGeometryChange();
    m_extent = rect;
}

void LinkCrossings::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    if (!scene() || !m_layer->isVisible())
        return;
    const std::vector<LinkLayer::Crossing> &crossings = m_layer->crossings();
    if (crossings.empty())
        return;
    const std::vector<LinkLayer::Bundle> &bundles = m_layer->bundles();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    for (const LinkLayer::Crossing &c : crossings) {
        if (!QRectF(c.segment.p1(), c.segment.p2())
                 .normalized()
                 .adjusted(-4, -4, 4, 4)
                 .intersects(option->exposedRect))
            continue;
        painter->setPen(m_layer->penOf(bundles[c.bundle]));
        painter->drawLine(c.segment);
    }
    painter->restore();
}

} // namespace weft
