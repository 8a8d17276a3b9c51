#pragma once
// Memory headroom: a warning when the fullest accelerator's estimated memory (weights,
// gradients, optimizer state, activations: sim/schedule.h) leaves less than kMemoryHeadroom of
// its HBM free. The estimate leaves out what a real run adds on top: the CUDA context and
// kernels (~0.5-1 GB), NCCL communication buffers (~1-2 GB with several communicators),
// allocator fragmentation (PyTorch's caching allocator commonly holds 5-10% more than it
// hands out) and temporary buffers; a stage at 99% of HBM in the estimate runs out of memory
// in practice. Sources: PyTorch CUDA memory-management notes; NCCL environment documentation
// (NCCL_BUFFSIZE, 4 MB per channel and peer); Rajbhandari et al. 2020 (ZeRO, Section 3.2,
// "memory fragmentation").

#include "model/finding.h"
#include "sim/result.h"

#include <vector>

namespace weft {

/// Share of HBM the estimate should leave free (10%).
inline constexpr double kMemoryHeadroom = 0.10;

/// Finding code of the warning.
inline constexpr const char *kMemoryHeadroomCode = "memory-headroom";

/// One warning (code kMemoryHeadroomCode) when `r`'s peak memory per accelerator is above
/// (1 - kMemoryHeadroom) of its capacity but still fits (over capacity is the simulator's
/// memory-over-capacity error); it names the stage, the figures and the headroom. Empty
/// otherwise or when the result has no memory figures.
std::vector<Finding> memoryHeadroomFindings(const SimResult &r);

} // namespace weft
