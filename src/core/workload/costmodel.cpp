#include "workload/costmodel.h"

#include "workload/kernels.h"
#include "workload/launchqueue.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace weft {

namespace {

constexpr double kBf16 = 2; // bytes per element of activations and weights

// Tensor-parallel side of a linear layer: column-parallel (its input all-gathered over the
// sequence-parallel ranks: QKV, fc1) or row-parallel (its output reduce-scattered: the output
// projection, fc2); None for everything else.
enum class TpSide { None, Column, Row };

// SMs Transformer Engine's userbuffers kernels hold beside the GEMMs of the "pipeline" and
// "bulk" overlap methods: get_default_config's num_sm = 16 with set_sm_margin (the GEMMs run on
// sm_count - 16, comm_gemm_overlap.cpp _math_sms) and num_splits = 4 for "pipeline";
// "ring_exchange" takes 1 SM without a margin (copy engines move the data, use_ce) and splits
// the GEMM into TP chunks (TransformerEngine transformer_engine/pytorch/module/base.py,
// initialize_ub; main of 2026-08). Megatron-Bridge's per-model configurations vary num_sm
// (2-24); the defaults stand for them.
constexpr double kUserbufferCommSms = 16;
constexpr double kUserbufferPipelineSplits = 4;

// How one GEMM of a linear layer runs: in `chunks` equal pieces along its token dimension,
// with `reservedSms` SMs held by communication kernels.
struct GemmRun
{
    double chunks = 1;
    double reservedSms = 0;
};

double mlpMats(const TransformerSpec &m)
{
    return m.gatedMlp ? 3 : 2;
}
// Weights of the attention's projections (MLA: without the latent norms), elements: the
// forward FLOPs per token are twice this.
double projectionWeights(const TransformerSpec &m)
{
    return m.attentionParams() - (m.isMla() ? double(m.qLoraRank) + m.kvLoraRank : 0);
}
// Elements per token of the tensors RoPE rotates on one GPU: Q and K of every local head
// (MLA: only their rotary parts, the key's shared by all heads).
double ropeWidth(const TransformerSpec &m, double t)
{
    if (m.isMla())
        return double(m.heads) * m.qkRopeHeadDim / t + m.qkRopeHeadDim;
    return (m.queryWidth() + m.keyWidth()) / t;
}
// Keys the fused kernel visits per query of layer `i`: the whole sequence, or for a causal
// sliding window of w tokens the blocks of 128 keys a block of 128 queries touches (w + 128).
double kernelKeys(const TransformerSpec &m, int i)
{
    if (!m.isWindowLayer(i) || m.slidingWindow >= m.seq)
        return m.seq;
    return std::min<double>(m.seq, m.slidingWindow + 128.0);
}

// Bytes moved per element when a BF16 tensor is quantized for a low-precision GEMM, and the
// kernels it takes. Both layouts are written (row-wise for fprop, column-wise / transposed for
// the dgrad and wgrad operands: Hopper FP8 tensor cores take only K-major operands, and MX/NVFP4
// block scales run along K). Transformer Engine 2.x quantizers:
//  tensorwise (current scaling): an amax pass (read 2) then the cast (read 2, write 1 + 1);
//  delayed: the scale comes from the amax history, one cast kernel (read 2, write 1 + 1);
//  blockwise: read 2, write 1 + 1, an fp32 scale per 128 elements per layout;
//  mxfp8: read 2, write 1 + 1, an E8M0 scale per 32 elements per layout;
//  nvfp4: a global amax pass (read 2), then read 2, write 0.5 + 0.5, an E4M3 scale per 16.
struct CastCost
{
    double bytesPerElement = 0;
    int kernels = 0;
};

CastCost castCost(const TrainingConfig &c)
{
    if (c.dtype == DataType::BF16)
        return {};
    switch (c.fp8Recipe) {
    case Fp8Recipe::Tensorwise:
        return {2 + 2 + 2, 2};
    case Fp8Recipe::Delayed:
        return {2 + 2, 1};
    case Fp8Recipe::Blockwise:
        return {2 + 2 + 2 * 4.0 / 128, 1};
    case Fp8Recipe::Mxfp8:
        return {2 + 2 + 2 * 1.0 / 32, 1};
    case Fp8Recipe::Nvfp4:
        return {2 + 2 + 1 + 2 * 1.0 / 16, 2};
    }
    return {};
}

// Kernel times and FLOPs of one micro-batch on one GPU, forward and backward apart, and the
// host's side of it: every kernel is launched by the host, which runs ahead of the GPU through
// the launch queue (workload/launchqueue.h: kernel i starts once kernel i - 1 has finished and
// the host has launched it), so a run of kernels between two host synchronisations takes at
// least the longer of its GPU and host times, more where bursts of small kernels and large ones
// alternate; the forward of a MoE layer synchronises once (the tokens per expert, copied to the
// host for the grouped GEMM and the receive buffers); the backward runs the forward's kernels
// in reverse order without synchronising. `captured`: kernels inside the graphs of
// CudaGraphScope::Layers (no host time per kernel); under CudaGraphScope::FullIteration no
// kernel costs the host anything, so the GPU time stays as it is.
struct Pass
{
    const KernelModel &k;
    const TrainingConfig &c;
    double fwd = 0, bwd = 0, flops = 0, memTime = 0;
    /// Shared experts' GEMMs kept apart from fwd / bwd (GPU time; their launches stay on the
    /// host's queue): Megatron-Core's --moe-shared-expert-overlap runs them on a side stream
    /// beside the token dispatch and combine, not in the layer's critical path.
    bool sharedApart = false;
    double sharedFwd = 0, sharedBwd = 0;
    /// Kernels queued now run on a side stream: their launches cost the host, their GPU time
    /// is not on the main stream's timeline.
    bool sideStream = false;
    LaunchQueue fwdQueue {}; ///< the forward's run open since the last synchronisation
    double fwdClosed = 0; ///< wall time of the closed forward runs
    /// The backward's kernels in forward order: launches and GPU time of each operation.
    struct BackwardOp
    {
        double launches, gpu, perLaunch;
    };
    std::vector<BackwardOp> bwdOps {};
    bool captured = false;
    double launchesFwd = 0, launchesBwd = 0; ///< kernels launched outside CUDA graphs
    /// GPU time of the MoE layers' attention side (up to the router) and MLP side (ChunkCost).
    double moeAttnFwd = 0, moeAttnBwd = 0, moeMlpFwd = 0, moeMlpBwd = 0;
    /// GPU time of the attention core kernels, forward and backward (ChunkCost::attentionCore*).
    double attnFwd = 0, attnBwd = 0;

