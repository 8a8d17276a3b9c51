#pragma once
// Internal: the share of a link that the pipeline sends of merged DP replicas get when they
// over-demand it together (simulator.md, Schedule: merging replicas). Used by simplan.cpp.
//
// Identically placed DP replicas run their pipelines in lockstep: the activations of every
// replica's stage s leave at the same time, and so do the gradients of the backward pass. When
// only one replica is simulated for all of them, the links that several replicas' sends share
// (a leaf's uplinks, a spine's downlinks) carry only the simulated replica's traffic. That is
// exact while the sends of all replicas together stay within every such link's capacity (the
// max-min solver's "not critical": they never saturate it). Where they do not, as on a leaf
// that lost an uplink, each send is given the rate it has in the lockstep max-min allocation of
// all replicas' sends when they share the over-demanded link in proportion to their demand:
// bound x capacity / demand, the bound being its rate alone (Bertsekas & Gallager, "Data
// Networks", 2nd ed., sec. 6.5.2: on one saturated link of equal-bound flows max-min and
// proportional shares coincide). The simulated replica's sends are capped at that rate; other
// traffic (DP rings, simulated for every replica) still competes with them in the solver.

#include "sim/routing.h"

#include <limits>
#include <span>
#include <vector>

namespace weft {

/// A pipeline send between two accelerators, one per replica that sends it.
struct PipelineHop
{
    NodeId src;
    NodeId dst;
    int unit = 0; ///< the DP unit (replica) sending it
};

struct LockstepShares
{
    /// Per hop: its rate cap, bytes/s; +inf where it shares no over-demanded link.
    std::vector<double> cap;
    /// Link directions (Router indices) that sends of two or more units over-demand.
    std::vector<LinkDir> overDemanded;
    /// Demand over capacity of each of `overDemanded` (> 1).
    std::vector<double> excess;
};

/// Shares of `hops`, all sending at once. Hops between the same node get no cap. Throws
/// UnroutableError when a hop has no path (the simulation reports it as a finding).
LockstepShares lockstepShares(const Router &router, std::span<const PipelineHop> hops);

} // namespace weft
