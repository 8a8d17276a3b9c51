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
/// Attention kernel: the accelerator generation's fused kernel ("flash": FlashAttention-2 on
/// Ampere, FlashAttention-3 / cuDNN on Hopper, cuDNN on Blackwell), FlashAttention-2 itself
/// ("fa2": PyTorch SDPA's flash backend on any GPU), or the unfused softmax of Megatron 2021-22
/// (scores, softmax and dropout written to HBM: memory-bound, Korthikanti 2022 sec. 5).
enum class AttentionKernel { Flash, FlashAttention2, Unfused };
/// Scaling recipe of the low-precision linear layers (Transformer Engine / torchao names):
/// "delayed" (per-tensor, scale from the amax history), "tensorwise" (per-tensor current
/// scaling: an amax pass before each cast), "blockwise" (Hopper 1x128 activations / 128x128
/// weights, DeepSeek-V3), "mxfp8" (Blackwell, 32-element blocks with E8M0 scales), "nvfp4"
/// (Blackwell FP4, 16-element blocks with E4M3 scales plus a per-tensor scale).
enum class Fp8Recipe { Delayed, Tensorwise, Blockwise, Mxfp8, Nvfp4 };
/// Context parallelism: "all-gather" of K and V before the attention (Llama 3, Dubey et al. 2024
/// sec. 3.3.2: its latency is exposed) or "ring" (K/V blocks passed peer to peer, each overlapped
/// with the attention of the previous block; Megatron-Core's p2p CP, its default, causal load
/// balanced). The simulator charges what exceeds that overlap (sim/schedule.h ChunkWork).
enum class CpKind { AllGather, Ring };
/// How TP communication overlaps compute (TrainingConfig::overlapTp): Transformer Engine's
/// userbuffers (Megatron-Core --tp-comm-overlap: GEMMs split or run beside communication kernels
/// that hold SMs; costmodel.cpp kUserbufferCommSms) or PyTorch's asynchronous TP (torchtitan's
/// AsyncTP: GEMMs decomposed into TP chunks, the transfers on copy engines, no SMs held).
enum class TpOverlapKind { Userbuffers, AsyncTp };
/// What CUDA graphs capture, so that the host launches no kernel of it (costmodel.h chunkCost):
/// "none" (eager: every kernel costs the host TrainingConfig::launchOverhead), "layers" (the
/// static parts of each layer: Megatron-Core --cuda-graph-impl transformer_engine with scopes
/// attn, mlp, moe_router, moe_preprocess; a MoE layer's routed experts, whose shapes depend on
/// the routing, stay eager after the host learns the tokens per expert) or "full-iteration"
/// (Megatron-Core --cuda-graph-impl full_iteration: the forward and backward of every
/// micro-batch replayed as one graph, the routed experts and the token dispatch included, which
/// needs static expert buffers and so no host synchronisation: Megatron-Core's "sync-free"
/// experts, HybridEP and Transformer Engine's fused grouped MLP with buffers pre-sized by
/// moe_expert_rank_capacity_factor, the GEMMs still running the routed tokens only - Megatron-LM
/// docs/user-guide/features/paged_stash.md, as Megatron-Bridge 26.08's MoE recipes run it). The
/// host then launches nothing in the forward and backward.
enum class CudaGraphScope { None, Layers, FullIteration };
/// Modules whose activations are recomputed in the backward pass instead of stored
/// (Megatron-Core --recompute-modules), as bits.
enum RecomputeModule : unsigned {
    kRecomputeCoreAttn = 1u << 0, ///< attention core (scores; FlashAttention recomputes anyway)
    kRecomputeMlp = 1u << 1, ///< the whole dense MLP
    kRecomputeLayerNorm = 1u << 2, ///< both norms (their outputs)
    kRecomputeAct = 1u << 3, ///< the MLP activation (SwiGLU / GeLU output)
    kRecomputeUpProj = 1u << 4, ///< MLA up-projections (DeepSeek); QKV outputs here
    kRecomputeMoe = 1u << 5, ///< the whole MoE block
    kRecomputeMoeAct = 1u << 6, ///< the experts' activation
    kRecomputeSharedExperts = 1u << 7,
};

/// Expert-parallel token dispatcher (Megatron-Core --moe-token-dispatcher-type alltoall, or flex
/// with --moe-flex-dispatcher-backend deepep | hybridep).
enum class TokenDispatcher { AllToAll, DeepEP, HybridEP };

