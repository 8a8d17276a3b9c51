#pragma once
// Fabric generators (product.md, Generators): build a whole Design from FabricParams and a
// Catalog: scale-up domains from a preset (NVSwitch chips or a switchless full mesh) and a
// scale-out fabric (rail-optimized or plain fat-tree, 2 or 3 tiers, K planes) with canvas
// positions in tiers (core on top, then spine, leaf, domains, accelerators).

#include "generate/fabricplan.h"
#include "model/design.h"

#include <optional>
#include <string>
#include <vector>

namespace weft {

/// A generated design, or the reasons the parameters do not fit (then `design` is empty).
struct GenerateResult
{
    std::optional<Design> design;
    std::vector<std::string> errors;
    [[nodiscard]] bool ok() const { return design.has_value(); }
};

/// Builds the fabric described by `params` from `catalog` entries (copied into the design's
/// hardware table; `params` stored in Design::generator, with a NIC rate of 0 replaced by the
/// preset's default). Port budgets are checked first
/// (planFabric); nothing is thrown to the caller. Deterministic: the same inputs give the
/// same design, ids and positions. Memory and time are linear in nodes + links.
///
/// Structure built (per plane k in [0, planes); every plane has its own switches):
///  - domain g: Group{ScaleUpDomain, preset}, its accelerators (rail = local index) and
///    NVSwitch chips (role ScaleUp), one Link accelerator<->chip c with plan.lanesToChip[c]
///    lanes, or a full mesh (plan.meshLanes lanes per pair) when the preset has no switch;
///  - one Group{ScalableUnit} per scalable unit holding its leaves (and spines with 3 tiers);
///  - accelerator NIC j of every accelerator to its leaf: rail-optimized puts rail r of every
///    compute tray of a unit on leaf r of that unit (more leaves per rail when the radix
///    requires; a tray is the whole domain unless the preset has several, as NVL72 has 18),
///    fat-tree fills leaves with consecutive NICs regardless of rail;
///  - leaf uplinks dealt round-robin over the spines (2 tiers: all spines; 3 tiers: the spines
///    of its unit); spine j of every unit dealt over core group j. Parallel cables between the
///    same two switches form one Link with `lanes`.
GenerateResult generateFabric(const FabricParams &params, const Catalog &catalog);

/// A one-line human description of `params` ("32 x dgx-h100, rail-optimized, 2 tiers of
/// qm9700, 400G NICs, 1:1, 1 plane"). `accelerator`: the catalog key of an accelerator that
/// replaces the scale-up preset's own ("32 x dgx-h100 with b200, ..."); empty: the preset's.
std::string describeFabric(const FabricParams &params, const std::string &accelerator = {});

} // namespace weft
