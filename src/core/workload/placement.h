#pragma once
// Placement of training ranks on accelerators (simulator.md, Inputs 4). Ranks are numbered by an
// order of the parallel dimensions, fastest first (Megatron: "tp-cp-ep-dp-pp"), and rank r runs
// on the r-th accelerator of the design taken domain by domain (rail order inside a domain), or
// on an explicit map. Any placement is legal; a bad one simulates slower and warns.
//
// MoE parallel folding as Megatron-Core forms its groups (parallel_state.py, two RankGenerators
// over the same order and the same ranks): attention layers decompose a rank with the sizes
// (tp, cp, ep = 1, dp, pp), the experts with (etp, cp = 1, ep, expert-dp, pp). With the default
// order the EP group is etp-strided inside a stage's tp x cp x dp ranks, so it folds over TP,
// CP and DP ranks alike.

#include "model/ids.h"
#include "workload/finding.h"
#include "workload/parallelism.h"

#include <array>
#include <string>
#include <vector>

namespace weft {

class Design;

/// The dimensions of a placement order, fastest first in Megatron's default "tp-cp-ep-dp-pp".
inline constexpr std::array<const char *, 5> kPlacementDims {"tp", "cp", "ep", "dp", "pp"};
/// Their sizes in Megatron-Core's attention rank generator: (tp, cp, 1, dp, pp).
std::array<int, 5> attentionDimSizes(const TrainingConfig &c);
/// Their sizes in its expert rank generator: (etp, 1, ep, expert-dp, pp); expert DP is
/// TrainingConfig::expertDp(), 0 when the degrees do not divide.
std::array<int, 5> expertDimSizes(const TrainingConfig &c);

/// User choice of placement: an order string or an explicit rank -> accelerator map.
struct Placement
{
    std::string order = "tp-cp-ep-dp-pp"; ///< dimensions fastest first (both generators)
    std::vector<NodeId> explicitMap; ///< rank -> accelerator; used when not empty
};

/// Attention-layer coordinates of one rank (dp: the data-parallel index 0..dp-1).
struct RankCoord
{
    int tp = 0, cp = 0, dp = 0, pp = 0;
};

/// Expert-layer coordinates of one rank: expert TP, EP and expert-DP indices and the stage.
struct ExpertCoord
{
    int etp = 0, ep = 0, edp = 0, pp = 0;
};

/// The resolved mapping for one design and configuration.
class RankMap
{
public:
    /// Resolves `p` for `c` on `d`. Problems (unknown dimension, map of the wrong size, an
    /// accelerator used twice or not an accelerator, world size above the accelerators, an order
    /// under which the expert groups would span pipeline stages) are appended to `findings` as
    /// errors; the map is then empty (`valid()` false).
    RankMap(const Design &d, const TrainingConfig &c, const Placement &p,
            std::vector<Finding> &findings);

    [[nodiscard]] bool valid() const { return !m_nodes.empty(); }
    [[nodiscard]] int worldSize() const { return static_cast<int>(m_nodes.size()); }
    [[nodiscard]] NodeId node(int rank) const { return m_nodes[static_cast<std::size_t>(rank)]; }
    [[nodiscard]] RankCoord coord(int rank) const;
    [[nodiscard]] int rank(const RankCoord &c) const;
    [[nodiscard]] ExpertCoord expertCoord(int rank) const;
    [[nodiscard]] int expertRank(const ExpertCoord &e) const;
    [[nodiscard]] NodeId node(const RankCoord &c) const { return node(rank(c)); }

    /// Members of the groups containing `c`, in group order.
    [[nodiscard]] std::vector<NodeId> tpGroup(const RankCoord &c) const;
    [[nodiscard]] std::vector<NodeId> cpGroup(const RankCoord &c) const;
    /// Gradient (data-parallel) group: the dp x cp ranks holding the same parameters as c - CP
    /// ranks split the sequence, not the weights, so their gradients are reduced together
    /// (Megatron-LM's data-parallel group "with context parallel"; ZeRO shards over it too).
    /// Ordered by DP index, CP fastest. Ignores c.dp and c.cp.
    [[nodiscard]] std::vector<NodeId> dpGroup(const RankCoord &c) const;
    /// EP group of the rank at c: the ep ranks of its expert TP and expert-DP indices (the
    /// experts split across them; the dispatch and combine run over it), in EP order.
    [[nodiscard]] std::vector<NodeId> epGroup(const RankCoord &c) const;
    /// Expert-data-parallel group: the expert-DP ranks holding the same expert shard as c, over
    /// which expert gradients are reduced (and, with ZeRO, expert states sharded). The same
    /// ranks as dpGroup() when etp == tp and ep == 1.
    [[nodiscard]] std::vector<NodeId> expertDpGroup(const RankCoord &c) const;
    /// Expert tensor-parallel group of the rank at c (etp ranks).
    [[nodiscard]] std::vector<NodeId> expertTpGroup(const RankCoord &c) const;
    /// Smallest number of consecutive DP replicas that the EP and ETP groups couple: every such
    /// group lies inside one block of this many DP indices (1 when EP stays inside a replica's
    /// tp x cp ranks). The schedule simulates such a block as one unit.
    [[nodiscard]] int replicasPerUnit() const { return m_replicasPerUnit; }

private:
    TrainingConfig m_cfg;
    std::vector<NodeId> m_nodes;
    std::array<int, 5> m_stride {}; ///< attention strides of tp, cp, (ep), dp, pp
    std::array<int, 5> m_expertStride {}; ///< expert strides of etp, (cp), ep, edp, pp
    int m_replicasPerUnit = 1;
    std::vector<NodeId> expertGroup(const RankCoord &c, int dim) const;
    int coupledBlock() const;
};

/// Accelerators of a design in placement order: scale-up domains in design order, accelerators
/// inside a domain by rail, then accelerators without a domain.
std::vector<NodeId> acceleratorsInOrder(const Design &d);

} // namespace weft
