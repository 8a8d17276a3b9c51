#include "gui/canvas/ranklegend.h"

#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QCoreApplication>
#include <QPainter>

namespace weft {

namespace {
constexpr int kPad = 8;
constexpr int kSwatch = 12;
constexpr int kRowGap = 4;

QFont boldOf(const QFont &font)
{
    QFont bold = font;
    bold.setBold(true);
    return bold;
}

QString titleOf(const RankColouring &rc, bool collapsed)
{
    return collapsed ? rc.legendTitle() + QStringLiteral(" ▸") : rc.legendTitle();
}

// The note under the rows, a line per clause: on one line it set the legend's width (300 px
// for 16 stages), and Fit then left the design a band that much narrower (issue 18).
QStringList noteOf(const RankColouring &rc)
{
    if (!rc.needsLabels())
        return {};
    return {
        QCoreApplication::translate("RankLegend", "%1 groups on one scale;").arg(rc.groupCount()),
        QCoreApplication::translate("RankLegend", "accelerators say theirs")};
}

} // namespace

RankLegend::RankLegend(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("RankLegend"));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to collapse or expand the legend"));
    connect(view->topologyScene(), &TopologyScene::rankColouringChanged, this,
            &RankLegend::refresh);
    refresh();
}

void RankLegend::reposition()
{
    m_view->arrangeLegends();
}

QSize RankLegend::fullSize() const
{
    return sizeFor(*m_view->topologyScene(), font(), false);
}

QSize RankLegend::sizeFor(const TopologyScene &scene, const QFont &font, bool collapsed)
{
    const RankColouring &rc = scene.rankColouring();
    const auto rows = rc.legend();
    if (rows.empty())
        return {};
    const QFontMetrics fm(font), bold(boldOf(font));
    int w = bold.horizontalAdvance(titleOf(rc, collapsed));
    if (collapsed)
        return {w + 2 * kPad, bold.height() + 2 * kPad};
    for (const auto &row : rows)
        w = std::max(w, kSwatch + 6 + fm.horizontalAdvance(row.text));
    const QStringList note = noteOf(rc);
    for (const QString &line : note)
        w = std::max(w, fm.horizontalAdvance(line));
    const int lineH = std::max(kSwatch, fm.height());
    const int h = bold.height() + kRowGap + int(rows.size()) * (lineH + kRowGap) - kRowGap
        + (note.isEmpty() ? 0 : int(note.size()) * fm.height() + kRowGap);
    return {w + 2 * kPad, h + 2 * kPad};
}

void RankLegend::refresh()
{
    const QSize size = sizeFor(*m_view->topologyScene(), font(), isCollapsed());
    if (!size.isEmpty())
        setFixedSize(size);
    setVisible(!size.isEmpty());
    reposition();
    update();
}

void RankLegend::setCollapsed(bool collapsed)
{
    m_fold.choose(collapsed);
    refresh();
}

void RankLegend::setCompact(bool compact)
{
    if (m_fold.setCrowded(compact))
        refresh();
}

void RankLegend::mousePressEvent(QMouseEvent *)
{
    setCollapsed(!isCollapsed());
}

void RankLegend::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    draw(p, QPoint(0, 0), *m_view->topologyScene(), font(), isCollapsed());
}

void RankLegend::draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                      bool collapsed)
{
    const QSize size = sizeFor(scene, font, collapsed);
    if (size.isEmpty())
        return;
    const RankColouring &rc = scene.rankColouring();
    const CanvasStyle &st = scene.style();
    p.save();
    p.translate(at);
    p.setRenderHint(QPainter::Antialiasing);
    QColor bg = st.background;
    bg.setAlpha(235);
    p.setPen(QPen(st.frame, 1));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(QPointF(0, 0), size).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
    const QFont bold = boldOf(font);
    p.setFont(bold);
    p.setPen(st.text);
    int y = kPad;
    const int titleH = QFontMetrics(bold).height();
    p.drawText(QRect(kPad, y, size.width() - 2 * kPad, titleH), Qt::AlignLeft | Qt::AlignVCenter,
               titleOf(rc, collapsed));
    if (collapsed) {
        p.restore();
        return;
    }
    y += titleH + kRowGap;
    p.setFont(font);
    const QFontMetrics fm(font);
    const int lineH = std::max(kSwatch, fm.height());
    for (const auto &row : rc.legend()) {
        const QRectF sw(kPad, y + (lineH - kSwatch) / 2.0, kSwatch, kSwatch);
        p.setPen(QPen(st.dark ? row.colour.lighter(160) : row.colour.darker(140), 1));
        p.setBrush(row.colour);
        p.drawRoundedRect(sw, 2, 2);
        p.setPen(st.text);
        p.drawText(QRect(kPad + kSwatch + 6, y, size.width(), lineH),
                   Qt::AlignLeft | Qt::AlignVCenter, row.text);
        y += lineH + kRowGap;
    }
    p.setPen(st.mutedText);
    for (const QString &line : noteOf(rc)) {
        p.drawText(QRect(kPad, y, size.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   line);
        y += fm.height();
    }
    p.restore();
}

} // namespace weft