/// How one training step is parallelised. World size = tp * cp * dp * pp. MoE layers fold the
/// same ranks differently (Megatron-Core "MoE parallel folding", parallel_state.py): attention
/// runs over TP x CP x DP, the experts over ETP x EP x expert-DP with etp * ep * edp = tp * cp *
/// dp, so EP may span TP, CP and DP ranks (see RankMap).
struct TrainingConfig
{
    int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1;
    /// Expert tensor parallelism; 0: the same as TP (Megatron-Core: --expert-tensor-parallel-size
    /// unset means tensor_model_parallel_size; parallel_state.initialize_model_parallel and the
    /// MoE README's argument table).
    int etp = 0;
    TokenDispatcher dispatcher = TokenDispatcher::AllToAll;
    /// Tokens received by the busiest expert rank over the mean (>= 1): 1 = force-balanced
    /// routing as the Megatron-Bridge benchmarks run (--moe-router-force-load-balancing); a
    /// measured imbalance, or the capacity factor of a dropping router (tokens above capacity
    /// are dropped, so the busiest rank receives at most that factor). The busiest rank sets
    /// the pace of the experts' GEMMs and of the dispatch and combine.
    double moeImbalance = 1.0;
    /// Shared experts computed while the routed tokens are dispatched (Megatron-Core
    /// --moe-shared-expert-overlap): their forward time hides EP communication.
    bool overlapSharedExperts = false;
    /// The router's element-wise kernels fused (Megatron-Core --moe-router-fusion, TE PR 1883:
    /// 72 kernels per MoE layer's router become 31); false as in Megatron-Core before it.
    bool routerFusion = true;
    int vpp = 1; ///< virtual stages (model chunks) per pipeline rank
    int microBatch = 1; ///< b, sequences
    int globalBatch = 1; ///< B, sequences per step
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    Recompute recompute = Recompute::None;
    bool sequenceParallel = false;
    int zeroStage = 0; ///< 0-3 (Rajbhandari et al. 2020)
    bool distributedOptimizer = false; ///< Megatron distributed optimizer (= ZeRO-1 sharding)
    DataType dtype = DataType::BF16; ///< linear layers' GEMMs (the rest stays BF16)
    Fp8Recipe fp8Recipe = Fp8Recipe::Tensorwise; ///< scaling of FP8 / FP4 linears
    bool fp8ParamGather = false; ///< weights kept and all-gathered in FP8 (no BF16 copy)
    AttentionKernel attention = AttentionKernel::Flash;
    CpKind cpKind = CpKind::AllGather;
    /// RecomputeModule bits recomputed with recompute == selective (0: core_attn, Korthikanti
    /// 2022's selective recomputation).
    unsigned recomputeModules = 0;
    /// FSDP (torchtitan FSDP2 / Megatron-FSDP): ZeRO-3 sharding with the parameters resharded
    /// after the forward and prefetched one unit ahead. `fsdpShardGroup` > 0: HSDP, sharded
    /// inside groups of that many DP x CP ranks and replicated across them.
    bool fsdp = false;
    int fsdpShardGroup = 0;
    /// What CUDA graphs capture (CudaGraphScope): captured kernels cost the host no launch time.
    CudaGraphScope cudaGraphs = CudaGraphScope::None;
    /// Element-wise work fused (Transformer Engine / Apex kernels, torch.compile); false: PyTorch
    /// eager, op by op, with FP32 up-casts (kernels.h: eagerElementwiseBytes).
    bool fusedElementwise = true;
    /// Host time per kernel launch outside CUDA graphs, s (0: the host is never the bound): the
    /// Python, PyTorch dispatcher and CUDA launch work of one kernel (costmodel.h chunkCost) on
    /// the reference host (a DGX H100's Xeon 8480C); each accelerator's host scales it by
    /// AcceleratorSpec::hostLaunchFactor (Grace: 2.75).
    double launchOverhead = 0;
    bool overlapDpGrad = true; ///< DP gradient reduction overlaps the backward pass
    bool overlapTp = false; ///< TP collectives overlap compute
    TpOverlapKind tpOverlapKind = TpOverlapKind::Userbuffers; ///< how, with overlapTp
    bool overlapPp = true; ///< PP p2p overlaps compute (else the sender waits)
    /// EP dispatch/combine hidden behind another micro-batch's compute (Megatron-Core
    /// --overlap-moe-expert-parallel-comm: the combined 1F1B schedule pairs one micro-batch's
    /// forward with another's backward in the steady phase; warm-up and cool-down stay exposed).
    bool overlapEp = false;
    double dpBucketBytes = 160e6; ///< DP gradient bucket size (Megatron: 40M fp32 elements)
    bool gradReduceFp32 = true; ///< DP reduces fp32 gradients (Megatron's default with bf16)
    /// Weight-gradient GEMMs accumulate straight into the main-gradient buffer (Megatron-Core
    /// --gradient-accumulation-fusion, its default; Transformer Engine fuse_wgrad_accumulation,
    /// cuBLAS beta = 1): every micro-batch each wgrad GEMM reads and writes its output in the
    /// main-gradient dtype, fp32 with gradReduceFp32 (Megatron DDP's grad buffer), else BF16.
    /// false: the GEMM writes a BF16 gradient once (PyTorch autograd, torchtitan).
    bool wgradAccumulationFusion = true;
    /// Bytes the wgrad GEMM moves per output element (see wgradAccumulationFusion).
    [[nodiscard]] double wgradOutputBytes() const
    {
        return wgradAccumulationFusion ? 2.0 * (gradReduceFp32 ? 4 : 2) : 2.0;
    }
    std::vector<int> stageLayers; ///< explicit layers per model chunk (pp*vpp); empty: auto

