#pragma once
// The planner's admissible lower bound on the step time of a training configuration with its
// placement (issue 16): the simulator can only be slower. It is what that placement cannot
// avoid, at the sustained compute peak and the rates the simulator's links carry:
//
//   * every operation of a pipeline stage runs its chunk's roofline compute (chunkCost(), the
//     simulator's own cost model, on the field-wise best accelerator of the design), one at a time;
//     TP collectives that do not overlap compute and EP all-to-alls follow the compute,
//     overlapped TP collectives run beside it; a CP exchange runs beside the attention it
//     hides behind ((cp-1)/cp of the attention core with ring CP, none with all-gather CP) and
//     the rest of the compute follows it (schedule.cpp commDone);
//   * a collective over n ranks moves at least (n-1)/n of its buffer into each rank (the
//     reduce-scatter or all-gather half of any algorithm, in-network reduction included), an
//     all-reduce the whole buffer (every element's sum of the others, or the result), at no
//     more than the rank's total link capacity (the sum over its links, each at what the
//     simulator's link carries: line rate x the link technology's efficiency);
//   * with the candidate's placement (PlacementGroups), an operation's TP collectives, CP
//     exchange and PP sends, which the ranks of a stage of one DP replica issue together, and
//     a stage's DP x CP collectives, issued together over all its groups, also last at least
//     what they bring into the worst scale-up domain over its scale-out capacity;
//   * what a scale-up domain receives for a group arrives over the scale-out links of the
//     group's members there (PlanHardware::rankScaleOut: between domains the router's
//     accelerators are endpoints, PXN hops on the sender's side), often a few of its NICs: a
//     CP all-gather (the forward's exchange) and a DP x CP all-gather (ZeRO parameters) also
//     last at least their import into the worst domain over those links alone
//     (PlacementGroups::cpOwn, dpOwn); a reduce-scatter's export may leave through any NIC;
//   * the stages run their operations in the simulator's order (stageOrder(): 1F1B,
//     interleaved with Megatron's warm-up, GPipe), each no earlier than its input has arrived
//     (the producer's end plus the p2p at the peak rate) and the stage's previous operation
//     has ended (or its blocking send): the longest path (planschedulebound.h), which holds the
//     pipeline bubble the schedule actually has (Narayanan et al. 2021 sec. 2.2: (m + p - 1)
//     (f + b) for equal stages under 1F1B, (p - 1)(f + b) / v of bubble when interleaved);
//     the closed form lastBackward >= max_s [ sum_{j<s} (F_j + x) + m * W_s + sum_{j<s} (B_j
//     + x) ] is kept beside it;
//   * with ZeRO-3 / FSDP every operation waits for its chunk's bf16 parameters, all-gathered
//     over DP x CP when the previous operation starts (DP overlap: prefetch one ahead) or once
//     the stage is free and the input there (schedule.cpp askGather), in the longest path;
//   * the gradients reduce over DP x CP after the chunk's last backward has started (buckets
//     fill during it); a stage's DP x CP traffic in all (gradients and ZeRO-3 gathers, 2 m of
//     them per chunk) takes at least its sum;
//   * every DP x CP collective of a stage (all its c.tp groups start together: schedule.cpp
//     submitDp) lasts at least what the groups must import into the scale-up domains (a group
//     of n with at most d ranks per domain spans ceil(n/d) domains and imports (D - 1) x its
//     buffer) over the scale-out capacity of the domains that can hold the stage's ranks (at
//     most the domains in use, and at most one per stage rank, or per TP group when TP stays
//     inside a domain; each at most PlanHardware::domainScaleOutMax);
//   * after it, the slowest stage's optimizer step (optimizerTime(): 30 bytes of HBM traffic
//     per local parameter at the best HBM rate), and with ZeRO-1/2 the all-gather of the
//     updated bf16 parameters over DP x CP (Rajbhandari et al. 2020, sec. 5).
//
//   * MoE (parallel folding as simplan.cpp forms it): TP keeps only the attention's collectives
//     in MoE layers whose experts use another expert TP; expert TP adds an all-gather and a
//     reduce-scatter of the dispatched tokens; EP dispatch (FP8 with FP8 linears and DeepEP or
//     HybridEP) and combine move at least the share of their bytes that enters a rank
//     (all-to-all: (n-1)/n; DeepEP/HybridEP send a token once per rank: see epShare), after the
//     compute, or beside it with --overlap-moe-expert-parallel-comm;
//   * the whole step also lasts at least what the DP x CP collectives (gradients, ZeRO-3
//     gathers, ZeRO-1/2 parameter gather) must import into the scale-up domains, over the
//     domains' scale-out capacity: a group of n ranks with at most d in a domain spans
//     ceil(n/d) domains, each of which receives the shards it lacks once.
//
// "Whatever its placement" means among the placements the planner searches (TP inside a
// scale-up domain when it fits, planspace.h), which the scale-out term relies on.
//
// Embedding gradients, expert-DP traffic, PP exposure beyond the transfer itself, latencies
// and contention are left out: they depend on the placement or can overlap.

