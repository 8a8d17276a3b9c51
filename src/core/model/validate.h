#pragma once
// Model validation: checks a Design for structural and budget problems and returns coded
// findings with the objects they concern (issue 2, Fabric model). Linear in nodes + links +
// group members, so it runs on 150k-node designs in well under a second.

#include "model/design.h"
#include "model/finding.h"

#include <string>
#include <vector>

namespace weft {

/// Finding codes returned by validateDesign().
namespace findings {
inline constexpr const char *kPortBudget = "port-budget"; ///< switch lanes > radix
inline constexpr const char *kDanglingLink = "dangling-link"; ///< link end is no node
inline constexpr const char *kSelfLink = "self-link"; ///< link from a node to itself
inline constexpr const char *kBadRate = "bad-rate"; ///< lane rate <= 0 or not finite
inline constexpr const char *kBadLanes = "bad-lanes"; ///< lanes < 1
inline constexpr const char *kBadLatency = "bad-latency"; ///< latency < 0 or not finite
inline constexpr const char *kUnknownLinkTech = "unknown-link-tech"; ///< tech key not in hardware
inline constexpr const char *kUnknownNodeSpec = "unknown-node-spec"; ///< spec key not in hardware
inline constexpr const char *kIsolated = "isolated-accelerators"; ///< no path to the others
inline constexpr const char *kUnconnectedSwitch = "unconnected-switch"; ///< switch without links
inline constexpr const char *kGroupMemberMissing = "group-member-missing";
inline constexpr const char *kGroupMemberTwice = "group-member-duplicate"; ///< in 2+ groups
inline constexpr const char *kGroupParentMissing = "group-parent-missing";
inline constexpr const char *kGroupCycle = "group-cycle";
inline constexpr const char *kNodeGroupMissing = "node-group-missing";
inline constexpr const char *kGroupMismatch
    = "group-membership-mismatch"; ///< node.group vs members
inline constexpr const char *kTooMany = "too-many-findings"; ///< summary of capped findings
} // namespace findings

/// At most this many findings of one code are listed; the rest are summarised in one finding
/// with code kTooMany naming the code and the count (keeps reports on huge designs readable).
inline constexpr std::size_t kMaxFindingsPerCode = 100;

/// Checks `design`: port budgets (link lanes at each switch vs its spec radix), link ends,
/// self links, rates/lanes/latency, hardware keys, connectivity of the accelerators (when
/// there is more than one), group membership and nesting, link rates against their ends and
/// technology (checkLinkRates, model/linkrates.h). Errors first, then warnings; within
/// a severity, in check order and object order (deterministic).
std::vector<Finding> validateDesign(const Design &design);

} // namespace weft
