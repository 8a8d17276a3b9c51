#pragma once
// A small hardware catalog built in code for generator tests, independent of the shipped
// resources/catalog files (so changed catalog figures cannot silently change expected counts).
// Figures: NVIDIA DGX A100/H100 and GB200 NVL72 user guides and datasheets, AMD MI300X
// datasheet, NVIDIA Quantum/Quantum-2/Quantum-X800 and Spectrum-4 switch datasheets.

#include "model/catalog.h"

namespace weft::test {

inline SwitchSpec makeSwitch(const char *key, Technology t, int radix, double gbps)
{
    SwitchSpec s;
    s.key = key;
    s.name = key;
    s.technology = t;
    s.radix = radix;
    s.portRate = gbps * 1e9 / 8;
    return s;
}

inline LinkTechSpec makeTech(const char *key, Technology t, double bytesPerSecond, double latency)
{
    LinkTechSpec l;
    l.key = key;
    l.name = key;
    l.technology = t;
    l.laneRate = bytesPerSecond;
    l.latency = latency;
    return l;
}

inline ScaleUpPreset makePreset(const char *key, const char *accel, int n, const char *chip,
                                int chips, const char *tech, int lanes, double nicGbps,
                                const char *nicTech)
{
    ScaleUpPreset p;
    p.key = key;
    p.name = key;
    p.accelerator = accel;
    p.accelerators = n;
    p.scaleUpSwitch = chip;
    p.scaleUpSwitches = chips;
    p.scaleUpTech = tech;
    p.lanesPerAccelerator = lanes;
    p.nicsPerAccelerator = 1;
    p.nicRate = nicGbps * 1e9 / 8;
    p.nicTech = nicTech;
    return p;
}

/// Presets dgx-a100, dgx-h100, gb200-nvl72, mi300x-8; switches nvswitch-gen2/3/4, qm8700,
/// qm9700, q3400, sn5600; link techs nvlink3/4/5, infinity-fabric, ib-hdr/ndr/xdr, eth-800g.
inline Catalog testCatalog()
{
    Catalog c;
    auto &hw = c.hardware;
    for (const char *a : {"a100", "h100", "b200", "mi300x"}) {
        AcceleratorSpec s;
        s.key = a;
        s.name = a;
        hw.accelerators[a] = s;
    }
    const Technology nv = Technology::NVLink, ib = Technology::InfiniBand;
    hw.switches["nvswitch-gen2"] = makeSwitch("nvswitch-gen2", nv, 36, 200);
    hw.switches["nvswitch-gen3"] = makeSwitch("nvswitch-gen3", nv, 64, 200);
    hw.switches["nvswitch-gen4"] = makeSwitch("nvswitch-gen4", nv, 72, 400);
    hw.switches["qm8700"] = makeSwitch("qm8700", ib, 40, 200);
    hw.switches["qm9700"] = makeSwitch("qm9700", ib, 64, 400);
    hw.switches["q3400"] = makeSwitch("q3400", ib, 144, 800);
    hw.switches["sn5600"] = makeSwitch("sn5600", Technology::Ethernet, 64, 800);
    hw.linkTechs["nvlink3"] = makeTech("nvlink3", nv, 25e9, 1e-6);
    hw.linkTechs["nvlink4"] = makeTech("nvlink4", nv, 25e9, 1e-6);
    hw.linkTechs["nvlink5"] = makeTech("nvlink5", nv, 50e9, 1e-6);
    hw.linkTechs["infinity-fabric"]
        = makeTech("infinity-fabric", Technology::InfinityFabric, 64e9, 1e-6);
    hw.linkTechs["ib-hdr"] = makeTech("ib-hdr", ib, 25e9, 2e-6);
    hw.linkTechs["ib-ndr"] = makeTech("ib-ndr", ib, 50e9, 2e-6);
    hw.linkTechs["ib-xdr"] = makeTech("ib-xdr", ib, 100e9, 2e-6);
    hw.linkTechs["eth-800g"] = makeTech("eth-800g", Technology::Ethernet, 100e9, 3e-6);
    auto &p = c.scaleUpPresets;
    p["dgx-a100"]
        = makePreset("dgx-a100", "a100", 8, "nvswitch-gen2", 6, "nvlink3", 12, 200, "ib-hdr");
    p["dgx-h100"]
        = makePreset("dgx-h100", "h100", 8, "nvswitch-gen3", 4, "nvlink4", 18, 400, "ib-ndr");
    p["gb200-nvl72"]
        = makePreset("gb200-nvl72", "b200", 72, "nvswitch-gen4", 18, "nvlink5", 18, 800, "ib-xdr");
    p["gb200-nvl72"].acceleratorsPerTray = 4; // 18 compute trays of 4 GPUs
    p["mi300x-8"] = makePreset("mi300x-8", "mi300x", 8, "", 0, "infinity-fabric", 7, 400, "ib-ndr");
    return c;
}

} // namespace weft::test