    // Whether the kernels queued now are replayed by a CUDA graph.
    [[nodiscard]] bool inGraph() const
    {
        return c.cudaGraphs == CudaGraphScope::FullIteration
            || (captured && c.cudaGraphs == CudaGraphScope::Layers);
    }
    // The host's time per launch of the kernels queued now (0 inside CUDA graphs).
    [[nodiscard]] double perLaunch() const
    {
        if (inGraph())
            return 0;
        // the stack's time per launch on the reference host, scaled to this system's CPU
        return c.launchOverhead * k.accelerator().hostLaunchFactor;
    }
    // One operation: `nf` forward kernels of together `gf` seconds of GPU time, `nb` backward
    // kernels of `gb` seconds.
    void run(double gf, double gb, double nf, double nb)
    {
        fwd += gf;
        bwd += gb;
        const double host = perLaunch();
        fwdQueue.push(nf, sideStream ? 0 : gf, host);
        bwdOps.push_back({nb, sideStream ? 0 : gb, host});
        if (!inGraph()) {
            launchesFwd += nf;
            launchesBwd += nb;
        }
    }
    // A host synchronisation in the forward: the queue drains, the host catches up.
    void sync() { fwdClosed += fwdQueue.sync(); }
    [[nodiscard]] double forwardWall() const { return fwdClosed + fwdQueue.wall(); }
    [[nodiscard]] double backwardWall() const
    {
        LaunchQueue q;
        for (auto it = bwdOps.rbegin(); it != bwdOps.rend(); ++it)
            q.push(it->launches, it->gpu, it->perLaunch);
        return q.wall();
    }

