#pragma once
// Colours and pens of the canvas, derived from the application palette so light and dark
// themes both read well. Tier colours are from the Okabe-Ito colour-blind-safe set.

#include "model/hardware.h"
#include "model/node.h"

#include <QColor>
#include <QPalette>

namespace weft {

struct CanvasStyle
{
    QColor background, grid, text, mutedText, frame, link, scaleUpLink, selection, domainFill,
        domainHeader;
    /// What-if faults: a link or switch down (drawn dashed and crossed), a degraded link or a
    /// slowed accelerator.
    QColor faultDown, faultDegraded;
    bool dark = false;

    /// Style for `palette` (dark when the window colour is dark).
    static CanvasStyle fromPalette(const QPalette &palette);
    /// Fill of a node: accelerators and each switch role have their own hue.
    [[nodiscard]] QColor nodeFill(const Node &node) const;
};

/// Zoom below which labels and bundle counts are hidden (level of detail).
constexpr double kLabelZoom = 0.45;
/// Zoom from which accelerators show their rank (a 9 pt number is legible from there).
constexpr double kRankLabelZoom = 0.7;

} // namespace weft