#include "workload/workload.h"

#include <algorithm>
#include <string>
#include <vector>

namespace weft {

class Design;

/// The fabric figures the bound uses.
struct PlanHardware
{
    /// Field-wise best of the design's accelerators (peaks, HBM bandwidth, efficiencies): no
    /// accelerator computes a chunk faster (the bound's compute). Equal to each one when the
    /// design has one kind.
    AcceleratorSpec best;
    /// `best` with the attention kernels' softmax head dimensions (AttentionEfficiency::
    /// softmaxHeadDim, d0) at their largest instead of their smallest: KernelModel::
    /// headDimFactor falls with d0 at head dimensions below 128 and grows with it above, so
    /// this is the fastest attention for heads wider than 128 (MLA's 160) in a design of
    /// several generations. Equal to `best` when the design has one kind.
    AcceleratorSpec bestWide;
    /// The one of `best` and `bestWide` whose attention is the faster at `m`'s head dimension
    /// (as the cost model computes it: the mean of the query-key and value dimensions).
    [[nodiscard]] const AcceleratorSpec &bestFor(const TransformerSpec &m) const;
    /// Lowest peak x matmul efficiency: what the simulator paces a step by when every
    /// accelerator is used (its HBM capacity is the memory limit).
    AcceleratorSpec slowest;
    /// Most link capacity of one accelerator, bytes/s, per direction. Link capacities here are
    /// what the simulator's links carry: line rate x the link technology's efficiency.
    double linkBytesPerSecond = 0;
    /// Capacity of the links leaving the scale-up domains that hold the ranks, per rank
    /// (bytes/s, per direction): the first `gpus` accelerators in placement order.
    double scaleOutBytesPerSecond = 0;
    /// Most capacity leaving one scale-up domain that holds ranks (bytes/s, per direction).
    double domainScaleOutMax = 0;
    /// Capacity leaving (and, links being full duplex, entering) each scale-up domain, by the
    /// domain index of `rankDomain`, bytes/s per direction.
    std::vector<double> domainScaleOut;
    int domainsInUse = 0; ///< scale-up domains holding at least one of the ranks
    /// Scale-up domain (an index) of each rank r < gpus: that of the r-th accelerator in
    /// placement order (RankMap without an explicit map).
    std::vector<int> rankDomain;
    /// Capacity of each rank's own scale-out links (bytes/s per direction, rank r < gpus: the
    /// r-th accelerator in placement order), the links the router counts as scale-out (not
    /// inside one scale-up domain, no scale-up switch at either end). Every flow from another
    /// domain arrives at an accelerator over these (routing.h: between domains the
    /// accelerators are endpoints of the scale-out graph; PXN hops on the sender's side only),
    /// so what a rank receives from outside its domain passes them. Empty when some ranks'
    /// accelerators do not reach each other over that graph: the router may then deliver over
    /// scale-up links (its fallback of shortest paths over every link), and no claim is made.
    std::vector<double> rankScaleOut;
    int domainAccelerators = 1; ///< accelerators of the largest scale-up domain
    int smallestDomain = 1; ///< of the smallest (an accelerator outside any domain: 1)
    bool valid = false; ///< false when the design has no accelerator with a spec
    /// Every accelerator has the same spec (then `slowest` is the one the simulator paces and
    /// sizes memory by, whatever the placement).
    bool uniform = true;
};
/// The figures of `d` for plans on its first `gpus` accelerators (0: all). The best spec takes
/// the highest of each peak, efficiency (in effect), attention efficiency and sustained clock
/// (AcceleratorSpec::sustainedClock, which the kernels apply to GEMMs and attention), and no
/// wave quantization when the SM counts or tiles differ.
PlanHardware planHardware(const Design &d, long long gpus = 0);

/// Parts of the bound, seconds; total() is the bound.
struct StepBound
{
    double pipeline = 0; ///< compute and unavoidable in-pipeline communication
    double optimizer = 0;
    double parameterGather = 0;
    double scaleOut = 0; ///< the step's DP x CP imports over the domains' scale-out capacity
    /// Per virtual stage (chunk * p + stage), the least time from an operation's start to its
    /// end on its stage, forward and backward, seconds (what the pipeline's longest path takes
    /// for each operation; SimOptions::least).
    std::vector<double> forward, backward;
    /// Per stage boundary s -> s + 1 (mod p), the least time of one PP send, seconds.
    std::vector<double> hops;
    /// Per virtual stage, the least time of its gradients' DP x CP reduction, which starts no
    /// sooner than the chunk's last backward does, seconds.
    std::vector<double> gradient;
    [[nodiscard]] double total() const
    {
        return std::max(pipeline + optimizer + parameterGather, scaleOut);
    }
};

struct PlacementGroups;

/// The lower bound of `c` (already valid: see validate()) for model `m` on `hw`, whatever the
/// placement; with `placement` (placementGroups() of `c`'s layout and rank order) that of this
/// placement: each operation's TP collectives, CP exchange and PP sends also last at least
/// what they bring into the scale-up domains over the domains' scale-out capacity
/// (PlacementGroups::tpDomain, cpDomain, ppDomain).
StepBound stepLowerBound(const TransformerSpec &m, const TrainingConfig &c, const PlanHardware &hw,
                         const PlacementGroups *placement = nullptr);

/// The placement's part of the bound, seconds: what the step's collectives must import into the
/// scale-up domains under rank order `order` (Placement::order, as RankMap numbers the ranks:
/// both of Megatron-Core's generators), over the scale-out capacity of the domains in use. A
/// group of n ranks with d_i of them in its D domains: an all-gather (or the all-gather half of
/// an all-reduce, or a reduce-scatter's mirror image) of S bytes per rank imports S (1 - d_i/n)
/// into domain i, S (D - 1) in all; an all-to-all S d_i (n - d_i) / n; DeepEP / HybridEP send
/// a token once per destination domain, S / k x P_dom x n (D - 1) (collectivesmoe.h). Counted:
/// the DP x CP gradients and ZeRO gathers, TP all-reduces (or their SP pairs), CP all-gathers
/// (all-gather CP only) and the EP dispatches and combines, per micro-batch as the simulator
/// issues them. 0 when the order is invalid or `hw` has no scale-out capacity.
double placementLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const std::string &order, const PlanHardware &hw);

