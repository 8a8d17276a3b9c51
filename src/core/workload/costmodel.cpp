#include "workload/costmodel.h"

#include <algorithm>
#include <numeric>

namespace weft {

namespace {

constexpr double kBf16 = 2; // bytes per element of activations and weights

double mlpMats(const TransformerSpec &m)
{
    return m.gatedMlp ? 3 : 2;
}
double kvFraction(const TransformerSpec &m)
{
    return m.heads > 0 ? double(m.kvHeads) / m.heads : 1;
}

// Accumulates roofline time and FLOPs of GEMMs and element-wise traffic on one accelerator.
struct Roofline
{
    double peak = 1, mmEff = 1, bw = 1, memEff = 1;
    double flops = 0, time = 0, memTime = 0;

    // `count` GEMMs of (M x K) * (K x N) in bf16/fp8 with outputs in bf16.
    void gemm(double M, double N, double K, double count = 1, double weightBytesPerElem = kBf16)
    {
        if (M <= 0 || N <= 0 || K <= 0 || count <= 0)
            return;
        const double f = 2 * M * N * K;
        const double bytes = kBf16 * M * K + weightBytesPerElem * K * N + kBf16 * M * N;
        flops += count * f;
        time += count * std::max(f / (peak * mmEff), bytes / (bw * memEff));
    }
    void elementwise(double bytes)
    {
        const double t = bytes / (bw * memEff);
        time += t;
        memTime += t;
    }
};

Roofline makeRoofline(const TrainingConfig &c, const AcceleratorSpec &acc)
{
    Roofline r;
    r.peak = std::max(1.0, acc.peakFlops(c.dtype));
    r.mmEff = acc.matmulEfficiency > 0 ? acc.matmulEfficiency : 1;
    r.bw = std::max(1.0, acc.hbmBandwidth);
    r.memEff = acc.memoryEfficiency > 0 ? acc.memoryEfficiency : 1;
    return r;
}

// Attention core of one layer per GPU: QK^T, softmax/dropout, AV.
void attentionCore(Roofline &r, const TransformerSpec &m, const TrainingConfig &c, double b)
{
    const double t = c.tp, s = m.seq, sq = double(m.seq) / c.cp, d = double(m.hidden) / m.heads;
    const double heads = b * m.heads / t;
    if (c.attention == AttentionKernel::Flash) {
        // Fused kernel: compute-bound, reads Q, K, V and writes O once.
        const double f = 4 * b * sq * s * m.hidden / t;
        const double bytes = kBf16 * heads * (2 * sq * d + 2 * s * d);
        r.flops += f;
        r.time += std::max(f / (r.peak * r.mmEff), bytes / (r.bw * r.memEff));
        return;
    }
    r.gemm(sq, s, d, heads); // QK^T: scores written to HBM
    r.elementwise(9 * heads * sq * s); // scale-mask-softmax (2+2), dropout (2+2+1 mask)
    r.gemm(sq, d, s, heads); // probabilities x V
}

// Forward of transformer layer `i` for one micro-batch on one GPU.
void layerForward(Roofline &r, const TransformerSpec &m, const TrainingConfig &c, int i)
{
    const double b = c.microBatch, t = c.tp, h = m.hidden;
    const double T = b * m.seq / c.cp; // tokens of this GPU's sequence shard
    const double spDiv = c.sequenceParallel ? t : 1; // SP shards norms/dropouts over TP
    r.gemm(T, h * (1 + 2 * kvFraction(m)) / t, h); // QKV
    attentionCore(r, m, c, b);
    r.gemm(T, h, h / t); // output projection
    const double gateMul = m.gatedMlp ? 2 : 1;
    double actElems = 0;
    if (m.isMoeLayer(i)) {
        r.gemm(T, m.experts, h); // router
        const double localExperts = double(m.experts) / c.ep;
        const double perExpert = T * m.topK * c.ep / m.experts;
        r.gemm(perExpert, m.expertFfn * gateMul / t, h, localExperts);
        r.gemm(perExpert, h, m.expertFfn / t, localExperts);
        actElems += T * m.topK * m.expertFfn / t;
        if (m.sharedExperts > 0) {
            const double fs = double(m.expertFfn) * m.sharedExperts;
            r.gemm(T, fs * gateMul / t, h);
            r.gemm(T, h, fs / t);
            actElems += T * fs / t;
        }
    } else {
        r.gemm(T, m.ffn * gateMul / t, h);
        r.gemm(T, h, m.ffn / t);
        actElems += T * m.ffn / t;
    }
    // Memory-bound work: 2 layer norms (read + write), 2 bias-dropout-adds (2 reads, 1 write,
    // 1-byte mask), MLP activation (GeLU: read + write; SwiGLU: 2 reads + write).
    r.elementwise(kBf16 * T * h / spDiv * (2 * 2 + 2 * 3) + 2 * T * h / spDiv);
    r.elementwise(kBf16 * actElems * (gateMul + 1));
}

} // namespace

double layerForwardFlops(const TransformerSpec &m, int i, double b)
{
    const double s = m.seq, h = m.hidden;
    double f = 2 * b * s * h * (h + 2 * h * kvFraction(m)) + attentionCoreFlops(m, b)
        + 2 * b * s * h * h;
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
    return 4 * b * double(m.seq) * m.seq * m.hidden;
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
        extra = m.layers * attentionCoreFlops(m, 1);
    return modelFlopsPerStep(m, c) + extra * c.globalBatch;
}

ChunkCost chunkCost(const TransformerSpec &m, const TrainingConfig &c, const AcceleratorSpec &acc,
                    int first, int count, bool withEmbedding, bool withLogits)
{
    ChunkCost out;
    const double b = c.microBatch, t = c.tp, h = m.hidden;
    const double T = b * m.seq / c.cp;
    Roofline layers = makeRoofline(c, acc);
    for (int i = first; i < first + count && i < m.layers; ++i)
        layerForward(layers, m, c, i);
    Roofline core = makeRoofline(c, acc);
    if (c.recompute == Recompute::Selective)
        for (int i = first; i < first + count && i < m.layers; ++i)
            attentionCore(core, m, c, b);
    Roofline ends = makeRoofline(c, acc);
    if (withEmbedding)
        ends.elementwise(kBf16 * T * h * 2 + T * h); // gather rows, write, dropout mask
    if (withLogits) {
        ends.gemm(T, double(m.vocab) / t, h);
        ends.elementwise(12 * T * m.vocab / t); // fp32 vocab-parallel cross entropy
    }
    out.forwardFlops = layers.flops + ends.flops;
    out.forwardTime = layers.time + ends.time;
    out.memoryBoundTime = layers.memTime + ends.memTime;
    // Backward: data and weight gradients = 2x the forward GEMMs and element-wise traffic.
    out.backwardTime = 2 * out.forwardTime;
    if (c.recompute == Recompute::Full) {
        out.recomputeTime = layers.time;
        out.recomputeFlops = layers.flops;
    } else if (c.recompute == Recompute::Selective) {
        out.recomputeTime = core.time;
        out.recomputeFlops = core.flops;
    }
    out.backwardTime += out.recomputeTime;
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
                fn((m.layerParams(i) - ex) / c.tp, ex / (double(c.tp) * c.ep));
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

double zero3GatherBytes(const TransformerSpec &m, const TrainingConfig &c, int stage)
{
    if (c.effectiveZero() < 3)
        return 0;
    double largest = 0;
    forEachStageUnit(m, c, stage, [&largest](double dense, double expert) {
        largest = std::max(largest, dense + expert);
    });
    return 2 * 2 * largest;
}

CommVolumes commVolumes(const TransformerSpec &m, const TrainingConfig &c)
{
    CommVolumes v;
    const double b = c.microBatch, h = m.hidden, T = b * m.seq / c.cp;
    v.tpBytes = kBf16 * T * h;
    v.cpBytes = kBf16 * 2 * b * double(m.seq) * h * kvFraction(m) / c.tp;
    v.epBytes = kBf16 * T * m.topK * h / (c.sequenceParallel ? c.tp : 1);
    v.ppBytes = kBf16 * T * h / c.tp;
    return v;
}

double layerActivationBytes(const TransformerSpec &m, const TrainingConfig &c, int i)
{
    const double t = c.tp, h = m.hidden, sbh = double(m.seq) / c.cp * c.microBatch * h;
    const double sp = c.sequenceParallel ? t : 1;
    if (c.recompute == Recompute::Full)
        return 2 * sbh / sp; // only the layer input is kept
    // Korthikanti 2022 sec. 4.1 term by term: norms 4sbh and the attention/MLP inputs and
    // dropout masks 6sbh are replicated over TP unless SP; Q, K, V, the projection input and the
    // MLP intermediates (2 bytes each, gated: 3 tensors) are split over TP.
    const double gate = m.gatedMlp ? 2 : 1;
    double f = m.ffn;
    if (m.isMoeLayer(i))
        f = double(m.expertFfn) * (m.topK + m.sharedExperts);
    const double split = 4 + 4 * kvFraction(m) + 2 * (gate + 1) * f / h;
    double bytes = sbh * (10 / sp + split / t);
    const bool scores = c.recompute == Recompute::None && c.attention == AttentionKernel::Unfused;
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

MemoryBreakdown stageMemory(const TransformerSpec &m, const TrainingConfig &c,
                            const AcceleratorSpec &acc, int stage, double peakActivationBytes)
{
    MemoryBreakdown mem;
    const StageParams p = stageParams(m, c, stage);
    const int zero = c.effectiveZero();
    const double denseShard = double(c.dp) * c.cp;
    const double expertShard = std::max(1.0, denseShard / c.ep);
    auto bytes = [&](double perParam, int fromStage) {
        if (zero >= fromStage)
            return perParam * (p.dense / denseShard + p.expert / expertShard);
        return perParam * p.total();
    };
    mem.weights = bytes(2, 3) + zero3GatherBytes(m, c, stage);
    mem.gradients = bytes(2, 2);
    mem.optimizer = bytes(12, 1);
    mem.activations = peakActivationBytes;
    mem.capacity = acc.hbmBytes;
    return mem;
}

} // namespace weft
