#include "sim/memoryheadroom.h"

#include <cstdio>

namespace weft {

std::vector<Finding> memoryHeadroomFindings(const SimResult &r)
{
    const double capacity = r.memoryCapacityPerGpu, peak = r.peakMemoryPerGpu;
    if (!(capacity > 0) || peak > capacity || peak <= (1 - kMemoryHeadroom) * capacity)
        return {};
    // The stage of the fullest accelerator, and up to 16 of its accelerators as subjects.
    int stage = -1;
    double most = 0;
    for (const AcceleratorResult &a : r.accelerators)
        if (a.memory.total() > most) {
            most = a.memory.total();
            stage = a.stage;
        }
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s needs %.1f of %.1f GB of HBM per accelerator (%.0f%%): less than the %.0f%% "
                  "headroom that the CUDA context, NCCL buffers and allocator fragmentation "
                  "need on top of the estimate; expect out-of-memory errors (raise TP or PP, "
                  "recompute activations, or shard with ZeRO)",
                  stage >= 0 ? ("pipeline stage " + std::to_string(stage)).c_str()
                             : "the fullest accelerator",
                  peak / 1e9, capacity / 1e9, 100 * peak / capacity, 100 * kMemoryHeadroom);
    Finding f {Severity::Warning, kMemoryHeadroomCode, text, {}};
    if (stage >= 0) {
        f.subjects.push_back("stage:" + std::to_string(stage));
        int listed = 0;
        for (const AcceleratorResult &a : r.accelerators)
            if (a.stage == stage && listed++ < 16)
                f.subjects.push_back("node:" + std::to_string(a.node.value));
    }
    return {f};
}

} // namespace weft
