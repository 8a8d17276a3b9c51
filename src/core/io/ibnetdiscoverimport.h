#pragma once
// A live InfiniBand fabric (ibnetdiscover output, io/ibnetdiscover.h) turned into a Weft design.
//
// - Cables: every connected port pair once; width x speed gives the rate (4xHDR = 200 Gb/s,
//   ibLaneRate); parallel cables between the same two nodes at the same rate become one Link with
//   `lanes`. A port listed on one side only, or pointing at a node not in the file, is reported.
// - Servers: an HCA's NodeDescription "dgx-001 mlx5_3" is host "dgx-001", device index 3. Hosts
//   of the most common name prefix ("dgx-") with at most the preset's rails (accelerators x NICs
//   per accelerator) of connected HCAs are GPU servers: each becomes a scale-up domain built
//   from the preset (generateFabric with FabricKind::None), its HCAs sorted by device index
//   mapped to rails, rail r to GPU r / nicsPerAccelerator (every port of a multi-port HCA is a
//   cable of that GPU's NIC link). The device-index-to-rail map learned
//   on complete servers (e.g. mlx5_0,3,4,5,6,9,10,11 -> 0..7) is applied to incomplete ones, whose
//   missing rails are reported. Other HCAs (storage, management, unnamed) are reported and kept
//   as "ib-endpoint" nodes, or left out with `dropUnknown`.
// - Switches: NodeDescription as name (the "MF0;name:model/U1" form gives "name"); a catalog
//   model when technology, radix (ports or ports - 1: port 0 may be counted) and port rate match
//   (qm8700 for 40 ports HDR), else a spec made for it ("ib-41p-hdr"). Tiers from the graph:
//   switches with GPU-server HCAs are leaves, then spine and core by hop distance from them.
// - The summary: switch models by port count, tiers, cable rates, and findings (missing rails,
//   one-sided or inconsistent ports, cables below their tier's usual rate, unequal uplinks).

#include "io/ibnetdiscover.h"
#include "model/catalog.h"
#include "model/design.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft {

struct IbImportOptions
{
    std::string scaleUpPreset = "dgx-h100"; ///< ScaleUpPreset key of the GPU servers
    bool dropUnknown = false; ///< leave HCAs that are not GPU-server rails out of the design
    std::string name = "imported fabric"; ///< Design::name
    /// HCA device number (mlx5_N -> N) -> rail, e.g. from the server's NCCL topology
    /// (ncclRailOfHca); empty: the device order of the complete servers, else each host's own
    std::map<int, int> railOfHca;
};

/// What the import found, for the CLI summary and the GUI's message.
struct IbImportSummary
{
    int switches = 0;
    int cas = 0; ///< channel adapters (HCA nodes) in the file
    int servers = 0; ///< GPU servers (scale-up domains) built
    int accelerators = 0;
    int cables = 0; ///< connected port pairs
    /// Of those, the cables in the imported design (both ends kept: not those of HCAs left out
    /// with dropUnknown or of nodes the file does not describe).
    int cablesImported = 0;
    int unknownHcas = 0; ///< HCA ports that are not GPU-server rails
    std::map<std::string, int> switchModels; ///< "qm8700 (40 ports, HDR)" -> count
    std::map<std::string, int> tiers; ///< "leaf" -> count
    std::map<std::string, int> cableRates; ///< "4xHDR" -> cables
    std::vector<std::string> findings; ///< one readable sentence each
};

struct IbImportResult
{
    std::optional<Design> design;
    IbImportSummary summary;
    std::string error; ///< set when `design` is empty
    [[nodiscard]] bool ok() const { return design.has_value(); }
};

/// Builds a design from `fabric` with specs from `catalog`. Never throws: an unknown preset, a
/// fabric without any HCA or a file without any link rate gives `error`.
IbImportResult importIbFabric(const IbFabric &fabric, const Catalog &catalog,
                              const IbImportOptions &options);

/// "dgx-001 mlx5_3" -> {"dgx-001", 3}; {"", -1} when the description names no host and device.
std::pair<std::string, int> hcaHostAndIndex(const std::string &description);

} // namespace weft
