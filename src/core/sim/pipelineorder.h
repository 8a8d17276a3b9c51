#pragma once
// The order a pipeline stage runs its forward and backward micro-batch operations in (GPipe,
// 1F1B, interleaved 1F1B; Narayanan et al. 2021 sec. 2.2, Megatron-LM schedules.py) and the
// activation memory that order holds; shared by the simulator's schedule (schedule.h), the
// planner's bound and the memory the Partitions dock shows.

#include "workload/costmodel.h"
#include "workload/parallelism.h"

#include <vector>

namespace weft {

/// One entry of a stage's schedule order. `chunk` is the model chunk on this rank (0..v-1); the
/// virtual stage is chunk * p + stage.
struct StageOp
{
    bool forward = true;
    int microBatch = 0;
    int chunk = 0;
};

/// Order of operations of `stage` for m micro-batches, p stages and v chunks per rank
/// (Megatron-LM schedules.py: 1F1B warm-up p-s-1 forwards; interleaved warm-up
/// (p-s-1)*2 + (v-1)*p, micro-batches in groups of p per chunk). With `epOverlap` (the
/// combined 1F1B EP overlap, ScheduleSpec::overlapEp) the 1F1B and interleaved schedules run
/// one more warm-up forward, so that every steady pair's forward and backward are independent
/// (Megatron-LM schedules.py get_pp_rank_microbatches: "we schedule one extra micro-batch
/// forward step before the 1f1b stages"; with PP = 1 combined_1f1b_schedule_for_no_pipelining
/// pairs F(i+1) with B(i) alike). GPipe has no pairs and ignores it.
std::vector<StageOp> stageOrder(PipelineSchedule schedule, int p, int m, int v, int stage,
                                bool epOverlap = false);

/// Forwards a stage runs before its first backward in stageOrder() (the same arguments); the
/// steady pairs (forward, backward) follow them. GPipe: m.
int warmupForwards(PipelineSchedule schedule, int p, int m, int v, int stage,
                   bool epOverlap = false);

/// Whether a training step runs Megatron-Core's combined 1F1B EP overlap: asked for
/// (TrainingConfig::overlapEp) on a MoE model with EP > 1 and a 1F1B or interleaved schedule.
bool combinedEpOverlap(const TransformerSpec &m, const TrainingConfig &c);

/// Most activation bytes held at once by a stage running `order`, with `chunkBytes[chunk]`
/// held from a forward until its backward (the first 1F1B stage holds p micro-batches). With
/// `pairsFrom` >= 0 (the warm-up count, warmupForwards()) each forward from that index on
/// followed by a backward is a combined 1F1B pair, which runs layer by layer (Megatron-Core
/// combined_1f1b.py schedule_layer_1f1b): the forward's activations grow as the backward's
/// are freed, so the pair adds at most max(0, F - B) on top of what is held before it.
double peakActivationBytes(const std::vector<StageOp> &order, const std::vector<double> &chunkBytes,
                           int pairsFrom = -1);

/// Memory of one GPU of each pipeline stage (index = stage) on `acc`: stageMemory() with the
/// peak activations of the stage's schedule (chunkActivationBytes() of its chunks held from
/// forward to backward). Shared by the simulator's plan and the Partitions dock.
std::vector<MemoryBreakdown> stageMemories(const TransformerSpec &m, const TrainingConfig &c,
                                           const AcceleratorSpec &acc);

} // namespace weft