    // A linear layer y(T x N) = x(T x K) W(K x N): fprop, dgrad (T x K = dY W^T), wgrad
    // (K x N = x^T dY), the wgrad accumulated into the main gradient where the config fuses it
    // (TrainingConfig::wgradOutputBytes: an expert's few rows make that GEMM memory bound). Low
    // precision where the config says so, with the casts of x (fprop), dY (backward) and of W once
    // per step (Transformer Engine caches the quantized weights over the micro-batches; fp8
    // parameter gather keeps them quantized). `groups` > 1: a grouped GEMM (the experts of a MoE
    // layer, Megatron-Core --moe-grouped-gemm / Transformer Engine GroupedLinear) of that many
    // equal problems, one kernel each over TE's compute streams (KernelModel::groupedGemm),
    // their casts one kernel.
    //
    // With TP communication overlap (TrainingConfig::overlapTp, TP > 1) a layer's TP linears run
    // as Transformer Engine's userbuffers overlap runs them (initialize_ub's default methods):
    // column-parallel fprop "ring_exchange" (TP chunks of T / tp tokens, all SMs), dgrad and
    // wgrad "bulk" (kUserbufferCommSms held); row-parallel fprop "pipeline" (4 chunks,
    // kUserbufferCommSms held), dgrad "ring_exchange", wgrad "external" (as without overlap).
    // With TpOverlapKind::AsyncTp (PyTorch's micro-pipelined TP, torchtitan) the fprop and
    // dgrad run in TP chunks, no SMs held.
    void linear(double T, double N, double K, bool lowPrecision = true, double groups = 1,
                TpSide side = TpSide::None)
    {
        if (T <= 0 || N <= 0 || K <= 0 || groups <= 0)
            return;
        const DataType dt = lowPrecision ? c.dtype : DataType::BF16;
        flops += groups * 2 * T * N * K;
        if (dt != DataType::BF16) { // the casts run before the GEMMs that read them
            const CastCost cast = castCost(c);
            double castFwd = cast.kernels
                * k.elementwise(groups * cast.bytesPerElement * T * K / cast.kernels);
            if (!c.fp8ParamGather)
                castFwd += k.elementwise(groups * cast.bytesPerElement * K * N)
                    / std::max(1, c.microBatches());
            run(castFwd,
                cast.kernels * k.elementwise(groups * cast.bytesPerElement * T * N / cast.kernels),
                groups * cast.kernels * (1 + (c.fp8ParamGather ? 0 : 1.0 / c.microBatches())),
                groups * cast.kernels);
        }
        // One cuBLAS launch per GEMM of a group (TE GroupedLinear runs the experts' GEMMs on
        // several streams, one launch each: Megatron-LM DeepSeek-V3 GB200 guide, sec. 1.3).
        const bool overlapped = c.overlapTp && c.tp > 1 && side != TpSide::None;
        const bool ub = overlapped && c.tpOverlapKind == TpOverlapKind::Userbuffers;
        const GemmRun ring {double(c.tp), 0},
            pipeline {kUserbufferPipelineSplits, kUserbufferCommSms}, bulk {1, kUserbufferCommSms};
        // PyTorch's asynchronous TP decomposes the GEMMs beside an all-gather or a reduce-
        // scatter into TP chunks and moves the shards on copy engines (no SMs held).
        const GemmRun fprop = !overlapped   ? GemmRun {}
            : !ub || side == TpSide::Column ? ring
                                            : pipeline;
        const GemmRun dgrad = !overlapped ? GemmRun {} : !ub || side == TpSide::Row ? ring : bulk;
        const GemmRun wgrad = !ub || side == TpSide::Row ? GemmRun {} : bulk;
        const auto gemm = [&](const GemmRun &r, double M, double n, double kk, double out) {
            const KernelModel km = k.reservingSms(r.reservedSms);
            return r.chunks * km.groupedGemm(M / r.chunks, n, kk, dt, groups, out);
        };
        // (the wgrad's token dimension is its inner one: it is never chunked)
        run(gemm(fprop, T, N, K, 2),
            gemm(dgrad, T, K, N, 2) + gemm(wgrad, K, N, T, c.wgradOutputBytes()),
            groups * fprop.chunks, groups * (dgrad.chunks + wgrad.chunks));
    }
    // `count` batched BF16 GEMMs (the unfused attention's per-head score and context GEMMs);
    // backward twice the forward.
    void batchedGemm(double M, double N, double K, double count)
    {
        const double t = k.gemm(M, N, K, DataType::BF16, count);
        flops += count * 2 * M * N * K;
        run(t, 2 * t, 1, 2);
    }
    // Memory-bound forward work of `bytes` in `kernels` kernels; the backward moves twice the
    // bytes, one backward kernel each.
    void elementwise(double bytes, double kernels = 1)
    {
        if (bytes <= 0)
            return;
        const double t = k.elementwise(bytes);
        memTime += t;
        run(t, 2 * t, kernels, kernels);
    }
};

// Attention core of layer `i` per GPU for `b` sequences: the fused kernel (its generation's
// efficiency; causal blocks skipped; CP ranks share the work evenly, ring CP load-balanced; a
// sliding-window layer visits the key blocks of its window only, the kernel's window mask) or
// the unfused QK^T, scale-mask-softmax, dropout and AV of Megatron 2021-22. MLA's heads have a
// query-key dimension (nope + rope) and a value dimension of their own: the kernel's FLOPs are
// 2 sq skv (d_qk + d_v), i.e. those of head dimension (d_qk + d_v) / 2.
void attentionKernels(Pass &p, const TransformerSpec &m, const TrainingConfig &c,
                      const AcceleratorSpec &acc, double b, int i)
{
    const double t = c.tp, s = m.seq, sq = double(m.seq) / c.cp;
    const double d = (m.qkHeadDim() + m.vHeadDimOf()) / 2;
    const double heads = b * m.heads / t;
    if (c.attention == AttentionKernel::Unfused) {
        p.batchedGemm(sq, s, d, heads); // QK^T: scores written to HBM
        p.elementwise(9 * heads * sq * s); // scale-mask-softmax (2+2), dropout (2+2+1 mask)
        p.batchedGemm(sq, d, s, heads); // probabilities x V
        return;
    }
    const AttentionEfficiency &eff
        = c.attention == AttentionKernel::FlashAttention2 ? acc.attentionFa2 : acc.attentionFused;
    const double keys = kernelKeys(m, i);
    const bool window = keys < s; // the window's blocks, no causal triangle beyond them
    const double queries = window ? sq : s;
    const double cpDiv = window ? 1 : c.cp;
    // Ring context parallelism runs the attention over the K/V blocks as they arrive, one
    // kernel per ring step (KernelModel::attention's kvChunks); all-gather CP runs one kernel
    // over the gathered keys.
    const double kvChunks = !window && c.cpKind == CpKind::Ring ? c.cp : 1;
    // FlashAttention-2/3's backward: the dO.O preprocessing, the main and the dQ conversion
    // kernels (flash-attn flash_bwd_launch_template); cuDNN's fused kernels alike.
    p.run(p.k.attention(heads, queries, keys, d, !window, false, eff, kvChunks) / cpDiv,
          p.k.attention(heads, queries, keys, d, !window, true, eff, kvChunks) / cpDiv, 1, 3);
    p.flops += KernelModel::attentionKernelFlops(heads, queries, keys, d, !window, false) / cpDiv;
}

// The attention core with its GPU time recorded apart (the window ring CP hides its K/V in).
void attentionCore(Pass &p, const TransformerSpec &m, const TrainingConfig &c,
                   const AcceleratorSpec &acc, double b, int i)
{
    const double f0 = p.fwd, b0 = p.bwd;
    attentionKernels(p, m, c, acc, b, i);
    p.attnFwd += p.fwd - f0;
    p.attnBwd += p.bwd - b0;
}

// Whether the layer's RoPE runs as unfused element-wise ops although the stack fuses its
// element-wise work: Megatron-Core passes YaRN's attention factor as `mscale` and falls back to
// its PyTorch implementation when it is not 1 ("mscale ... is not supported by TE's fused RoPE.
// Using unfused implementation.": megatron/core/models/common/embeddings/rope_utils.py,
// apply_rotary_pos_emb, Megatron-Core of April 2026, commit c2d1a8f; attention.py passes
// _yarn_get_concentration_factor_from_config for Q and K).
bool ropeUnfused(const TransformerSpec &m)
{
    return m.rope && m.ropeAttentionFactor != 1;
}

// Bytes per rotated element of Q and K: fused 4 (read 2, write 2); Megatron-Core's unfused
// bshd path (rope_utils.py, _apply_rotary_pos_emb_bshd) t * cos (2 + 2), the rotated half
// (neg of one half 1 + 1, then cat 2 + 2), * sin (2 + 2), the sum (2 + 2 + 2) and the final cat
// with the empty pass-through part (2 + 2) = 24 in 6 kernels (the cos/sin tables of s x d are
// small and left out); PyTorch eager as torchtitan writes it 28 (below).
constexpr double kRopeUnfusedBytes = 24;
constexpr double kRopeUnfusedKernels = 6;

// Norms, residual adds, dropouts and RoPE of one layer's forward on one GPU (per T tokens).
// Fused kernels (Transformer Engine, Apex, torch.compile): RMSNorm/LayerNorm read 2 + write 2
// bytes per element, twice; residual add read 2 x 2 + write 2, twice; dropout (GPT) a 1-byte
// mask per dropout; RoPE reads and writes Q and K (4). PyTorch eager, op by op with FP32
// up-casts as torchtitan's and Hugging Face's models write them: RMSNorm x.float() (2 + 4),
// pow (4 + 4), mean (4), x * rsqrt (4 + 4), type_as (4 + 2), * weight (2 + 2) = 40 bytes; RoPE
// x.float() (2 + 4), complex multiply (8 + 8), type_as (4 + 2) = 28 bytes per element of Q, K.
double layerElementwiseBytes(const TransformerSpec &m, const TrainingConfig &c, double T)
{
    const double h = m.hidden, spDiv = c.sequenceParallel ? c.tp : 1;
    const bool fused = c.fusedElementwise;
    const double norm = fused ? 4 : 40, residual = 6;
    const double rope = !fused ? 28 : ropeUnfused(m) ? kRopeUnfusedBytes : 4;
    double bytes = T * h / spDiv * (2 * norm + 2 * residual);
    if (m.dropout)
        bytes += 2 * T * h / spDiv;
    if (m.rope)
        bytes += rope * T * ropeWidth(m, c.tp);
    if (m.isMla()) // RMSNorm of the query and key-value latents (read 2 + write 2)
        bytes += norm * T * (double(m.qLoraRank) + m.kvLoraRank);
    if (m.qkNorm) // per-head RMSNorm of this GPU's query and key heads
        bytes += norm * T * (m.queryWidth() + m.keyWidth()) / c.tp;
    return bytes;
}

// Kernels of layerElementwiseBytes: per norm 1 fused (6 eager: up-cast, pow, mean, rsqrt
// multiply, down-cast, weight multiply), 2 residual adds, RoPE of Q and K (1 each fused, 3 each
// eager: up-cast, complex multiply, down-cast; 6 each in Megatron-Core's unfused path),
// MLA's two latent norms, the query and key norms.
double layerElementwiseKernels(const TransformerSpec &m, const TrainingConfig &c)
{
    const double norm = c.fusedElementwise ? 1 : 6;
    const double rope = !c.fusedElementwise ? 6 : ropeUnfused(m) ? 2 * kRopeUnfusedKernels : 2;
    return 2 * norm + 2 + (m.rope ? rope : 0) + (m.isMla() ? 2 * norm : 0)
        + (m.qkNorm ? 2 * norm : 0);
}

// Router and token-dispatch preprocessing kernels of a MoE layer's forward (as many in the
// backward, autograd's mirror: assumed): 31 with Megatron-Core's fused router
// (--moe-router-fusion; 72 unfused), 17 for router and preprocessing together with DeepEP's
// fused layout kernel (Megatron-LM, "Optimizing DeepSeek-V3 Training Performance on GB200
// NVL72", sec. 2.1.4 and 2.2.1); HybridEP taken as DeepEP; an unfused router adds its 41
// kernels to either.
double routerKernels(const TrainingConfig &c)
{
    return (c.dispatcher == TokenDispatcher::AllToAll ? 31 : 17) + (c.routerFusion ? 0 : 41);
}

// Bytes per MLP-intermediate element of the activation: GeLU read 2 + write 2; SwiGLU fused
// reads gate and up and writes one (6); eager silu (2 + 2) then a multiply (2 + 2 + 2) = 10.
// A clamped GLU (TransformerSpec::activationClamp) as Megatron-Core runs it, outside the fused
// kernel (fusions/fused_bias_geglu.py): a clamp of each half (2 + 2 each) and their
// concatenation (4 + 4) first, 16 bytes more in 3 kernels.
double activationBytes(const TransformerSpec &m, const TrainingConfig &c)
{
    if (!m.gatedMlp)
        return 4;
    return (c.fusedElementwise ? 6 : 10) + (m.activationClamp > 0 ? 16 : 0);
}

// Kernels of the activation (see activationBytes).
double activationKernels(const TransformerSpec &m, const TrainingConfig &c)
{
    if (!m.gatedMlp)
        return 1;
    return (c.fusedElementwise ? 1 : 2) + (m.activationClamp > 0 ? 3 : 0);
}

// Forward of transformer layer `i` for one micro-batch on one GPU; `part` selects what is
// computed: the whole layer, or only the modules selective recomputation repeats.
enum class LayerPart { All, Recomputed };

// The attention's input projections of one layer per GPU: fused QKV (column-parallel over TP),
// or MLA's down-projections (replicated over TP in Megatron-Core) and up-projections (column-
// parallel). `upOnly`: only the up-projections (what --recompute-modules up_proj repeats).
void attentionInputs(Pass &p, const TransformerSpec &m, double t, double T, bool upOnly)
{
    const double h = m.hidden;
    if (!m.isMla()) {
        if (!upOnly)
            p.linear(T, (m.queryWidth() + m.keyWidth() + m.valueWidth()) / t, h, true, 1,
                     TpSide::Column);
        return;
    }
    if (m.qLoraRank > 0) {
        if (!upOnly)
            p.linear(T, m.qLoraRank, h); // W_DQ
        p.linear(T, m.queryWidth() / t, m.qLoraRank); // W_UQ with W_QR
    } else if (!upOnly) {
        p.linear(T, m.queryWidth() / t, h);
    }
    if (!upOnly)
        p.linear(T, double(m.kvLoraRank) + m.qkRopeHeadDim, h); // W_DKV with W_KR
    p.linear(T, double(m.heads) * (double(m.qkNopeHeadDim) + m.vHeadDim) / t,
             m.kvLoraRank); // W_UK, W_UV
}

void layer(Pass &p, const TransformerSpec &m, const TrainingConfig &c, const AcceleratorSpec &acc,
           int i, LayerPart part)
{
    const double b = c.microBatch, t = c.tp, h = m.hidden;
    const double T = b * m.seq / c.cp; // tokens of this GPU's sequence shard
    const bool all = part == LayerPart::All;
    const double gateMul = m.gatedMlp ? 2 : 1;
    const double fwd0 = p.fwd, bwd0 = p.bwd;
    double fwdRouter = fwd0, bwdRouter = bwd0; // where the attention side ends
    const double spDiv = c.sequenceParallel ? t : 1;
    p.captured = true; // attention, router, preprocessing, shared experts, dense MLP
    if (all) {
        attentionInputs(p, m, t, T, false); // QKV, or MLA's projections
        p.elementwise(layerElementwiseBytes(m, c, T), layerElementwiseKernels(m, c));
    } else {
        if (c.recomputes(kRecomputeLayerNorm))
            p.elementwise(2 * 2 * kBf16 * T * h / spDiv);
        if (c.recomputes(kRecomputeUpProj) && m.isMla())
            attentionInputs(p, m, t, T, true);
    }
    if (all || c.recomputes(kRecomputeCoreAttn))
        attentionCore(p, m, c, acc, b, i);
    if (all)
        p.linear(T, h, m.heads * m.vHeadDimOf() / t, true, 1, TpSide::Row); // output projection
    double actElems = 0;
    const bool mlp = all || c.recomputes(m.isMoeLayer(i) ? kRecomputeMoe : kRecomputeMlp);
    if (m.isMoeLayer(i)) {
        // Folded over ETP x EP (Megatron-Core): each of the ep x etp ranks of an EP x ETP block
        // brings its T / t sequence-parallel tokens, k copies each, spread evenly over the E
        // experts (force-balanced) or `moeImbalance` times the mean on the busiest rank; a rank
        // holds E / ep experts, each column-split over ETP, run as one grouped GEMM.
        const double etp = c.expertTp(), imb = c.moeImbalance;
        if (mlp) {
            p.linear(T / spDiv, m.experts, h, false); // router stays high precision
            p.run(0, 0, routerKernels(c), routerKernels(c));
            fwdRouter = p.fwd;
            bwdRouter = p.bwd;
            p.sync(); // tokens per expert to the host: the routed part is launched after
            p.captured = false; // dynamic shapes: the routed experts stay out of CUDA graphs
            const double localExperts = double(m.experts) / c.ep;
            const double rows = T * m.topK * c.ep * etp / (double(m.experts) * t) * imb;
            p.linear(rows, m.expertFfn * gateMul / etp, h, true, localExperts);
            p.linear(rows, h, m.expertFfn / etp, true, localExperts);
            // The experts' second bias, added after the grouped GEMM expert by expert and
            // weighted by the routing probability (Megatron-Core moe/experts.py, _apply_bias:
            // t + b * p per expert, then a concatenation): 12 bytes per output element (b * p
            // written and read, t read, the sum written; the concatenation read and written),
            // two kernels per local expert and the concatenation.
            if (m.linearBias)
                p.elementwise(12 * rows * localExperts * h, 2 * localExperts + 1);
            // Token permutation before the dispatch and un-permutation after the combine
            // (fused permute kernels: read 2 + write 2 bytes per element each). Megatron-Core's
            // all-to-all dispatcher also sorts the received tokens by local expert after the
            // dispatch and back before the combine when a rank holds several experts
            // (token_dispatcher.py, sort_chunks_by_idxs; the GB200 guide, sec. 2.1.1: "one
            // global and one local permute before and after EP communication"); DeepEP and
            // HybridEP fuse the global permute into their kernels and keep the local one.
            const double permutes
                = c.dispatcher == TokenDispatcher::AllToAll && localExperts > 1 ? 4 : 2;
            p.elementwise(permutes * 4 * T / spDiv * m.topK * h * imb, permutes);
        }
        if (mlp || c.recomputes(kRecomputeMoeAct)) {
            p.captured = false;
            p.elementwise(activationBytes(m, c) * T * m.topK * m.expertFfn / t * imb,
                          activationKernels(m, c));
        }
        p.captured = true;
        if (m.sharedExperts > 0) {
            const double fs = double(m.expertFfn) * m.sharedExperts;
            if (mlp || c.recomputes(kRecomputeSharedExperts)) {
                const double f0 = p.fwd, b0 = p.bwd;
                p.sideStream = p.sharedApart;
                p.linear(T, fs * gateMul / t, h);
                p.linear(T, h, fs / t);
                p.sideStream = false;
                actElems += T * fs / t;
                if (p.sharedApart) {
                    p.sharedFwd += p.fwd - f0;
                    p.sharedBwd += p.bwd - b0;
                    p.fwd = f0;
                    p.bwd = b0;
                }
            }
        }
    } else {
        if (mlp) {
            p.linear(T, m.ffn * gateMul / t, h, true, 1, TpSide::Column);
            p.linear(T, h, m.ffn / t, true, 1, TpSide::Row);
        }
        if (mlp || c.recomputes(kRecomputeAct))
            actElems += T * m.ffn / t;
    }
    p.elementwise(activationBytes(m, c) * actElems, activationKernels(m, c)); // MLP activation
    if (all && m.isMoeLayer(i)) {
        p.moeAttnFwd += fwdRouter - fwd0;
        p.moeAttnBwd += bwdRouter - bwd0;
        p.moeMlpFwd += p.fwd - fwdRouter;
        p.moeMlpBwd += p.bwd - bwdRouter;
    }
}

} // namespace

