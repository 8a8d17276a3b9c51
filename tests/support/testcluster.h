#pragma once
// The one cluster builder of the tests: clusters made by the core fabric generator
// (generateFabric, the code behind "New cluster..." and `weft-cli generate`) from the built-in
// catalog (or a given one), so tests simulate the fabrics users get. Adds the accelerators of
// every scale-up domain (by domain, then rail), the leaves and spines, and the fabric switch a
// NIC rate implies. Hand-made graphs that no generator makes (a uniform ring, two nodes and a
// link) use the primitives of netfabrics.h instead.

#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "model/design.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace weft::test {

/// A generated design, its accelerators acc[domain][rail] and its scale-out switches (generator
/// order: rail-optimized leaves unit by unit, rail-major within a unit; spines unit by unit).
struct Cluster
{
    Design design;
    std::vector<std::vector<NodeId>> acc;
    std::vector<NodeId> leaves;
    std::vector<NodeId> spines;
    std::vector<std::string> errors; ///< the generator's reasons when `design` is empty
};

/// A placement on the first `perDomain` accelerators of every domain of `c` (rank order:
/// domain by domain), as a job on part of each rack runs (GB200 NVL72: 64 of 72).
inline std::vector<NodeId> firstOfEachDomain(const Cluster &c, int perDomain)
{
    std::vector<NodeId> map;
    for (const auto &domain : c.acc)
        for (int i = 0; i < perDomain && i < int(domain.size()); ++i)
            map.push_back(domain[std::size_t(i)]);
    return map;
}

/// Accelerators of every scale-up domain of `d`, by domain (in group order) then rail.
inline std::vector<std::vector<NodeId>> acceleratorsByDomain(const Design &d)
{
    std::map<std::uint32_t, std::size_t> index;
    std::vector<std::vector<NodeId>> out;
    for (const Group &g : d.groups())
        if (g.kind == GroupKind::ScaleUpDomain) {
            index[g.id.value] = out.size();
            out.emplace_back();
        }
    for (const Node &n : d.nodes())
        if (n.isAccelerator() && index.count(n.group.value))
            out[index[n.group.value]].push_back(n.id);
    return out;
}

/// Switches of `role` in `d`, in node order.
inline std::vector<NodeId> switchesOf(const Design &d, SwitchRole role)
{
    std::vector<NodeId> out;
    for (const Node &n : d.nodes())
        if (n.isSwitch() && n.role == role)
            out.push_back(n.id);
    return out;
}

/// The fabric switch of technology `t` whose port rate is the smallest one at or above
/// `nicRate` bytes/s (ties: first key): qm8700 for HDR 200G, qm9700 for NDR 400G. Empty if none.
inline std::string fabricSwitchFor(Technology t, double nicRate,
                                   const Catalog &catalog = builtinCatalog())
{
    std::string best;
    double bestRate = 0;
    for (const auto &[key, s] : catalog.hardware.switches)
        if (s.technology == t && s.portRate >= nicRate * (1 - 1e-9)
            && (best.empty() || s.portRate < bestRate)) {
            best = key;
            bestRate = s.portRate;
        }
    return best;
}

/// `domains` x `preset` with the preset's NIC rate on the InfiniBand switch of that rate
/// (fabricSwitchFor), rail-optimized, 2 tiers, 1:1, one plane, 32 domains per scalable unit;
/// a single domain gets no scale-out fabric.
inline FabricParams clusterParams(const std::string &preset = "dgx-a100", int domains = 1,
                                  const Catalog &catalog = builtinCatalog())
{
    FabricParams p;
    p.scaleUpPreset = preset;
    p.domains = domains;
    p.fabric = domains > 1 ? FabricKind::RailOptimized : FabricKind::None;
    p.tiers = 2;
    const auto it = catalog.scaleUpPresets.find(preset);
    p.nicRate = it != catalog.scaleUpPresets.end()
        ? it->second.nicRate * std::max(1, it->second.nicsPerAccelerator)
        : 0;
    p.switchModel = fabricSwitchFor(Technology::InfiniBand, p.nicRate, catalog);
    p.oversubscription = 1;
    p.planes = 1;
    p.suSize = 32;
    return p;
}

/// Generates `params` from `catalog`; on failure warns with the generator's first reason and
/// returns an empty design (so the caller's checks on it fail).
inline Cluster generateCluster(const FabricParams &params,
                               const Catalog &catalog = builtinCatalog())
{
    Cluster c;
    GenerateResult r = generateFabric(params, catalog);
    if (!r.ok()) {
        c.errors = std::move(r.errors);
        std::fprintf(stderr, "generation of %s failed: %s\n", describeFabric(params).c_str(),
                     c.errors.empty() ? "?" : c.errors.front().c_str());
        return c;
    }
    c.design = std::move(*r.design);
    c.acc = acceleratorsByDomain(c.design);
    c.leaves = switchesOf(c.design, SwitchRole::Leaf);
    c.spines = switchesOf(c.design, SwitchRole::Spine);
    return c;
}

/// `domains` x `preset` as clusterParams() describes it, generated from the built-in catalog.
inline Cluster makeCluster(const std::string &preset, int domains)
{
    return generateCluster(clusterParams(preset, domains));
}

/// A catalog copy whose link technology `tech` carries `laneRate` bytes/s per lane and direction
/// (what a user's catalog file overriding it gives).
inline Catalog catalogWithLaneRate(const std::string &tech, double laneRate)
{
    Catalog c = builtinCatalog();
    c.hardware.linkTechs.at(tech).laneRate = laneRate;
    return c;
}

} // namespace weft::test
