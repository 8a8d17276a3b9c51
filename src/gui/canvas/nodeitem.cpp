#include "gui/canvas/nodeitem.h"

#include "document/designdocument.h"
#include "document/faultedit.h"
#include "document/tieredlayout.h"
#include "gui/canvas/topologyscene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

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
    // NVSwitch chips sit on the members' grid of their domain (40 units apart in generated
    // designs): narrower than fabric switches so that neighbours do not overlap.
    QRectF r = n->isAccelerator() ? QRectF(0, 0, layout::kAcceleratorSize, layout::kAcceleratorSize)
        : n->role == SwitchRole::ScaleUp
        ? QRectF(0, 0, layout::kScaleUpSwitchWidth, layout::kSwitchHeight)
        : QRectF(0, 0, layout::kSwitchWidth, layout::kSwitchHeight);
    r.moveCenter(QPointF(0, 0));
    if (r != m_rect) {
        prepareGeometryChange();
        m_rect = r;
    }
    setPos(n->x, n->y);
    // The label under the node is short (its domain's prefix dropped, elided to the cell): the
    // tooltip names it in full with its hardware.
    const Design &d = m_doc->design();
    const std::string *spec = nullptr;
    if (const AcceleratorSpec *a = n->isAccelerator() ? d.acceleratorSpec(*n) : nullptr)
        spec = &a->name;
    else if (const SwitchSpec *s = n->isSwitch() ? d.switchSpec(*n) : nullptr)
        spec = &s->name;
    QString tip = QString::fromStdString(n->name);
    if (spec)
        tip += u'\n' + QString::fromStdString(*spec);
    if (n->isSwitch())
        tip += u'\n' + QObject::tr("%1 switch").arg(QString::fromLatin1(toString(n->role)));
    if (const Group *g = n->group.valid() ? d.group(n->group) : nullptr)
        tip += u'\n' + QObject::tr("in %1").arg(QString::fromStdString(g->name));
    setToolTip(tip);
}

QRectF NodeItem::boundingRect() const
{
    // Room for the selection outline and the label under the node.
    return m_rect.adjusted(-4, -4, 4, 16); // the fault ring reaches 3.25 out
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
    const Fault *fault
        = m_doc->design().scenario.empty() ? nullptr : faultOn(m_doc->design(), m_id);
    const QColor faultColour = !fault            ? QColor()
        : fault->kind == Fault::Kind::SwitchDown ? st.faultDown
                                                 : st.faultDegraded;
    if (lod < 0.12) { // a few pixels: a plain rectangle is all one can see
        painter->fillRect(m_rect, selected ? st.selection : fault ? faultColour : fill);
        return;
    }
    const QColor edge = rankFill.isValid() && st.dark ? fill.lighter(160) : fill.darker(140);
    painter->setPen(QPen(selected ? st.selection : edge, selected ? 2.5 : 1.0));
    painter->setBrush(fill);
    painter->drawRoundedRect(m_rect, 4, 4);
    if (fault) { // what-if: a switch down is crossed out, a slow accelerator ringed in amber
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(faultColour, 2.5, Qt::DashLine));
        painter->drawRoundedRect(m_rect.adjusted(-2, -2, 2, 2), 5, 5);
        if (fault->kind == Fault::Kind::SwitchDown) {
            painter->setPen(QPen(faultColour, 2.5));
            painter->drawLine(m_rect.topLeft(), m_rect.bottomRight());
            painter->drawLine(m_rect.bottomLeft(), m_rect.topRight());
        }
    }
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
        const RankColouring &rc = sc->rankColouring();
        if (rc.needsLabels()) { // sequential colours: neighbours look alike, so say the group
            const QRectF top(m_rect.x(), m_rect.y() + 2, m_rect.width(), m_rect.height() / 2);
            painter->drawText(top, Qt::AlignCenter, QString::number(rank));
            painter->setFont(f);
            painter->drawText(top.translated(0, m_rect.height() / 2 - 4), Qt::AlignCenter,
                              rc.groupLabel(m_id));
        } else {
            painter->drawText(m_rect, Qt::AlignCenter, QString::number(rank));
        }
        painter->setFont(f);
    } else {
        const char *tag = n->isAccelerator() ? "GPU"
            : n->role == SwitchRole::ScaleUp ? "NVS"
            : n->role == SwitchRole::Leaf    ? "LEAF"
            : n->role == SwitchRole::Spine   ? "SPINE"
                                             : "CORE";
        const bool slow = fault && fault->kind == Fault::Kind::AcceleratorClock;
        painter->drawText(m_rect, Qt::AlignCenter,
                          slow ? QStringLiteral("%1%").arg(std::lround(fault->factor * 100))
                               : QString::fromLatin1(tag));
    }
    painter->setPen(st.text);
    const QString name = QString::fromStdString(n->name);
    // Inside a domain the frame's title names the domain: the label drops a "d0." prefix and
    // stays within the member's grid cell, so that neighbours' labels do not run together.
    const bool member = n->group.valid();
    const qsizetype dot = member ? name.indexOf(u'.') : -1;
    const double spare = member ? 4 : 40;
    const QRectF label(m_rect.left() - spare / 2, m_rect.bottom() + 1, m_rect.width() + spare, 14);
    const QString text = painter->fontMetrics().elidedText(dot > 0 ? name.mid(dot + 1) : name,
                                                           Qt::ElideMiddle, int(label.width()));
    // The links (drawn below the nodes) leave a switch downwards through its label: a plate in
    // the colour behind the node keeps the name readable over them.
    QRectF plate
        = QFontMetricsF(painter->font()).boundingRect(label, Qt::AlignHCenter | Qt::AlignTop, text);
    plate = plate.adjusted(-2, 0, 2, 0).intersected(label.adjusted(-2, 0, 2, 0));
    const Group *g = member ? m_doc->design().group(n->group) : nullptr;
    painter->fillRect(plate,
                      g && g->kind == GroupKind::ScaleUpDomain ? st.domainFill : st.background);
    painter->drawText(label, Qt::AlignHCenter | Qt::AlignTop, text);
}

} // namespace weft
