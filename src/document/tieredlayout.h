#pragma once
// The automatic tiered layout of the canvas (product.md, Main window: Canvas): core switches on
// top, then spine, leaf, scale-up domains and free accelerators, each tier wrapped into rows of
// one common width. Node positions are item centres in scene units.

#include "model/design.h"

#include <QPointF>
#include <QRectF>
#include <QSizeF>

namespace weft {

namespace layout {
constexpr double kStepX = 48; ///< grid step between members inside a domain
constexpr double kStepY = 44;
constexpr double kAcceleratorSize = 34; ///< accelerator item, square
constexpr double kSwitchWidth = 44;
constexpr double kSwitchHeight = 26;
constexpr double kScaleUpSwitchWidth = 36; ///< an NVSwitch chip on a domain's member grid
constexpr double kDomainMargin = 14; ///< domain frame around its members
constexpr double kDomainHeader = 22; ///< title strip of an expanded domain
constexpr double kCollapsedHeight = 62; ///< height of a collapsed domain box
constexpr double kGrid = 8; ///< snap grid
} // namespace layout

/// Columns of the member grid of a domain with `members` accelerators.
int domainColumns(int members);
/// Places the members of `group` (switches in the first rows, then accelerators) on a grid
/// whose top-left member centre is `origin`.
void placeDomainMembers(Design &design, const Group &group, QPointF origin);
/// Lays out the whole design in tiers (see the file comment). Positions only; O(nodes).
void applyTieredLayout(Design &design);
/// True when every node sits at the origin (a design without positions, e.g. imported).
bool needsLayout(const Design &design);

} // namespace weft
