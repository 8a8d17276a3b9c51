#pragma once
// Internal: turns a design's workload into the schedule's input (work per model chunk,
// communication groups, DP replicas to simulate) and per-stage memory. Used by simulator.cpp.

#include "model/design.h"
#include "sim/result.h"
#include "sim/schedule.h"
#include "workload/placement.h"

#include <memory>
#include <optional>
#include <vector>

namespace weft {

/// SMs NCCL's all-to-all holds while it runs: one CTA per p2p channel (enqueue.cc plans the
/// grouped sends over comm->p2pnChannels channels, one block each), p2pnChannels =
/// pow2Up(min(nChannels, NCCL_MAX_P2P_NCHANNELS = 64)) (src/graph/paths.cc
/// ncclTopoComputeP2pChannels). nChannels on an 8-GPU server with one 400G NIC per GPU: the
/// ring search gives one channel per NIC at 48 GB/s (sm90SpeedArrayInter's first speed), which
/// Hopper and later do not duplicate below 50 GB/s with more than 4 channels (search.cc
/// ncclTopoDupChannels), and connect.cc doubles the rings: 2 x 8 = 16 (NCCL 2.27, read at
/// 5067397). Taken for every system (the search is not modelled). While the exchange overlaps
/// compute (1F1B A2A overlap) the compute runs on the other SMs (ScheduleSpec::epSmFraction).
inline constexpr double kNcclP2pChannels = 16;

/// A parallel group as reported in SimResult::groups, indexed by its request tag.
struct GroupMeta
{
    std::string kind;
    int index = 0;
    std::vector<NodeId> members;
};

/// Everything prepared before the event loop.
struct SimPlan
{
    std::vector<Finding> findings; ///< errors stop the simulation
    std::unique_ptr<RankMap> ranks;
    AcceleratorSpec accelerator; ///< the slowest accelerator of the job
    /// Mean peak FLOP/s of the job's accelerators at its dtype (MFU's denominator per GPU: each
    /// GPU against its own peak).
    double meanPeakFlops = 0;
    ScheduleSpec schedule;
    std::vector<int> unitPipeline; ///< outer DP index -> simulated pipeline
    std::vector<GroupMeta> groups; ///< by tag
    std::vector<MemoryBreakdown> stageMemory;
    std::vector<double> stageComputeTime; ///< forward + backward of all chunks, one micro-batch
    bool symmetric = false; ///< replicas were merged
};

/// Builds the plan; findings explain anything that prevents simulation. `exploitSymmetry`
/// merges identically placed replicas where that cannot change the answer (see SimOptions).
SimPlan buildPlan(const Design &d, const Workload &w, bool exploitSymmetry);

} // namespace weft
