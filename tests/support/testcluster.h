#pragma once
// Small fabric builder for simulator tests: `domains` scale-up domains of `gpus` accelerators
// joined by `nvswitches` switches (or a full mesh when 0), each accelerator with one NIC on its
// rail's leaf; leaves of `serversPerLeaf` domains per rail joined by spines with the given
// oversubscription. Specs are those of the DGX A100 (catalog figures, A100 datasheet).

#include "model/design.h"

#include <algorithm>
#include <string>

namespace weft::test {

struct ClusterShape
{
    int domains = 1;
    int gpus = 8;
    int nvswitches = 6;
    int lanesPerGpu = 12;          ///< NVLink lanes per GPU, spread over the switches
    double nvlinkLane = 25e9;      ///< bytes/s per lane and direction
    double nic = 25e9;             ///< bytes/s per NIC (HDR 200 Gb/s)
    int serversPerLeaf = 20;       ///< domains under one rail leaf (Selene: 20 per SU)
    double oversubscription = 1;   ///< leaf downlink : uplink
    int spines = 4;                ///< spine switches (uplinks spread evenly)
};

inline void addA100Hardware(Design &d)
{
    AcceleratorSpec a;
    a.key = "a100-80gb";
    a.name = "A100 SXM4 80GB";
    a.peakFlopsBf16 = 312e12;
    a.hbmBytes = 80e9;
    a.hbmBandwidth = 2039e9;
    a.scaleUpBandwidth = 300e9;
    a.matmulEfficiency = 0.7;
    a.memoryEfficiency = 0.8;
    d.hardware.accelerators[a.key] = a;
    LinkTechSpec nv;
    nv.key = "nvlink3";
    nv.technology = Technology::NVLink;
    nv.laneRate = 25e9;
    nv.efficiency = 0.78;
    nv.latency = 1e-6;
    d.hardware.linkTechs[nv.key] = nv;
    LinkTechSpec ib;
    ib.key = "ib-hdr";
    ib.technology = Technology::InfiniBand;
    ib.laneRate = 25e9;
    ib.efficiency = 0.96;
    ib.latency = 5e-6;
    d.hardware.linkTechs[ib.key] = ib;
    SwitchSpec nvs;
    nvs.key = "nvswitch-gen2";
    nvs.technology = Technology::NVLink;
    nvs.radix = 36;
    nvs.portRate = 25e9;
    d.hardware.switches[nvs.key] = nvs;
    SwitchSpec qm;
    qm.key = "qm8700";
    qm.technology = Technology::InfiniBand;
    qm.radix = 40;
    qm.portRate = 25e9;
    d.hardware.switches[qm.key] = qm;
}

inline Design buildCluster(const ClusterShape &s)
{
    Design d;
    d.name = "test cluster";
    addA100Hardware(d);
    auto link = [&d](NodeId a, NodeId b, const char *tech, double rate, int lanes, double latency) {
        Link l;
        l.a = a;
        l.b = b;
        l.tech = tech;
        l.rate = rate;
        l.lanes = lanes;
        l.latency = latency;
        d.addLink(l);
    };
    const int leafGroups = s.domains > 1 ? (s.domains + s.serversPerLeaf - 1) / s.serversPerLeaf : 0;
    std::vector<NodeId> leaves; // [group * gpus + rail]
    for (int g = 0; g < leafGroups; ++g)
        for (int r = 0; r < s.gpus; ++r) {
            Node n;
            n.kind = NodeKind::Switch;
            n.spec = "qm8700";
            n.role = SwitchRole::Leaf;
            n.name = "leaf" + std::to_string(g) + "-" + std::to_string(r);
            leaves.push_back(d.addNode(n));
        }
    std::vector<NodeId> spines;
    if (leafGroups > 1)
        for (int i = 0; i < s.spines; ++i) {
            Node n;
            n.kind = NodeKind::Switch;
            n.spec = "qm8700";
            n.role = SwitchRole::Spine;
            n.name = "spine" + std::to_string(i);
            spines.push_back(d.addNode(n));
        }
    for (int dom = 0; dom < s.domains; ++dom) {
        Group g;
        g.kind = GroupKind::ScaleUpDomain;
        g.name = "dgx" + std::to_string(dom);
        g.preset = "dgx-a100";
        const GroupId gid = d.addGroup(g);
        std::vector<NodeId> gpus, sw;
        for (int i = 0; i < s.gpus; ++i) {
            Node n;
            n.spec = "a100-80gb";
            n.name = "gpu" + std::to_string(dom) + "-" + std::to_string(i);
            n.group = gid;
            n.rail = i;
            gpus.push_back(d.addNode(n));
        }
        for (int i = 0; i < s.nvswitches; ++i) {
            Node n;
            n.kind = NodeKind::Switch;
            n.spec = "nvswitch-gen2";
            n.role = SwitchRole::ScaleUp;
            n.group = gid;
            n.name = "nvswitch" + std::to_string(dom) + "-" + std::to_string(i);
            sw.push_back(d.addNode(n));
        }
        if (s.nvswitches > 0) {
            for (NodeId gpu : gpus)
                for (NodeId x : sw)
                    link(gpu, x, "nvlink3", s.nvlinkLane, std::max(1, s.lanesPerGpu / s.nvswitches), 1e-6);
        } else {
            const int lanes = std::max(1, s.lanesPerGpu / std::max(1, s.gpus - 1));
            for (std::size_t i = 0; i < gpus.size(); ++i)
                for (std::size_t j = i + 1; j < gpus.size(); ++j)
                    link(gpus[i], gpus[j], "nvlink3", s.nvlinkLane, lanes, 1e-6);
        }
        if (leafGroups > 0)
            for (int r = 0; r < s.gpus; ++r)
                link(gpus[static_cast<std::size_t>(r)],
                     leaves[static_cast<std::size_t>((dom / s.serversPerLeaf) * s.gpus + r)], "ib-hdr", s.nic, 1,
                     1e-6);
    }
    // Each leaf: serversPerLeaf downlinks; uplink bandwidth = downlinks / oversubscription,
    // spread evenly over the spines.
    if (!spines.empty()) {
        const double up = s.serversPerLeaf * s.nic / s.oversubscription;
        for (NodeId leaf : leaves)
            for (NodeId sp : spines)
                link(leaf, sp, "ib-hdr", up / static_cast<double>(spines.size()), 1, 1e-6);
    }
    return d;
}

} // namespace weft::test
