#include "workload/kernels.h"

#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr double kBf16 = 2;
constexpr double kCausalBlock = 128; // FlashAttention-2/3 and cuDNN query/key block (head dim 128)
// Head dimension at which the catalog's attention fractions are measured (FlashAttention-2/3
// papers' and the FlashAttention-4 paper's figures).
constexpr double kAttentionRefHeadDim = 128;

} // namespace

double gemmInputBytes(DataType dtype)
{
    switch (dtype) {
    case DataType::BF16:
        return 2;
    case DataType::FP8:
        return 1;
    case DataType::FP4:
        return 0.5 + 1.0 / 16; // NVFP4: E2M1 elements, one E4M3 scale per 16 (NVIDIA 2025)
    }
    return 2;
}

KernelModel::KernelModel(const AcceleratorSpec &acc, double launchFloor)
    : m_acc(acc)
    , m_floor(std::max(0.0, launchFloor))
    , m_bw(std::max(1.0, acc.hbmBandwidth) * (acc.memoryEfficiency > 0 ? acc.memoryEfficiency : 1))
    , m_clock(acc.sustainedClock > 0 ? acc.sustainedClock : 1)
    , m_sms(acc.sms)
{
}

KernelModel KernelModel::reservingSms(double n) const
{
    KernelModel k = *this;
    if (n > 0 && m_acc.sms > 0)
        k.m_sms = std::max(1.0, m_sms - n);
    return k;
}

double KernelModel::floored(double t) const
{
    return t > 0 ? std::max(t, m_floor) : 0;
}

double KernelModel::tileWaves(double M, double N, double tm, double tn, double batch) const
{
    const double tiles = batch * std::ceil(M / tm) * std::ceil(N / tn);
    return std::ceil(tiles / m_sms);
}

double KernelModel::waveEfficiency(double M, double N, double K, double batch) const
{
    if (M <= 0 || N <= 0 || K <= 0 || batch <= 0 || m_sms <= 0)
        return 1;
    const double sms = m_sms;
    const double tm = std::max(1, m_acc.gemmTileM), tn = std::max(1, m_acc.gemmTileN);
    // The generation's large tile in either orientation, or the square tile of its short side
    // (128 x 128 on every generation in the catalog), whichever wastes less of the last wave:
    // cuBLAS's heuristics pick the tile per shape among several (the guide's "Dimension
    // Quantization Effects": 256x128 and 128x256 most efficient, 128x128 next; e.g. A100's
    // ampere_bf16_s16816gemm_bf16_256x128 and _128x128 kernels, Hopper's tilesize128x256x64 and
    // 128x128x64). The square tile is taken at the same per-SM throughput: on A100 its operand
    // feed from L2, (128 + 128) x 2 bytes per 2 x 128 x 128 FLOPs per k, is 32 B/clock/SM at the
    // 2,048 BF16 FLOPs/clock/SM peak, inside the ~47 B/clock/SM L2 (5,120 B/clock over 108 SMs,
    // NVIDIA A100 whitepaper); on Hopper and Blackwell (TMA multicast) it is assumed alike.
    const double ts = std::min(tm, tn);
    double best = 0;
    for (const auto &[a, b] : {std::pair {tm, tn}, std::pair {tn, tm}, std::pair {ts, ts}})
        best = std::max(best, (batch * M * N) / (tileWaves(M, N, a, b, batch) * sms * a * b));
    const double tiles = batch
        * std::min(std::ceil(M / tm) * std::ceil(N / tn), std::ceil(N / tm) * std::ceil(M / tn));
    if (tiles >= sms) // waves x SMs x tile area covers M x N: best <= 1
        return best;
    // Less than one wave of the large tile: cuBLAS/CUTLASS heuristics take 64-row tiles and
    // split K over the idle SMs (each split at least kMinSplitK deep), as the guide describes
    // for small problems. Per-SM efficiency of the smaller tiles is not modelled.
    constexpr double kMinSplitK = 256;
    for (const auto &[a, b] : {std::pair {64.0, tn}, std::pair {tn, 64.0}}) {
        const double t = batch * std::ceil(M / a) * std::ceil(N / b);
        const double split
            = std::max(1.0, std::min(std::floor(sms / t), std::ceil(K / kMinSplitK)));
        const double w = std::ceil(t * split / sms);
        best = std::max(best, (batch * M * N * K) / (w * sms * a * b * std::ceil(K / split)));
    }
    return std::min(1.0, best);
}

