#pragma once
// Internal: the link statistics of DP replicas that were not simulated because an identically
// placed replica stood for them (simulator.md, Schedule: "DP replicas that are placed
// identically behave identically and may be simulated once"). Used by simulator.cpp.

#include "sim/result.h"
#include "sim/simplan.h"

#include <functional>
#include <vector>

namespace weft {

/// Tags (indices in plan.groups) of the TP, CP, EP and PP groups of simulated DP units that
/// stand for other, identically placed units: the traffic mirrorReplicaTraffic() copies. Empty
/// unless plan.symmetric merged some units.
std::vector<int> mirroredTags(const SimPlan &plan);

/// For every DP unit u that plan.unitPipeline merged into the pipeline simulated for an earlier
/// unit u0: the traffic of u0's pipeline groups (TP, CP, EP, PP) is copied onto u's links, so
/// every replica's links show the load they carry in the real step instead of idling.
///
/// `mirroredBytes(link, dir)` gives the bytes u0's pipeline groups put on link `link` (index in
/// Design::links()) in direction `dir` (NetComm::mirroredBytes). Links are matched through the
/// accelerators: rank x of u0 and the same rank coordinate of u, the k-th link of one (in
/// Design::links() order) to the k-th link of the other; links between two switches (spine
/// uplinks, shared by all replicas) are left as simulated. On each matched direction the bytes
/// add exactly; average utilization and the series add the simulated link's values scaled by
/// the mirrored share of its bytes (exact when the link carried only pipeline traffic, as an
/// NVLink of a TP group does; proportional otherwise); peak and busy time take the larger of
/// the link's own and the scaled mirrored value. Groups of the mirrored units are appended to
/// `groups` with their members and mapped links. `links` is indexed as Design::links().
void mirrorReplicaTraffic(const Design &design, const SimPlan &plan,
                          const std::function<double(std::size_t, int)> &mirroredBytes,
                          double stepTime, std::vector<LinkResult> &links,
                          std::vector<GroupTraffic> &groups);

} // namespace weft
