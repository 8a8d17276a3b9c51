#pragma once
// Bill of materials of a design (product.md, Generators): accelerators, switches per tier and
// model, links and cables per tier, transceivers. Computed by counting the graph, so it works on
// hand-edited designs as well as generated ones.
//
// Assumptions (stated in every output): one cable per link lane; scale-out cables (any link
// touching a leaf, spine or core switch) are optical with two transceivers each; scale-up links
// (accelerator to NVSwitch, accelerator mesh) are copper or board traces without transceivers.

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

struct BomLinkLine
{
    BomTier tier = BomTier::Other;
    std::int64_t links = 0; ///< Link objects
    std::int64_t cables = 0; ///< sum of lanes
    bool optical = false;
    std::int64_t transceivers = 0; ///< 2 per optical cable
};

/// The counted materials; lines ordered by model key (accelerators), role then model
/// (switches) and tier (links); tiers without links are omitted.
struct BillOfMaterials
{
    std::vector<BomAcceleratorLine> accelerators;
    std::vector<BomSwitchLine> switches;
    std::vector<BomLinkLine> links;
    std::int64_t totalAccelerators = 0;
    std::int64_t totalSwitches = 0;
    std::int64_t totalCables = 0;
    std::int64_t totalTransceivers = 0;

    /// Switches of `role` (of one `model` when not empty).
    [[nodiscard]] std::int64_t switchCount(SwitchRole role, const std::string &model = {}) const;
    /// The line of `tier`, or an all-zero line when the design has none.
    [[nodiscard]] BomLinkLine tier(BomTier tier) const;
};

/// Counts `design`. Linear in nodes + links.
BillOfMaterials computeBom(const Design &design);

/// Tier of a link between nodes `a` and `b` (nullptr: missing node).
BomTier classifyLink(const Node *a, const Node *b);

/// Plain-text table for terminals, ending with the assumptions line.
std::string formatBomTable(const BillOfMaterials &bom);

/// CSV (RFC 4180) with header `category,tier,model,name,medium,count,links,cables,
/// transceivers` (one row per accelerator model, switch role+model and link tier).
std::string formatBomCsv(const BillOfMaterials &bom);

/// The assumptions behind the cable and transceiver counts, one sentence.
const char *bomAssumptions();

const char *toString(BomTier t);

} // namespace weft