double layerForwardFlops(const TransformerSpec &m, int i, double b)
{
    const double s = m.seq, h = m.hidden;
    double f = 2 * b * s * projectionWeights(m) + attentionCoreFlops(m, i, b);
    if (m.isMoeLayer(i)) {
        f += 2 * b * s * h * m.experts;
        f += 2 * b * s * h * double(m.expertFfn) * mlpMats(m) * (m.topK + m.sharedExperts);
    } else {
        f += 2 * b * s * h * double(m.ffn) * mlpMats(m);
    }
    return f;
}

double attentionCoreFlops(const TransformerSpec &m, double b)
{
    return 2 * b * double(m.seq) * m.seq * m.heads * (m.qkHeadDim() + m.vHeadDimOf());
}

double attentionCoreFlops(const TransformerSpec &m, int i, double b)
{
    return 2 * b * double(m.seq) * m.attendedKeys(i) * m.heads * (m.qkHeadDim() + m.vHeadDimOf());
}

double logitsFlops(const TransformerSpec &m, double b)
{
    return 2 * b * double(m.seq) * m.hidden * m.vocab;
}

double modelFlopsPerStep(const TransformerSpec &m, const TrainingConfig &c)
{
    double fwd = logitsFlops(m, 1);
    for (int i = 0; i < m.layers; ++i)
        fwd += layerForwardFlops(m, i, 1);
    return 3 * fwd * c.globalBatch;
}

