#include "gui/canvas/heatlegend.h"

#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QPainter>

namespace weft {

namespace {
constexpr int kPad = 8;
constexpr int kBarHeight = 12;
} // namespace

HeatLegend::HeatLegend(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("HeatLegend"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to collapse or expand the legend"));
    connect(view->topologyScene(), &TopologyScene::linkHeatChanged, this, &HeatLegend::sync);
    connect(view, &TopologyView::viewportMoved, this, &HeatLegend::reposition);
    sync();
}

QString HeatLegend::title()
{
    return tr("Link utilization, % of capacity (step average, √ scale)");
}

QString HeatLegend::foldedTitle()
{
    // The full title took 344 px, wider than the canvas of the 16k example in a 1000x650 window.
    return tr("Link utilization ▸");
}

QStringList HeatLegend::notes() const
{
    return notes(m_view->topologyScene()->linkHeat());
}

QStringList HeatLegend::notes(const LinkHeat &heat)
{
    QStringList out {tr("Width: link capacity"), tr("Faint: no traffic")};
    if (const GroupTraffic *g = heat.highlightedGroup())
        out << tr("Showing the %1 group %2 (%3 ranks, %4 links)")
                   .arg(g->kind == "expert-dp" ? tr("expert-DP")
                                               : QString::fromStdString(g->kind).toUpper())
                   .arg(g->index)
                   .arg(g->members.size())
                   .arg(g->links.size());
    if (heat.stale())
        out << tr("Out of date: the design changed");
    return out;
}

QSize HeatLegend::sizeFor(const TopologyScene &scene, const QFont &font, bool collapsed)
{
    if (!scene.linkHeat().active())
        return {};
    const QFontMetrics fm(font);
    if (collapsed)
        return {fm.horizontalAdvance(foldedTitle()) + 2 * kPad, fm.height() + 2 * kPad};
    int w = fm.horizontalAdvance(title());
    const QStringList lines = notes(scene.linkHeat());
    for (const QString &line : lines)
        w = std::max(w, fm.horizontalAdvance(line));
    const int h = kPad + fm.height() + 4 + kBarHeight + 2 + fm.height()
        + int(lines.size()) * fm.height() + kPad;
    return {std::max(w, 220) + 2 * kPad, h};
}

void HeatLegend::setCollapsed(bool collapsed)
{
    m_fold.choose(collapsed);
    sync();
}

void HeatLegend::setCompact(bool compact)
{
    if (m_fold.setCrowded(compact))
        sync();
}

QSize HeatLegend::fullSize() const
{
    return sizeFor(*m_view->topologyScene(), font(), false);
}

void HeatLegend::sync()
{
    const QSize size = sizeFor(*m_view->topologyScene(), font(), isCollapsed());
    if (!size.isEmpty())
        setFixedSize(size);
    setVisible(!size.isEmpty());
    reposition();
    update();
}

void HeatLegend::reposition()
{
    m_view->arrangeLegends();
}

void HeatLegend::mousePressEvent(QMouseEvent *)
{
    setCollapsed(!isCollapsed());
}

void HeatLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    draw(p, QPoint(0, 0), *m_view->topologyScene(), font(), isCollapsed());
}

void HeatLegend::draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                      bool collapsed)
{
    const QSize size = sizeFor(scene, font, collapsed);
    if (size.isEmpty())
        return;
    const CanvasStyle &st = scene.style();
    p.save();
    p.translate(at);
    p.setFont(font);
    p.setRenderHint(QPainter::Antialiasing);
    QColor panel = st.background;
    panel.setAlphaF(0.92f);
    p.setPen(st.frame);
    p.setBrush(panel);
    p.drawRoundedRect(QRect(QPoint(0, 0), size).adjusted(0, 0, -1, -1), 6, 6);

    const QFontMetrics fm(font);
    const int width = size.width();
    int y = kPad;
    p.setPen(st.text);
    p.drawText(QRect(kPad, y, width - 2 * kPad, fm.height()), Qt::AlignLeft,
               collapsed ? foldedTitle() : title());
    if (collapsed) {
        p.restore();
        return;
    }
    y += fm.height() + 4;
    const QRect bar(kPad, y, width - 2 * kPad, kBarHeight);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 16; ++i)
        g.setColorAt(i / 16.0, LinkHeat::scaleColour(i / 16.0));
    p.setPen(Qt::NoPen);
    p.setBrush(g);
    p.drawRect(bar);
    y += kBarHeight + 2;
    p.setPen(st.mutedText);
    for (int pc : {0, 5, 25, 50, 100}) { // the scale is sqrt(u): ticks where they fall
        const int x = bar.left() + int(bar.width() * LinkHeat::scalePosition(pc / 100.0));
        const QString label = QString::number(pc);
        const int tw = fm.horizontalAdvance(label);
        const int left = std::clamp(x - tw / 2, bar.left(), bar.right() - tw);
        p.drawText(QPoint(left, y + fm.ascent()), label);
    }
    y += fm.height();
    p.setPen(st.text);
    for (const QString &line : notes(scene.linkHeat())) {
        p.drawText(QRect(kPad, y, width - 2 * kPad, fm.height()), Qt::AlignLeft, line);
        y += fm.height();
    }
    p.restore();
}

} // namespace weft
