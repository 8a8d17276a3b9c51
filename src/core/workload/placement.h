#pragma once
// Placement of training ranks on accelerators (simulator.md, Inputs 4). Ranks are numbered by an
// order of the parallel dimensions, fastest first (Megatron: "tp-cp-ep-dp-pp"), and rank r runs
// on the r-th accelerator of the design taken domain by domain (rail order inside a domain), or
// on an explicit map. Any placement is legal; a bad one simulates slower and warns.

#include "model/ids.h"
#include "workload/finding.h"
#include "workload/parallelism.h"

#include <array>
#include <string>
#include <vector>

namespace weft {

class Design;

/// User choice of placement: an order string or an explicit rank -> accelerator map.
struct Placement
{
    std::string order = "tp-cp-ep-dp-pp"; ///< dimensions fastest first; "dp" means DP/EP here
    std::vector<NodeId> explicitMap; ///< rank -> accelerator; used when not empty
};

/// Coordinates of one rank. `dp` is the full data-parallel index 0..dp-1 (= ep + e * dpOuter).
struct RankCoord
{
    int tp = 0, cp = 0, dp = 0, pp = 0;
};

/// The resolved mapping for one design and configuration.
class RankMap
{
public:
    /// Resolves `p` for `c` on `d`. Problems (unknown dimension, map of the wrong size, an
    /// accelerator used twice or not an accelerator, world size above the accelerators) are
    /// appended to `findings` as errors; the map is then empty (`valid()` false).
    RankMap(const Design &d, const TrainingConfig &c, const Placement &p,
            std::vector<Finding> &findings);

    [[nodiscard]] bool valid() const { return !m_nodes.empty(); }
    [[nodiscard]] int worldSize() const { return static_cast<int>(m_nodes.size()); }
    [[nodiscard]] NodeId node(int rank) const { return m_nodes[static_cast<std::size_t>(rank)]; }
    [[nodiscard]] RankCoord coord(int rank) const;
    [[nodiscard]] int rank(const RankCoord &c) const;
    [[nodiscard]] NodeId node(const RankCoord &c) const { return node(rank(c)); }

    /// Members of the groups containing `c`, in group order.
    [[nodiscard]] std::vector<NodeId> tpGroup(const RankCoord &c) const;
    [[nodiscard]] std::vector<NodeId> cpGroup(const RankCoord &c) const;
    /// Gradient (data-parallel) group: the dp x cp ranks holding the same parameters as c - CP
    /// ranks split the sequence, not the weights, so their gradients are reduced together
    /// (Megatron-LM's data-parallel group "with context parallel"; ZeRO shards over it too).
    /// Ordered by DP index, CP fastest. Ignores c.dp and c.cp.
    [[nodiscard]] std::vector<NodeId> dpGroup(const RankCoord &c) const;
    /// EP group: the ep ranks sharing c's outer DP index (experts split across them).
    [[nodiscard]] std::vector<NodeId> epGroup(const RankCoord &c) const;
    /// Expert-data-parallel group: the dp x cp / ep ranks holding the same experts as c (same EP
    /// index c.dp % ep, every outer DP index and CP index), over which expert gradients are
    /// reduced (and, with ZeRO, expert states sharded). Equals dpGroup() when ep is 1.
    [[nodiscard]] std::vector<NodeId> expertDpGroup(const RankCoord &c) const;

private:
    TrainingConfig m_cfg;
    std::vector<NodeId> m_nodes;
    std::array<int, 5> m_stride {}; ///< strides of tp, cp, ep, dpOuter, pp
};

/// Accelerators of a design in placement order: scale-up domains in design order, accelerators
/// inside a domain by rail, then accelerators without a domain.
std::vector<NodeId> acceleratorsInOrder(const Design &d);

} // namespace weft