double hardwareFlopsPerStep(const TransformerSpec &m, const TrainingConfig &c)
{
    double extra = 0;
    if (c.recompute == Recompute::Full)
        for (int i = 0; i < m.layers; ++i)
            extra += layerForwardFlops(m, i, 1);
    else if (c.recompute == Recompute::Selective)
        for (int i = 0; i < m.layers; ++i)
            extra += attentionCoreFlops(m, i, 1);
    return modelFlopsPerStep(m, c) + extra * c.globalBatch;
}

ChunkCost chunkCost(const TransformerSpec &m, const TrainingConfig &c, const AcceleratorSpec &acc,
                    int first, int count, bool withEmbedding, bool withLogits)
{
    ChunkCost out;
    const KernelModel k(acc); // the host's launches are Pass's (no per-kernel floor)
    const double t = c.tp, h = m.hidden;
    const double T = double(c.microBatch) * m.seq / c.cp;
    Pass layers {k, c};
    layers.sharedApart = c.overlapSharedExperts && m.sharedExperts > 0;
    for (int i = first; i < first + count && i < m.layers; ++i)
        layer(layers, m, c, acc, i, LayerPart::All);
    // What recomputation repeats (its forward): full recomputation the layers' whole forward,
    // launched again (its host time and launches too).
    Pass again = c.recompute == Recompute::Full ? layers : Pass {k, c};
    if (c.recompute == Recompute::Selective)
        for (int i = first; i < first + count && i < m.layers; ++i)
            layer(again, m, c, acc, i, LayerPart::Recomputed);
    Pass ends {k, c};
    ends.captured = true;
    if (withEmbedding)
        ends.elementwise(kBf16 * T * h * 2 + (m.dropout ? T * h : 0)); // gather rows, write, mask
    if (withLogits) {
        ends.linear(T, double(m.vocab) / t, h, false); // LM head stays high precision
        // FP32 vocab-parallel cross entropy: fused 12 bytes per logit; eager up-cast (2 + 4),
        // log-softmax (4 + 4 + 4) and the gather = 18.
        ends.elementwise((c.fusedElementwise ? 12 : 18) * T * m.vocab / t,
                         c.fusedElementwise ? 1 : 3);
    }
    out.forwardFlops = layers.flops + ends.flops;
    out.forwardTime = layers.forwardWall() + ends.forwardWall();
    out.memoryBoundTime = layers.memTime + ends.memTime;
    out.recomputeTime = again.forwardWall();
    out.recomputeFlops = again.flops;
    out.backwardTime = layers.backwardWall() + ends.backwardWall() + out.recomputeTime;
    // What the host adds beyond the GPU's own time; differences of a few ulps are the sums'
    // rounding (the queue adds in kernel order, the GPU totals per kind), not host time.
    const auto beyond = [](double wall, double gpu) {
        return wall - gpu > 1e-9 * std::max(wall, 1e-30) ? wall - gpu : 0.0;
    };
    out.hostBoundForward = beyond(out.forwardTime, layers.fwd + ends.fwd);
    out.hostBoundBackward = beyond(out.backwardTime, layers.bwd + ends.bwd + again.fwd);
    out.hostBoundTime = out.hostBoundForward + out.hostBoundBackward;
    out.hostLaunches = layers.launchesFwd + layers.launchesBwd + ends.launchesFwd + ends.launchesBwd
        + again.launchesFwd;
    out.sharedExpertForward = layers.sharedFwd;
    out.sharedExpertBackward = layers.sharedBwd;
    const double gpuFwd = layers.fwd + ends.fwd, gpuBwd = layers.bwd + ends.bwd + again.fwd;
    if (gpuFwd > 0 && gpuBwd > 0) {
        const double f = out.forwardTime / gpuFwd, b = out.backwardTime / gpuBwd;
        out.moeAttentionForward = layers.moeAttnFwd * f;
        out.moeMlpForward = layers.moeMlpFwd * f;
        out.moeAttentionBackward = layers.moeAttnBwd * b;
        out.moeMlpBackward = layers.moeMlpBwd * b;
    }
    out.attentionCoreForward = layers.attnFwd;
    out.attentionCoreBackward = layers.attnBwd + again.attnFwd;
    return out;
}

