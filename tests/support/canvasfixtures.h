#pragma once
// Designs built in code for the document/GUI tests and the canvas benchmark: small hand-made
// fabrics from the built-in catalog, and a 16,384-GPU rail-optimized 3-tier fabric of the size
// product.md names (2,048 DGX H100 domains, 8,192 NVSwitch chips, 1,280 IB switches, ~115k links).

#include "document/commands/structurecommands.h"
#include "document/fabricrules.h"
#include "document/tieredlayout.h"
#include "io/catalogfile.h"

namespace weft::fixtures {

/// Adds a switch node and returns its id.
inline NodeId addSwitch(Design &d, const std::string &spec, SwitchRole role,
                        const std::string &name, double x = 0, double y = 0)
{
    Node n;
    n.kind = NodeKind::Switch;
    n.spec = spec;
    n.role = role;
    n.name = name;
    n.x = x;
    n.y = y;
    d.hardware.switches[spec] = builtinCatalog().hardware.switches.at(spec);
    return d.addNode(n);
}

/// Adds a scale-up domain of `preset` with its members and scale-up links; returns its id.
inline GroupId addDomain(Design &d, const std::string &preset, QPointF origin = {})
{
    const Catalog &c = builtinCatalog();
    Fragment f = buildDomain(d, c, c.scaleUpPresets.at(preset), origin);
    insertFragment(d, f);
    return f.groups.front().id;
}

/// Connects `a` and `b` with the defaults the connect tool uses.
inline LinkId connect(Design &d, NodeId a, NodeId b)
{
    LinkTechSpec tech;
    auto link = defaultLink(d, builtinCatalog(), a, b, &tech, nullptr);
    d.hardware.linkTechs[tech.key] = tech;
    return d.addLink(*link);
}

/// Two DGX H100 domains under one QM9700 leaf (GPU 0 of each wired to it), laid out in tiers.
inline Design smallFabric()
{
    Design d;
    d.name = "small";
    const NodeId leaf = addSwitch(d, "qm9700", SwitchRole::Leaf, "leaf-0");
    for (int i = 0; i < 2; ++i) {
        const GroupId g = addDomain(d, "dgx-h100");
        for (const NodeId m : d.group(g)->members)
            if (d.node(m)->isAccelerator()) {
                connect(d, m, leaf);
                break;
            }
    }
    applyTieredLayout(d);
    return d;
}

/// The 16,384-GPU fabric: 2,048 DGX H100 domains; rail-optimized leaves (8 per 32-domain unit),
/// 512 spines in 8 pods, 256 cores; every leaf, spine and core uses all 64 QM9700 ports.
inline Design largeFabric()
{
    const Catalog &c = builtinCatalog();
    Design d;
    d.name = "16k";
    d.reserve(16384 + 8192 + 1280, 120000, 2048);
    const ScaleUpPreset &preset = c.scaleUpPresets.at("dgx-h100");
    std::vector<NodeId> leaves, spines, cores;
    for (int i = 0; i < 512; ++i)
        leaves.push_back(addSwitch(d, "qm9700", SwitchRole::Leaf, "leaf-" + std::to_string(i)));
    for (int i = 0; i < 512; ++i)
        spines.push_back(addSwitch(d, "qm9700", SwitchRole::Spine, "spine-" + std::to_string(i)));
    for (int i = 0; i < 256; ++i)
        cores.push_back(addSwitch(d, "qm9700", SwitchRole::Core, "core-" + std::to_string(i)));
    const LinkTechSpec &ndr = c.hardware.linkTechs.at("ib-ndr");
    d.hardware.linkTechs[ndr.key] = ndr;
    auto link = [&](NodeId a, NodeId b) {
        Link l;
        l.a = a;
        l.b = b;
        l.tech = ndr.key;
        l.rate = ndr.laneRate;
        l.latency = ndr.latency;
        d.addLink(l);
    };
    for (int dom = 0; dom < 2048; ++dom) {
        Fragment f = buildDomain(d, c, preset, {});
        insertFragment(d, f);
        const int su = dom / 32;
        int rail = 0;
        for (const Node &n : f.nodes)
            if (n.isAccelerator())
                link(n.id, leaves[su * 8 + rail++]);
    }
    for (int l = 0; l < 512; ++l) // leaf l in pod l/64 reaches 32 of the pod's 64 spines
        for (int k = 0; k < 32; ++k)
            link(leaves[l], spines[(l / 64) * 64 + (l % 2) * 32 + k]);
    for (int s = 0; s < 512; ++s) // spine s reaches 32 cores of group s % 8
        for (int k = 0; k < 32; ++k)
            link(spines[s], cores[(s % 8) * 32 + k]);
    applyTieredLayout(d);
    return d;
}

} // namespace weft::fixtures