double KernelModel::groupedGemm(double M, double N, double K, DataType dtype, double groups,
                                double outBytes) const
{
    const double rounds = std::floor(groups / kGroupedGemmStreams);
    const double rest = groups - rounds * kGroupedGemmStreams;
    return rounds * gemm(M, N, K, dtype, kGroupedGemmStreams, outBytes)
        + (rest > 0 ? gemm(M, N, K, dtype, rest, outBytes) : 0);
}

double KernelModel::gemm(double M, double N, double K, DataType dtype, double batch,
                         double outBytes) const
{
    if (M <= 0 || N <= 0 || K <= 0 || batch <= 0)
        return 0;
    const double eff = m_acc.matmulEfficiencyFor(dtype) > 0 ? m_acc.matmulEfficiencyFor(dtype) : 1;
    // Tiles run on m_sms of the SMs, each at the full-chip per-SM throughput.
    const double share = m_acc.sms > 0 && m_sms > 0 ? m_sms / m_acc.sms : 1;
    const double sustained = std::max(1.0, m_acc.peakFlops(dtype) * eff * m_clock * share);
    const double math = batch * 2 * M * N * K / (sustained * waveEfficiency(M, N, K, batch));
    const double in = gemmInputBytes(dtype);
    const double memory = batch * (in * (M * K + K * N) + outBytes * M * N) / m_bw;
    return floored(std::max(math, memory));
}

double KernelModel::attentionKernelFlops(double heads, double sq, double skv, double d, bool causal,
                                         bool backward)
{
    if (heads <= 0 || sq <= 0 || skv <= 0 || d <= 0)
        return 0;
    double f = 4 * heads * sq * skv * d;
    if (causal) {
        const double n = std::max(1.0, std::ceil(sq / kCausalBlock));
        f *= (n + 1) / (2 * n);
    }
    return backward ? 2.5 * f : f;
}

double KernelModel::blocksPerQueryTile(double sq, double skv, bool causal, double kvChunks)
{
    if (sq <= 0 || skv <= 0)
        return 0;
    double k = std::max(1.0, std::ceil(skv / kCausalBlock));
    if (causal) // tile i of n visits i + 1 blocks: (n + 1) / 2 on average
        k = (std::max(1.0, std::ceil(sq / kCausalBlock)) + 1) / 2;
    return std::max(1.0, k / std::max(1.0, kvChunks));
}

double KernelModel::tileEfficiency(double k, double overhead)
{
    if (overhead <= 0 || k <= 0)
        return 1;
    return k / (k + overhead);
}

double KernelModel::attention(double heads, double sq, double skv, double d, bool causal,
                              bool backward, const AttentionEfficiency &eff, double kvChunks) const
{
    const double f = attentionKernelFlops(heads, sq, skv, d, causal, backward);
    if (f <= 0)
        return 0;
    double e = backward ? eff.backward : eff.forward;
    if (e <= 0) // no kernel efficiency in the catalog: the GEMM sustained fraction
        e = m_acc.matmulEfficiency > 0 ? m_acc.matmulEfficiency : 1;
    e *= tileEfficiency(blocksPerQueryTile(sq, skv, causal, kvChunks),
                        backward ? eff.backwardTileOverhead : eff.forwardTileOverhead);
    // Wider heads relieve the forward's exponentials; the backward, bound by shared-memory
    // traffic on Blackwell, does not speed up above head dimension 128 (cuDNN 9.22 runs
    // DeepSeek-V3's 192/128 MLA backward at 0.45-0.55 of the GB200 peak, below the 128-wide
    // kernel's 0.46-0.56: NVIDIA/cudnn-frontend results/dsv3/gb200/dsv3_20260424_101009.csv).
    double dim = headDimFactor(d, eff.softmaxHeadDim);
    if (backward)
        dim = std::min(1.0, dim);
    e = std::min(1.0, e * dim); // never above the peak
    const double math = f / (std::max(1.0, m_acc.peakFlopsBf16) * e * m_clock);
    // Q, K, V read and O written once forward; backward also reads O, dO and writes dQ, dK, dV.
    const double bytes = kBf16 * heads * d * (2 * sq + 2 * skv) * (backward ? 2.5 : 1);
    return floored(std::max(math, bytes / m_bw));
}

double KernelModel::headDimFactor(double d, double d0)
{
    if (d <= 0 || d0 <= 0)
        return 1;
    return (d / (d + d0)) / (kAttentionRefHeadDim / (kAttentionRefHeadDim + d0));
}

double KernelModel::elementwise(double bytes) const
{
    return bytes > 0 ? floored(bytes / m_bw) : 0;
}

} // namespace weft