double optimizerTime(double localParams, const AcceleratorSpec &acc)
{
    const double bw
        = std::max(1.0, acc.hbmBandwidth) * (acc.memoryEfficiency > 0 ? acc.memoryEfficiency : 1);
    return 30.0 * localParams / bw;
}

namespace {

// Calls fn(dense, expert) with the per-GPU parameters of every layer of pipeline stage `stage`
// (all its chunks) and of the embedding / output layer it holds.
template<typename Fn>
void forEachStageUnit(const TransformerSpec &m, const TrainingConfig &c, int stage, Fn &&fn)
{
    const std::vector<int> split = splitLayers(m, c);
    const int n = static_cast<int>(split.size());
    int first = 0;
    for (int k = 0; k < n; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        if (k % c.pp == stage)
            for (int i = first; i < first + count && i < m.layers; ++i) {
                const double ex = m.layerExpertParams(i);
                fn((m.layerParams(i) - ex) / c.tp, ex / (double(c.expertTp()) * c.ep));
            }
        first += count;
    }
    if (stage == 0)
        fn(m.embeddingParams() / c.tp, 0.0);
    if (stage == c.pp - 1 && (!m.tiedEmbeddings || c.pp > 1))
        fn(m.embeddingParams() / c.tp, 0.0);
}

} // namespace

