#include "generate/bom.h"

#include "io/csv.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>

namespace weft {

namespace {

constexpr std::array<const char *, 5> kTierNames {"scale-up", "accelerator-leaf", "leaf-spine",
                                                  "spine-core", "other"};
constexpr std::array<const char *, 3> kMediumNames {"board", "copper", "optical"};
/// Accelerators on one baseboard (HGX H100/B200 8-GPU, AMD MI300X UBB): scale-up links of a
/// domain this small are board traces.
constexpr int kBaseboardAccelerators = 8;

std::string gbpsText(double gbps)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gG", gbps);
    return buf;
}

std::string pad(std::string s, std::size_t width, bool right = false)
{
    if (s.size() >= width)
        return s;
    const std::string fill(width - s.size(), ' ');
    return right ? fill + s : s + fill;
}

std::string n(std::int64_t v)
{
    return std::to_string(v);
}

} // namespace

const char *toString(BomTier t)
{
    return kTierNames[static_cast<std::size_t>(t)];
}

const char *toString(BomMedium m)
{
    return kMediumNames[static_cast<std::size_t>(m)];
}

const char *bomAssumptions()
{
    return "one cable or board trace per link lane; links touching a leaf, spine or core switch "
           "are optical cables with a transceiver module at each end (one per NIC port, one per "
           "switch cage: twin-port OSFP cages of Quantum-2 and Quantum-X800 switches serve two "
           "ports); scale-up links are board traces inside a domain of at most 8 accelerators "
           "(one baseboard) and copper cables in larger domains (NVL72 NVLink spine), neither "
           "with transceivers";
}

int portsPerTransceiver(const std::string &switchModel)
{
    // Datasheets: QM9700/QM9790 "64 NDR 400Gb/s ports in 32 OSFP cages"; Q3400 "144 ports of
    // 800Gb/s in 72 OSFP cages" (twin-port modules). Other switches: one port per cage.
    static const std::map<std::string, int> twinPort {{"qm9700", 2}, {"qm9790", 2}, {"q3400", 2}};
    const auto it = twinPort.find(switchModel);
    return it == twinPort.end() ? 1 : it->second;
}

std::string transceiverType(int ports, double gbps)
{
    if (ports > 1)
        return "twin-port OSFP " + std::to_string(ports) + " x " + gbpsText(gbps);
    return (gbps >= 400 ? "OSFP " : "QSFP ") + gbpsText(gbps);
}

BomTier classifyLink(const Node *a, const Node *b)
{
    if (!a || !b)
        return BomTier::Other;
    int la = tierLevel(*a);
    int lb = tierLevel(*b);
    if (la > lb)
        std::swap(la, lb);
    if (la == 0 && lb == 0)
        return BomTier::ScaleUp;
    if (lb == la + 1) {
        // An NVSwitch chip wired straight to a leaf is not a NIC link.
        const Node &low = tierLevel(*a) < tierLevel(*b) ? *a : *b;
        if (la == 0)
            return low.isAccelerator() ? BomTier::AcceleratorLeaf : BomTier::Other;
        return la == 1 ? BomTier::LeafSpine : BomTier::SpineCore;
    }
    return BomTier::Other;
}

std::int64_t BillOfMaterials::switchCount(SwitchRole role, const std::string &model) const
{
    std::int64_t c = 0;
    for (const BomSwitchLine &l : switches)
        if (l.role == role && (model.empty() || l.model == model))
            c += l.count;
    return c;
}

BomLinkLine BillOfMaterials::tier(BomTier t) const
{
    BomLinkLine sum;
    sum.tier = t;
    bool first = true;
    for (const BomLinkLine &l : links) {
        if (l.tier != t)
            continue;
        if (first) {
            sum.medium = l.medium;
            sum.optical = l.optical;
            first = false;
        }
        sum.links += l.links;
        sum.lanes += l.lanes;
        sum.cables += l.cables;
        sum.transceivers += l.transceivers;
    }
    return sum;
}

