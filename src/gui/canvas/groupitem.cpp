#include "gui/canvas/groupitem.h"

#include "document/designdocument.h"
#include "document/tieredlayout.h"
#include "gui/canvas/topologyscene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <set>

namespace weft {

GroupItem::GroupItem(const DesignDocument *doc, GroupId id)
    : m_doc(doc)
    , m_id(id)
{
    syncFromModel();
}

void GroupItem::syncFromModel()
{
    const Design &d = m_doc->design();
    const Group *g = d.group(m_id);
    if (!g)
        return;
    m_collapsed = g->collapsed;
    m_accelerators = m_switches = 0;
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool first = true;
    for (const NodeId id : g->members) {
        const Node *n = d.node(id);
        if (!n)
            continue;
        ++(n->isAccelerator() ? m_accelerators : m_switches);
        const double hw
            = (n->isAccelerator() ? layout::kAcceleratorSize : layout::kSwitchWidth) / 2;
        const double hh
            = (n->isAccelerator() ? layout::kAcceleratorSize : layout::kSwitchHeight) / 2;
        if (first) {
            x0 = n->x - hw, x1 = n->x + hw, y0 = n->y - hh, y1 = n->y + hh + 14;
            first = false;
        } else {
            x0 = std::min(x0, n->x - hw), x1 = std::max(x1, n->x + hw);
            y0 = std::min(y0, n->y - hh), y1 = std::max(y1, n->y + hh + 14);
        }
    }
    const double m = layout::kDomainMargin;
    QRectF r(x0 - m, y0 - m - layout::kDomainHeader, x1 - x0 + 2 * m,
             y1 - y0 + 2 * m + layout::kDomainHeader);
    if (m_collapsed)
        r.setHeight(layout::kCollapsedHeight);
    updateStacking();
    updateToolTip();
    prepareGeometryChange();
    setPos(r.topLeft());
    m_rect = QRectF(QPointF(0, 0), r.size());
    update();
}

void GroupItem::setCovered(bool covered)
{
    if (covered == m_covered)
        return;
    m_covered = covered;
    updateStacking();
}

void GroupItem::updateStacking()
{
    // Expanded frames (0) under the links (1); collapsed boxes over the links (2), except
    // those an expanded frame covers (-1): the frame hides them.
    setZValue(!m_collapsed ? 0 : m_covered ? -1 : 2);
}

void GroupItem::updateToolTip()
{
    const Group *g = m_doc->design().group(m_id);
    if (!g)
        return;
    QString tip = QObject::tr("%1\n%2 accelerators")
                      .arg(QString::fromStdString(g->name))
                      .arg(m_accelerators);
    if (m_switches > 0)
        tip += QObject::tr(", %1 scale-up switches").arg(m_switches);
    tip += m_collapsed ? QObject::tr("\nDouble-click to expand")
                       : QObject::tr("\nDouble-click to collapse");
    setToolTip(tip);
}

QRectF GroupItem::boundingRect() const
{
    return m_rect.adjusted(-3, -3, 3, 3);
}

void GroupItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const Group *g = m_doc->design().group(m_id);
    const auto *sc = static_cast<const TopologyScene *>(scene());
    if (!g || !sc)
        return;
    const CanvasStyle &st = sc->style();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const bool selected = m_doc->selection().groups.count(m_id) > 0;
    const QPen pen(selected ? st.selection : st.frame, selected ? 2.5 : 1.0);
    if (lod < 0.12) {
        painter->fillRect(m_rect, selected ? st.selection : st.domainHeader);
        if (m_collapsed && !selected) // the stage colours still read at overview zoom
            paintRankStrip(painter, m_rect.adjusted(0, m_rect.height() / 3, 0, 0));
        return;
    }
    painter->setPen(pen);
    painter->setBrush(st.domainFill);
    painter->drawRoundedRect(m_rect, 6, 6);
    const QRectF header(m_rect.left(), m_rect.top(), m_rect.width(), layout::kDomainHeader);
    if (m_collapsed) {
        // Stacked-card hint: a collapsed box stands for many nodes.
        painter->setBrush(Qt::NoBrush);
        painter->drawLine(m_rect.bottomLeft() + QPointF(6, 3),
                          m_rect.bottomRight() + QPointF(-6, 3));
    }
    painter->fillRect(header.adjusted(1, 1, -1, 0), st.domainHeader);
    const double strip = m_collapsed
        ? paintRankStrip(painter,
                         QRectF(m_rect.left() + 8, m_rect.bottom() - 16, m_rect.width() - 16, 10))
        : 0;
    if (lod < kLabelZoom)
        return;
    QFont f = painter->font();
    f.setPointSizeF(8);
    f.setBold(true);
    painter->setFont(f);
    painter->setPen(st.text);
    const QRectF title = header.adjusted(8, 0, -8, 0);
    const auto [faults, down] = m_collapsed ? faultsInside(*g) : std::pair {0, false};
    const QString faultText = faults == 0 ? QString()
        : faults == 1                     ? QObject::tr("1 fault")
                                          : QObject::tr("%1 faults").arg(faults);
    const double faultWidth
        = faultText.isEmpty() ? 0 : painter->fontMetrics().horizontalAdvance(faultText) + 8;
    painter->drawText(title.adjusted(0, 0, -faultWidth, 0), Qt::AlignVCenter | Qt::AlignLeft,
                      painter->fontMetrics().elidedText(QString::fromStdString(g->name),
                                                        Qt::ElideRight,
                                                        int(title.width() - faultWidth)));
    if (!faultText.isEmpty()) { // what-if faults hidden in the box: say so in its header
        painter->setPen(down ? st.faultDown : st.faultDegraded.darker(st.dark ? 100 : 125));
        painter->drawText(title, Qt::AlignVCenter | Qt::AlignRight, faultText);
        painter->setPen(st.text);
    }
    if (!m_collapsed)
        return;
    f.setBold(false);
    painter->setFont(f);
    const Node *first = nullptr;
    for (const NodeId id : g->members)
        if (const Node *n = m_doc->design().node(id); n && n->isAccelerator()) {
            first = n;
            break;
        }
    const AcceleratorSpec *spec = first ? m_doc->design().acceleratorSpec(*first) : nullptr;
    const QString accName = spec ? QString::fromStdString(spec->name) : QObject::tr("accelerators");
    QString body = QObject::tr("%1 × %2").arg(m_accelerators).arg(accName);
    if (m_switches > 0)
        body += QObject::tr(" · %1 NVSwitch").arg(m_switches);
    const QRectF bodyRect(m_rect.left() + 8, header.bottom() + 2, m_rect.width() - 16,
                          m_rect.height() - header.height() - 4 - (strip > 0 ? strip + 4 : 0));
    painter->drawText(
        bodyRect, Qt::AlignVCenter | Qt::AlignLeft,
        painter->fontMetrics().elidedText(body, Qt::ElideRight, int(bodyRect.width())));
}

