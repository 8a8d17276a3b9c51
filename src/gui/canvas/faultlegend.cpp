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
    return FaultLegend::tr("down (dashed, crossed)");
}
QString degradedNote()
{
    return FaultLegend::tr("degraded: lower rate, a cable down, slower clock");
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

QString FaultLegend::title() const
{
    return m_title;
}

void FaultLegend::sync()
{
    const Design &d = m_view->document()->design();
    int down = 0;
    for (const Fault &f : d.scenario.faults)
        down += f.kind == Fault::Kind::LinkDown || f.kind == Fault::Kind::SwitchDown;
    const int n = int(d.scenario.faults.size());
    m_title = n == 0 ? QString()
        : n == 1     ? tr("What if: 1 fault in effect")
                     : tr("What if: %1 faults in effect").arg(n);
    if (n > 0)
        m_title += tr(" (%1 down, %2 degraded)").arg(down).arg(n - down);
    setVisible(n > 0);
    if (n == 0)
        return;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(font()), bm(bold);
    const int w
        = std::max({bm.horizontalAdvance(m_title), kSwatch + 6 + fm.horizontalAdvance(downNote()),
                    kSwatch + 6 + fm.horizontalAdvance(degradedNote())});
    resize(w + 2 * kPad, 2 * kPad + bm.height() + 2 * (fm.height() + kRowGap));
    reposition();
    update();
}

void FaultLegend::reposition()
{
    const QWidget *vp = m_view->viewport();
    move(vp->x() + 12, vp->y() + vp->height() - height() - 12);
    raise();
}

void FaultLegend::paintEvent(QPaintEvent *)
{
    const TopologyScene *scene = m_view->topologyScene();
    if (!scene)
        return;
    const CanvasStyle &st = scene->style();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QColor bg = st.background;
    bg.setAlphaF(0.92f);
    p.setPen(QPen(st.faultDown, 1.5));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.75, 0.75, -0.75, -0.75), 6, 6);
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(font()), bm(bold);
    int y = kPad;
    p.setFont(bold);
    p.setPen(st.text);
    p.drawText(QRect(kPad, y, width() - 2 * kPad, bm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               m_title);
    y += bm.height() + kRowGap;
    p.setFont(font());
    for (const auto &[colour, note] :
         {std::pair {st.faultDown, downNote()}, std::pair {st.faultDegraded, degradedNote()}}) {
        const int mid = y + fm.height() / 2;
        p.setPen(QPen(colour, 2.5, Qt::DashLine));
        p.drawLine(kPad, mid, kPad + kSwatch, mid);
        p.setPen(st.text);
        p.drawText(QRect(kPad + kSwatch + 6, y, width(), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, note);
        y += fm.height() + kRowGap;
    }
}

} // namespace weft