BomLinkLine BillOfMaterials::line(BomTier t, BomMedium m) const
{
    for (const BomLinkLine &l : links)
        if (l.tier == t && l.medium == m)
            return l;
    BomLinkLine empty;
    empty.tier = t;
    empty.medium = m;
    empty.optical = m == BomMedium::Optical;
    return empty;
}

std::int64_t BillOfMaterials::transceiverCount(const std::string &type) const
{
    for (const BomTransceiverLine &t : transceivers)
        if (t.type == type)
            return t.count;
    return 0;
}

namespace {

// Medium of a link between `a` and `b`; `accelerators` counts the accelerators per group.
BomMedium mediumOf(const Node *a, const Node *b,
                   const std::unordered_map<std::uint32_t, int> &accelerators)
{
    if (!a || !b || tierLevel(*a) > 0 || tierLevel(*b) > 0)
        return BomMedium::Optical;
    if (a->group.valid() && a->group == b->group) {
        const auto it = accelerators.find(a->group.value);
        if (it != accelerators.end() && it->second <= kBaseboardAccelerators)
            return BomMedium::BoardTrace;
    }
    return BomMedium::Copper;
}

} // namespace

BillOfMaterials computeBom(const Design &design)
{
    BillOfMaterials bom;
    std::map<std::string, std::int64_t> accels;
    std::map<std::tuple<SwitchRole, std::string>, std::int64_t> switches;
    std::unordered_map<std::uint32_t, int> groupAccelerators;
    for (const Node &nd : design.nodes()) {
        if (nd.isAccelerator()) {
            ++accels[nd.spec];
            if (nd.group.valid())
                ++groupAccelerators[nd.group.value];
        } else {
            ++switches[{nd.role, nd.spec}];
        }
    }
    for (const auto &[model, count] : accels) {
        const auto it = design.hardware.accelerators.find(model);
        bom.accelerators.push_back(
            {model, it == design.hardware.accelerators.end() ? model : it->second.name, count});
        bom.totalAccelerators += count;
    }
    for (const auto &[key, count] : switches) {
        const auto &[role, model] = key;
        const auto it = design.hardware.switches.find(model);
        const bool known = it != design.hardware.switches.end();
        bom.switches.push_back(
            {role, model, known ? it->second.name : model, known ? it->second.radix : 0, count});
        bom.totalSwitches += count;
    }
    constexpr std::size_t kMedia = kMediumNames.size();
    std::array<BomLinkLine, kTierNames.size() * kMedia> lines {};
    // Optical cable ends at a switch, per (switch, tier, port rate): modules serve whole cages.
    std::map<std::tuple<std::uint32_t, std::size_t, double>, std::int64_t> switchEnds;
    std::map<std::pair<int, double>, std::int64_t> modules; // (ports, Gb/s) -> count
    std::array<std::int64_t, kTierNames.size()> tierModules {};
    for (const Link &l : design.links()) {
        const Node *a = design.node(l.a);
        const Node *b = design.node(l.b);
        const auto tier = static_cast<std::size_t>(classifyLink(a, b));
        const BomMedium medium = mediumOf(a, b, groupAccelerators);
        BomLinkLine &line = lines[tier * kMedia + static_cast<std::size_t>(medium)];
        ++line.links;
        line.lanes += l.lanes;
        if (medium != BomMedium::Optical)
            continue;
        const double gbps = std::round(l.rate * 8 / 1e9);
        for (const Node *end : {a, b}) {
            if (end && end->isSwitch()) {
                switchEnds[{end->id.value, tier, gbps}] += l.lanes;
            } else { // a NIC port (or a missing node): one single-port module per cable
                modules[{1, gbps}] += l.lanes;
                tierModules[tier] += l.lanes;
            }
        }
    }
    for (const auto &[key, ends] : switchEnds) {
        const auto &[node, tier, gbps] = key;
        const int ports = portsPerTransceiver(design.node(NodeId(node))->spec);
        const std::int64_t count = (ends + ports - 1) / ports;
        modules[{ports, gbps}] += count;
        tierModules[tier] += count;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        BomLinkLine line = lines[i];
        if (line.links == 0)
            continue;
        line.tier = static_cast<BomTier>(i / kMedia);
        line.medium = static_cast<BomMedium>(i % kMedia);
        line.optical = line.medium == BomMedium::Optical;
        line.cables = line.medium == BomMedium::BoardTrace ? 0 : line.lanes;
        line.transceivers = line.optical ? tierModules[i / kMedia] : 0;
        switch (line.medium) {
        case BomMedium::BoardTrace:
            bom.totalBoardTraces += line.lanes;
            break;
        case BomMedium::Copper:
            bom.totalCopperCables += line.lanes;
            break;
        case BomMedium::Optical:
            bom.totalOpticalCables += line.lanes;
            break;
        }
        bom.totalTransceivers += line.transceivers;
        bom.links.push_back(line);
    }
    bom.totalCables = bom.totalCopperCables + bom.totalOpticalCables;
    for (const auto &[key, count] : modules)
        bom.transceivers.push_back(
            {transceiverType(key.first, key.second), key.first, key.second, count});
    return bom;
}