/// How the groups of a placement spread over the domains, per pipeline stage: the sums over the
/// stage's groups of (D - 1) for TP, CP and DP x CP, and for EP of sum_i d_i (n - d_i) / n
/// (all-to-all) and n (D - 1) P_dom (DeepEP / HybridEP). Depends on the parallel degrees and
/// the order only, so a plan computes it once per layout. `valid` false: no claim.
///
/// Beside those step totals, what one operation's collectives cost at the least (lockstep()):
/// the ranks of one pipeline stage of one DP replica run an operation together (one timeline in
/// the simulator, sim/schedule.cpp), so their TP collectives, their CP exchange and their PP
/// sends cross the domain boundaries together. A collective of buffer S over n ranks, d_i of
/// them in domain i, brings S (n - d_i) / n into domain i (the other ranks' shards, or for an
/// all-reduce at least that of the others' sum) and a reduce-scatter sends as much out; a PP
/// send crossing a boundary brings its bytes in and out once. So an operation's collectives
/// last at least max_i (what all of them bring into domain i) / (domain i's scale-out
/// capacity): `tpDomain` and `cpDomain` per stage in seconds per byte of one call's buffer,
/// `ppDomain` per stage boundary s -> s + 1 (mod p, the sim's pair lists) in seconds per byte
/// of one pair's send; each the least over the DP replicas (each replica's pipeline bounds the
/// step). The DP x CP collectives of a stage start together over all its groups (schedule.cpp
/// submitDp): `dpDomain` per stage, seconds per byte of one rank's buffer, from all of them.
///
/// What a domain receives for a group passes the scale-out links of the group's members there
/// (PlanHardware::rankScaleOut), often a few of the domain's NICs: `cpOwn` (per stage, seconds
/// per byte of one call's buffer, the least replica) and `dpOwn` (per stage, seconds per byte
/// of one rank's buffer, all the stage's DP x CP groups) are the worst domain's import over
/// those links alone. Imports only: they bound all-gathers (the forward's CP exchange, the
/// DP x CP ZeRO parameter gathers), not a reduce-scatter (the CP backward's, the gradients'),
/// whose domain export may leave through any NIC of the domain (PXN). Empty without
/// PlanHardware::rankScaleOut.
struct PlacementGroups
{
    std::vector<double> tp, cp, dp, epAllToAll, epDeepEp;
    std::vector<double> tpDomain, cpDomain, ppDomain, dpDomain;
    std::vector<double> cpOwn, dpOwn;
    bool valid = false;
};
PlacementGroups placementGroups(const TransformerSpec &m, const TrainingConfig &c,
                                const std::string &order, const PlanHardware &hw);
/// placementLowerBound() from precomputed groups of `c`'s layout.
double placementLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const PlacementGroups &g, const PlanHardware &hw);

/// The bound of one candidate, `c` under the placement of `g` (placementGroups()), seconds:
/// the larger of stepLowerBound() with that placement and placementLowerBound(). What the
/// planner prunes by.
double candidateLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const PlacementGroups &g, const PlanHardware &hw);
double candidateLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const std::string &order, const PlanHardware &hw);

} // namespace weft
