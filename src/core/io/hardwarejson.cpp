#include "io/hardwarejson.h"

#include <charconv>
#include <cmath>
#include <set>

namespace weft {

namespace {

Technology technologyFrom(const JsonReader &r)
{
    const std::string s = r.string("technology");
    Technology t {};
    if (!fromString(s, t))
        r.fail("technology",
               "unknown technology '" + s
                   + "' (nvlink, infinity-fabric, infiniband, ethernet, pcie)");
    return t;
}

// Reads an array member of `r` with `read` per element, checking keys are unique.
template<class Map, class ReadFn>
void readKeyed(const JsonReader &r, const char *member, Map &out, ReadFn read)
{
    const auto arr = r.optional(member);
    if (!arr)
        return;
    for (std::size_t i = 0; i < arr->size(); ++i) {
        auto spec = read(arr->at(i));
        if (out.count(spec.key))
            arr->at(i).fail("key", "duplicate key '" + spec.key + "'");
        out.emplace(spec.key, std::move(spec));
    }
}

// A number in (0, 1], `fallback` when absent.
double fraction(const JsonReader &r, const char *key, double fallback)
{
    const double v = r.number(key, fallback);
    if (r.has(key) && (v <= 0 || v > 1))
        r.fail(key, "must be in (0, 1]");
    return v;
}

} // namespace

double fileNumber(double v)
{
    if (!std::isfinite(v) || v == 0)
        return v;
    // to_chars/from_chars: locale-independent (a GUI process may run under a ',' locale).
    char buf[40];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 12).ptr;
    double out = v;
    std::from_chars(buf, end, out);
    return out;
}

nlohmann::ordered_json toJson(const AcceleratorSpec &s)
{
    nlohmann::ordered_json j;
    j["key"] = s.key;
    j["name"] = s.name;
    j["peak_bf16_tflops"] = fileNumber(s.peakFlopsBf16 / kTera);
    j["peak_fp8_tflops"] = fileNumber(s.peakFlopsFp8 / kTera);
    j["hbm_gb"] = fileNumber(s.hbmBytes / kGiga);
    j["hbm_bandwidth_gb_per_s"] = fileNumber(s.hbmBandwidth / kGiga);
    j["scale_up_bandwidth_gb_per_s"] = fileNumber(s.scaleUpBandwidth / kGiga);
    j["matmul_efficiency"] = s.matmulEfficiency;
    j["memory_efficiency"] = s.memoryEfficiency;
    // Kernel-model fields, written only when set so older specs keep their files.
    if (s.peakFlopsFp4 > 0)
        j["peak_fp4_tflops"] = fileNumber(s.peakFlopsFp4 / kTera);
    if (s.matmulEfficiencyFp8 > 0)
        j["matmul_efficiency_fp8"] = s.matmulEfficiencyFp8;
    if (s.matmulEfficiencyFp4 > 0)
        j["matmul_efficiency_fp4"] = s.matmulEfficiencyFp4;
    if (s.sustainedClock != 1)
        j["sustained_clock"] = s.sustainedClock;
    if (s.sms > 0) {
        j["sms"] = s.sms;
        j["gemm_tile"] = {s.gemmTileM, s.gemmTileN};
    }
    auto attention = [](const AttentionEfficiency &e) {
        nlohmann::ordered_json a {{"forward", e.forward}, {"backward", e.backward}};
        if (e.softmaxHeadDim > 0)
            a["softmax_head_dim"] = e.softmaxHeadDim;
        if (e.forwardTileOverhead > 0)
            a["forward_tile_overhead"] = e.forwardTileOverhead;
        if (e.backwardTileOverhead > 0)
            a["backward_tile_overhead"] = e.backwardTileOverhead;
        return a;
    };
    if (s.attentionFused != AttentionEfficiency {})
        j["attention_fused"] = attention(s.attentionFused);
    if (s.attentionFa2 != AttentionEfficiency {})
        j["attention_fa2"] = attention(s.attentionFa2);
    if (s.powerW > 0)
        j["power_w"] = s.powerW;
    if (s.hostLaunchFactor != 1)
        j["host_launch_factor"] = s.hostLaunchFactor;
    if (!s.variants.empty()) {
        nlohmann::ordered_json vs = nlohmann::ordered_json::array();
        for (const AcceleratorVariant &v : s.variants) {
            nlohmann::ordered_json o {{"suffix", v.suffix}};
            if (v.powerW > 0)
                o["power_w"] = v.powerW;
            if (v.clockScale > 0)
                o["clock_scale"] = v.clockScale;
            if (v.hbmBytes > 0)
                o["hbm_gb"] = fileNumber(v.hbmBytes / kGiga);
            if (v.hbmBandwidth > 0)
                o["hbm_bandwidth_gb_per_s"] = fileNumber(v.hbmBandwidth / kGiga);
            o["source"] = v.source;
            vs.push_back(o);
        }
        j["variants"] = vs;
    }
    j["source"] = s.source;
    return j;
}