StageParams stageParams(const TransformerSpec &m, const TrainingConfig &c, int stage)
{
    StageParams p;
    forEachStageUnit(m, c, stage, [&p](double dense, double expert) {
        p.dense += dense;
        p.expert += expert;
    });
    return p;
}

double largestUnit(const TransformerSpec &m, const TrainingConfig &c, int stage)
{
    double largest = 0;
    forEachStageUnit(m, c, stage, [&largest](double dense, double expert) {
        largest = std::max(largest, dense + expert);
    });
    return largest;
}

double zero3GatherBytes(const TransformerSpec &m, const TrainingConfig &c, int stage)
{
    if (c.effectiveZero() < 3)
        return 0;
    return 2 * 2 * largestUnit(m, c, stage);
}

double dispatchBytesPerElement(const TrainingConfig &c)
{
    if (c.dtype == DataType::BF16 || c.dispatcher == TokenDispatcher::AllToAll)
        return kBf16;
    return 1 + 4.0 / 128; // FP8 E4M3 with an fp32 scale per 128 elements (DeepEP's layout)
}

CommVolumes commVolumes(const TransformerSpec &m, const TrainingConfig &c)
{
    CommVolumes v;
    const double b = c.microBatch, h = m.hidden, T = b * m.seq / c.cp;
    v.tpBytes = kBf16 * T * h;
    v.cpBytes = kBf16 * b * double(m.seq) * (m.keyWidth() + m.valueWidth()) / c.tp;
    const double tokens = T / (c.sequenceParallel ? c.tp : 1) * m.topK * c.moeImbalance;
    v.epBytes = kBf16 * tokens * h;
    v.epDispatchBytes = dispatchBytesPerElement(c) * tokens * h;
    v.epCombineBytes = kBf16 * tokens * h;
    v.ppBytes = kBf16 * T * h / c.tp;
    return v;
}

