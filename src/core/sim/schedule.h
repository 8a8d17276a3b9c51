#pragma once
// Discrete-event simulation of pipeline-parallel training (simulator.md, Schedule): every stage
// is a timeline of forward/backward micro-batch operations ordered by the schedule (GPipe, 1F1B,
// interleaved 1F1B; Narayanan et al. 2021 sec. 2.2); an operation starts when its stage is free
// and its input has arrived over the network; TP/CP/EP collectives of a model chunk are
// aggregated into one request per group and operation; PP activations and gradients are p2p
// requests; DP gradients are reduced in buckets as the backward pass produces them.

#include "model/ids.h"
#include "sim/comm.h"
#include "sim/leasttimes.h"
#include "sim/pipelineorder.h"
#include "sim/result.h"
#include "workload/costmodel.h"
#include "workload/parallelism.h"

#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace weft {

/// Megatron-Core's combined 1F1B EP overlap (TrainingConfig::overlapEp) runs a forward and
/// another micro-batch's backward layer by layer in four slots, each on the compute stream
/// beside one exchange on the communication stream (megatron/core/pipeline_parallel/
/// combined_1f1b.py, schedule_layer_1f1b): B.combine-gradient || F.attention, F.dispatch ||
/// B.MLP, B.dispatch-gradient || F.MLP, F.combine || B.attention. A slot takes the longer of
/// its compute and its exchange, so an exchange hides only behind its own slot's compute, not
/// behind the whole partner operation. The slots of one operation's exchange: the first and
/// second exchange of its calls (forward: dispatch, combine; backward: combine-gradient,
/// dispatch-gradient), each beside the partner's compute of that slot. The schedule runs each
/// steady pair as one operation (runSchedule): both exchanges one after the other (the
/// backward's first, as the slots order them), compute F + B, and the pair lasts its compute
/// plus both exchanges' exposures, at least as long as the exchanges.
struct EpSlots
{
    /// Fraction of the operation's exchange time spent in the first exchange (by bytes).
    double firstShare = 0.5;
    /// Partner compute beside the first and the second exchange, seconds (summed over the
    /// chunk's MoE layers). The defaults hide any exchange (the whole-operation overlap).
    double hideFirst = std::numeric_limits<double>::infinity();
    double hideSecond = std::numeric_limits<double>::infinity();
    /// Time the slots add to the operation's own compute when its exchange takes `exchange`
    /// seconds: max(0, f x - hideFirst) + max(0, (1 - f) x - hideSecond).
    [[nodiscard]] double exposure(double exchange) const;
};

/// Work of one virtual stage (model chunk) for one micro-batch, per GPU.
struct ChunkWork
{
    double forwardTime = 0;
    double backwardTime = 0; ///< including recomputation
    /// Compute that runs beside the chunk's exposed EP exchange, after forwardTime /
    /// backwardTime (the shared experts with --moe-shared-expert-overlap), seconds.
    double sideForward = 0, sideBackward = 0;
    /// Parts of forwardTime / backwardTime during which the GPU waits for the host to launch
    /// its kernels (ChunkCost::hostBoundForward / hostBoundBackward), seconds.
    double hostForward = 0, hostBackward = 0;
    std::vector<CollectiveCall> tpForward, tpBackward; ///< over each TP group
    /// Over each CP group; they start with the compute and hide behind cpWindowForward /
    /// cpWindowBackward seconds of it (the attention core): the rest of the compute (the
    /// layers' projections and MLPs) needs the attention's output, so a CP exchange ending
    /// later than start + window delays the compute's end by as much (Liu et al. 2023, Ring
    /// Attention; per layer, time = other compute + max(attention, K/V exchange), summed over
    /// the chunk's layers alike).
    std::vector<CollectiveCall> cpForward, cpBackward;
    double cpWindowForward = 0, cpWindowBackward = 0;
    std::vector<CollectiveCall> epForward, epBackward; ///< over each EP group
    std::vector<CollectiveCall> etpForward, etpBackward; ///< over each expert-TP group
    /// Slots of the forward's and the backward's exchange under the 1F1B EP overlap, hidden
    /// behind this chunk's own compute of the other direction: epSlotsForward's hides are this
    /// chunk's backward halves (MLP, attention), epSlotsBackward's its forward halves. A pair
    /// of chunks a (forward) and b (backward) exposes a's exchange beside b's halves
    /// (firstShare of a's epSlotsForward, hides of b's) and b's beside a's.
    EpSlots epSlotsForward, epSlotsBackward;
    double gradBytes = 0; ///< DP gradient bytes per GPU of this chunk (dense + expert)
    double expertGradBytes = 0; ///< part of gradBytes reduced over the expert-DP groups (EP > 1)
    /// ZeRO-3: bf16 parameter bytes per GPU all-gathered before each forward and each backward
    /// of this chunk (dense over the DP groups, expert over the expert-DP groups), one
    /// all-gather per layer (Rajbhandari et al. 2020 sec. 5.3 and 7.2.2).
    double gatherBytes = 0, expertGatherBytes = 0;
    int layers = 0; ///< DP buckets never split a layer
};

/// A communication group: its members in rank order and a tag passed with its requests (so the
/// network can report the links the group's traffic crossed).
struct CommGroup
{
    std::vector<NodeId> members;
    int tag = -1;
};

