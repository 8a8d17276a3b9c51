#pragma once
// Hardware specifications: accelerators, switches and link technologies. Units are SI
// (bytes, bytes/s, FLOP/s, seconds); every spec names the public source of its figures.

#include <string>
#include <vector>

namespace weft {

/// Communication technology of a link or switch.
enum class Technology { NVLink, InfinityFabric, InfiniBand, Ethernet, PCIe };

/// Role of a switch in the fabric, from the scale-up domain upwards.
enum class SwitchRole { ScaleUp, Leaf, Spine, Core };

/// Numeric datatype of the linear layers' GEMMs (attention core, embedding, LM head, router and
/// optimizer stay BF16/FP32 whatever this is). FP4: NVFP4 on Blackwell.
enum class DataType { BF16, FP8, FP4 };

/// Efficiency of the fused attention kernels of one accelerator generation: the fraction of the
/// dense BF16 peak that the forward and backward kernels sustain on long causal sequences
/// (head dim 128), FLOPs counted as the kernels compute them (masked blocks skipped; backward
/// 2.5x the forward matmul work: dS, dP, dQ, dK, dV after recomputing P).
struct AttentionEfficiency
{
    double forward = 0;
    double backward = 0;
    /// The head dimension d0 at which the kernel's tensor-core time per score equals its
    /// softmax's exponential time (the fractions above are measured at head dimension 128):
    /// dense BF16 FLOPs per clock per SM / (4 x MUFU exponentials per clock per SM). A score
    /// costs 4d MMA FLOPs forward and one exponential whatever d, so the fraction at head
    /// dimension d is forward x (d / (d + d0)) / (128 / (128 + d0)) (KernelModel::attention);
    /// 0: no dependence on d.
    double softmaxHeadDim = 0;
    /// Per-query-tile overhead of the forward and the backward kernel, in key/value blocks of
    /// 128 keys: a query tile's fixed work (loading Q, initialising and finishing the online
    /// softmax, writing O and the log-sum-exp; the backward's dQ/dK/dV accumulators) costs as
    /// much as this many blocks of scores. A kernel whose query tiles each visit k blocks runs
    /// at forward (backward) x k / (k + overhead): short sequences, few keys per rank under
    /// ring context parallelism and narrow sliding windows run below the long-sequence
    /// fraction above (KernelModel::attention). 0: no dependence on the keys visited.
    double forwardTileOverhead = 0;
    double backwardTileOverhead = 0;
    bool operator==(const AttentionEfficiency &) const = default;
};

/// A named power/clock or memory setting of an accelerator ("500w", "96gb"): the fields it
/// sets replace the base entry's (0: unchanged). Selected as "key@suffix[,suffix...]".
struct AcceleratorVariant
{
    std::string suffix; ///< "500w", "96gb"
    double powerW = 0; ///< board power limit, W
    double clockScale = 0; ///< sustained tensor-core clock relative to the base entry
    double hbmBytes = 0;
    double hbmBandwidth = 0;
    std::string source;
    bool operator==(const AcceleratorVariant &) const = default;
};

/// One accelerator model (GPU).
struct AcceleratorSpec
{
    std::string key; ///< catalog key, e.g. "h100-sxm"
    std::string name; ///< display name, e.g. "H100 SXM5 80GB"
    double peakFlopsBf16 = 0; ///< dense BF16 tensor-core peak, FLOP/s
    double peakFlopsFp8 = 0; ///< dense FP8 peak, FLOP/s (0: unsupported)
    double peakFlopsFp4 = 0; ///< dense FP4 (NVFP4) peak, FLOP/s (0: unsupported)
    double hbmBytes = 0; ///< HBM capacity the driver reports, bytes
    double hbmBandwidth = 0; ///< HBM bandwidth, bytes/s
    double scaleUpBandwidth = 0; ///< scale-up (NVLink) bandwidth per direction, bytes/s
    /// Sustained fraction of the BF16 peak of a large GEMM whose tiles fill whole waves (the
    /// "maximum achievable matmul FLOPs" of cuBLAS at the entry's power and clock).
    double matmulEfficiency = 0.7;
    double matmulEfficiencyFp8 = 0; ///< the same for FP8 GEMMs (0: matmulEfficiency)
    double matmulEfficiencyFp4 = 0; ///< the same for FP4 GEMMs (0: matmulEfficiencyFp8)
    double memoryEfficiency = 0.8; ///< achievable fraction of HBM bandwidth
    /// Tensor-core throughput a whole node holds under sustained load, relative to the boost
    /// bursts the matmul and attention efficiencies were measured in: the maximum sustainable
    /// matmul FLOPs over the maximum achievable ones (MSMF / MAMF, every GPU of the node
    /// computing; stas00/ml-engineering, compute/accelerator/benchmarks/README.md, "What we
    /// measured: alone vs all-8 concurrent"). 1: not measured for this accelerator.
    double sustainedClock = 1;
    /// GEMM wave quantization (NVIDIA "Matrix Multiplication Background" guide): output tiles of
    /// gemmTileM x gemmTileN are dealt to `sms` multiprocessors in waves. 0 SMs: not modelled.
    int sms = 0;
    int gemmTileM = 128;
    int gemmTileN = 256;
    AttentionEfficiency attentionFused; ///< the generation's best fused kernel (FA3/cuDNN)
    AttentionEfficiency attentionFa2; ///< FlashAttention-2 (PyTorch SDPA's flash backend)
    double powerW = 0; ///< board power limit of this entry, W (0: not stated)
    /// Host time per kernel launch of this accelerator's standard host CPU, relative to the
    /// DGX H100's Xeon Platinum 8480C (1): what TrainingConfig::launchOverhead is multiplied
    /// by. Grace superchips: NVIDIA/TransformerEngine issue 2053 measures the CPU time of one
    /// torch.nn.Linear forward at 37.08 us on GB200 and 33.17 us on GH200 against 13.48 us on
    /// a DGX H100 (BF16, 8192 x 2048), i.e. 2.75 and 2.46.
    double hostLaunchFactor = 1;
    std::vector<AcceleratorVariant> variants; ///< power/clock and memory settings
    std::string source; ///< where the figures come from

