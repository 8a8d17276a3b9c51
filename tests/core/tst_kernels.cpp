// Analytic tests of the kernel model (workload/kernels.h) and of what it feeds the cost model:
// GEMM wave quantization on chosen shapes, the memory-bound regime of skinny GEMMs, causal
// attention as the kernels compute it, quantization cast bytes per FP8 recipe, which GEMMs run
// in low precision, the per-kernel launch floor, the host's launch bound and power variants.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "io/catalogfile.h"
#include "workload/costmodel.h"
#include "workload/kernels.h"
#include "workload/launchqueue.h"
#include "workload/overlap.h"

#include <cmath>
#include <type_traits>

using namespace weft;

namespace {

// An H100-like part with round numbers: 132 SMs, 128 x 256 tiles, 1000 TFLOPS BF16 at 80%.
AcceleratorSpec gpu()
{
    AcceleratorSpec a;
    a.key = "test";
    a.peakFlopsBf16 = 1000e12;
    a.peakFlopsFp8 = 2000e12;
    a.matmulEfficiency = 0.8;
    a.matmulEfficiencyFp8 = 0.7;
    a.hbmBandwidth = 3e12;
    a.memoryEfficiency = 0.8;
    a.sms = 132;
    a.gemmTileM = 128;
    a.gemmTileN = 256;
    a.attentionFused = {0.6, 0.5};
    a.attentionFa2 = {0.3, 0.25};
    a.hbmBytes = 80e9;
    return a;
}

bool close(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

// Host-bound times: the host's launches, then at most `tail` of GPU time (the kernels launched
// last run after their launch).
bool hostThenTail(double a, double host, double tail)
{
    return a >= host * (1 - 1e-12) && a <= host + tail;
}

TransformerSpec llama(int layers = 2)
{
    TransformerSpec m = *modelPreset("llama3-8b");
    m.layers = layers;
    return m;
}

} // namespace

class TestKernels : public QObject
{
    Q_OBJECT
private slots:
    // The model keeps a reference to its accelerator: a temporary (a dangling reference once
    // the statement ends, found by ASan) does not compile; an lvalue does.
    void refusesATemporaryAccelerator()
    {
        static_assert(!std::is_constructible_v<KernelModel, AcceleratorSpec>);
        static_assert(!std::is_constructible_v<KernelModel, AcceleratorSpec, double>);
        static_assert(std::is_constructible_v<KernelModel, const AcceleratorSpec &, double>);
        const AcceleratorSpec a = gpu();
        QVERIFY(KernelModel(a).gemm(128, 256, 1024, DataType::BF16) > 0);
    }

    // A grouped GEMM as Transformer Engine runs it: one kernel per group over 4 streams. 16
    // experts of 512 x 1536 (24 tiles of 128 x 256 each, K large: math-bound) run as 4 rounds
    // of 4 concurrent GEMMs: each round's 96 tiles fill less than one wave of 132 SMs and cost
    // a wave's time, 4 in all, where the 16 as one batch (384 tiles) would take 3. Up to 4
    // groups it is the batch; 6 groups are a round of 4 and one of 2.
    void groupedGemmOverFourStreams()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double M = 512, N = 1536, K = 65536;
        const auto batch = [&](double b) { return k.gemm(M, N, K, DataType::BF16, b); };
        QVERIFY(close(k.groupedGemm(M, N, K, DataType::BF16, 16), 4 * batch(4)));
        QVERIFY(close(k.groupedGemm(M, N, K, DataType::BF16, 16) / batch(16), 4.0 / 3.0, 1e-6));
        QCOMPARE(k.groupedGemm(M, N, K, DataType::BF16, 3), batch(3));
        QVERIFY(close(k.groupedGemm(M, N, K, DataType::BF16, 6), batch(4) + batch(2)));
        QCOMPARE(k.groupedGemm(M, N, K, DataType::BF16, 1), batch(1));
    }

