#pragma once
// Small designs for file and schema tests, with every field of the model set.

#include "io/catalogfile.h"
#include "model/design.h"
#include "modelbuilders.h"

namespace weft::test {

/// One 4-GPU scale-up domain (2 NVSwitch chips) in a pod, with two leaves on two planes;
/// every field of Design, Node, Link, Group, FabricParams and ViewState differs from its default,
/// and extensions are set for the file, a section, a node, a link, a group and a spec.
inline Design fullDesign()
{
    const HardwareTable &hw = builtinCatalog().hardware;
    Design d;
    d.name = "Full \"design\" \u00e9";
    d.description = "Every field set.\nSecond line.";
    d.hardware.accelerators["h100-sxm"] = hw.accelerators.at("h100-sxm");
    d.hardware.switches["nvswitch-gen3"] = hw.switches.at("nvswitch-gen3");
    d.hardware.switches["qm9700"] = hw.switches.at("qm9700");
    d.hardware.linkTechs["nvlink4"] = hw.linkTechs.at("nvlink4");
    d.hardware.linkTechs["ib-ndr"] = hw.linkTechs.at("ib-ndr");
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = 3;
    p.fabric = FabricKind::FatTree;
    p.tiers = 3;
    p.switchModel = "qm9700";
    p.nicRate = 25e9;
    p.oversubscription = 2.5;
    p.planes = 2;
    p.suSize = 16;
    d.generator = p;
    d.view = ViewState{0.75, -120.5, 33.25};
    const GroupId pod = d.addGroup(group("pod-0", GroupKind::Pod));
    Group dom = group("dgx-0", GroupKind::ScaleUpDomain, pod);
    dom.preset = "dgx-h100";
    dom.collapsed = false;
    const GroupId g = d.addGroup(dom);
    std::vector<NodeId> gpus, nvs;
    for (int i = 0; i < 4; ++i) {
        Node n = accel("gpu-" + std::to_string(i), "h100-sxm", g);
        n.rail = i;
        n.plane = i % 2;
        n.x = 10.5 * i;
        n.y = -3.25;
        gpus.push_back(d.addNode(n));
    }
    for (int i = 0; i < 2; ++i) {
        Node n = switchNode("nvs-" + std::to_string(i), "nvswitch-gen3", g, SwitchRole::ScaleUp);
        n.x = 7 * i;
        n.y = 40;
        nvs.push_back(d.addNode(n));
    }
    for (int i = 0; i < 2; ++i) {
        Node n = switchNode("leaf-" + std::to_string(i), "qm9700", pod, SwitchRole::Leaf);
        n.plane = i;
        n.y = 100.125;
        d.addNode(n);
    }
    for (const NodeId gpu : gpus)
        for (const NodeId sw : nvs) {
            Link l = link(gpu, sw, "nvlink4", 25e9, 9);
            l.latency = 1e-6;
            d.addLink(l);
        }
    for (int i = 0; i < 4; ++i) {
        Link l = link(gpus[static_cast<std::size_t>(i)], NodeId(6 + i % 2), "ib-ndr", 50e9);
        l.latency = 2.5e-7;
        d.addLink(l);
    }
    d.extensions = R"({"file": {"x-tool": {"run": 7}}, "design": {"owner": "lab"},)"
                   R"( "node:5": {"color": "red"}, "link:0": {"cable": "DAC"},)"
                   R"( "group:1": {"rack_unit": 12}, "accelerator:h100-sxm": {"tdp_w": 700}})";
    return d;
}

} // namespace weft::test
