#pragma once
// The planner's search space (issue 16): every TrainingConfig knob the simulator has is one
// dimension (a PlanKnob with its candidate values); DP is derived from the GPU count; each
// parallel configuration is tried with the domain-aware rank orders of its parallel dimensions.
// A new knob is one more entry of planKnobs().

#include "workload/workload.h"

#include <functional>
#include <string>
#include <vector>

namespace weft {

class Design;

/// One searched dimension of TrainingConfig. Values are integers (enums as their underlying
/// value) so that the space is a plain cartesian product.
struct PlanKnob
{
    std::string name; ///< "tp", "pp", ...: command-line (--fix) and JSON name
    std::string title; ///< "tensor parallel degree"
    std::function<int(const TrainingConfig &)> get;
    std::function<void(TrainingConfig &, int)> set;
    std::function<std::string(int)> format; ///< "8", "selective", "interleaved"
    /// Parses a value as written by format() (or a number for the enums); false when invalid.
    std::function<bool(const std::string &, int &)> parse;
    /// The value (as format() writes it) of a plan file written before this knob existed, which
    /// lacks its key; empty when the key is required.
    std::string absentValue;
    /// The values parse() takes, for messages: "a whole number >= 1", "on or off", ...
    std::string accepts;
};

/// The knobs in enumeration order: tp, cp, pp, ep, etp (0, written "tp": as TP), dispatcher,
/// schedule, vpp, micro_batch, recompute, zero_stage, overlap_tp and overlap_ep (0 "off",
/// 1 "on").
const std::vector<PlanKnob> &planKnobs();
/// Index of knob `name` in planKnobs(), or -1. Also takes the workload flags' spelling: '-' for
/// '_' (micro-batch, overlap-tp) and "zero" for zero_stage.
int planKnobIndex(const std::string &name);

/// What the planner searches: candidate values per knob (index = planKnobs() index), the GPU
/// count (world size = tp * cp * pp * dp exactly) and the base workload whose other settings
/// (sequence parallelism, datatype, overlap switches, attention kernel) every candidate keeps.
struct PlanSpace
{
    Workload base;
    long long gpus = 0;
    int domainSize = 1; ///< accelerators per scale-up domain (the smallest), for placements
    std::vector<std::vector<int>> values;
};

/// The default space for `base` on `design` with `gpus` GPUs (0: all accelerators):
/// TP powers of two up to the scale-up domain size; CP 1, 2, 4, 8; PP every divisor of the GPU
/// count up to the layer count; EP 1 for a dense model, powers of two dividing the experts (up
/// to the GPU count) for MoE, which may span TP, CP and DP ranks (Megatron-Core's parallel
/// folding: validate() keeps those dividing tp * cp * dp / etp); for MoE also expert TP as TP
/// and 1, and the dispatchers alltoall, deepep and hybridep; schedule 1F1B and interleaved 1F1B
/// (GPipe has 1F1B's bubble and more memory, Narayanan et al. 2021 sec. 2.2: fix schedule=gpipe to
/// plan it); virtual stages 1, 2, 4, 8 (with interleaving only); micro-batch 1, 2, 4, 8;
/// recomputation none, selective, full; ZeRO 0-3; TP overlap only the base workload's: whether
/// the training stack overlaps TP communication (Megatron-Core --tp-comm-overlap, Transformer
/// Engine userbuffers) is the user's to say, and in the simulator it never slows a step (the
/// collectives run beside the compute, schedule.cpp), so searching both would double the plan
/// to find "on" ahead (`--fix overlap_tp=on` plans with it); for MoE the EP all-to-all overlap
/// off and on (Megatron-Core --overlap-moe-expert-parallel-comm: it costs the SMs the
/// dispatcher holds beside the compute and one more warm-up forward's activations, so it may
/// lose; the planner counts the layouts Megatron-Core refuses with it as infeasible). The base
/// workload's own value of each knob is always included. Values are sorted.
PlanSpace defaultPlanSpace(const Design &design, const Workload &base, long long gpus = 0);

/// Pins knobs: "tp=8,pp=16,recompute=selective". Throws std::invalid_argument naming the
/// unknown knob or bad value (and the known knobs), a knob pinned to two values, or pinned
/// degrees no candidate can take on the space's GPUs (TP x CP x PP not dividing them, EP not
/// dividing GPUs / PP), with the numbers.
void fixKnobs(PlanSpace &space, const std::string &spec);

/// One candidate: a training configuration and a rank order (Placement::order) for it.
/// `index` numbers the candidates in enumeration order (what --shard splits by).
struct PlanCandidate
{
    long long index = 0;
    TrainingConfig config;
    std::string order;
};

/// Rank orders tried for `c` on domains of `domainSize` accelerators: the permutations of its
/// parallel dimensions of degree > 1 in either of Megatron-Core's rank generators (attention:
/// tp, cp, dp, pp; experts: etp as "tp", ep, expert-dp as "dp", pp; placement.h), keeping TP
/// and expert TP inside one scale-up domain when they fit (the ranks placed before them times
/// their degree divide the domain size: Megatron's TP-fastest rule, Narayanan et al. 2021 sec.
/// 3.3), dropping orders under which the two generators disagree on a rank's pipeline stage
/// (RankMap refuses them) and all but the first of orders giving the same groups in both. DP
/// then runs along rails whenever TP fills the domain. "tp" when every degree is 1. Sorted.
std::vector<std::string> placementOrders(const TrainingConfig &c, int domainSize);

/// `order` (dimension names joined by '-') without the dimensions of degree 1 in both rank
/// generators, which place no rank: the form placementOrders() gives ("tp-cp-ep-dp-pp" with TP,
/// CP and PP 1 is "ep-dp"); "tp" when every degree is 1.
std::string effectiveOrder(const TrainingConfig &c, const std::string &order);

/// Calls `visit(config, dpIntegral)` for each configuration of the space in enumeration order
/// (knob order, first knob slowest), skipping meaningless combinations (virtual stages without
/// interleaving, interleaving with one stage or one virtual stage, an explicit expert TP equal
/// to TP when "as TP" is searched too, other dispatchers and EP overlap values than the first
/// without EP, other TP overlap values than the first without TP). `dpIntegral`
/// is false when tp * cp * pp does not divide the GPU count (then dp is 0). Returns the number
/// visited.
long long forEachConfig(const PlanSpace &space,
                        const std::function<void(const TrainingConfig &, bool)> &visit);

/// "TP 8 · PP 16 · DP 128 · interleaved v4 · b 1 · selective · ZeRO 1 · tp-dp-pp" (" · TP overlap"
/// and " · EP overlap" before the order when TP collectives or the EP exchange overlap compute).
std::string describeCandidate(const TrainingConfig &c, const std::string &order);

} // namespace weft
