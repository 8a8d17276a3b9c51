#pragma once
// Symmetry classes of the flows of one phase (simulator.md, Communication: Bandwidth sharing;
// issue 14, "speed without changing answers").
//
// An all-to-all over n ranks is n(n-1) flows, but on a symmetric fabric they fall into a few
// kinds (same-server NVLink, same-rail through one leaf, across the spines, ...) whose members
// get the same max-min rate. The classes are the coarsest *equitable partition* of the
// bipartite graph of flows and the link directions they cross, found by colour refinement
// (Weisfeiler-Leman 1-dim; Grohe, Kersting, Mladenov, Selman, "Color Refinement and its
// Applications", 2017, sec. 2): start with flows coloured by (bytes, rate cap) and link
// directions by capacity; recolour every flow by the multiset of (colour, fraction) of its
// links and every link direction by the multiset of (colour, fraction) of its flows; repeat
// until no class splits. Multisets are compared exactly (no hashing shortcut), so two flows
// share a class only if the refinement cannot tell them apart.
//
// Why that is exact: in an equitable partition every flow of class F puts the same total
// weight on the link directions of class L, and every direction of L carries the same weight
// from F; progressive filling only ever uses those sums, so, by induction over its freezing
// levels, every flow of a class freezes at the same level and every direction of a link class
// saturates at the same level. The max-min rates are constant on classes, and a class of k
// flows can be solved as one unit loading each of its directions with the sum of its members'
// fractions (FlowNetwork then keeps it exact against other traffic; see network.h).
// Where the fabric is not symmetric (a failed link, a slower part), the refinement splits the
// classes touching it, down to single flows: the rest stays aggregated.

#include "sim/network.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace weft {

/// One class of flows of a phase.
struct FlowClass
{
    std::vector<std::uint32_t> members; ///< indices in the phase's flows, ascending
    /// Every link direction crossed by a member, once, weighted by the sum of the members'
    /// fractions there (bytes on it per byte of one member).
    std::vector<RouteEntry> entries;
    /// Per entry: the class of its link direction (colour number, shared by the phase's
    /// classes). Each member crosses at least one direction of every link class listed.
    std::vector<std::uint32_t> cells;
};

/// Partition of a phase's moving flows (bytes > 0, src != dst; the others are in no class).
/// `rounds`: refinement rounds until stable.
struct FlowClasses
{
    std::vector<FlowClass> classes;
    std::size_t flows = 0; ///< moving flows
    int rounds = 0;
};

/// What else the first colours depend on, for refining flows that share the fabric with other
/// traffic (FlowNetwork: an aggregate whose symmetry that traffic broke). Two flows share a
/// class only if their seeds are equal; two link directions only if their seed words are.
struct FlowSeeds
{
    std::span<const std::uint64_t> flow; ///< per flow of `flows` (empty: none)
    /// Appends the words of a link direction's seed (e.g. the other traffic crossing it).
    std::function<void(LinkDir, std::vector<std::uint64_t> &)> link;
};

/// Colour refinement of `flows` over `router`'s routes (see above), from first colours of
/// flows by (bytes, rate cap, seed) and link directions by (capacity, seed words). The routes
/// are taken as parts (Router::routeParts): a shared piece (the walk between two leaves, a
/// scale-up walk) is one vertex between its flows and its link directions, so a flow has a few
/// incidences rather than one per ECMP direction; an equitable partition of that graph is one
/// of the flow x direction graph (flowclasses.cpp). O(R x E log d) for E incidences, R rounds
/// (a handful on a fat tree) and d neighbours per vertex. Throws UnroutableError for a flow without
/// a path, std::invalid_argument for flow seeds not one per flow.
FlowClasses symmetricFlowClasses(const Router &router, std::span<const Flow> flows,
                                 const FlowSeeds &seeds = {});

} // namespace weft