AcceleratorSpec acceleratorFromJson(const JsonReader &r)
{
    AcceleratorSpec s;
    s.key = r.string("key");
    s.name = r.string("name", s.key);
    s.peakFlopsBf16 = r.positive("peak_bf16_tflops", kMaxTflops, "TFLOP/s") * kTera;
    s.peakFlopsFp8 = r.nonNegative("peak_fp8_tflops", 0) * kTera;
    s.hbmBytes = r.positive("hbm_gb", kMaxMemoryGb, "GB") * kGiga;
    s.hbmBandwidth = r.positive("hbm_bandwidth_gb_per_s", kMaxBandwidthGBps, "GB/s") * kGiga;
    s.scaleUpBandwidth = r.nonNegative("scale_up_bandwidth_gb_per_s", 0) * kGiga;
    s.matmulEfficiency = fraction(r, "matmul_efficiency", s.matmulEfficiency);
    s.memoryEfficiency = fraction(r, "memory_efficiency", s.memoryEfficiency);
    s.peakFlopsFp4 = r.nonNegative("peak_fp4_tflops", 0) * kTera;
    if (r.has("matmul_efficiency_fp8"))
        s.matmulEfficiencyFp8 = fraction(r, "matmul_efficiency_fp8", 0);
    if (r.has("matmul_efficiency_fp4"))
        s.matmulEfficiencyFp4 = fraction(r, "matmul_efficiency_fp4", 0);
    if (r.has("sustained_clock"))
        s.sustainedClock = fraction(r, "sustained_clock", 1);
    s.sms = static_cast<int>(r.integer("sms", 0, 100000, 0));
    if (auto tile = r.optional("gemm_tile")) {
        if (tile->size() != 2)
            tile->fail("must be [tile_m, tile_n]");
        for (std::size_t i = 0; i < 2; ++i) {
            const nlohmann::json &v = tile->at(i).raw();
            if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 4096)
                tile->at(i).fail("must be an integer in [1, 4096]");
        }
        s.gemmTileM = tile->at(0).raw().get<int>();
        s.gemmTileN = tile->at(1).raw().get<int>();
    }
    auto attention = [&r](const char *key) {
        AttentionEfficiency e;
        if (auto a = r.optional(key)) {
            e.forward = fraction(*a, "forward", 0);
            e.backward = fraction(*a, "backward", 0);
            e.softmaxHeadDim = a->nonNegative("softmax_head_dim", 0);
            e.forwardTileOverhead = a->nonNegative("forward_tile_overhead", 0);
            e.backwardTileOverhead = a->nonNegative("backward_tile_overhead", 0);
        }
        return e;
    };
    s.attentionFused = attention("attention_fused");
    s.attentionFa2 = attention("attention_fa2");
    s.powerW = r.nonNegative("power_w", 0);
    if (r.has("host_launch_factor"))
        s.hostLaunchFactor = r.positive("host_launch_factor", 100, "x the reference host");
    if (auto vs = r.optional("variants"))
        for (std::size_t i = 0; i < vs->size(); ++i) {
            const JsonReader v = vs->at(i);
            AcceleratorVariant x;
            x.suffix = v.string("suffix");
            if (x.suffix.empty() || x.suffix.find_first_of("@, ") != std::string::npos)
                v.fail("suffix", "must be non-empty without '@', ',' or spaces");
            x.powerW = v.nonNegative("power_w", 0);
            x.clockScale = v.has("clock_scale") ? fraction(v, "clock_scale", 1) : 0;
            x.hbmBytes = v.nonNegative("hbm_gb", 0) * kGiga;
            x.hbmBandwidth = v.nonNegative("hbm_bandwidth_gb_per_s", 0) * kGiga;
            x.source = v.string("source", "");
            s.variants.push_back(std::move(x));
        }
    s.source = r.string("source", "");
    return s;
}

nlohmann::ordered_json toJson(const SwitchSpec &s)
{
    nlohmann::ordered_json j;
    j["key"] = s.key;
    j["name"] = s.name;
    j["technology"] = toString(s.technology);
    j["radix"] = s.radix;
    j["port_gbps"] = fileNumber(bytesPerSecondToGbps(s.portRate));
    j["in_network_reduction"] = s.inNetworkReduction;
    j["reduction_gb_per_s"] = fileNumber(s.reductionRate / kGiga);
    j["source"] = s.source;
    return j;
}

SwitchSpec switchFromJson(const JsonReader &r)
{
    SwitchSpec s;
    s.key = r.string("key");
    s.name = r.string("name", s.key);
    s.technology = technologyFrom(r);
    s.radix = static_cast<int>(r.integer("radix", 1, 100000));
    s.portRate = gbpsToBytesPerSecond(r.positive("port_gbps", kMaxRateGbps, "Gb/s"));
    s.inNetworkReduction = r.boolean("in_network_reduction", false);
    s.reductionRate = r.nonNegative("reduction_gb_per_s", 0) * kGiga;
    s.source = r.string("source", "");
    return s;
}

