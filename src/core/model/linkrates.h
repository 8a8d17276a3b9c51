#pragma once
// Link-rate findings: a link's lane rate above what its ends or its technology can carry
// (an HDR link set to 800 Gb/s per lane on a 200 Gb/s switch port would otherwise simulate at
// 3,200 Gb/s). Part of validateDesign(); its own file so the port-budget checks stay readable.

#include "model/design.h"
#include "model/finding.h"

#include <vector>

namespace weft {

namespace findings {
/// Lane rate above the line rate of a switch port at either end (SwitchSpec::portRate).
inline constexpr const char *kRateOverPort = "link-rate-over-port";
/// Lane rate above the lane rate of the link's technology (LinkTechSpec::laneRate).
inline constexpr const char *kRateOverTechnology = "link-rate-over-technology";
} // namespace findings

/// Errors for links whose lane rate exceeds a switch end's port rate or their technology's
/// lane rate (relative tolerance 1e-6); links with a missing end, spec or technology, or a
/// non-positive rate, are left to the other checks. At most kMaxFindingsPerCode per code, the
/// rest counted in one kTooMany warning. O(links).
std::vector<Finding> checkLinkRates(const Design &design);

} // namespace weft