/// The communication groups of one simulated pipeline (a unit of `ep` DP replicas that EP
/// couples), per stage.
struct PipelineGroups
{
    std::vector<std::vector<CommGroup>> tp, cp, ep; ///< [stage][group]
    std::vector<std::vector<CommGroup>> etp; ///< [stage][group]; only when ETP differs from TP
    std::vector<CommGroup> ppPairs; ///< [stage s] members = pairs (src in s, dst in s+1 mod p)
    /// [stage s][pair] rate cap of the forward (s -> s+1) and backward (s+1 -> s) send of each
    /// pair of ppPairs[s], bytes/s (+inf: none); empty when no send is capped. The lockstep
    /// share of merged replicas' sends on a link they over-demand (lockstepshare.h).
    std::vector<std::vector<double>> ppForwardCap, ppBackwardCap;
};

/// Everything the schedule needs; built by the Simulator from the workload and placement.
/// DP traffic: gradients are reduced in buckets (all-reduce, or reduce-scatter when sharded);
/// with ZeRO-1/2 the updated parameters are all-gathered after the optimizer step; with ZeRO-3
/// (`gatherParams`) each operation first all-gathers its chunk's parameters: with `overlapDp`
/// the gather of a stage's next operation is issued when the current one starts computing
/// (prefetch), otherwise when the operation could start, which exposes it. An all-gather
/// starts once every simulated replica has asked for it (the group is shared).
struct ScheduleSpec
{
    int p = 1, m = 1, v = 1;
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    bool overlapTp = false, overlapPp = true, overlapDp = true;
    /// EP dispatch/combine of the steady phase's operations overlap compute (Megatron-Core's
    /// combined 1F1B: each forward paired with another micro-batch's backward and run as one
    /// operation, so one's token exchange hides behind the other's compute; EpSlots); the
    /// warm-up forwards (one more, stageOrder()) and cool-down backwards, which have no
    /// partner, keep it exposed.
    bool overlapEp = false;
    /// Fraction of the SMs the dispatcher's kernels hold while they overlap compute (DeepEP
    /// normal kernels: 24 of an H800's 132 SMs, DeepEP README; NCCL's all-to-all one per p2p
    /// channel, simplan.h kNcclP2pChannels); the overlapped compute runs that much slower while
    /// they are in flight. 0: not modelled.
    double epSmFraction = 0;
    bool shardedGrads = false; ///< reduce-scatter gradients + all-gather parameters (ZeRO >= 1)
    bool gatherParams = false; ///< ZeRO-3: per-operation parameter all-gathers (see above)
    double dpBucketBytes = 160e6;
    double ppBytes = 0; ///< per pair and micro-batch
    std::vector<ChunkWork> chunks; ///< by virtual stage (chunk * p + stage)
    std::vector<PipelineGroups> pipelines; ///< the pipelines simulated
    std::vector<std::vector<CommGroup>> dpGroups; ///< [stage][group] all DP groups
    std::vector<std::vector<CommGroup>> expertDpGroups; ///< [stage][group]; empty without EP
    std::vector<double> paramBytes; ///< [stage] bf16 parameter bytes per GPU (AG over DP)
    std::vector<double> expertParamBytes; ///< [stage] part gathered over expert-DP (EP > 1)
    std::vector<double> optimizerTime; ///< [stage]
    std::uint64_t maxEvents = 50'000'000;
    /// Simulated seconds: stop as soon as the step is known to last longer (the planner's K-th
    /// best step time; see ScheduleOutcome::stopped). +infinity: run to the end.
    double stopAfter = std::numeric_limits<double>::infinity();
    /// A stopAfter the caller may lower while the schedule runs (SimOptions::stopAfterShared).
    const std::atomic<double> *stopShared = nullptr;
    LeastTimes least; ///< with stopAfter (SimOptions::least)
};

/// One executed operation (absolute times, seconds).
struct OpRecord
{
    StageOp op;
    double start = 0, computeEnd = 0, commEnd = 0, end = 0;
    double ready = 0; ///< input arrival
    double gatherWait = 0; ///< ZeRO-3: time the op waited for its parameter all-gather
    double producerEnd = 0; ///< end of the producing operation (before transfer)
    double tpDone = 0, cpDone = 0, epDone = 0;
    double sideDone = 0; ///< end of the compute beside the exchange (ChunkWork::sideForward)
    /// Time the compute waited for the CP exchange beyond its window (ChunkWork::cpWindow*),
    /// included in computeEnd - start; the breakdown counts it as exposed CP.
    double cpStall = 0;
};

struct ScheduleOutcome
{
    bool ok = false;
    bool cancelled = false;
    /// Stopped once the step is known to last longer than ScheduleSpec::stopAfter: at the
    /// first event past it, or when an operation starts whose stage's remaining compute and
    /// the optimizer end past it (`stepTime` holds that least step, above the limit).
    bool stopped = false;
    double stopLimit = 0; ///< the limit it stopped past (ScheduleSpec::stopShared may fall)
    std::string errorCode; ///< "schedule-deadlock", "event-bound-reached", "comm-error"
    std::string error;
    std::vector<std::vector<std::vector<OpRecord>>> ops; ///< [pipeline][stage] in order
    double lastBackwardEnd = 0;
    double stepTime = 0;
    Breakdown breakdown;
    /// The stage the breakdown follows: the one busy longest (ties: the one ending last).
    int criticalPipeline = 0, criticalStage = 0;
    std::uint64_t events = 0;
};

/// Progress callback: fraction done in [0, 1]; return false to cancel.
using ProgressFn = std::function<bool(double)>;

/// Runs one training step. Never throws: communication errors become `errorCode` "comm-error".
ScheduleOutcome runSchedule(const ScheduleSpec &spec, CommBackend &comm,
                            const ProgressFn &progress = {});

} // namespace weft