nlohmann::ordered_json toJson(const LinkTechSpec &s)
{
    nlohmann::ordered_json j;
    j["key"] = s.key;
    j["name"] = s.name;
    j["technology"] = toString(s.technology);
    j["lane_gbps"] = fileNumber(bytesPerSecondToGbps(s.laneRate));
    j["efficiency"] = s.efficiency;
    j["latency_ns"] = fileNumber(s.latency * 1e9);
    j["source"] = s.source;
    return j;
}

LinkTechSpec linkTechFromJson(const JsonReader &r)
{
    LinkTechSpec s;
    s.key = r.string("key");
    s.name = r.string("name", s.key);
    s.technology = technologyFrom(r);
    s.laneRate = gbpsToBytesPerSecond(r.positive("lane_gbps", kMaxRateGbps, "Gb/s"));
    s.efficiency = r.number("efficiency", 1.0);
    if (s.efficiency <= 0 || s.efficiency > 1)
        r.fail("efficiency", "must be in (0, 1]");
    s.latency = r.nonNegative("latency_ns", 0) * 1e-9;
    s.source = r.string("source", "");
    return s;
}

nlohmann::ordered_json toJson(const ScaleUpPreset &p)
{
    nlohmann::ordered_json j;
    j["key"] = p.key;
    j["name"] = p.name;
    j["accelerator"] = p.accelerator;
    j["accelerators"] = p.accelerators;
    j["scale_up_switch"] = p.scaleUpSwitch;
    j["scale_up_switches"] = p.scaleUpSwitches;
    j["scale_up_tech"] = p.scaleUpTech;
    j["lanes_per_accelerator"] = p.lanesPerAccelerator;
    j["nics_per_accelerator"] = p.nicsPerAccelerator;
    if (p.acceleratorsPerTray > 0)
        j["accelerators_per_tray"] = p.acceleratorsPerTray;
    j["nic_gbps"] = fileNumber(bytesPerSecondToGbps(p.nicRate));
    j["nic_tech"] = p.nicTech;
    j["source"] = p.source;
    return j;
}

ScaleUpPreset scaleUpPresetFromJson(const JsonReader &r)
{
    ScaleUpPreset p;
    p.key = r.string("key");
    p.name = r.string("name", p.key);
    p.accelerator = r.string("accelerator");
    p.accelerators = static_cast<int>(r.integer("accelerators", 1, 4096));
    p.scaleUpSwitch = r.string("scale_up_switch", "");
    p.scaleUpSwitches = static_cast<int>(r.integer("scale_up_switches", 0, 1024, 0));
    if (p.scaleUpSwitch.empty() != (p.scaleUpSwitches == 0))
        r.fail("scale_up_switches",
               "a scale-up switch model needs a switch count > 0, and vice versa");
    p.scaleUpTech = r.string("scale_up_tech");
    p.lanesPerAccelerator = static_cast<int>(r.integer("lanes_per_accelerator", 1, 1024));
    p.nicsPerAccelerator = static_cast<int>(r.integer("nics_per_accelerator", 0, 64, 1));
    p.acceleratorsPerTray = static_cast<int>(r.integer("accelerators_per_tray", 0, 4096, 0));
    if (p.acceleratorsPerTray > 0 && p.accelerators % p.acceleratorsPerTray != 0)
        r.fail("accelerators_per_tray",
               "must divide the domain's accelerators (" + std::to_string(p.accelerators) + ")");
    p.nicRate = gbpsToBytesPerSecond(r.nonNegative("nic_gbps", 0));
    p.nicTech = r.string("nic_tech", "");
    p.source = r.string("source", "");
    return p;
}

nlohmann::ordered_json toJson(const HardwareTable &t)
{
    nlohmann::ordered_json j;
    j["accelerators"] = nlohmann::ordered_json::array();
    j["switches"] = nlohmann::ordered_json::array();
    j["link_technologies"] = nlohmann::ordered_json::array();
    for (const auto &[k, s] : t.accelerators)
        j["accelerators"].push_back(toJson(s));
    for (const auto &[k, s] : t.switches)
        j["switches"].push_back(toJson(s));
    for (const auto &[k, s] : t.linkTechs)
        j["link_technologies"].push_back(toJson(s));
    return j;
}

HardwareTable hardwareFromJson(const JsonReader &r)
{
    HardwareTable t;
    readKeyed(r, "accelerators", t.accelerators, acceleratorFromJson);
    readKeyed(r, "switches", t.switches, switchFromJson);
    readKeyed(r, "link_technologies", t.linkTechs, linkTechFromJson);
    return t;
}

} // namespace weft
