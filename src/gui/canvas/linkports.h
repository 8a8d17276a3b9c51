#pragma once
// LinkPorts: where the lines of a collapsed domain box meet it. Each line leaves the box from the
// side that faces its other end (the top for uplinks to leaves above), and the lines of one side
// are spread along it in the order of their directions, so that they fan out without crossing
// at the box. A line from the top side of a box only rises, so it never passes under a box of
// the same row (eight NVL72 racks in a row looked cabled to each other when their links all
// started at the boxes' centres).

#include <QLineF>
#include <QRectF>
#include <vector>

namespace weft {

class LinkPorts
{
public:
    /// One line end at `box`: the other end is at `other`. Returns its index.
    std::size_t add(QPointF other);
    /// The ports of the lines added, in the order added, on the sides of `box`.
    [[nodiscard]] std::vector<QPointF> place(const QRectF &box) const;

private:
    std::vector<QPointF> m_others;
};

} // namespace weft