std::pair<int, bool> GroupItem::faultsInside(const Group &g) const
{
    const Design &d = m_doc->design();
    if (d.scenario.empty())
        return {0, false};
    const std::set<NodeId> members(g.members.begin(), g.members.end());
    int count = 0;
    bool down = false;
    for (const Fault &f : d.scenario.faults) {
        bool inside = false;
        if (f.onLink()) {
            const Link *l = faultLink(d, f);
            inside = l && (members.count(l->a) || members.count(l->b));
        } else {
            const Node *n = faultNode(d, f);
            inside = n && members.count(n->id);
        }
        if (inside) {
            ++count;
            down = down || f.kind == Fault::Kind::LinkDown || f.kind == Fault::Kind::SwitchDown;
        }
    }
    return {count, down};
}

double GroupItem::paintRankStrip(QPainter *painter, const QRectF &area) const
{
    const auto *sc = static_cast<const TopologyScene *>(scene());
    const RankColouring &ranks = sc->rankColouring();
    if (ranks.mode() == RankColouring::Mode::None || !ranks.placed())
        return 0;
    const Design &d = m_doc->design();
    const Group *g = d.group(m_id);
    std::vector<const Node *> acc;
    for (const NodeId id : g->members)
        if (const Node *n = d.node(id); n && n->isAccelerator())
            acc.push_back(n);
    if (acc.empty())
        return 0;
    std::stable_sort(acc.begin(), acc.end(),
                     [](const Node *a, const Node *b) { return a->rail < b->rail; });
    const double w = area.width() / double(acc.size());
    const double gap = w > 6 ? 1 : 0; // cells apart where one can see it
    for (std::size_t i = 0; i < acc.size(); ++i) {
        const QColor c = ranks.colour(acc[i]->id);
        painter->fillRect(QRectF(area.left() + w * double(i), area.top(), w - gap, area.height()),
                          c.isValid() ? c : sc->style().domainHeader);
    }
    return area.height();
}

} // namespace weft
