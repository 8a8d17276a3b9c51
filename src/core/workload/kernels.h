#pragma once
// Time of the kernels of one training step on one accelerator (simulator.md, Compute): GEMMs
// from their shape and datatype with tile and wave quantization over the SMs and the
// memory-bound regime of skinny shapes; fused attention per accelerator generation with causal
// masking as the kernels compute it; memory-bound element-wise kernels from their bytes; an
// optional host/launch floor per kernel.
//
// Sources: NVIDIA Deep Learning Performance guide, "Matrix Multiplication Background" (tiles of
// the output dealt to the SMs in waves; a partial last wave costs a whole one; arithmetic
// intensity decides between the math and memory limits); the sustained GEMM peaks and attention
// efficiencies of each accelerator are catalog constants with their measurements
// (resources/catalog/accelerators.json).

#include "model/hardware.h"

namespace weft {

/// Kernel timing on one accelerator. All times in seconds, sizes in elements, bytes in bytes.
class KernelModel
{
public:
    /// `launchFloor`: the least time any kernel takes when the host launches kernels one by one
    /// (seconds; 0 when CUDA graphs replay the step or the floor is not modelled).
    /// The model keeps a reference to `acc`, which must outlive it; a temporary is refused.
    explicit KernelModel(const AcceleratorSpec &acc, double launchFloor = 0);
    KernelModel(AcceleratorSpec &&, double = 0) = delete;

    /// One GEMM C(M x N) = A(M x K) B(K x N), inputs in `dtype` (BF16: 2 bytes, FP8: 1, FP4: 0.5
    /// plus one scale byte per 16 elements), C moving `outBytes` bytes per element (2: a BF16
    /// write; 8: an fp32 accumulation, C read and written). Time = max(math, memory) with
    ///  math = waves x (2 tileM tileN K) / (sustained peak / SMs), waves = ceil(tiles / SMs),
    ///        (tileM x tileN the best of the tilings of waveEfficiency()),
    ///        sustained peak = peak x matmul efficiency x sustained clock (MSMF / MAMF),
    ///        tiles = ceil(M / tileM) ceil(N / tileN), the better of both tile orientations
    ///        (cuBLAS may swap the operands); below one wave, 64-row tiles with split-K over the
    ///        idle SMs (small problems); without SMs in the catalog 2MNK / sustained peak;
    ///  memory = (|A| + |B| + outBytes M N) bytes / (HBM bandwidth x memory efficiency);
    /// then at least the launch floor. Degenerate shapes (any size <= 0) take 0 s.
    /// `batch` independent GEMMs of this shape in one batched kernel (the unfused attention's
    /// per-head products): their tiles share the waves, their operands all move.
    [[nodiscard]] double gemm(double M, double N, double K, DataType dtype, double batch = 1,
                              double outBytes = 2) const;
    /// `groups` equal GEMMs C(M x N) = A(M x K) B(K x N) as Transformer Engine's GroupedLinear
    /// runs them (the experts of a MoE layer): one cuBLAS kernel each, dealt round-robin over
    /// kGroupedGemmStreams compute streams (nvte_multi_stream_cublas_gemm; TransformerEngine
    /// transformer_engine/common/include/transformer_engine/multi_stream.h: num_streams = 4).
    /// At most that many run at once and share the waves (gemm()'s batch); the next start when
    /// they finish: floor(g / 4) x gemm(batch 4) + gemm(batch g mod 4). Small GEMMs (an
    /// expert's few rows) thus fill the SMs four problems at a time, not all together.
    [[nodiscard]] double groupedGemm(double M, double N, double K, DataType dtype, double groups,
                                     double outBytes = 2) const;
    /// Compute streams a grouped GEMM's kernels are dealt over (Transformer Engine's
    /// num_streams).
    static constexpr double kGroupedGemmStreams = 4;
    /// Fraction of the math time that does useful work: 2MNK / (waves x SMs x 2 tileM tileN K)
    /// (1 without SMs): the wave-quantization efficiency of the shape, the best of the tilings
    /// cuBLAS chooses from: the catalog tile in both orientations and the square tile of its
    /// short side (128 x 128), all at the same per-SM throughput (kernels.cpp says why).
    [[nodiscard]] double waveEfficiency(double M, double N, double K, double batch = 1) const;