double layerActivationBytes(const TransformerSpec &m, const TrainingConfig &c, int i)
{
    const double t = c.tp, h = m.hidden, sbh = double(m.seq) / c.cp * c.microBatch * h;
    const double sp = c.sequenceParallel ? t : 1;
    if (c.recompute == Recompute::Full)
        return 2 * sbh / sp; // only the layer input is kept
    // Korthikanti 2022 sec. 4.1 term by term. Replicated over TP unless SP: the inputs of both
    // norms (2 + 2), their outputs = the inputs of QKV and of the MLP's first linear (2 + 2;
    // stored in FP8 by low-precision linears, dropped when the norms are recomputed) and the
    // two dropout masks (1 + 1, models with dropout). Split over TP: Q, K, V (2 + 4g/a), the
    // attention output = projection input (2, plus an FP8 copy under delayed scaling), the MLP's
    // first linear output
    // (2 f/h per matrix: gate and up) and the second's input (2 f/h, FP8: 1; dropped when the
    // activation is recomputed); everything of the MLP but its input when it is recomputed.
    const bool lowp = c.dtype != DataType::BF16;
    const double normOut = c.recomputes(kRecomputeLayerNorm) ? 0 : (lowp ? 1 : 2);
    const double gate = m.gatedMlp ? 2 : 1;
    double f = m.ffn;
    if (m.isMoeLayer(i))
        f = double(m.expertFfn) * (m.topK + m.sharedExperts);
    const bool mlpAgain = c.recomputes(m.isMoeLayer(i) ? kRecomputeMoe : kRecomputeMlp);
    const bool actAgain
        = c.recomputes(m.isMoeLayer(i) ? kRecomputeMoeAct : kRecomputeAct) || mlpAgain;
    const double mlpIn = mlpAgain ? 0 : normOut; // the second norm's output feeds the MLP
    const double replicated = 2 + 2 + normOut + mlpIn + (m.dropout ? 2 : 0);
    // Q, K, V and the attention output (= the output projection's input, plus its FP8 copy);
    // MLA keeps its up-projected Q, K, V unless up_proj is recomputed, and its latents (both
    // norms' inputs and outputs, and the shared rotary key) unsplit by TP.
    const bool upAgain = m.isMla() && c.recomputes(kRecomputeUpProj);
    const double out = m.heads * m.vHeadDimOf() / h;
    const double qkv = (m.queryWidth() + m.keyWidth() + m.valueWidth()) / h;
    // The projection's FP8 copy of its input: kept only under delayed scaling; with the other
    // recipes Megatron-Core has the projection save its original BF16 input (Transformer Engine
    // >= 2.6 set_save_original_input on linear_proj, megatron/core/transformer/attention.py),
    // which is the attention output the fused attention already keeps.
    const bool projCopy = lowp && c.fp8Recipe == Fp8Recipe::Delayed;
    const double attn = 2 * (upAgain ? 0 : qkv) + 2 * out + (projCopy ? out : 0);
    const double latents
        = m.isMla() ? (4 * (double(m.qLoraRank) + m.kvLoraRank) + 2 * m.qkRopeHeadDim) / h : 0;
    const double mlp = mlpAgain ? 0 : (2 * gate + (actAgain ? 0 : (lowp ? 1 : 2))) * f / h;
    double bytes = sbh * (replicated / sp + latents + (attn + mlp) / t);
    const bool scores = c.attention == AttentionKernel::Unfused && !c.recomputes(kRecomputeCoreAttn)
        && c.recompute != Recompute::Full;
    if (scores) // softmax output 2, dropout mask 1, dropout output 2 bytes per score: 5as^2b / t
        bytes += 5.0 * m.heads * (double(m.seq) / c.cp) * m.seq * c.microBatch / t;
    return bytes;
}

double chunkActivationBytes(const TransformerSpec &m, const TrainingConfig &c, int first, int count,
                            bool withEmbedding, bool withLogits)
{
    double bytes = 0;
    for (int i = first; i < first + count && i < m.layers; ++i)
        bytes += layerActivationBytes(m, c, i);
    const double T = double(c.microBatch) * m.seq / c.cp;
    if (withEmbedding) // embedding dropout mask (Korthikanti sec. 4.3)
        bytes += T * m.hidden / (c.sequenceParallel ? c.tp : 1);
    if (withLogits) // fp32 logits for the cross entropy
        bytes += 4 * T * m.vocab / c.tp;
    return bytes;
}

MemoryAllowances memoryAllowances(const TrainingConfig &c)
{
    MemoryAllowances a;
    int groups = 0; // communicators with NCCL buffers: TP, CP, EP, PP, DP
    for (int degree : {c.tp, c.cp, c.ep, c.pp, c.dp * c.cp})
        groups += degree > 1 ? 1 : 0;
    a.commBuffers = groups * kNcclBuffersPerCommunicator;
    return a;
}

MemoryBreakdown stageMemory(const TransformerSpec &m, const TrainingConfig &c,
                            const AcceleratorSpec &acc, int stage, double peakActivationBytes)
{
    MemoryBreakdown mem;
    const StageParams p = stageParams(m, c, stage);
    const int zero = c.effectiveZero();
    const double denseShard = c.shardRanks();
    const double expertShard
        = std::max(1.0, denseShard * c.tp / (double(c.expertTp()) * c.ep)); // expert-DP
    auto bytes = [&](double perParam, int fromStage) {
        if (zero >= fromStage)
            return perParam * (p.dense / denseShard + p.expert / expertShard);
        return perParam * p.total();
    };
    // Weights: BF16 (FP8 with fp8 parameter gather); low-precision linears also cache their
    // quantized weights (both layouts) for the micro-batches of a step (Transformer Engine).
    const bool lowp = c.dtype != DataType::BF16;
    const double weightBytes = lowp && c.fp8ParamGather ? gemmInputBytes(c.dtype) : kBf16;
    mem.weights = bytes(weightBytes, 3) + zero3GatherBytes(m, c, stage) * weightBytes / kBf16;
    if (lowp && !c.fp8ParamGather)
        mem.weights
            += 2 * gemmInputBytes(c.dtype) * (zero >= 3 ? 2 * largestUnit(m, c, stage) : p.total());
    // Main gradients: ZeRO-2/3 partition 16-bit gradients (Rajbhandari et al. 2020); below,
    // Megatron's DDP keeps one contiguous buffer of every parameter's main gradient in its
    // dtype, fp32 with gradReduceFp32: bf16 parameters with fp32 gradients take 6 + 12/d bytes
    // per parameter with the distributed optimizer (Megatron-LM docs/user-guide/features/
    // dist_optimizer.md, bytes-per-parameter table). The table's fp32 copy of 16-bit gradients
    // (4 + 16/d) is made in the optimizer step, after the backward has freed the activations,
    // so it is not part of the peak counted here.
    mem.gradients = bytes(zero < 2 && c.gradReduceFp32 ? 4 : 2, 2);
    mem.optimizer = bytes(12, 1);
    mem.activations = peakActivationBytes;
    const MemoryAllowances a = memoryAllowances(c);
    mem.runtime = a.runtime;
    mem.commBuffers = a.commBuffers;
    mem.fragmentation
        = a.fragmentation * (mem.weights + mem.gradients + mem.optimizer + mem.activations);
    mem.capacity = acc.hbmBytes;
    return mem;
}

} // namespace weft
