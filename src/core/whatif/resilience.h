#pragma once
// Fabric resilience numbers (issue 19): bisection bandwidth healthy and after the worst single
// switch failure, and the links whose loss costs the most.
//
// Bisection bandwidth here is the maximum flow, per direction at line rate (Link::capacity(), no
// efficiency), from the accelerators of the first half of the scale-up domains (design order) to
// those of the second half: by max-flow/min-cut (Ford and Fulkerson 1956) equal to the smallest
// total capacity of links whose removal separates the halves. Each half is contracted into one
// terminal (links inside a domain never cross the cut), so the flow network has one vertex per
// leaf/spine/core switch; Dinic's algorithm (Dinic 1970) solves it.

#include "model/design.h"

#include <string>
#include <vector>

namespace weft {

struct LinkLoss
{
    LinkId link;
    double loss = 0; ///< bisection bandwidth lost when the link fails, bytes/s
};

struct ResilienceReport
{
    bool ok = false; ///< false when the design has fewer than two scale-up domains
    std::string problem;
    double bisection = 0; ///< healthy, bytes/s per direction
    std::string worstSwitch; ///< name of the switch whose failure costs the most
    double worstSwitchBisection = 0; ///< bisection with that switch down, bytes/s
    int switchesTried = 0;
    /// Links on the minimum cut, largest loss first (at most `topLinks`): losing one costs
    /// exactly its capacity (the cut shrinks by it, and no flow drops by more than the link held).
    std::vector<LinkLoss> costliestLinks;
};

/// Bisection bandwidth of `design`, bytes/s (0 with fewer than two domains).
double bisectionBandwidth(const Design &design);

/// The report, every leaf, spine and core switch tried once. O(switches x max-flow).
ResilienceReport fabricResilience(const Design &design, int topLinks = 10);

} // namespace weft
