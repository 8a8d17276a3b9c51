#include "gui/canvas/nodeitem.h"

#include "document/designdocument.h"
#include "document/tieredlayout.h"
#include "gui/canvas/topologyscene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace weft {

NodeItem::NodeItem(const DesignDocument *doc, NodeId id)
    : m_doc(doc)
    , m_id(id)
{
    setZValue(3);
    syncFromModel();
}

void NodeItem::syncFromModel()
{
    const Node *n = m_doc->design().node(m_id);
    if (!n)
        return;
    QRectF r = n->isAccelerator() ? QRectF(0, 0, layout::kAcceleratorSize, layout::kAcceleratorSize)
                                  : QRectF(0, 0, layout::kSwitchWidth, layout::kSwitchHeight);
    r.moveCenter(QPointF(0, 0));
    if (r != m_rect) {
        prepareGeometryChange();
        m_rect = r;
    }
    setPos(n->x, n->y);
}

QRectF NodeItem::boundingRect() const
{
    // Room for the selection outline and the label under the node.
    return m_rect.adjusted(-3, -3, 3, 16);
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const Node *n = m_doc->design().node(m_id);
    const auto *sc = static_cast<const TopologyScene *>(scene());
    if (!n || !sc)
        return;
    const CanvasStyle &st = sc->style();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = m_doc->selection().nodes.count(m_id) > 0;
    const QColor rankFill = n->isAccelerator() ? sc->rankColouring().colour(m_id) : QColor();
    const QColor fill = rankFill.isValid() ? rankFill : st.nodeFill(*n);
    if (lod < 0.12) { // a few pixels: a plain rectangle is all one can see
        painter->fillRect(m_rect, selected ? st.selection : fill);
        return;
    }
    const QColor edge = rankFill.isValid() && st.dark ? fill.lighter(160) : fill.darker(140);
    painter->setPen(QPen(selected ? st.selection : edge, selected ? 2.5 : 1.0));
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect, 4, 4);
    if (lod < kLabelZoom)
        return;
    QFont f = painter->font();
    f.setPointSizeF(7);
    painter->setFont(f);
    painter->setPen(rankFill.isValid() ? RankColouring::textOn(rankFill) : QColor(Qt::white));
    const int rank = n->isAccelerator() ? sc->rankColouring().rank(m_id) : -1;
    if (rank >= 0 && lod >= kRankLabelZoom) { // the rank instead of the "GPU" tag
        QFont rf = f;
        rf.setPointSizeF(rank < 1000 ? 9 : 7.5);
        rf.setBold(true);
        painter->setFont(rf);
        painter->drawText(m_rect, Qt::AlignCenter, QString::number(rank));
        painter->setFont(f);
    } else {
        const char *tag = n->isAccelerator() ? "GPU"
            : n->role == SwitchRole::ScaleUp ? "NVS"
            : n->role == SwitchRole::Leaf    ? "LEAF"
            : n->role == SwitchRole::Spine   ? "SPINE"
                                             : "CORE";
        painter->drawText(m_rect, Qt::AlignCenter, QString::fromLatin1(tag));
    }
    painter->setPen(st.text);
    const QRectF label(m_rect.left() - 20, m_rect.bottom() + 1, m_rect.width() + 40, 14);
    painter->drawText(label, Qt::AlignHCenter | Qt::AlignTop,
                      painter->fontMetrics().elidedText(QString::fromStdString(n->name),
                                                        Qt::ElideMiddle, int(label.width())));
}

} // namespace weft
