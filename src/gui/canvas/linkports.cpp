#include "gui/canvas/linkports.h"

#include <algorithm>
#include <cmath>

namespace weft {

namespace {
constexpr double kInset = 10; ///< no port closer than this to a corner

enum Side { Top, Bottom, Left, Right, Inside };

Side sideFacing(const QRectF &box, QPointF p)
{
    if (p.y() < box.top())
        return Top;
    if (p.y() > box.bottom())
        return Bottom;
    if (p.x() < box.left())
        return Left;
    if (p.x() > box.right())
        return Right;
    return Inside;
}
} // namespace

std::size_t LinkPorts::add(QPointF other)
{
    m_others.push_back(other);
    return m_others.size() - 1;
}

std::vector<QPointF> LinkPorts::place(const QRectF &box) const
{
    std::vector<QPointF> ports(m_others.size(), box.center());
    std::vector<std::size_t> bySide[4];
    for (std::size_t i = 0; i < m_others.size(); ++i)
        if (const Side s = sideFacing(box, m_others[i]); s != Inside)
            bySide[s].push_back(i);
    const QPointF c = box.center();
    for (int s = Top; s <= Right; ++s) {
        std::vector<std::size_t> &ends = bySide[s];
        if (ends.empty())
            continue;
        // Along the side from its start (left or top): by the direction of the other end seen
        // from the centre, so neighbouring ports lead to neighbouring directions.
        const auto along = [&](std::size_t i) {
            const QPointF d = m_others[i] - c;
            return s == Top || s == Bottom ? d.x() / std::abs(d.y()) : d.y() / std::abs(d.x());
        };
        std::stable_sort(ends.begin(), ends.end(),
                         [&](std::size_t a, std::size_t b) { return along(a) < along(b); });
        const bool horizontal = s == Top || s == Bottom;
        const double start = (horizontal ? box.left() : box.top()) + kInset;
        const double length = std::max(0.0, (horizontal ? box.width() : box.height()) - 2 * kInset);
        for (std::size_t k = 0; k < ends.size(); ++k) {
            const double t = start + length * (double(k) + 0.5) / double(ends.size());
            ports[ends[k]] = s == Top ? QPointF(t, box.top())
                : s == Bottom         ? QPointF(t, box.bottom())
                : s == Left           ? QPointF(box.left(), t)
                                      : QPointF(box.right(), t);
        }
    }
    return ports;
}

} // namespace weft