    /// A fused attention kernel over `heads` (batch x local heads) of `sq` queries against `skv`
    /// keys of head dimension `d` (forward: 4 sq skv d FLOPs per head; backward 2.5x), `causal`
    /// skipping the blocks above the diagonal as FlashAttention-2/3 and cuDNN do: with blocks of
    /// 128 queries, the computed fraction is (n + 1) / (2n) for n = sq / 128 blocks (sq = skv),
    /// at `eff` (the catalog efficiency of the kernel for this generation, fraction of the BF16
    /// peak) times the sustained clock, scaled by headDimFactor(d, eff.softmaxHeadDim) (the
    /// backward by at most 1: wider heads do not speed it up) and never above the peak (fraction
    /// at most 1). At least the launch floor.
    /// Each query tile's fixed work lowers the fraction to eff x k / (k + overhead) for k key
    /// blocks per query tile (blocksPerQueryTile; AttentionEfficiency::forwardTileOverhead):
    /// fitted per generation to cuDNN's training SDPA benchmark (NVIDIA/cudnn-frontend
    /// benchmark/sdpa_benchmark_training, Llama 3.1 shapes, causal and unmasked, 2k-32k tokens;
    /// tests/data/validation/cudnn_sdpa_*.csv). `kvChunks`: the keys are visited in that many
    /// separate kernels (ring context parallelism's steps), each with that share of the blocks.
    [[nodiscard]] double attention(double heads, double sq, double skv, double d, bool causal,
                                   bool backward, const AttentionEfficiency &eff,
                                   double kvChunks = 1) const;
    /// Key/value blocks of 128 keys one query tile of 128 queries visits: ceil(skv / 128), or
    /// (n + 1) / 2 on average for a causal kernel of n query tiles (sq = skv), divided by
    /// `kvChunks` kernels; at least 1.
    [[nodiscard]] static double blocksPerQueryTile(double sq, double skv, bool causal,
                                                   double kvChunks = 1);
    /// k / (k + overhead): the fraction of a kernel's long-sequence efficiency left when each
    /// query tile visits k blocks and costs `overhead` blocks' worth of fixed work (1 when
    /// overhead is 0).
    [[nodiscard]] static double tileEfficiency(double k, double overhead);
    /// The attention kernel's efficiency at head dimension `d` relative to head dimension 128,
    /// where the catalog measures it: (d / (d + d0)) / (128 / (128 + d0)), d0 the head dimension
    /// whose MMA time per score equals the exponential's (AttentionEfficiency::softmaxHeadDim);
    /// 1 when d0 is 0. A score costs 4d tensor-core FLOPs forward but one MUFU exponential
    /// whatever d, so a narrow head leaves the kernel waiting on its softmax. On Hopper, d0 =
    /// 4,096 dense BF16 FLOPs / (4 x 16 MUFU.EX2) per clock per SM = 64 gives 0.75 at d = 64 and
    /// 1.2 at d = 256, as FlashAttention-3 measures (Shah et al. 2024, Fig. 5: BF16 forward
    /// ~497, ~648 and ~756 TFLOPS at head dimensions 64, 128, 256, 16k tokens); on B200 the
    /// tensor cores double and the MUFU does not (FlashAttention-4 paper, Zadouri et al. 2026,
    /// arXiv 2603.05451, sec. 2: the forward's exponentials already outlast its MMA at d = 128).
    [[nodiscard]] static double headDimFactor(double d, double d0);
    /// FLOPs the attention kernel computes (masked blocks skipped), forward or backward.
    [[nodiscard]] static double attentionKernelFlops(double heads, double sq, double skv, double d,
                                                     bool causal, bool backward);

    /// A memory-bound kernel moving `bytes` through HBM: bytes / (bandwidth x memory efficiency),
    /// at least the launch floor when `bytes` > 0.
    [[nodiscard]] double elementwise(double bytes) const;

    [[nodiscard]] double launchFloor() const { return m_floor; }
    /// The same model with `n` SMs held by communication kernels (Transformer Engine's
    /// userbuffers overlap: its GEMMs run on sm_count - num_comm_sm SMs, comm_gemm_overlap.cpp
    /// `_math_sms` with set_sm_margin): GEMM tiles are dealt over the SMs left, each at the same
    /// throughput, so a GEMM's math time is scaled by SMs / SMs left and its wave quantization
    /// taken over the SMs left. Other kernels are unchanged. n <= 0 or no SMs in the catalog:
    /// the model itself.
    [[nodiscard]] KernelModel reservingSms(double n) const;
    [[nodiscard]] const AcceleratorSpec &accelerator() const { return m_acc; }

private:
    double floored(double t) const;
    double tileWaves(double M, double N, double tm, double tn, double batch) const;

    const AcceleratorSpec &m_acc;
    double m_floor = 0;
    double m_bw = 1;
    double m_clock = 1; ///< AcceleratorSpec::sustainedClock
    double m_sms = 0; ///< SMs GEMM tiles are dealt over (AcceleratorSpec::sms less reserved)
};

/// Bytes per element of a GEMM input in `dtype` (FP4: NVFP4's 0.5 byte + a 1-byte scale per 16).
double gemmInputBytes(DataType dtype);

} // namespace weft
