#include "gui/canvas/heatlegend.h"

#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QPainter>

namespace weft {

namespace {
constexpr int kMargin = 12;
constexpr int kPad = 8;
constexpr int kBarHeight = 12;
} // namespace

HeatLegend::HeatLegend(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("HeatLegend"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    connect(view->topologyScene(), &TopologyScene::linkHeatChanged, this, &HeatLegend::sync);
    connect(view, &TopologyView::viewportMoved, this, &HeatLegend::reposition);
    sync();
}

QString HeatLegend::title()
{
    return tr("Link utilization, % of capacity (step average, √ scale)");
}

QStringList HeatLegend::notes() const
{
    const LinkHeat &heat = m_view->topologyScene()->linkHeat();
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

void HeatLegend::sync()
{
    const bool show = m_view->topologyScene()->linkHeat().active();
    if (show) {
        const QFontMetrics fm(font());
        int w = fm.horizontalAdvance(title());
        const QStringList lines = notes();
        for (const QString &line : lines)
            w = std::max(w, fm.horizontalAdvance(line));
        const int h = kPad + fm.height() + 4 + kBarHeight + 2 + fm.height()
            + int(lines.size()) * fm.height() + kPad;
        setFixedSize(std::max(w, 220) + 2 * kPad, h);
        reposition();
    }
    setVisible(show);
    update();
}

void HeatLegend::reposition()
{
    move(m_view->viewport()->width() - width() - kMargin, kMargin);
    raise();
}

void HeatLegend::paintEvent(QPaintEvent *)
{
    const CanvasStyle &st = m_view->topologyScene()->style();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QColor panel = st.background;
    panel.setAlphaF(0.92f);
    p.setPen(st.frame);
    p.setBrush(panel);
    p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 6, 6);

    const QFontMetrics fm(font());
    int y = kPad;
    p.setPen(st.text);
    p.drawText(QRect(kPad, y, width() - 2 * kPad, fm.height()), Qt::AlignLeft, title());
    y += fm.height() + 4;
    const QRect bar(kPad, y, width() - 2 * kPad, kBarHeight);
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
    for (const QString &line : notes()) {
        p.drawText(QRect(kPad, y, width() - 2 * kPad, fm.height()), Qt::AlignLeft, line);
        y += fm.height();
    }
}

} // namespace weft