    [[nodiscard]] long long worldSize() const { return 1LL * tp * cp * dp * pp; }
    /// Expert tensor parallel degree in effect (etp, or TP when unset).
    [[nodiscard]] int expertTp() const { return etp > 0 ? etp : tp; }
    /// Expert data parallel degree: tp * cp * dp / (etp * ep) (Megatron-Core
    /// expert_data_parallel_size = world / (etp * ep * pp)); 0 when it does not divide.
    [[nodiscard]] int expertDp() const;
    /// Micro-batches per step per pipeline: B / (b * dp).
    [[nodiscard]] int microBatches() const;
    /// Model chunks in total: pp * vpp (vpp is 1 unless the schedule is interleaved).
    [[nodiscard]] int chunks() const;
    /// Effective ZeRO stage (the distributed optimizer counts as stage 1, FSDP as 3).
    [[nodiscard]] int effectiveZero() const;
    /// Ranks the sharded states are split over: dp * cp, or the HSDP shard group.
    [[nodiscard]] double shardRanks() const;
    /// Whether `module` is recomputed (selective with module bits set).
    [[nodiscard]] bool recomputes(RecomputeModule module) const
    {
        const unsigned bits = recomputeModules != 0 ? recomputeModules : kRecomputeCoreAttn;
        return recompute == Recompute::Selective && (bits & module) != 0;
    }
};

/// Layers of each model chunk, index = virtual stage k = chunk * pp + stage (Megatron order).
/// Default: as even as possible, with the remainder taken from the first and last chunks, which
/// carry the embedding and the loss (Llama 3 405B: 126 layers on 16 stages = 7, 8 x 14, 7).
std::vector<int> splitLayers(const TransformerSpec &m, const TrainingConfig &c);

/// Checks the combination: divisibility (heads, kv heads, ffn by TP; experts by EP; tp*cp*dp by
/// etp*ep as Megatron-Core requires; sequence parallelism with MoE and TP > 1; seq by CP; B by
/// b*dp; micro-batches by pp for interleaving), layers >= pp*vpp, world size <= `accelerators`,
/// explicit split sums. Returns findings (errors make the workload unrunnable).
std::vector<Finding> validate(const TransformerSpec &m, const TrainingConfig &c,
                              std::size_t accelerators);

const char *toString(PipelineSchedule s);
const char *toString(Recompute r);
const char *toString(AttentionKernel a);
const char *toString(Fp8Recipe r);
const char *toString(CpKind k);
const char *toString(TpOverlapKind k);
const char *toString(TokenDispatcher d);
const char *toString(CudaGraphScope g);
bool fromString(const std::string &s, CudaGraphScope &out);
bool fromString(const std::string &s, TokenDispatcher &out);
bool fromString(const std::string &s, PipelineSchedule &out);
bool fromString(const std::string &s, Recompute &out);
bool fromString(const std::string &s, AttentionKernel &out);
bool fromString(const std::string &s, Fp8Recipe &out);
bool fromString(const std::string &s, CpKind &out);
bool fromString(const std::string &s, TpOverlapKind &out);
/// "core_attn,mlp" <-> RecomputeModule bits (names as Megatron-Core's --recompute-modules:
/// core_attn, mlp, layernorm, act, up_proj, moe, moe_act, shared_experts). Blanks around a name
/// are ignored ("layernorm, moe_act"). Parsing fails on an unknown name and leaves `out`
/// unchanged; `bad` receives it.
std::string recomputeModulesToString(unsigned bits);
bool recomputeModulesFromString(const std::string &s, unsigned &out, std::string &bad);

} // namespace weft
