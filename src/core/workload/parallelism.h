#pragma once
// Training configuration (simulator.md, Inputs 3): parallel degrees, batch, pipeline schedule,
// recomputation, optimizer sharding, datatypes and overlap switches; the split of layers over
// pipeline stages; validation of the combination.

#include "model/hardware.h"
#include "workload/finding.h"
#include "workload/model.h"

#include <string>
#include <vector>

namespace weft {

enum class PipelineSchedule { GPipe, OneFOneB, Interleaved };
enum class Recompute { None, Selective, Full };
/// Attention kernel: FlashAttention (scores never stored) or the unfused softmax of Megatron
/// 2021-22 (scores, softmax and dropout written to HBM: memory-bound, Korthikanti 2022 sec. 5).
enum class AttentionKernel { Flash, Unfused };

/// How one training step is parallelised. World size = tp * cp * dp * pp; EP splits the experts
/// over `ep` ranks inside the DP x CP group (ep divides dp * cp).
struct TrainingConfig
{
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1;
    int vpp = 1; ///< virtual stages (model chunks) per pipeline rank
    int microBatch = 1; ///< b, sequences
    int globalBatch = 1; ///< B, sequences per step
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    Recompute recompute = Recompute::None;
    bool sequenceParallel = false;
    int zeroStage = 0; ///< 0-3 (Rajbhandari et al. 2020)
    bool distributedOptimizer = false; ///< Megatron distributed optimizer (= ZeRO-1 sharding)
    DataType dtype = DataType::BF16;
    AttentionKernel attention = AttentionKernel::Flash;
    bool overlapDpGrad = true; ///< DP gradient reduction overlaps the backward pass
    bool overlapTp = false; ///< TP collectives overlap compute
    bool overlapPp = true; ///< PP p2p overlaps compute (else the sender waits)
    double dpBucketBytes = 160e6; ///< DP gradient bucket size (Megatron: 40M fp32 elements)
    bool gradReduceFp32 = true; ///< DP reduces fp32 gradients (Megatron's default with bf16)
    std::vector<int> stageLayers; ///< explicit layers per model chunk (pp*vpp); empty: auto

    [[nodiscard]] long long worldSize() const { return 1LL * tp * cp * dp * pp; }
    /// Micro-batches per step per pipeline: B / (b * dp).
    [[nodiscard]] int microBatches() const;
    /// Model chunks in total: pp * vpp (vpp is 1 unless the schedule is interleaved).
    [[nodiscard]] int chunks() const;
    /// Effective ZeRO stage (the distributed optimizer counts as stage 1).
    [[nodiscard]] int effectiveZero() const;
};

/// Layers of each model chunk, index = virtual stage k = chunk * pp + stage (Megatron order).
/// Default: as even as possible, with the remainder taken from the first and last chunks, which
/// carry the embedding and the loss (Llama 3 405B: 126 layers on 16 stages = 7, 8 x 14, 7).
std::vector<int> splitLayers(const TransformerSpec &m, const TrainingConfig &c);

/// Checks the combination: divisibility (heads, kv heads, ffn by TP; experts and dp*cp by EP;
/// seq by CP; B by b*dp; micro-batches by pp for interleaving), layers >= pp*vpp, world size <=
/// `accelerators`, explicit split sums. Returns findings (errors make the workload unrunnable).
std::vector<Finding> validate(const TransformerSpec &m, const TrainingConfig &c,
                              std::size_t accelerators);

const char *toString(PipelineSchedule s);
const char *toString(Recompute r);
const char *toString(AttentionKernel a);
bool fromString(const std::string &s, PipelineSchedule &out);
bool fromString(const std::string &s, Recompute &out);
bool fromString(const std::string &s, AttentionKernel &out);

} // namespace weft
