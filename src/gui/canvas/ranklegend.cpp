#include "gui/canvas/ranklegend.h"

#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QPainter>

namespace weft {

namespace {
constexpr int kPad = 8;
constexpr int kSwatch = 12;
constexpr int kRowGap = 4;
} // namespace

RankLegend::RankLegend(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    connect(view->topologyScene(), &TopologyScene::rankColouringChanged, this,
            &RankLegend::refresh);
    refresh();
}

void RankLegend::reposition()
{
    const QWidget *vp = m_view->viewport();
    move(vp->x() + 12, vp->y() + 12);
    raise();
}

void RankLegend::refresh()
{
    const RankColouring &rc = m_view->topologyScene()->rankColouring();
    const auto rows = rc.legend();
    if (rows.empty()) {
        hide();
        return;
    }
    QFont bold = font();
    bold.setBold(true);
    int w = QFontMetrics(bold).horizontalAdvance(rc.legendTitle());
    for (const auto &row : rows)
        w = std::max(w, kSwatch + 6 + fontMetrics().horizontalAdvance(row.text));
    const int lineH = std::max(kSwatch, fontMetrics().height());
    const int h
        = QFontMetrics(bold).height() + kRowGap + int(rows.size()) * (lineH + kRowGap) - kRowGap;
    setFixedSize(w + 2 * kPad, h + 2 * kPad);
    reposition();
    show();
    update();
}

void RankLegend::paintEvent(QPaintEvent *)
{
    const RankColouring &rc = m_view->topologyScene()->rankColouring();
    const CanvasStyle &st = m_view->topologyScene()->style();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QColor bg = st.background;
    bg.setAlpha(235);
    p.setPen(QPen(st.frame, 1));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(st.text);
    int y = kPad;
    const int titleH = QFontMetrics(bold).height();
    p.drawText(QRect(kPad, y, width() - 2 * kPad, titleH), Qt::AlignLeft | Qt::AlignVCenter,
               rc.legendTitle());
    y += titleH + kRowGap;
    p.setFont(font());
    const int lineH = std::max(kSwatch, fontMetrics().height());
    for (const auto &row : rc.legend()) {
        const QRectF sw(kPad, y + (lineH - kSwatch) / 2.0, kSwatch, kSwatch);
        p.setPen(QPen(st.dark ? row.colour.lighter(160) : row.colour.darker(140), 1));
        p.setBrush(row.colour);
        p.drawRoundedRect(sw, 2, 2);
        p.setPen(st.text);
        p.drawText(QRect(kPad + kSwatch + 6, y, width(), lineH), Qt::AlignLeft | Qt::AlignVCenter,
                   row.text);
        y += lineH + kRowGap;
    }
}

} // namespace weft
