#include "gui/canvas/faultlegend.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QPainter>

namespace weft {

namespace {
constexpr int kPad = 8;
constexpr int kSwatch = 26;
constexpr int kRowGap = 4;

QString downNote()
{
    return FaultLegend::tr("down (dashed, crossed; a switch's links faint)");
}
QString degradedNote()
{
    return FaultLegend::tr("degraded: lower rate, a cable down, slower clock");
}
QFont boldOf(const QFont &font)
{
    QFont bold = font;
    bold.setBold(true);
    return bold;
}
} // namespace

FaultLegend::FaultLegend(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("FaultLegend"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    connect(view->document(), &DesignDocument::scenarioChanged, this, &FaultLegend::sync);
    connect(view->document(), &DesignDocument::reset, this, &FaultLegend::sync);
    sync();
}

QString FaultLegend::titleFor(const TopologyScene &scene)
{
    const Design &d = scene.document()->design();
    int down = 0;
    for (const Fault &f : d.scenario.faults)
        down += f.kind == Fault::Kind::LinkDown || f.kind == Fault::Kind::SwitchDown;
    const int n = int(d.scenario.faults.size());
    if (n == 0)
        return {};
    return (n == 1 ? tr("What if: 1 fault in effect") : tr("What if: %1 faults in effect").arg(n))
        + tr(" (%1 down, %2 degraded)").arg(down).arg(n - down);
}

QString FaultLegend::title() const
{
    const TopologyScene *scene = m_view->topologyScene();
    return scene ? titleFor(*scene) : QString();
}

QSize FaultLegend::sizeFor(const TopologyScene &scene, const QFont &font, bool titleOnly)
{
    const QString title = titleFor(scene);
    if (title.isEmpty())
        return {};
    const QFontMetrics fm(font), bm(boldOf(font));
    if (titleOnly)
        return {bm.horizontalAdvance(title) + 2 * kPad, bm.height() + 2 * kPad};
    const int w
        = std::max({bm.horizontalAdvance(title), kSwatch + 6 + fm.horizontalAdvance(downNote()),
                    kSwatch + 6 + fm.horizontalAdvance(degradedNote())});
    return {w + 2 * kPad, 2 * kPad + bm.height() + 2 * (fm.height() + kRowGap)};
}

void FaultLegend::draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                       bool titleOnly)
{
    const QSize size = sizeFor(scene, font, titleOnly);
    if (size.isEmpty())
        return;
    const CanvasStyle &st = scene.style();
    p.save();
    p.translate(at);
    p.setRenderHint(QPainter::Antialiasing);
    QColor bg = st.background;
    bg.setAlphaF(0.92f);
    p.setPen(QPen(st.faultDown, 1.5));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(QPointF(0, 0), size).adjusted(0.75, 0.75, -0.75, -0.75), 6, 6);
    const QFont bold = boldOf(font);
    const QFontMetrics fm(font), bm(bold);
    int y = kPad;
    p.setFont(bold);
    p.setPen(st.text);
    p.drawText(QRect(kPad, y, size.width() - 2 * kPad, bm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, titleFor(scene));
    y += bm.height() + kRowGap;
    p.setFont(font);
    if (titleOnly) {
        p.restore();
        return;
    }
    for (const auto &[colour, note] :
         {std::pair {st.faultDown, downNote()}, std::pair {st.faultDegraded, degradedNote()}}) {
        const int mid = y + fm.height() / 2;
        p.setPen(QPen(colour, 2.5, Qt::DashLine));
        p.drawLine(kPad, mid, kPad + kSwatch, mid);
        p.setPen(st.text);
        p.drawText(QRect(kPad + kSwatch + 6, y, size.width(), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, note);
        y += fm.height() + kRowGap;
    }
    p.restore();
}

void FaultLegend::sync()
{
    const TopologyScene *scene = m_view->topologyScene();
    const QSize size = scene ? sizeFor(*scene, font(), m_compact) : QSize();
    if (!size.isEmpty())
        resize(size);
    setVisible(!size.isEmpty());
    reposition();
    update();
}

void FaultLegend::setCompact(bool compact)
{
    if (compact == m_compact)
        return;
    m_compact = compact;
    sync();
}

QSize FaultLegend::fullSize() const
{
    const TopologyScene *scene = m_view->topologyScene();
    return scene ? sizeFor(*scene, font()) : QSize();
}

void FaultLegend::reposition()
{
    m_view->arrangeLegends();
}

void FaultLegend::paintEvent(QPaintEvent *)
{
    if (const TopologyScene *scene = m_view->topologyScene()) {
        QPainter p(this);
        draw(p, {0, 0}, *scene, font(), m_compact);
    }
}

} // namespace weft
