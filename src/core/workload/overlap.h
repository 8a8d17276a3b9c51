#pragma once
// Closed-form exposure of communication that a schedule overlaps with compute: ring context
// parallelism and FSDP parameter prefetch. The simulator's event-driven schedule is the general
// answer; these give the analytic expectation its tests (and a simulator hook) compare with.

#include "workload/model.h"
#include "workload/parallelism.h"

#include <vector>

namespace weft {

/// Ring context parallelism of one layer's attention on one GPU (Liu et al. 2023, "Ring
/// Attention"; Megatron-Core p2p CP): the sequence is split over `cp` ranks; the local K/V
/// block (bytes `blockBytes`) circulates in cp - 1 p2p steps, each overlapped with the
/// attention of the block at hand (`blockAttention` seconds: the layer's attention / cp with
/// causal load balancing). A step taking `stepComm` seconds exposes max(0, stepComm -
/// blockAttention). Returns the exposed seconds of the cp - 1 steps (0 for cp = 1).
double ringCpExposed(int cp, double stepComm, double blockAttention);

/// Bytes of one ring step per GPU and layer: the local K and V, BF16, of b * s / cp tokens and
/// h * g / a / t channels (Megatron-Core sends K and V together).
double ringCpStepBytes(const TransformerSpec &m, const TrainingConfig &c);

/// FSDP prefetch (torchtitan FSDP2, Megatron-FSDP): unit i's parameters are all-gathered while
/// unit i - 1 computes; the first unit's gather is exposed. `gather[i]` and `compute[i]` are
/// the seconds of unit i in execution order. Returns the exposed gather seconds:
/// gather[0] + sum over i >= 1 of max(0, gather[i] - compute[i - 1]) (one gather in flight).
double fsdpPrefetchExposed(const std::vector<double> &gather, const std::vector<double> &compute);

} // namespace weft
