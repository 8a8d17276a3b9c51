#include "ganttbars.h"

#include <array>

namespace weft {

GanttBars::GanttBars(QCPAxis *keyAxis, QCPAxis *valueAxis)
    : QCPAbstractPlottable(keyAxis, valueAxis)
{
}

QRectF GanttBars::pixelRect(const Bar &bar) const
{
    const QPointF a = coordsToPixels(bar.start, bar.row - m_thickness / 2);
    const QPointF b = coordsToPixels(bar.end, bar.row + m_thickness / 2);
    return QRectF(a, b).normalized();
}

double GanttBars::selectTest(const QPointF &pos, bool onlySelectable, QVariant *details) const
{
    if ((onlySelectable && mSelectable == QCP::stNone) || !mKeyAxis || !mValueAxis)
        return -1;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        // Half a pixel of slack so sub-pixel bars can still be hovered.
        if (pixelRect(m_bars[i]).adjusted(-0.5, -0.5, 0.5, 0.5).contains(pos)) {
            if (details)
                details->setValue(QCPDataSelection(QCPDataRange(int(i), int(i) + 1)));
            return 0;
        }
    }
    return -1;
}

namespace {

// Range of the values `valuesOf(bar)` yields over all bars, restricted to a sign domain.
template<typename ValuesOf>
QCPRange rangeOver(const std::vector<GanttBars::Bar> &bars, QCP::SignDomain domain, bool &found,
                   ValuesOf valuesOf)
{
    QCPRange range;
    found = false;
    for (const GanttBars::Bar &bar : bars) {
        for (double v : valuesOf(bar)) {
            if ((domain == QCP::sdPositive && v <= 0) || (domain == QCP::sdNegative && v >= 0))
                continue;
            range = found ? QCPRange(std::min(range.lower, v), std::max(range.upper, v))
                          : QCPRange(v, v);
            found = true;
        }
    }
    return range;
}

} // namespace

QCPRange GanttBars::getKeyRange(bool &foundRange, QCP::SignDomain inSignDomain) const
{
    return rangeOver(m_bars, inSignDomain, foundRange, [](const Bar &bar) {
        return std::array<double, 2> {bar.start, bar.end};
    });
}

QCPRange GanttBars::getValueRange(bool &foundRange, QCP::SignDomain inSignDomain,
                                  const QCPRange &) const
{
    return rangeOver(m_bars, inSignDomain, foundRange, [](const Bar &bar) {
        return std::array<double, 2> {bar.row - 0.5, bar.row + 0.5};
    });
}

void GanttBars::draw(QCPPainter *painter)
{
    if (!mKeyAxis || !mValueAxis)
        return;
    const QRectF clip = clipRect();
    applyDefaultAntialiasingHint(painter);
    painter->setPen(mPen);
    painter->setBrush(mBrush);
    for (const Bar &bar : m_bars) {
        const QRectF r = pixelRect(bar);
        if (r.intersects(clip))
            painter->drawRect(r);
    }
    painter->setFont(m_labelFont);
    painter->setPen(m_labelColor);
    const QFontMetricsF metrics(m_labelFont);
    for (const Bar &bar : m_bars) {
        const QRectF r = pixelRect(bar);
        if (bar.label.isEmpty() || !r.intersects(clip)
            || metrics.horizontalAdvance(bar.label) + 4 > r.width()
            || metrics.height() > r.height())
            continue;
        painter->drawText(r, Qt::AlignCenter, bar.label);
    }
}

void GanttBars::drawLegendIcon(QCPPainter *painter, const QRectF &rect) const
{
    applyDefaultAntialiasingHint(painter);
    painter->setPen(mPen);
    painter->setBrush(mBrush);
    const QRectF r(rect.left(), rect.top() + rect.height() * 0.2, rect.width(),
                   rect.height() * 0.6);
    painter->drawRect(r);
}

} // namespace weft
