#pragma once
// Small fabrics for network and collective tests, built the way the generator lays them out:
// scale-up domains (accelerators with rail = local index, scale-up switch chips, lanes per
// chip), one NIC link per accelerator to the leaf of its rail, optional spines above the leaves.

#include "io/catalogfile.h"
#include "model/design.h"

#include <string>
#include <vector>

namespace weft::test {

/// Adds a link and returns its index in Design::links().
inline std::size_t addTestLink(Design &d, NodeId a, NodeId b, const std::string &tech, double rate,
                               int lanes = 1, double latency = 0)
{
    Link l;
    l.a = a;
    l.b = b;
    l.tech = tech;
    l.rate = rate;
    l.lanes = lanes;
    l.latency = latency;
    d.addLink(l);
    return d.links().size() - 1;
}

inline NodeId addTestNode(Design &d, NodeKind kind, const std::string &name, GroupId group = {},
                          SwitchRole role = SwitchRole::Leaf, int rail = -1, std::string spec = {})
{
    Node n;
    n.kind = kind;
    n.name = name;
    n.group = group;
    n.role = role;
    n.rail = rail;
    n.spec = std::move(spec);
    return d.addNode(n);
}

/// A test link technology with the given efficiency and per-step latency.
inline void addTestTech(Design &d, const std::string &key, double efficiency, double latency,
                        Technology t = Technology::NVLink)
{
    LinkTechSpec s;
    s.key = key;
    s.name = key;
    s.technology = t;
    s.efficiency = efficiency;
    s.latency = latency;
    d.hardware.linkTechs[key] = s;
}

/// n accelerators in one scale-up domain joined in a ring by direct links of `rate` bytes/s;
/// `accelerator` names their spec (the caller adds it to the design's hardware).
inline Design uniformRing(int n, double rate, double alpha, const std::string &accelerator = {})
{
    Design d;
    addTestTech(d, "ring", 1.0, alpha);
    Group g;
    g.name = "ring";
    const GroupId gid = d.addGroup(g);
    std::vector<NodeId> acc;
    for (int i = 0; i < n; ++i)
        acc.push_back(addTestNode(d, NodeKind::Accelerator, "gpu" + std::to_string(i), gid,
                                  SwitchRole::Leaf, i, accelerator));
    for (int i = 0; i < n; ++i)
        addTestLink(d, acc[static_cast<std::size_t>(i)], acc[static_cast<std::size_t>((i + 1) % n)],
                    "ring", rate);
    return d;
}

/// Layout of a rail-optimized test cluster.
struct ClusterSpec
{
    std::string preset = "dgx-h100"; ///< builtin scale-up preset
    int domains = 1;
    int acceleratorsPerDomain = 0; ///< 0: the preset's count
    int nicsPerDomain = 0; ///< NIC links per domain; 0: one per accelerator. Fewer:
                           ///< accelerator pairs share a PCIe switch holding the NIC
    std::string fabricSwitch = "qm9700"; ///< leaf/spine model (its SHARP support matters)
    int domainsPerLeaf = 0; ///< domains under one rail leaf (scalable unit); 0: all
    int spines = 0; ///< 0: one leaf per rail joins all domains (two nodes)
    int spineLanesPerLeaf = 0; ///< uplink lanes of each leaf to each spine (0: non-blocking)
};

/// Accelerators of the built cluster, by domain then rail.
struct Cluster
{
    Design design;
    std::vector<std::vector<NodeId>> acc;
    std::vector<NodeId> leaves; ///< unit-major: leaf of (unit u, rail r) at u x rails + r
    std::vector<NodeId> spines;
};

inline Cluster buildCluster(const ClusterSpec &spec)
{
    const Catalog &cat = builtinCatalog();
    const ScaleUpPreset &p = cat.scaleUpPresets.at(spec.preset);
    const LinkTechSpec &up = cat.hardware.linkTechs.at(p.scaleUpTech);
    const LinkTechSpec &nic = cat.hardware.linkTechs.at(p.nicTech);
    Cluster c;
    Design &d = c.design;
    d.hardware = cat.hardware;
    const int m = spec.acceleratorsPerDomain > 0 ? spec.acceleratorsPerDomain : p.accelerators;
    const int nics = spec.nicsPerDomain > 0 ? spec.nicsPerDomain : m;
    const int share = (m + nics - 1) / nics;
    const int perLeaf = spec.domainsPerLeaf > 0 ? spec.domainsPerLeaf : spec.domains;
    const int units = (spec.domains + perLeaf - 1) / perLeaf;
    for (int u = 0; u < units; ++u)
        for (int r = 0; r < nics; ++r)
            c.leaves.push_back(addTestNode(d, NodeKind::Switch,
                                           "leaf" + std::to_string(u) + "." + std::to_string(r), {},
                                           SwitchRole::Leaf, -1, spec.fabricSwitch));
    for (int s = 0; s < spec.spines; ++s) {
        c.spines.push_back(addTestNode(d, NodeKind::Switch, "spine" + std::to_string(s), {},
                                       SwitchRole::Spine, -1, spec.fabricSwitch));
        const int lanes = spec.spineLanesPerLeaf > 0 ? spec.spineLanesPerLeaf
                                                     : std::max(1, perLeaf / spec.spines);
        for (NodeId leaf : c.leaves)
            addTestLink(d, leaf, c.spines.back(), p.nicTech, nic.laneRate, lanes);
    }
    for (int dom = 0; dom < spec.domains; ++dom) {
        Group g;
        g.name = "domain" + std::to_string(dom);
        g.preset = p.key;
        const GroupId gid = d.addGroup(g);
        std::vector<NodeId> chips;
        for (int k = 0; k < p.scaleUpSwitches; ++k)
            chips.push_back(addTestNode(d, NodeKind::Switch, g.name + ".nvs" + std::to_string(k),
                                        gid, SwitchRole::ScaleUp, -1, p.scaleUpSwitch));
        // lanes per chip spread like the generator (18 over 4 -> 5,4,4,5)
        std::vector<int> lanes(chips.size(), 0);
        for (int l = 0; l < p.lanesPerAccelerator && !chips.empty(); ++l) {
            const std::size_t k = static_cast<std::size_t>(l) % chips.size();
            const std::size_t pos = (k % 2 == 0) ? k / 2 : chips.size() - 1 - k / 2;
            ++lanes[pos];
        }
        c.acc.emplace_back();
        std::vector<NodeId> pcie;
        for (int i = 0; i < m; ++i) {
            const NodeId a
                = addTestNode(d, NodeKind::Accelerator, g.name + ".gpu" + std::to_string(i), gid,
                              SwitchRole::Leaf, i, p.accelerator);
            c.acc.back().push_back(a);
            for (std::size_t k = 0; k < chips.size(); ++k)
                if (lanes[k] > 0)
                    addTestLink(d, a, chips[k], p.scaleUpTech, up.laneRate, lanes[k]);
            if (chips.empty() && i > 0)
                for (int j = 0; j < i; ++j)
                    addTestLink(d, a, c.acc.back()[static_cast<std::size_t>(j)], p.scaleUpTech,
                                up.laneRate, std::max(1, p.lanesPerAccelerator / (m - 1)));
            const auto r = static_cast<std::size_t>((dom / perLeaf) * nics + i / share);
            if (share == 1) {
                addTestLink(d, a, c.leaves[r], p.nicTech, nic.laneRate);
            } else {
                if (i % share == 0) {
                    pcie.push_back(addTestNode(d, NodeKind::Switch,
                                               g.name + ".pcie" + std::to_string(r), gid,
                                               SwitchRole::Leaf));
                    addTestLink(d, pcie.back(), c.leaves[r], p.nicTech, nic.laneRate);
                }
                addTestLink(d, a, pcie.back(), "pcie5",
                            cat.hardware.linkTechs.at("pcie5").laneRate);
            }
        }
    }
    return c;
}

} // namespace weft::test
