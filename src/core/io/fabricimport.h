#pragma once
// One entry point for the fabric importers (weft-cli import, File > Import): the text of a file
// in a known format -> a design and a readable summary of what was found.

#include "io/ibnetdiscoverimport.h"
#include "model/catalog.h"

#include <string>
#include <string_view>
#include <vector>

namespace weft {

enum class ImportFormat {
    Ibnetdiscover, ///< ibnetdiscover output or an ibsim net file (io/ibnetdiscover.h)
    SlurmTopology, ///< Slurm topology.conf, tree plugin (io/slurmtopology.h)
    NcclTopology ///< NCCL's topology XML of one server (io/nccltopology.h)
};

/// "ibnetdiscover", "slurm", "nccl-topo".
const char *toString(ImportFormat f);
bool fromString(const std::string &s, ImportFormat &out);

/// Options of every importer (those a format has no use for are ignored).
struct FabricImportOptions
{
    /// ScaleUpPreset of the GPU servers; nccl-topo: "auto" (or empty) infers it from the GPUs
    std::string scaleUpPreset = "dgx-h100";
    bool dropUnknown = false; ///< ibnetdiscover: leave non-GPU-server HCAs out
    std::string name = "imported fabric";
    std::map<int, int> railOfHca; ///< ibnetdiscover: IbImportOptions::railOfHca
    std::string nicTech = "ib-ndr"; ///< slurm: LinkTechSpec of every cable (the file has no rates)
};

struct FabricImportResult
{
    std::optional<Design> design;
    std::string error; ///< set when `design` is empty: "line 12: ..." for a malformed file
    std::vector<std::string> summary; ///< lines: counts, models, tiers, rates
    std::vector<std::string> findings; ///< what looks wrong (missing rails, asymmetric cabling)
    [[nodiscard]] bool ok() const { return design.has_value(); }
};

/// Parses `text` as `format` and builds the design. Never throws.
FabricImportResult importFabric(ImportFormat format, std::string_view text, const Catalog &catalog,
                                const FabricImportOptions &options);

} // namespace weft
