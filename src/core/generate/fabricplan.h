#pragma once
// Port-budget planning of a generated fabric: from FabricParams and a Catalog, the counts of
// every tier (leaves, spines, cores, cables per switch pair) without building the graph, and
// the list of what does not fit. The generator (fabricgenerator.h) builds from this plan; the
// "New cluster..." wizard can call it on every keystroke (O(1) in the fabric size).
//
// The fabric model is the folded Clos / fat-tree of Al-Fares et al., "A Scalable, Commodity
// Data Center Network Architecture" (SIGCOMM 2008), with the rail-optimized leaf assignment of
// NVIDIA's DGX SuperPOD reference architecture (rail i of every server of a scalable unit on
// leaf i of that unit). Oversubscription is applied at the leaf only; spines are non-blocking.
//
// A rail is one NIC position of a compute tray (server), not of a scale-up domain: a multi-node
// NVLink domain such as GB200 NVL72 is 18 compute trays of 4 GPUs with one ConnectX-7 each
// (NVIDIA Multi-Node Tuning Guide, "Understanding Your Grace-Blackwell Systems"), and the DGX
// GB200 SuperPOD reference architecture cables its InfiniBand compute fabric from the trays,
// so such a domain has 4 rails of 18 NICs (ScaleUpPreset::acceleratorsPerTray), not 72 rails of
// one NIC each, which would need one leaf per GPU of the rack at a few percent port use.
//
// Sizing rules (each checked, each violation reported with a fix that is verified to fit):
//  - NIC rate per accelerator is split evenly over its NICs and the planes; a NIC link faster
//    than a switch port takes ceil(rate / port rate) ports; a slower one still takes a whole
//    port (port splitting, e.g. 2 x 200G on a 400G cage, is not modelled).
//  - leaf: n NIC links + u uplinks <= radix with u = ceil(n * nic rate / (R * port rate));
//    every leaf of the fabric gets the u of a full leaf, so each reaches every spine above it.
//  - 2 tiers: spines = ceil(leaves * u / radix) and u >= spines (every leaf reaches every
//    spine), hence at most `radix` leaves.
//  - 3 tiers: spines split half down, half up; each scalable unit (pod) has its own spines
//    (each reaching every leaf of its unit); spine j of every unit goes to core group j, which
//    must reach all units: at most `radix` units. Cables are dealt round-robin (dealUplinks).

#include "model/catalog.h"
#include "model/fabricparams.h"

#include <cstdint>
#include <string>
#include <vector>

namespace weft {

/// Largest fabric the generator accepts (accelerators); beyond it the request is refused as
/// absurd rather than exhausting memory.
inline constexpr std::int64_t kMaxGeneratedAccelerators = 1'048'576;

/// Counts of one generated fabric, per plane unless stated otherwise. All planes are identical.
struct FabricPlan
{
    ScaleUpPreset preset; ///< resolved scale-up preset
    AcceleratorSpec accelerator; ///< its accelerator
    SwitchSpec scaleUpSwitch; ///< its NVSwitch chip (key empty for a switchless mesh)
    LinkTechSpec scaleUpTech; ///< technology of the scale-up links
    SwitchSpec fabricSwitch; ///< leaf/spine/core model (unused with FabricKind::None)
    LinkTechSpec nicTech; ///< technology of the accelerator-leaf links
    LinkTechSpec trunkTech; ///< technology of the leaf-spine and spine-core links

    std::int64_t domains = 0;
    std::int64_t accelerators = 0; ///< whole design
    /// Scale-up lanes from accelerator to chip c, c in [0, scaleUpSwitches) (5,4,4,5 for DGX H100).
    std::vector<int> lanesToChip;
    int meshLanes = 0; ///< switchless mesh: lanes between every pair of accelerators

    double nicRatePerAccelerator = 0; ///< resolved NIC rate (params, else preset), bytes/s
    int railsPerDomain = 0; ///< NIC links per domain and plane (accelerators x NICs each)
    int trays = 1; ///< compute trays (servers) per domain
    int rails = 0; ///< rails: NIC links per tray and plane (a tray's accelerators x NICs)
    double nicLinkRate = 0; ///< bytes/s per direction of one NIC link (one plane)
    int nicLinkLanes = 1; ///< switch ports one NIC link occupies (ceil(rate / port rate))

    int suSize = 0; ///< domains per scalable unit (the last one may be smaller)
    int suCount = 0;
    int leavesPerRail = 0; ///< rail-optimized: leaves per rail in a full scalable unit
    /// Rail-optimized: leaves per rail for `domains` domains (NICs of one rail: domains x trays).
    [[nodiscard]] int leavesPerRailFor(int domains) const;
    int nicsPerLeaf = 0; ///< NIC links on a full leaf
    int leafUplinks = 0; ///< uplink cables of every leaf (u)
    std::int64_t leaves = 0; ///< leaves per plane
    std::int64_t spines = 0; ///< spines per plane
    int spinesPerSu = 0; ///< 3 tiers: spines of each scalable unit (pod)
    int spineUplinks = 0; ///< 3 tiers: uplink cables of every spine
    int coresPerGroup = 0; ///< 3 tiers: cores reached by spine j of every pod
    std::int64_t cores = 0; ///< cores per plane

    /// Leaves of scalable unit `su` (a partial last unit may need fewer).
    [[nodiscard]] int leavesInSu(int su, FabricKind kind) const;
    /// Domains in scalable unit `su`.
    [[nodiscard]] int domainsInSu(int su) const;
};

/// A plan or the reasons it cannot be built (each a sentence saying what does not fit and
/// what would).
struct PlanResult
{
    FabricPlan plan;
    std::vector<std::string> errors;
    [[nodiscard]] bool ok() const { return errors.empty(); }
};

/// Checks `params` against `catalog` and computes every count. Never throws.
PlanResult planFabric(const FabricParams &params, const Catalog &catalog);

/// Splits `lanes` scale-up lanes over `chips` switch chips, the remainder going to the outer
/// chips alternately (18 over 4 -> 5,4,4,5 as in the DGX H100 NVLink topology).
std::vector<int> spreadLanes(int lanes, int chips);

/// Cables from member `index` (with `uplinks` cables) to each of `targets` switches when the
/// uplinks of members 0..index are dealt round-robin in one stream (so every target ends with
/// the total divided evenly, +1 at most). Returns `targets` counts.
std::vector<int> dealUplinks(std::int64_t index, int uplinks, int targets);

} // namespace weft
