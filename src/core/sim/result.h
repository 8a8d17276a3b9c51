#pragma once
// The result of simulating one training step (simulator.md, Outputs): the same object feeds the
// GUI, the CLI JSON/CSV and the result file. Units: seconds, bytes, bytes/s, FLOP/s.

#include "model/ids.h"
#include "workload/costmodel.h"
#include "workload/finding.h"

#include <string>
#include <vector>

namespace weft {

/// Critical-path decomposition of the step; the parts sum to the step time.
struct Breakdown
{
    double compute = 0; ///< forward, backward and recomputation on the critical stage
    double tpExposed = 0; ///< TP collectives not hidden behind compute
    double cpExposed = 0;
    double epExposed = 0;
    double ppExposed = 0; ///< waiting for activations/gradients in transit between stages
    double bubble = 0; ///< waiting for upstream/downstream stages to compute
    double dpExposed = 0; ///< DP gradient reduction (and parameter all-gather) after the backward
    double optimizer = 0;
    /// Part of `compute` during which the GPU waits for the host to launch its kernels
    /// (TrainingConfig::launchOverhead; costmodel.h chunkCost): inside compute, not a term of
    /// sum(); 0 without a per-kernel host time.
    double hostBound = 0;
    [[nodiscard]] double sum() const
    {
        return compute + tpExposed + cpExposed + epExposed + ppExposed + bubble + dpExposed
            + optimizer;
    }
};

/// One operation of an accelerator's timeline (the Gantt chart).
struct TimelineOp
{
    enum class Kind { Forward, Backward, DpComm, Optimizer };
    Kind kind = Kind::Forward;
    int microBatch = -1;
    int chunk = -1; ///< model chunk (virtual stage index on this rank)
    double start = 0;
    double computeEnd = 0; ///< end of the compute part
    double end = 0; ///< end including exposed communication
};

/// Per accelerator: its rank, stage, timeline (shared by the TP/CP ranks of a stage: index into
/// SimResult::timelines) and memory.
struct AcceleratorResult
{
    NodeId node;
    int rank = -1;
    int stage = -1;
    int timeline = -1;
    MemoryBreakdown memory;
};

/// Per link direction: bytes carried, busy time, utilization average/peak and series.
struct LinkDirResult
{
    double bytes = 0;
    double busyTime = 0;
    double avgUtilization = 0; ///< bytes / (achievable capacity x step time)
    double peakUtilization = 0;
    std::vector<float> series; ///< utilization per time bucket over the step
};

struct LinkResult
{
    LinkId id;
    NodeId from; ///< end a (direction 0 is a -> b)
    NodeId to;
    std::string tier; ///< "scale-up", "leaf", "spine", "core" or "nic"
    double capacity = 0; ///< line rate per direction, bytes/s
    LinkDirResult dir[2];
};

/// Which links a parallel group's traffic crossed (for highlighting a TP group or a DP ring).
struct GroupTraffic
{
    std::string kind; ///< "tp", "cp", "ep", "dp", "pp"
    int index = 0;
    std::vector<NodeId> members;
    std::vector<LinkId> links;
};

/// Everything one simulation produces. `ok` is false when an error finding prevented the
/// simulation (the warnings say why); the numbers are then zero.
struct SimResult
{
    bool ok = false;
    bool cancelled = false;
    /// The step was stopped once it was known to last longer than SimOptions::stopAfter (`ok`
    /// false; `stepTime` is the least step known then: above the limit, at most the step).
    bool stopped = false;
    double stepTime = 0;
    double tokensPerSecond = 0;
    double modelTflopsPerGpu = 0; ///< model FLOPs (no recomputation) / step / GPU, TFLOP/s
    double hardwareTflopsPerGpu = 0; ///< with recomputation (Narayanan 2021 eq. 3)
    double mfu = 0; ///< model FLOP/s per GPU / peak
    double hfu = 0; ///< hardware FLOP/s per GPU / peak
    Breakdown breakdown;
    double peakMemoryPerGpu = 0; ///< bytes, the fullest accelerator
    double memoryCapacityPerGpu = 0; ///< bytes, of that accelerator
    bool memoryFits = true;
    std::vector<LinkResult> links;
    std::vector<AcceleratorResult> accelerators;
    std::vector<std::vector<TimelineOp>> timelines;
    std::vector<GroupTraffic> groups;
    std::vector<Finding> warnings;
    double simulationWallSeconds = 0;
    std::uint64_t events = 0; ///< events processed by the simulator
};

} // namespace weft