std::string formatBomTable(const BillOfMaterials &bom)
{
    std::string s = "Accelerators\n";
    for (const BomAcceleratorLine &a : bom.accelerators)
        s += "  " + pad(a.name + " (" + a.model + ")", 40) + pad(n(a.count), 10, true) + "\n";
    s += "\nSwitches\n  " + pad("tier", 10) + pad("model", 28) + pad("radix", 7, true)
        + pad("count", 10, true) + "\n";
    for (const BomSwitchLine &w : bom.switches)
        s += "  " + pad(toString(w.role), 10) + pad(w.model, 28) + pad(n(w.radix), 7, true)
            + pad(n(w.count), 10, true) + "\n";
    s += "\nLinks\n  " + pad("tier", 18) + pad("medium", 9) + pad("links", 10, true)
        + pad("traces", 10, true) + pad("cables", 10, true) + pad("transceivers", 14, true) + "\n";
    for (const BomLinkLine &l : bom.links)
        s += "  " + pad(toString(l.tier), 18) + pad(toString(l.medium), 9)
            + pad(n(l.links), 10, true) + pad(n(l.lanes - l.cables), 10, true)
            + pad(n(l.cables), 10, true) + pad(n(l.transceivers), 14, true) + "\n";
    if (!bom.transceivers.empty()) {
        s += "\nTransceivers\n";
        for (const BomTransceiverLine &t : bom.transceivers)
            s += "  " + pad(t.type, 40) + pad(n(t.count), 10, true) + "\n";
    }
    s += "\nTotal: " + n(bom.totalAccelerators) + " accelerators, " + n(bom.totalSwitches)
        + " switches, " + n(bom.totalCables) + " cables (" + n(bom.totalOpticalCables)
        + " optical, " + n(bom.totalCopperCables) + " copper), " + n(bom.totalBoardTraces)
        + " board traces, " + n(bom.totalTransceivers)
        + " transceivers\nAssumptions: " + bomAssumptions() + ".\n";
    return s;
}

std::string formatBomCsv(const BillOfMaterials &bom)
{
    std::string s = "category,tier,model,name,medium,count,links,cables,transceivers\n";
    for (const BomAcceleratorLine &a : bom.accelerators)
        s += "accelerator,," + csvField(a.model) + "," + csvField(a.name) + ",," + n(a.count)
            + ",,,\n";
    for (const BomSwitchLine &w : bom.switches)
        s += std::string("switch,") + toString(w.role) + "," + csvField(w.model) + ","
            + csvField(w.name) + ",," + n(w.count) + ",,,\n";
    for (const BomLinkLine &l : bom.links)
        s += std::string("link,") + toString(l.tier) + ",,," + toString(l.medium) + ","
            + (l.medium == BomMedium::BoardTrace ? n(l.lanes) : std::string()) + "," + n(l.links)
            + "," + n(l.cables) + "," + n(l.transceivers) + "\n";
    for (const BomTransceiverLine &t : bom.transceivers)
        s += "transceiver,,," + csvField(t.type) + ",optical," + n(t.count) + ",,,\n";
    return s;
}

} // namespace weft
