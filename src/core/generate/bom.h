#pragma once
// Bill of materials of a design (product.md, Generators): accelerators, switches per tier and
// model, links and cables per tier, transceivers. Computed by counting the graph, so it works on
// hand-edited designs as well as generated ones.
//
// Assumptions (stated in every output, bomAssumptions()): one cable or trace per link lane;
// links touching a leaf, spine or core switch are optical cables with a transceiver at each
// end; scale-up links inside a domain of at most 8 accelerators (one HGX / UBB baseboard: DGX
// H100, MI300X) are board traces, in larger domains (the GB200 NVL72 NVLink spine) copper
// cables, neither with transceivers. Transceivers are counted per module: an accelerator's NIC
// port takes one; a switch end takes one per cage, and a cage of the twin-port OSFP switches
// (Quantum-2 QM9700/QM9790: 64 NDR ports in 32 cages; Quantum-X800 Q3400: 144 XDR ports in 72
// cages; their datasheets) serves two ports.

#include "model/design.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// Where a link sits, from its two end nodes.
enum class BomTier {
    ScaleUp, ///< accelerator/NVSwitch to accelerator/NVSwitch
    AcceleratorLeaf, ///< NIC to leaf
    LeafSpine,
    SpineCore,
    Other ///< any other pair (hand-made shortcuts, dangling ends)
};

struct BomAcceleratorLine
{
    std::string model; ///< spec key
    std::string name; ///< spec display name (key when the spec is missing)
    std::int64_t count = 0;
};

struct BomSwitchLine
{
    SwitchRole role = SwitchRole::Leaf;
    std::string model; ///< spec key
    std::string name;
    int radix = 0; ///< 0 when the spec is missing
    std::int64_t count = 0;
};

/// What carries a link's lanes.
enum class BomMedium {
    BoardTrace, ///< on one baseboard: no cable
    Copper, ///< copper cables, no transceivers
    Optical ///< optical cables, a transceiver module at each end
};

struct BomLinkLine
{
    BomTier tier = BomTier::Other;
    BomMedium medium = BomMedium::Optical;
    std::int64_t links = 0; ///< Link objects
    std::int64_t lanes = 0; ///< sum of lanes (one cable or board trace each)
    std::int64_t cables = 0; ///< lanes that are cables (0 for board traces)
    bool optical = false; ///< medium == Optical
    std::int64_t transceivers = 0; ///< modules at the ends of its optical cables
};

/// Transceiver modules of one type ("twin-port OSFP 2 x 400G").
struct BomTransceiverLine
{
    std::string type;
    int ports = 1; ///< ports one module serves
    double gbps = 0; ///< line rate per port, Gb/s
    std::int64_t count = 0;
};

/// The counted materials; lines ordered by model key (accelerators), role then model
/// (switches), tier then medium (links) and type (transceivers); empty lines are omitted.
struct BillOfMaterials
{
    std::vector<BomAcceleratorLine> accelerators;
    std::vector<BomSwitchLine> switches;
    std::vector<BomLinkLine> links;
    std::vector<BomTransceiverLine> transceivers;
    std::int64_t totalAccelerators = 0;
    std::int64_t totalSwitches = 0;
    std::int64_t totalBoardTraces = 0;
    std::int64_t totalCopperCables = 0;
    std::int64_t totalOpticalCables = 0;
    std::int64_t totalCables = 0; ///< copper + optical
    std::int64_t totalTransceivers = 0;

    /// Switches of `role` (of one `model` when not empty).
    [[nodiscard]] std::int64_t switchCount(SwitchRole role, const std::string &model = {}) const;
    /// The lines of `tier` summed over media (medium and optical of the first), or an
    /// all-zero line when the design has none.
    [[nodiscard]] BomLinkLine tier(BomTier tier) const;
    /// The line of `tier` on `medium`, or an all-zero line.
    [[nodiscard]] BomLinkLine line(BomTier tier, BomMedium medium) const;
    /// Transceivers of the type named `type` (0 when none).
    [[nodiscard]] std::int64_t transceiverCount(const std::string &type) const;
};

/// Counts `design`. Linear in nodes + links.
BillOfMaterials computeBom(const Design &design);

/// Tier of a link between nodes `a` and `b` (nullptr: missing node).
BomTier classifyLink(const Node *a, const Node *b);

/// Plain-text table for terminals, ending with the assumptions line.
std::string formatBomTable(const BillOfMaterials &bom);

/// CSV (RFC 4180) with header `category,tier,model,name,medium,count,links,cables,
/// transceivers` (one row per accelerator model, switch role+model, link tier and medium:
/// board (cables column: 0; the traces in count), copper or optical, and transceiver type).
std::string formatBomCsv(const BillOfMaterials &bom);

/// Ports of `switchModel` one transceiver module serves (2 for twin-port OSFP cages, else 1).
int portsPerTransceiver(const std::string &switchModel);
/// The module type name for `ports` ports of `gbps` each ("twin-port OSFP 2 x 400G",
/// "OSFP 400G", "QSFP 200G").
std::string transceiverType(int ports, double gbps);

const char *toString(BomMedium m);

/// The assumptions behind the cable and transceiver counts, one sentence.
const char *bomAssumptions();

const char *toString(BomTier t);

} // namespace weft
