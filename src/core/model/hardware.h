#pragma once
// Hardware specifications: accelerators, switches and link technologies. Units are SI
// (bytes, bytes/s, FLOP/s, seconds); every spec names the public source of its figures.

#include <string>

namespace weft {

/// Communication technology of a link or switch.
enum class Technology { NVLink, InfinityFabric, InfiniBand, Ethernet, PCIe };

/// Role of a switch in the fabric, from the scale-up domain upwards.
enum class SwitchRole { ScaleUp, Leaf, Spine, Core };

/// Numeric datatype of the GEMMs.
enum class DataType { BF16, FP8 };

/// One accelerator model (GPU).
struct AcceleratorSpec
{
    std::string key; ///< catalog key, e.g. "h100-sxm"
    std::string name; ///< display name, e.g. "H100 SXM5 80GB"
    double peakFlopsBf16 = 0; ///< dense BF16 tensor-core peak, FLOP/s
    double peakFlopsFp8 = 0; ///< dense FP8 peak, FLOP/s (0: unsupported)
    double hbmBytes = 0; ///< HBM capacity, bytes
    double hbmBandwidth = 0; ///< HBM bandwidth, bytes/s
    double scaleUpBandwidth = 0; ///< scale-up (NVLink) bandwidth per direction, bytes/s
    double matmulEfficiency = 0.7; ///< achievable fraction of peak in large GEMMs
    double memoryEfficiency = 0.8; ///< achievable fraction of HBM bandwidth
    std::string source; ///< where the figures come from

    bool operator==(const AcceleratorSpec &) const = default;

    /// Peak dense FLOP/s for `dtype` (FP8 falls back to BF16 where unsupported).
    [[nodiscard]] double peakFlops(DataType dtype) const
    {
        return dtype == DataType::FP8 && peakFlopsFp8 > 0 ? peakFlopsFp8 : peakFlopsBf16;
    }
};

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