    bool operator==(const AcceleratorSpec &) const = default;

    /// Peak dense FLOP/s for `dtype` (FP4 falls back to FP8, FP8 to BF16 where unsupported).
    [[nodiscard]] double peakFlops(DataType dtype) const
    {
        if (dtype == DataType::FP4 && peakFlopsFp4 > 0)
            return peakFlopsFp4;
        if (dtype != DataType::BF16 && peakFlopsFp8 > 0)
            return peakFlopsFp8;
        return peakFlopsBf16;
    }
    /// Sustained fraction of peakFlops(dtype) in a wave-aligned large GEMM.
    [[nodiscard]] double matmulEfficiencyFor(DataType dtype) const
    {
        const double fp8 = matmulEfficiencyFp8 > 0 ? matmulEfficiencyFp8 : matmulEfficiency;
        if (dtype == DataType::FP4 && peakFlopsFp4 > 0)
            return matmulEfficiencyFp4 > 0 ? matmulEfficiencyFp4 : fp8;
        if (dtype != DataType::BF16 && peakFlopsFp8 > 0)
            return fp8;
        return matmulEfficiency;
    }
};

/// Applies the variants named after '@' in `key` ("h100-sxm@500w,96gb") to `base` (whose key is
/// the part before '@'). Power variants scale the peaks by their clock; memory variants set HBM
/// capacity and bandwidth. The result is keyed `key` and its name and source say which variants
/// apply. Returns false with `error` naming the unknown suffix.
bool applyVariants(const AcceleratorSpec &base, const std::string &key, AcceleratorSpec &out,
                   std::string &error);

/// One switch model (scale-up NVSwitch chip or scale-out leaf/spine/core switch).
struct SwitchSpec
{
    std::string key; ///< catalog key, e.g. "qm9700"
    std::string name; ///< display name
    Technology technology = Technology::InfiniBand;
    int radix = 0; ///< ports at `portRate`
    double portRate = 0; ///< line rate per port and direction, bytes/s
    bool inNetworkReduction = false; ///< NVLS / SHARP support
    double reductionRate = 0; ///< in-switch reduction throughput per port, bytes/s
    std::string source;

    bool operator==(const SwitchSpec &) const = default;
};

/// One link technology (NVLink 4, IB NDR, 400GbE ...).
struct LinkTechSpec
{
    std::string key; ///< catalog key, e.g. "ib-ndr"
    std::string name;
    Technology technology = Technology::InfiniBand;
    double laneRate = 0; ///< line rate of one lane/cable per direction, bytes/s
    double efficiency = 1.0; ///< achievable fraction of line rate in collectives
    double latency = 0; ///< per-hop/per-step latency alpha, seconds
    std::string source;

    bool operator==(const LinkTechSpec &) const = default;
};

/// Names used in files, the CLI and the UI ("nvlink", "infiniband", ...).
const char *toString(Technology t);
const char *toString(SwitchRole r);
const char *toString(DataType d);
bool fromString(const std::string &s, Technology &out);
bool fromString(const std::string &s, SwitchRole &out);
bool fromString(const std::string &s, DataType &out);

} // namespace weft
