#include "gui/canvas/legendlayout.h"

#include <algorithm>

namespace weft {

namespace {
constexpr int kM = LegendLayout::kMargin;
constexpr double kMaxShare = 0.2; ///< of the viewport's area the legends may cover

int area(QSize s)
{
    return s.isEmpty() ? 0 : s.width() * s.height();
}
} // namespace

bool LegendLayout::crowded(QSize viewport, const LegendSizes &full)
{
    if (viewport.isEmpty())
        return false;
    const bool both = !full.rank.isEmpty() && !full.heat.isEmpty();
    if (both && full.rank.width() + full.heat.width() + 3 * kM > viewport.width())
        return true;
    const int leftColumn = (full.rank.isEmpty() ? 0 : full.rank.height() + kM)
        + (full.fault.isEmpty() ? 0 : full.fault.height() + kM);
    if (leftColumn + kM > viewport.height()
        || (!full.heat.isEmpty() && full.heat.height() + 2 * kM > viewport.height()))
        return true;
    const double covered = area(full.rank) + area(full.heat) + area(full.fault);
    return covered > kMaxShare * viewport.width() * viewport.height();
}

LegendRects LegendLayout::place(QSize viewport, const LegendSizes &shown)
{
    LegendRects r;
    if (!shown.rank.isEmpty())
        r.rank = QRect(QPoint(kM, kM), shown.rank);
    if (!shown.heat.isEmpty()) {
        const int x = viewport.width() - shown.heat.width() - kM;
        const bool sideBySide = r.rank.isNull() || x >= r.rank.right() + 1 + kM;
        r.heat = sideBySide ? QRect(QPoint(x, kM), shown.heat)
                            : QRect(QPoint(kM, r.rank.bottom() + 1 + kM), shown.heat);
    }
    if (!shown.fault.isEmpty())
        r.fault = QRect(QPoint(kM, viewport.height() - shown.fault.height() - kM), shown.fault);
    return r;
}

std::vector<QRect> LegendLayout::clearAreas(const QRect &viewport, const LegendRects &legends)
{
    const int gap = kM; // air between a legend and the design
    int top = viewport.top(), bottom = viewport.bottom(), left = viewport.left(),
        right = viewport.right();
    const int mid = viewport.center().x();
    for (const QRect &l : {legends.rank, legends.heat}) // anchored at the top
        if (!l.isNull())
            top = std::max(top, l.bottom() + 1 + gap);
    if (!legends.fault.isNull())
        bottom = std::min(bottom, legends.fault.top() - 1 - gap);
    for (const QRect &l : {legends.rank, legends.heat, legends.fault}) {
        if (l.isNull())
            continue;
        if (l.center().x() < mid)
            left = std::max(left, l.right() + 1 + gap);
        else
            right = std::min(right, l.left() - 1 - gap);
    }
    std::vector<QRect> out;
    const bool any = !legends.rank.isNull() || !legends.heat.isNull() || !legends.fault.isNull();
    if (!any)
        return {viewport};
    out.push_back(QRect(QPoint(viewport.left(), top), QPoint(viewport.right(), bottom)));
    out.push_back(QRect(QPoint(left, viewport.top()), QPoint(right, viewport.bottom())));
    return out;
}

} // namespace weft
