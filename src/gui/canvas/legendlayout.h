#pragma once
// LegendLayout: where the canvas legends go in the viewport so that they cover neither each
// other nor the fitted design. The rank legend sits top-left, the heat legend top-right (below
// the rank legend when the two do not fit side by side) and the fault legend bottom-left; when
// the legends at full size would crowd the viewport (a small window) they show only their titles
// until the user opens one. Pure geometry: TopologyView applies it to the widgets.

#include <QRect>
#include <QSize>
#include <vector>

namespace weft {

/// Sizes of the legends (an empty size: not shown).
struct LegendSizes
{
    QSize rank, heat, fault;
};

/// Rectangles of the legends in viewport coordinates (null: not shown).
struct LegendRects
{
    QRect rank, heat, fault;
};

class LegendLayout
{
public:
    static constexpr int kMargin = 12;

    /// True when legends of these full sizes crowd `viewport`: the top ones do not fit side by
    /// side, one column does not fit its height, or together they cover over a fifth of it.
    [[nodiscard]] static bool crowded(QSize viewport, const LegendSizes &full);
    /// Places legends of the sizes they are shown at.
    [[nodiscard]] static LegendRects place(QSize viewport, const LegendSizes &shown);
    /// Parts of `viewport` clear of `legends` in which to fit the design, largest ones first
    /// tried by the caller: below and above the legends, and between the left and right ones.
    [[nodiscard]] static std::vector<QRect> clearAreas(const QRect &viewport,
                                                       const LegendRects &legends);
};

} // namespace weft
