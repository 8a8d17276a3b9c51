#pragma once
// Placement maths of the Partitions dock (product.md, Main window: Partitions): the parallel
// groups of a resolved placement (TP groups, pipeline stages, DP replicas, CP, EP and expert-DP
// groups) and
// hand edits of the rank -> accelerator map (place a group onto accelerators, swap two
// accelerators). Pure logic on core types; DesignDocument turns the results into undo steps.

#include "workload/workload.h"

#include <optional>
#include <string>
#include <vector>

namespace weft {

/// Which kind of parallel group: the ranks sharing every coordinate except one (TP, CP, EP
/// groups), or one pipeline stage (same pp), or one DP replica (same dp: a model copy). EP and
/// expert-data-parallel groups follow the MoE layers' folded decomposition (RankMap::
/// expertCoord: same expert TP and expert-DP index, or same expert TP and EP index: the ranks
/// holding the same experts, over which expert gradients are reduced).
enum class RankGroupKind { Tp, Stage, DpReplica, Cp, Ep, ExpertDp };

/// One parallel group: its kind, index (stage and replica: the pp / dp coordinate; TP, CP, EP:
/// numbered by lowest rank) and ranks in increasing order.
struct RankGroup
{
    RankGroupKind kind = RankGroupKind::Tp;
    int index = 0;
    std::vector<int> ranks;
};

/// A group named by kind and index (drag payload, document operations).
struct RankGroupRef
{
    RankGroupKind kind = RankGroupKind::Tp;
    int index = 0;
    bool operator==(const RankGroupRef &) const = default;
};

const char *toString(RankGroupKind kind);

/// The rank -> accelerator map of `w` on `d` (the order resolved, or the explicit map), or
/// nothing when the placement is invalid (findings appended to `findings` when given).
std::optional<std::vector<NodeId>> resolvedMap(const Design &d, const Workload &w,
                                               std::vector<Finding> *findings = nullptr);

/// All groups of `kind` of a valid `map` (see RankGroup for the numbering).
std::vector<RankGroup> rankGroups(const RankMap &map, RankGroupKind kind);

/// For each rank, the index of its group of `kind` (colouring by stage, replica or TP group).
std::vector<int> groupIndexOfRanks(const RankMap &map, RankGroupKind kind);

/// Puts ranks[i] onto targets (paired in order; min(size) pairs): each target's current rank
/// (if any) takes the accelerator the moved rank leaves, so `map` stays a permutation. Ranks
/// already on one of the targets stay where they are. Returns the number of ranks that moved.
int placeRanks(std::vector<NodeId> &map, const std::vector<int> &ranks,
               const std::vector<NodeId> &targets);

/// Swaps the ranks of accelerators `a` and `b` (one of them may hold no rank: the rank moves).
/// Returns false when neither holds a rank or a == b.
bool swapAccelerators(std::vector<NodeId> &map, NodeId a, NodeId b);

/// Placement orders offered by the dock, fastest dimension first; the first is Megatron's.
std::vector<std::string> placementOrders();

} // namespace weft