    // 132 tiles of 128 x 256 fill one wave; 133 need two, so the time doubles and the
    // efficiency is 133 / 264. K is large so the math limit rules.
    void waveQuantization()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double K = 8192;
        const double M = 128 * 12, N = 256 * 11; // 12 x 11 = 132 tiles
        QVERIFY(close(k.waveEfficiency(M, N, K), 1.0));
        const double one = k.gemm(M, N, K, DataType::BF16);
        QVERIFY(close(one, 2 * M * N * K / (0.8 * 1000e12)));
        // 13 x 11 = 143 tiles of 128 x 256: 2 waves; 13 x 22 = 286 tiles of 128 x 128: 3 waves
        // of half the work each, the better (1.5 x the one-wave time, not 2x).
        const double M2 = 128 * 12 + 1;
        QVERIFY(close(k.waveEfficiency(M2, N, K), M2 * N / (3 * 132 * 128 * 128.0)));
        QVERIFY(close(k.gemm(M2, N, K, DataType::BF16), 1.5 * one));
        // Either orientation of the tile: 256 x 128 tiles of a (11*256) x (12*128) shape fit too.
        QVERIFY(close(k.waveEfficiency(N, M, K), 1.0));
        // No SMs in the catalog: no quantization.
        AcceleratorSpec flat = a;
        flat.sms = 0;
        QVERIFY(close(KernelModel(flat).waveEfficiency(M2, N, K), 1.0));
    }
    // SMs held by communication kernels (Transformer Engine's userbuffers): the tiles are dealt
    // over the SMs left at the same per-SM throughput. 132 tiles fill one wave of 132 SMs; on
    // 116 the best tiling is 264 tiles of 128 x 128 in 3 waves (0.759 useful), so the GEMM
    // takes 132 / 116 / 0.759 = 1.5x, more than the SM share alone; a large GEMM takes about
    // the SM share (132 / 116).
    void reservedSmsSlowGemms()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const KernelModel left = k.reservingSms(16);
        const double K = 8192, M = 128 * 12, N = 256 * 11;
        const double eff = M * N / (3 * 116 * 128 * 128.0);
        QVERIFY(close(left.waveEfficiency(M, N, K), eff));
        QVERIFY(close(left.gemm(M, N, K, DataType::BF16),
                      k.gemm(M, N, K, DataType::BF16) * 132 / 116 / eff));
        const double big = 64 * 1024;
        const double ratio
            = left.gemm(big, big, K, DataType::BF16) / k.gemm(big, big, K, DataType::BF16);
        QVERIFY2(ratio > 132.0 / 116 && ratio < 132.0 / 116 * 1.01,
                 qPrintable(QString::number(ratio)));
        // Memory-bound kernels and nothing reserved: unchanged.
        QCOMPARE(left.elementwise(1e9), k.elementwise(1e9));
        QCOMPARE(k.reservingSms(0).gemm(M, N, K, DataType::BF16), k.gemm(M, N, K, DataType::BF16));
    }
    // With TP communication overlap a layer's TP linears run as Transformer Engine's userbuffers
    // run them (initialize_ub's defaults): the column-parallel fprop in TP chunks of T / tp
    // tokens ("ring_exchange"), the row-parallel fprop in 4 chunks on 16 SMs fewer
    // ("pipeline"); PyTorch's async TP runs both fprops in TP chunks on every SM.
    void tpOverlapRunsTheLinearsAsUserbuffers()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const KernelModel left = k.reservingSms(16);
        const TransformerSpec m = llama(1);
        TrainingConfig c;
        c.tp = 4;
        c.sequenceParallel = true;
        const ChunkCost plain = chunkCost(m, c, a, 0, 1, false, false);
        c.overlapTp = true;
        const ChunkCost ub = chunkCost(m, c, a, 0, 1, false, false);
        c.tpOverlapKind = TpOverlapKind::AsyncTp;
        const ChunkCost async = chunkCost(m, c, a, 0, 1, false, false);
        const double T = m.seq, h = m.hidden, t = c.tp, f = 2.0 * m.ffn / t;
        const double qkv = (m.queryWidth() + m.keyWidth() + m.valueWidth()) / t;
        const auto g = [&](const KernelModel &km, double chunks, double M, double N, double K) {
            return chunks * km.gemm(M / chunks, N, K, DataType::BF16);
        };
        const double column
            = g(k, t, T, qkv, h) - g(k, 1, T, qkv, h) + g(k, t, T, f, h) - g(k, 1, T, f, h);
        const double proj = m.heads * m.vHeadDimOf() / t, fc2 = m.ffn / t; // their K
        const double rowUb = g(left, 4, T, h, proj) - g(k, 1, T, h, proj) + g(left, 4, T, h, fc2)
            - g(k, 1, T, h, fc2);
        const double rowAsync
            = g(k, t, T, h, proj) - g(k, 1, T, h, proj) + g(k, t, T, h, fc2) - g(k, 1, T, h, fc2);
        QVERIFY(close(ub.forwardTime - plain.forwardTime, column + rowUb, 1e-6));
        QVERIFY(close(async.forwardTime - plain.forwardTime, column + rowAsync, 1e-6));
        QVERIFY(ub.forwardTime > async.forwardTime && ub.backwardTime > async.backwardTime);
        QVERIFY(ub.backwardTime > plain.backwardTime);
        c.tp = 1; // nothing to overlap
        QCOMPARE(chunkCost(m, c, a, 0, 1, false, false).forwardTime,
                 chunkCost(m, TrainingConfig {}, a, 0, 1, false, false).forwardTime);
    }
    // cuBLAS picks the tile per shape: the 18.4B GPT's QKV GEMM under TP 8 on A100 (2048 tokens,
    // N = 3 x 6144 / 8 = 2304) is 144 tiles of 256 x 128 over 108 SMs (2 waves, 0.67 useful)
    // but 288 tiles of 128 x 128 (3 waves of half the work, 0.89 useful).
    void squareTileWhenItWastesLess()
    {
        AcceleratorSpec a = gpu();
        a.sms = 108;
        a.gemmTileM = 256;
        a.gemmTileN = 128;
        const KernelModel k(a);
        QVERIFY(close(k.waveEfficiency(2048, 2304, 6144), 2048 * 2304 / (3 * 108 * 128 * 128.0)));
        QVERIFY(k.waveEfficiency(2048, 2304, 6144) > 0.88);
        // A shape the large tile fills exactly keeps it: 108 tiles of 256 x 128.
        QVERIFY(close(k.waveEfficiency(256 * 12, 128 * 9, 6144), 1.0));
    }
    // A skinny GEMM (a 16-row product against a 8192 x 8192 weight) is bound by reading the
    // weight: bytes / (bandwidth x efficiency), in the datatype's bytes (below one wave the
    // kernel takes 64-row tiles and splits K, so the padded math stays under the traffic).
    void skinnyGemmIsMemoryBound()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double M = 16, N = 8192, K = 8192;
        const double bytes = 2 * (M * K + K * N) + 2 * M * N;
        QVERIFY(close(k.gemm(M, N, K, DataType::BF16), bytes / (3e12 * 0.8)));
        const double fp8 = 1 * (M * K + K * N) + 2 * M * N;
        QVERIFY(close(k.gemm(M, N, K, DataType::FP8), fp8 / (3e12 * 0.8)));
    }
    // A wgrad GEMM accumulated into an fp32 main gradient (Megatron's gradient-accumulation
    // fusion) reads and writes C in fp32: 8 bytes per element instead of a BF16 write's 2. An
    // expert's wgrad (K x N from a few hundred rows) becomes memory bound on C; a dense
    // layer's (thousands of rows) stays math bound and does not change.
    void wgradAccumulationMovesTheOutput()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double K = 4096, N = 2048, T = 256; // an expert's wgrad: K x N = x^T dY over T rows
        const double bf16 = k.gemm(K, N, T, DataType::BF16);
        const double fp32 = k.gemm(K, N, T, DataType::BF16, 1, 8);
        QVERIFY(close(fp32, (2 * (K * T + T * N) + 8 * K * N) / (3e12 * 0.8)));
        QVERIFY(fp32 > 1.5 * bf16);
        const double dense = 16384; // a dense layer's rows: math bound either way
        QVERIFY(
            close(k.gemm(K, N, dense, DataType::BF16, 1, 8), k.gemm(K, N, dense, DataType::BF16)));
        // The config's bytes: fused into fp32 main grads 8, into BF16 main grads 4, unfused 2.
        TrainingConfig c;
        QCOMPARE(c.wgradOutputBytes(), 8.0);
        c.gradReduceFp32 = false;
        QCOMPARE(c.wgradOutputBytes(), 4.0);
        c.wgradAccumulationFusion = false;
        QCOMPARE(c.wgradOutputBytes(), 2.0);
        // In a MoE layer the experts' wgrads slow the backward; the forward does not change.
        TransformerSpec moe = *modelPreset("mixtral-8x7b");
        moe.layers = 1;
        moe.seq = 1024;
        TrainingConfig fused;
        fused.ep = 8;
        TrainingConfig unfused = fused;
        unfused.wgradAccumulationFusion = false;
        const ChunkCost f = chunkCost(moe, fused, a, 0, 1, false, false);
        const ChunkCost u = chunkCost(moe, unfused, a, 0, 1, false, false);
        QVERIFY(close(f.forwardTime, u.forwardTime));
        QVERIFY(f.backwardTime > u.backwardTime);
    }
    // FP8 GEMMs run at the FP8 peak times its own sustained fraction.
    void fp8UsesItsSustainedPeak()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double M = 128 * 12, N = 256 * 11, K = 8192;
        QVERIFY(close(k.gemm(M, N, K, DataType::FP8), 2 * M * N * K / (0.7 * 2000e12)));
    }
    // Under a whole node's sustained load the tensor cores run at the sustained clock (MSMF /
    // MAMF): GEMM and attention math slow by that factor; memory-bound kernels do not.
    void sustainedClockSlowsTensorMath()
    {
        AcceleratorSpec a = gpu();
        const double M = 128 * 12, N = 256 * 11, K = 8192;
        const double burst = KernelModel(a).gemm(M, N, K, DataType::BF16);
        const double attBurst
            = KernelModel(a).attention(32, 8192, 8192, 128, true, false, a.attentionFused);
        const double skinny = KernelModel(a).gemm(16, 8192, 8192, DataType::BF16);
        a.sustainedClock = 0.8;
        const KernelModel k(a);
        QVERIFY(close(k.gemm(M, N, K, DataType::BF16), burst / 0.8));
        QVERIFY(
            close(k.attention(32, 8192, 8192, 128, true, false, a.attentionFused), attBurst / 0.8));
        QVERIFY(close(k.gemm(16, 8192, 8192, DataType::BF16), skinny));
    }
    // Causal masking: with 128-query blocks the kernel computes (n + 1) / 2n of the square; the
    // backward is 2.5x the forward FLOPs, at the backward efficiency.
    void causalAttentionAsKernelsCompute()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        const double heads = 32, s = 8192, d = 128, n = s / 128;
        const double full = 4 * heads * s * s * d;
        const double f = KernelModel::attentionKernelFlops(heads, s, s, d, true, false);
        QVERIFY(close(f, full * (n + 1) / (2 * n)));
        QVERIFY(close(KernelModel::attentionKernelFlops(heads, s, s, d, false, false), full));
        QVERIFY(close(KernelModel::attentionKernelFlops(heads, s, s, d, true, true), 2.5 * f));
        const AttentionEfficiency eff {0.6, 0.5};
        QVERIFY(close(k.attention(heads, s, s, d, true, false, eff), f / (0.6 * 1000e12)));
        QVERIFY(close(k.attention(heads, s, s, d, true, true, eff), 2.5 * f / (0.5 * 1000e12)));
    }
    // The fused attention's efficiency at head dimension d: (d / (d + d0)) / (128 / (128 + d0)),
    // d0 the head dimension whose MMA time per score equals its exponential's: 0.75 at d = 64
    // and 1.2 at d = 256 with Hopper's d0 = 64 (FlashAttention-3's figures), 2/3 at d = 64 with
    // B200's d0 = 128; no change at d = 128 or without d0. The backward follows it below 128
    // but is not lifted above (shared-memory bound: cuDNN's 192/128 MLA backward runs below the
    // 128-wide kernel).
    void attentionHeadDimFollowsTheSoftmax()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a);
        QVERIFY(close(KernelModel::headDimFactor(64, 64), 0.75));
        QVERIFY(close(KernelModel::headDimFactor(256, 64), 1.2));
        QVERIFY(close(KernelModel::headDimFactor(64, 128), 2.0 / 3));
        QVERIFY(close(KernelModel::headDimFactor(128, 128), 1));
        QVERIFY(close(KernelModel::headDimFactor(64, 0), 1));
        const double heads = 32, s = 8192;
        const AttentionEfficiency eff {0.6, 0.5, 64};
        for (double d : {64.0, 128.0, 256.0}) {
            const double f = KernelModel::attentionKernelFlops(heads, s, s, d, true, false);
            const double factor = (d / (d + 64)) / (128.0 / 192);
            QVERIFY(
                close(k.attention(heads, s, s, d, true, false, eff), f / (0.6 * factor * 1000e12)));
            QVERIFY(close(k.attention(heads, s, s, d, true, true, eff),
                          2.5 * f / (0.5 * std::min(1.0, factor) * 1000e12)));
        }
        // Wide heads never run above the peak: 0.9 x 1.6 at head dimension 1024 is capped at 1.
        const AttentionEfficiency high {0.9, 0.9, 64};
        const double wide = KernelModel::attentionKernelFlops(heads, s, s, 1024, true, false);
        QVERIFY(close(k.attention(heads, s, s, 1024, true, false, high), wide / 1000e12));
        const auto &cat = builtinCatalog().hardware.accelerators;
        QCOMPARE(cat.at("a100-80gb").attentionFused.softmaxHeadDim, 32.0);
        QCOMPARE(cat.at("h100-sxm").attentionFused.softmaxHeadDim, 64.0);
        QCOMPARE(cat.at("b200").attentionFused.softmaxHeadDim, 128.0);
        QCOMPARE(cat.at("gb300").attentionFused.softmaxHeadDim, 64.0);
    }
    // RoPE with a YaRN attention factor other than 1 (GPT-OSS) runs as Megatron-Core's unfused
    // PyTorch ops: 24 bytes per element of this GPU's Q and K in 6 kernels each instead of the
    // fused kernel's 4 bytes and 1 kernel, forward; the backward twice the bytes, as many kernels.
    void yarnScaledRopeRunsUnfused()
    {
        const AcceleratorSpec a = gpu();
        TransformerSpec m = llama(1);
        TrainingConfig c;
        c.tp = 2;
        const ChunkCost plain = chunkCost(m, c, a, 0, 1, false, false);
        m.ropeAttentionFactor = 0.1 * std::log(32.0) + 1;
        const ChunkCost yarn = chunkCost(m, c, a, 0, 1, false, false);
        const double elems = double(m.seq) * (m.queryWidth() + m.keyWidth()) / c.tp;
        const double bw = 3e12 * 0.8;
        QVERIFY(close(yarn.forwardTime - plain.forwardTime, 20 * elems / bw, 1e-6));
        QVERIFY(close(yarn.backwardTime - plain.backwardTime, 40 * elems / bw, 1e-6));
        QVERIFY(close(yarn.hostLaunches - plain.hostLaunches, 2 * 10));
        QVERIFY(modelPreset("gpt-oss-120b")->ropeAttentionFactor > 1.34);
        QCOMPARE(modelPreset("deepseek-v3")->ropeAttentionFactor, 1.0);
        TrainingConfig eager = c; // PyTorch eager: every RoPE unfused already (28 bytes)
        eager.fusedElementwise = false;
        QVERIFY(close(chunkCost(m, eager, a, 0, 1, false, false).forwardTime,
                      chunkCost(llama(1), eager, a, 0, 1, false, false).forwardTime));
    }
    // Qwen3's per-head query and key RMSNorm: a fused norm each (read 2 + write 2 bytes per
    // element of this GPU's Q and K), forward and backward.
    void qkNormIsTwoNorms()
    {
        const AcceleratorSpec a = gpu();
        TransformerSpec m = llama(1);
        TrainingConfig c;
        c.tp = 4;
        const ChunkCost plain = chunkCost(m, c, a, 0, 1, false, false);
        m.qkNorm = true;
        const ChunkCost qk = chunkCost(m, c, a, 0, 1, false, false);
        const double elems = double(m.seq) * (m.queryWidth() + m.keyWidth()) / c.tp;
        QVERIFY(close(qk.forwardTime - plain.forwardTime, 4 * elems / (3e12 * 0.8), 1e-6));
        QVERIFY(close(qk.hostLaunches - plain.hostLaunches, 4));
        QVERIFY(modelPreset("qwen3-235b-a22b")->qkNorm);
        QVERIFY(!modelPreset("llama3-70b")->qkNorm);
    }
    // The launch floor lifts every kernel shorter than it (KernelModel alone).
    void launchFloor()
    {
        const AcceleratorSpec a = gpu();
        const KernelModel k(a, 10e-6);
        QCOMPARE(k.elementwise(1000), 10e-6);
        QCOMPARE(k.gemm(16, 16, 16, DataType::BF16), 10e-6);
        QCOMPARE(k.elementwise(0), 0.0);
    }
    // The launch queue (launchqueue.h): kernel i starts at max(end of kernel i - 1, its
    // launch). A burst of 100 small kernels (1 s of host each, no GPU time) before a large one
    // (50 s) costs their sum, 151 s; the large one first costs the longer side, 101 s. A group
    // of equal kernels ends where pushing them one by one ends. A synchronisation returns the
    // run and starts an empty one.
    void launchQueueOrder()
    {
        LaunchQueue burstFirst;
        burstFirst.push(100, 0, 1);
        burstFirst.push(1, 50, 1);
        QCOMPARE(burstFirst.wall(), 151.0);
        QCOMPARE(burstFirst.host(), 101.0);
        QCOMPARE(burstFirst.gpu(), 50.0);
        LaunchQueue largeFirst;
        largeFirst.push(1, 50, 1);
        largeFirst.push(100, 0, 1);
        QCOMPARE(largeFirst.wall(), 101.0);
        for (const double perKernel : {0.5, 2.0, 3.0, 7.0}) {
            LaunchQueue group, single;
            group.push(1, 10, 2); // something queued before
            single.push(1, 10, 2);
            group.push(7, 7 * perKernel, 2);
            for (int i = 0; i < 7; ++i)
                single.push(1, perKernel, 2);
            QVERIFY2(close(group.wall(), single.wall()), qPrintable(QString::number(perKernel)));
        }
        LaunchQueue captured; // no host time: the GPU's sum
        captured.push(5, 3, 0);
        captured.push(2, 4, 0);
        QCOMPARE(captured.wall(), 7.0);
        QCOMPARE(burstFirst.sync(), 151.0);
        QCOMPARE(burstFirst.wall(), 0.0);
        QCOMPARE(burstFirst.host(), 0.0);
    }
    // The host launches every kernel and runs ahead of the GPU through the launch queue
    // (launchqueue.h). With a host time far above every kernel's, a dense layer's forward is
    // its kernel count times it, plus the last kernels' GPU time: QKV, two norms, two residual
    // adds, RoPE of Q and K, attention, projection, fc1, fc2 and the activation = 12 in BF16;
    // its backward 2 GEMMs per linear, 3 attention kernels, one per element-wise kernel = 18
    // (hostLaunches counts the 30). Full recomputation launches the forward again. CUDA graphs
    // capture all of it. A host time below the kernels' leaves the GPU time as it was, but for
    // the first launch (the GPU cannot start before it).
    void hostLaunchBound()
    {
        TransformerSpec m = llama(1);
        m.seq = 256;
        TrainingConfig c;
        const ChunkCost gpuOnly = chunkCost(m, c, gpu(), 0, 1, false, false);
        QCOMPARE(gpuOnly.hostBoundTime, 0.0);
        c.launchOverhead = 0.1;
        const ChunkCost host = chunkCost(m, c, gpu(), 0, 1, false, false);
        QVERIFY(hostThenTail(host.forwardTime, 12 * 0.1, gpuOnly.forwardTime));
        QVERIFY(hostThenTail(host.backwardTime, 18 * 0.1, gpuOnly.backwardTime));
        QVERIFY(close(host.hostBoundTime,
                      host.forwardTime + host.backwardTime - gpuOnly.forwardTime
                          - gpuOnly.backwardTime));
        QCOMPARE(host.hostLaunches, 30.0);
        QCOMPARE(gpuOnly.hostLaunches, 30.0); // counted with or without a host time
        // Full recomputation launches the forward's 12 kernels again, host time included.
        TrainingConfig full = c;
        full.recompute = Recompute::Full;
        const ChunkCost again = chunkCost(m, full, gpu(), 0, 1, false, false);
        QCOMPARE(again.hostLaunches, 42.0);
        QVERIFY(hostThenTail(again.backwardTime, (18 + 12) * 0.1, gpuOnly.backwardTime * 2));
        c.cudaGraphs = CudaGraphScope::Layers;
        QVERIFY(close(chunkCost(m, c, gpu(), 0, 1, false, false).forwardTime, gpuOnly.forwardTime));
        QCOMPARE(chunkCost(m, c, gpu(), 0, 1, false, false).hostLaunches, 0.0);
        // A slower host (Grace: hostLaunchFactor 2.75) scales every launch's host time.
        AcceleratorSpec grace = gpu();
        grace.hostLaunchFactor = 2.75;
        c.cudaGraphs = CudaGraphScope::None;
        QVERIFY(hostThenTail(chunkCost(m, c, grace, 0, 1, false, false).forwardTime,
                             12 * 0.1 * 2.75, gpuOnly.forwardTime));
        QVERIFY(hostThenTail(chunkCost(m, c, grace, 0, 1, false, false).backwardTime,
                             18 * 0.1 * 2.75, gpuOnly.backwardTime));
        TransformerSpec big = llama(1); // 8k tokens: every kernel outlasts 1 us of host time
        TrainingConfig quick;
        const double t = chunkCost(big, quick, gpu(), 0, 1, false, false).forwardTime;
        quick.launchOverhead = 1e-6;
        QVERIFY(close(chunkCost(big, quick, gpu(), 0, 1, false, false).forwardTime, t + 1e-6));
    }
    // A MoE layer's forward synchronises with the host after its router (the tokens per
    // expert): the queue drains there, so both halves pay their own host time. BF16, 8 local
    // experts: before the sync QKV, 6 element-wise, attention, projection, the router GEMM and
    // its 31 fused kernels = 41; after it 8 fc1 + 8 fc2 GEMMs, the permute, the local sorts by
    // expert after the dispatch and before the combine, the un-permute and the activation = 21
    // (DeepEP: no separate global permute and un-permute, 19). The layers' CUDA graphs capture the
    // first half; the routed experts stay eager; the full-iteration graph captures both.
    void moeLayerSynchronises()
    {
        TransformerSpec m = llama(1);
        m.seq = 256;
        m.experts = 8;
        m.topK = 2;
        m.expertFfn = 1024;
        TrainingConfig c;
        c.launchOverhead = 0.1;
        const ChunkCost host = chunkCost(m, c, gpu(), 0, 1, false, false);
        TrainingConfig gpuOnly = c;
        gpuOnly.launchOverhead = 0;
        const double gpuFwd = chunkCost(m, gpuOnly, gpu(), 0, 1, false, false).forwardTime;
        QVERIFY(hostThenTail(host.forwardTime, (41 + 21) * 0.1, gpuFwd));
        TrainingConfig unfused = c; // --moe-router-fusion off: the router's 72 kernels
        unfused.routerFusion = false;
        QVERIFY(hostThenTail(chunkCost(m, unfused, gpu(), 0, 1, false, false).forwardTime,
                             (41 + 41 + 21) * 0.1, gpuFwd));
        c.cudaGraphs = CudaGraphScope::Layers;
        const ChunkCost graphs = chunkCost(m, c, gpu(), 0, 1, false, false);
        QVERIFY(graphs.forwardTime > 21 * 0.1);
        QVERIFY(graphs.forwardTime < 21 * 0.1 + 0.01); // + the first half's GPU time
        // DeepEP fuses the router's and the dispatch preprocessing into 17 kernels.
        // The full-iteration graph captures the routed experts and the dispatch too: the host
        // launches nothing, and the layer takes its GPU time.
        c.cudaGraphs = CudaGraphScope::FullIteration;
        const ChunkCost full = chunkCost(m, c, gpu(), 0, 1, false, false);
        gpuOnly.cudaGraphs = CudaGraphScope::None;
        const ChunkCost gpuTime = chunkCost(m, gpuOnly, gpu(), 0, 1, false, false);
        QVERIFY(close(full.forwardTime, gpuTime.forwardTime));
        QVERIFY(close(full.backwardTime, gpuTime.backwardTime));
        QCOMPARE(full.hostLaunches, 0.0);
        QCOMPARE(full.hostBoundTime, 0.0);
        QVERIFY(full.forwardTime < 0.01);
        c.cudaGraphs = CudaGraphScope::None;
        c.dispatcher = TokenDispatcher::DeepEP;
        QVERIFY(hostThenTail(chunkCost(m, c, gpu(), 0, 1, false, false).forwardTime,
                             (41 - 31 + 17 + 19) * 0.1, gpuFwd));
    }
    // FP8 linears: QKV, projection and MLP GEMMs at the FP8 rate plus their casts; the LM head
    // and the attention core stay BF16 (their time does not change with the FP8 peak).
    void lowPrecisionOnlyInLinears()
    {
        const TransformerSpec m = llama(2);
        TrainingConfig bf16;
        TrainingConfig fp8 = bf16;
        fp8.dtype = DataType::FP8;
        AcceleratorSpec a = gpu();
        const ChunkCost b = chunkCost(m, bf16, a, 0, 2, false, false);
        const ChunkCost f = chunkCost(m, fp8, a, 0, 2, false, false);
        QVERIFY(f.forwardTime < b.forwardTime);
        QVERIFY(f.forwardTime > 0.5 * b.forwardTime); // attention and element-wise stay
        QCOMPARE(f.forwardFlops, b.forwardFlops);
        // The LM head alone: doubling the FP8 peak does not change it.
        const ChunkCost head = chunkCost(m, fp8, a, 0, 0, false, true);
        a.peakFlopsFp8 *= 2;
        QVERIFY(close(chunkCost(m, fp8, a, 0, 0, false, true).forwardTime, head.forwardTime));
        // ... and neither does the layers' attention: the FP8 speed-up is bounded by the linears.
        const ChunkCost f2 = chunkCost(m, fp8, a, 0, 2, false, false);
        QVERIFY(f2.forwardTime < f.forwardTime);
    }
    // Cast bytes per element of a quantized tensor (both layouts written): tensorwise current
    // scaling 6 (amax pass 2 + cast 2 + 1 + 1) in 2 kernels, delayed 4, MXFP8 4 + 2/32.
    void quantizationCastBytes_data()
    {
        QTest::addColumn<int>("recipe");
        QTest::addColumn<double>("bytes");
        QTest::newRow("tensorwise") << int(Fp8Recipe::Tensorwise) << 6.0;
        QTest::newRow("delayed") << int(Fp8Recipe::Delayed) << 4.0;
        QTest::newRow("blockwise") << int(Fp8Recipe::Blockwise) << 4 + 8.0 / 128;
        QTest::newRow("mxfp8") << int(Fp8Recipe::Mxfp8) << 4 + 2.0 / 32;
    }
    void quantizationCastBytes()
    {
        QFETCH(int, recipe);
        QFETCH(double, bytes);
        // A GEMM-free view: an accelerator with an enormous peak leaves only memory traffic; the
        // cast traffic of one linear's input (T x K) and output gradient (T x N) then shows up
        // as the FP8-minus-BF16 difference (weights once per step with GA 1).
        AcceleratorSpec a = gpu();
        a.peakFlopsBf16 = a.peakFlopsFp8 = 1e30;
        a.sms = 0;
        a.attentionFused = {1, 1};
        const TransformerSpec m = llama(1);
        TrainingConfig c;
        c.fp8Recipe = Fp8Recipe(recipe);
        const ChunkCost b = chunkCost(m, c, a, 0, 1, false, false);
        c.dtype = DataType::FP8;
        const ChunkCost f = chunkCost(m, c, a, 0, 1, false, false);
        const double T = m.seq, h = m.hidden, kv = h * m.kvHeads / m.heads, ff = m.ffn;
        // Inputs of QKV (T h), projection (T h), fc1 (T h), fc2 (T f), plus the weights.
        const double inputs = T * (3 * h + ff);
        const double weights = h * (h + 2 * kv) + h * h + 2 * h * ff + ff * h;
        // GEMM operand bytes shrink from 2 to 1 per input element in fprop, dgrad and wgrad.
        const double bw = 3e12 * 0.8;
        const double castFwd = bytes * (inputs + weights) / bw;
        const double gemmSaving = ((T * h + h * (h + 2 * kv)) + (T * h + h * h)
                                   + (T * h + 2 * h * ff) + (T * ff + ff * h))
            / bw;
        QVERIFY2(close(f.forwardTime - b.forwardTime, castFwd - gemmSaving, 1e-6),
                 qPrintable(QString::number(f.forwardTime - b.forwardTime)));
    }
    // Selective recomputation by module: recomputing the MLP repeats its GEMMs and drops its
    // activations; layernorm drops the norm outputs.
    void recomputeByModule()
    {
        const TransformerSpec m = llama(1);
        TrainingConfig c;
        c.recompute = Recompute::Selective;
        const ChunkCost attnOnly = chunkCost(m, c, gpu(), 0, 1, false, false);
        const double actAttn = layerActivationBytes(m, c, 0);
        c.recomputeModules = kRecomputeCoreAttn | kRecomputeMlp;
        const ChunkCost mlp = chunkCost(m, c, gpu(), 0, 1, false, false);
        QVERIFY(mlp.recomputeTime > 2 * attnOnly.recomputeTime);
        QVERIFY(mlp.recomputeFlops
                > attnOnly.recomputeFlops + 2.0 * m.seq * m.hidden * m.ffn * 3 * 0.99);
        const double sbh = double(m.seq) * m.hidden;
        // The MLP keeps nothing: fc1 input (2), gate+up (4 f/h) and fc2 input (2 f/h) go.
        QVERIFY(close(actAttn - layerActivationBytes(m, c, 0), sbh * (2 + 6.0 * m.ffn / m.hidden),
                      1e-9));
        c.recomputeModules = kRecomputeLayerNorm;
        QVERIFY(close(actAttn - layerActivationBytes(m, c, 0), sbh * 4, 1e-9));
        unsigned bits = 0;
        std::string bad;
        QVERIFY(recomputeModulesFromString("core_attn,mlp,norm", bits, bad));
        QCOMPARE(bits, unsigned(kRecomputeCoreAttn | kRecomputeMlp | kRecomputeLayerNorm));
        QCOMPARE(recomputeModulesToString(bits), std::string("core_attn,mlp,layernorm"));
        QVERIFY(!recomputeModulesFromString("core_attn,bogus", bits, bad));
        QCOMPARE(bad, std::string("bogus"));
        // as a user types it: blanks around the names
        QVERIFY(recomputeModulesFromString(" layernorm, moe_act ", bits, bad));
        QCOMPARE(bits, unsigned(kRecomputeLayerNorm | kRecomputeMoeAct));
        QVERIFY(!recomputeModulesFromString("layernorm, attn", bits, bad));
        QCOMPARE(bad, std::string("attn"));
    }
    // A 500 W H100 computes a large GEMM 0.87x as fast as a 700 W one; its HBM is the same.
    void powerVariantSlowsGemms()
    {
        const AcceleratorSpec &h100 = builtinCatalog().hardware.accelerators.at("h100-sxm");
        AcceleratorSpec capped;
        std::string error;
        QVERIFY(applyVariants(h100, "h100-sxm@500w", capped, error));
        const double M = 8192, N = 8192, K = 8192;
        const double full = KernelModel(h100).gemm(M, N, K, DataType::BF16);
        QVERIFY(close(KernelModel(capped).gemm(M, N, K, DataType::BF16), full / 0.87, 1e-9));
        QCOMPARE(KernelModel(capped).elementwise(1e9), KernelModel(h100).elementwise(1e9));
    }
    // Memory allowances are part of the total and of the fit; FSDP shards weights, HSDP only
    // inside its shard group.
    void memoryAllowancesAndHsdp()
    {
        const TransformerSpec m = llama(4);
        TrainingConfig c;
        c.dp = 8;
        c.fsdp = true;
        AcceleratorSpec a = gpu();
        const MemoryBreakdown full = stageMemory(m, c, a, 0, 1e9);
        QCOMPARE(full.runtime, kCudaRuntimeBytes);
        QCOMPARE(full.commBuffers, kNcclBuffersPerCommunicator); // the DP communicator
        QVERIFY(close(full.fragmentation,
                      kFragmentation
                          * (full.weights + full.gradients + full.optimizer + full.activations)));
        QVERIFY(close(full.total(),
                      full.allocatorReserved() + kCudaRuntimeBytes + kNcclBuffersPerCommunicator));
        c.fsdpShardGroup = 2; // HSDP: sharded over 2, replicated over 4
        const MemoryBreakdown hsdp = stageMemory(m, c, a, 0, 1e9);
        QVERIFY(close(hsdp.optimizer, 4 * full.optimizer));
        QVERIFY(hsdp.weights > full.weights);
        c.fsdpShardGroup = 3;
        const auto f = validate(m, c, 8);
        QVERIFY(std::any_of(f.begin(), f.end(),
                            [](const Finding &x) { return x.code == "hsdp-shard-group-invalid"; }));
        a.hbmBytes = full.total() - 1;
        QVERIFY(!stageMemory(m, TrainingConfig {}, a, 0, 1e9).fits());
    }
    // Ring CP on 2 ranks: one p2p step of the local K/V block, hidden behind the attention of
    // the local block when faster, exposed by the difference when slower.
    void ringCpOverlapOnTwoRanks()
    {
        TransformerSpec m = llama(1);
        TrainingConfig c;
        c.cp = 2;
        const double bytes = ringCpStepBytes(m, c);
        QCOMPARE(bytes, 2.0 * 2 * (m.seq / 2) * (m.hidden * 8.0 / 32)); // K + V of 4096 tokens
        QCOMPARE(ringCpExposed(2, 1e-3, 2e-3), 0.0);
        QVERIFY(close(ringCpExposed(2, 3e-3, 2e-3), 1e-3));
        QVERIFY(close(ringCpExposed(4, 3e-3, 2e-3), 3e-3));
        QCOMPARE(ringCpExposed(1, 3e-3, 2e-3), 0.0);
    }
    // FSDP prefetch: the first unit's gather is exposed, later ones only beyond the compute of
    // the unit before them.
    void fsdpPrefetchExposure()
    {
        QVERIFY(close(fsdpPrefetchExposed({1, 1, 1}, {2, 2, 2}), 1));
        QVERIFY(close(fsdpPrefetchExposed({1, 3, 1}, {2, 2, 2}), 2));
        QCOMPARE(fsdpPrefetchExposed({}, {}), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "tst_kernels.moc"
