#pragma once
// Compute, memory and communication volumes of one training step (simulator.md, Compute and
// Memory). Per-layer FLOPs follow Korthikanti et al. 2022, App. A, generalised to GQA and gated
// MLPs; times are rooflines over the accelerator's catalog efficiencies; memory follows
// Rajbhandari et al. 2020 (ZeRO) and Korthikanti et al. 2022, Table 2 (activations).

#include "model/hardware.h"
#include "workload/model.h"
#include "workload/parallelism.h"

#include <vector>

namespace weft {

/// Forward FLOPs of transformer layer `i` for `b` sequences, whole layer (not divided by TP/CP).
/// Input projections 2bs x their weights (QKV 2bsh(q + k + v) widths; MLA's down and up
/// projections, DeepSeek-V2 sec. 2.1.2) + attention core (full square; causal masking not
/// halved, as the validation papers count; sliding windows their keys) + output 2bs a d_v h +
/// MLP 2bshf(3 gated | 2); MoE: router 2bshE + k routed and the shared experts at 2bsh f_e (3|2).
double layerForwardFlops(const TransformerSpec &m, int i, double b);
/// Attention core (QK^T and AV) forward FLOPs of a full-attention layer: 2bs^2 a (d_qk + d_v)
/// (= 4bs^2h for multi-head attention with d = h/a); what selective recomputation repeats
/// (Korthikanti 2022 sec. 5). MLA: d_qk = nope + rope, d_v its value dimension.
double attentionCoreFlops(const TransformerSpec &m, double b);
/// The same for layer `i`: a sliding-window layer attends to attendedKeys(i) keys per query.
double attentionCoreFlops(const TransformerSpec &m, int i, double b);
/// Output-layer (logits) forward FLOPs: 2bshV, once on the last stage.
double logitsFlops(const TransformerSpec &m, double b);
/// Model FLOPs of one step (no recomputation): 3 x forward over the global batch. MFU numerator.
double modelFlopsPerStep(const TransformerSpec &m, const TrainingConfig &c);
/// Hardware FLOPs of one step: model FLOPs + recomputed forward work (full: every layer's
/// forward; selective: the attention core). Narayanan et al. 2021 eq. 3 with full recompute.
double hardwareFlopsPerStep(const TransformerSpec &m, const TrainingConfig &c);

/// Cost of running layers [first, first+count) of the model on one accelerator of a stage for one
/// micro-batch (per GPU: GEMMs divided over TP and CP). Times in seconds, FLOPs per GPU.
struct ChunkCost
{
    /// Forward pass; with TrainingConfig::overlapSharedExperts without the shared experts'
    /// GEMMs (sharedExpertForward), which run beside the token exchange.
    double forwardTime = 0;
    /// Backward pass including recomputation (and, likewise, without sharedExpertBackward).
    double backwardTime = 0;
    /// GPU time of the shared experts' GEMMs left out of the times above when they overlap
    /// the dispatch and combine (Megatron-Core --moe-shared-expert-overlap); 0 otherwise.
    double sharedExpertForward = 0, sharedExpertBackward = 0;
    double recomputeTime = 0; ///< part of backwardTime spent recomputing
    double forwardFlops = 0; ///< per GPU
    double recomputeFlops = 0; ///< per GPU
    double memoryBoundTime = 0; ///< element-wise (norms, softmax, activations, dropout) part, fwd
    /// Forward + backward time the GPU waits for the host to launch kernels (included in the
    /// times above; 0 without a per-kernel host time).
    double hostBoundTime = 0;
    /// hostBoundTime's part in forwardTime and in backwardTime (with the recomputation).
    double hostBoundForward = 0, hostBoundBackward = 0;
    /// Kernels the host launches outside CUDA graphs for the forward, the backward and the
    /// recomputed forward (what TrainingConfig::launchOverhead is charged for), per micro-batch.
    double hostLaunches = 0;
    /// The chunk's MoE layers split where Megatron-Core's combined 1F1B EP overlap splits them
    /// (schedule.h EpSlots): the attention side (norms, projections, attention core, router)
    /// and the MLP side (permutes, experts, shared experts, activation), forward and backward
    /// (with its share of recomputation), seconds of the times above in proportion to their
    /// GPU time; 0 without MoE layers.
    double moeAttentionForward = 0, moeMlpForward = 0;
    double moeAttentionBackward = 0, moeMlpBackward = 0;
    /// GPU time of the attention core kernels (QK^T, softmax, AV; fused or not) in forwardTime
    /// and in backwardTime (its backward plus any recomputed attention forward), seconds: the
    /// compute a ring CP exchange of K/V blocks can hide behind (overlap.h ringCpExposed).
    double attentionCoreForward = 0, attentionCoreBackward = 0;
};

/// Kernel-level cost of a model chunk (KernelModel, workload/kernels.h): every linear layer's
/// fprop, dgrad and wgrad GEMM from its own shape (wave quantization, memory-bound regime), in
/// the config's datatype with its quantization casts (castCost: tensorwise/delayed/blockwise/
/// mxfp8/nvfp4 bytes and kernels); the attention core, router and LM head in BF16; the fused
/// attention kernel of the generation (or FA2, or the unfused softmax) with causal masking;
/// memory-bound norms, residual adds, dropouts, RoPE and activations from their bytes (backward
/// twice the bytes); recomputation adds the forward of what it repeats (full: the layers;
/// selective: the modules of recomputeModules, default the attention core). Host side: each
/// kernel costs the host `launchOverhead` seconds to launch (PyTorch/TE eager; none inside
/// CUDA graphs: TrainingConfig::cudaGraphs "layers" capture all but a MoE layer's routed
/// experts, "full-iteration" everything); the host runs ahead of the GPU through the launch
/// queue and the GPU runs each kernel once the previous one has finished and the host has
/// launched it (workload/launchqueue.h), so a run of kernels between host synchronisations takes
/// at least max(GPU time, host time), up to their sum where bursts of small kernels and large
/// ones alternate; the backward runs in reverse order; a MoE layer's forward synchronises once,
/// after its router (the tokens per expert go to the host: Megatron-LM, "Optimizing DeepSeek-V3
/// Training Performance on NVIDIA GB200 NVL72", sec. 2 and 3.1, "CPU overhead"); the backward does
/// not. `withEmbedding` / `withLogits` add the first stage's embedding and the last stage's logits
/// and loss.
ChunkCost chunkCost(const TransformerSpec &m, const TrainingConfig &c, const AcceleratorSpec &acc,
                    int first, int count, bool withEmbedding, bool withLogits);

/// Optimizer step time of one accelerator holding `localParams` parameters (after ZeRO sharding):
/// Adam in fp32 moves 30 bytes per parameter (grad, master, m, v read+write, bf16 copy), memory
/// bound at HBM bandwidth x memory efficiency.
double optimizerTime(double localParams, const AcceleratorSpec &acc);

/// Parameters held by one accelerator of pipeline stage `stage` (all its chunks) before ZeRO:
/// dense parameters / t, expert parameters / (t * ep), embedding on the first stage and output
/// layer on the last, each / t.
struct StageParams
{
    double dense = 0; ///< replicated over DP, elements
    double expert = 0; ///< replicated over DP / EP, elements
    [[nodiscard]] double total() const { return dense + expert; }
};
StageParams stageParams(const TransformerSpec &m, const TrainingConfig &c, int stage);

/// ZeRO-3 / FSDP: bytes per GPU of the parameters gathered for computing, 0 below stage 3. The
/// BF16 parameters of the largest unit (a layer, or the embedding) of the stage, twice: the one
/// computing and the next one being prefetched (Rajbhandari et al. 2020, sec. 5.3; PyTorch FSDP
/// keeps at most two all-gathered units with its default prefetch). Counted with the weights.
double zero3GatherBytes(const TransformerSpec &m, const TrainingConfig &c, int stage);
/// Parameters per GPU of the largest unit (a layer, or the embedding) of `stage`, elements.
double largestUnit(const TransformerSpec &m, const TrainingConfig &c, int stage);

/// Bytes per GPU of the tensors of one training step's communication.
struct CommVolumes
{
    double tpBytes = 0; ///< one TP all-reduce (or RS/AG with sequence parallelism): b s h / c
    double cpBytes = 0; ///< one CP all-gather of K and V (full-sequence size)
    double epBytes = 0; ///< one EP all-to-all in BF16: tokens x k x h (x imbalance)
    /// MoE dispatch and combine per rank (comm.h MoeDispatch / MoeCombine bytes): the rank's
    /// sequence-parallel tokens x k x h x the busiest rank's imbalance, FP8 (1 byte + an fp32
    /// scale per 128) when the linears are low precision and the dispatcher is DeepEP or
    /// HybridEP (DeepEP README: FP8 dispatch, BF16 combine), else BF16; combine BF16.
    double epDispatchBytes = 0, epCombineBytes = 0;
    double ppBytes = 0; ///< one PP p2p per TP rank: b s h / (c t) (scatter-gather)
};
CommVolumes commVolumes(const TransformerSpec &m, const TrainingConfig &c);
/// Bytes per element of the forward dispatch (see CommVolumes).
double dispatchBytesPerElement(const TrainingConfig &c);

/// Memory outside the model states and activations that a training process holds (stated
/// allowances, not measurements of any row):
///  - runtime: the CUDA context, cuBLAS/cuDNN workspaces and loaded kernel modules, outside
///    PyTorch's caching allocator: kCudaRuntimeBytes = 1 GiB (nvidia-smi "used" minus
///    torch.cuda.memory_reserved() on an idle trainer is 0.5-1 GiB on A100/H100 with CUDA 12);
///  - commBuffers: NCCL's per-communicator buffers, kNcclBuffersPerCommunicator = 0.5 GiB for
///    every communicator in use (NCCL_BUFFSIZE 4 MiB x up to 32 channels x send/receive x
///    2 peers for rings and trees = 0.5 GiB; NCCL environment-variable documentation);
///  - fragmentation: what PyTorch's caching allocator reserves beyond what is allocated,
///    kFragmentation = 5% of the states and activations (expandable segments, as Megatron-
///    Bridge and torchtitan set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True).
constexpr double kCudaRuntimeBytes = double(1LL << 30);
constexpr double kNcclBuffersPerCommunicator = double(1LL << 29);
constexpr double kFragmentation = 0.05;
struct MemoryAllowances
{
    double runtime = kCudaRuntimeBytes;
    double commBuffers = 0;
    double fragmentation = kFragmentation; ///< fraction of allocated memory
};
MemoryAllowances memoryAllowances(const TrainingConfig &c);

/// Memory per accelerator, bytes.
struct MemoryBreakdown
{
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double capacity = 0;
    double runtime = 0; ///< CUDA context and library workspaces (MemoryAllowances)
    double commBuffers = 0; ///< NCCL buffers
    double fragmentation = 0; ///< caching-allocator slack
    /// What PyTorch's allocator holds at the peak (torch.cuda.max_memory_reserved()).
    [[nodiscard]] double allocatorReserved() const
    {
        return weights + gradients + optimizer + activations + fragmentation;
    }
    [[nodiscard]] double total() const { return allocatorReserved() + runtime + commBuffers; }
    [[nodiscard]] bool fits() const { return total() <= capacity; }
};

/// Activation bytes of layer `i` for one micro-batch on one GPU: Korthikanti 2022 Table 2
/// (sbh(34 + 5as/h) without parallelism; TP: sbh(10 + 24/t + 5as/(ht)); TP+SP: sbh/t(34 +
/// 5as/h); selective drops the 5as/h term; full keeps the 2sbh layer input), generalised to GQA,
/// gated MLPs, models without dropout (no masks), FP8/FP4 linears (their inputs stored
/// quantized) and recomputation by module (--recompute-modules: layernorm drops the norm
/// outputs, act the MLP activation, mlp / moe the MLP's tensors); FlashAttention stores no
/// score matrix; s is divided by CP.
double layerActivationBytes(const TransformerSpec &m, const TrainingConfig &c, int i);

/// Activation bytes of chunk layers [first, first+count) for one micro-batch on one GPU, plus
/// the first stage's embedding output and the last stage's fp32 logits (4sbV/t) when flagged.
double chunkActivationBytes(const TransformerSpec &m, const TrainingConfig &c, int first, int count,
                            bool withEmbedding, bool withLogits);

/// Memory of one GPU of `stage`: 16 bytes/parameter mixed-precision Adam (2 weights, 2 grads,
/// 12 optimizer; Rajbhandari et al. 2020) sharded over DP x CP (HSDP: its shard group) by the
/// ZeRO stage (1: optimizer, 2: + gradients, 3 / FSDP: + weights); below ZeRO-2 the gradients
/// are Megatron DDP's main-gradient buffer, 4 bytes with TrainingConfig::gradReduceFp32 (6 +
/// 12/d bytes with the distributed optimizer, Megatron-LM dist_optimizer.md); plus
/// `peakActivationBytes` (the most the schedule keeps in flight: the first 1F1B stage holds p
/// micro-batches). Low- precision linears add their cached quantized weights in both layouts (with
/// ZeRO-3 those of the two gathered units), or hold the weights in FP8 alone with fp8 parameter
/// gather. The allowances of memoryAllowances() are added on top.
MemoryBreakdown stageMemory(const TransformerSpec &m, const TrainingConfig &c,
                            const AcceleratorSpec &acc, int stage, double peakActivationBytes);

} // namespace weft
