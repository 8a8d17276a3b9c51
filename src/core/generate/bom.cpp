#include "generate/bom.h"

#include "io/csv.h"

#include <array>
#include <cstdio>
#include <map>
#include <tuple>

namespace weft {

namespace {

constexpr std::array<const char *, 5> kTierNames {"scale-up", "accelerator-leaf", "leaf-spine",
                                                  "spine-core", "other"};

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

const char *bomAssumptions()
{
    return "one cable per link lane; scale-out cables (links touching a leaf, spine or core "
           "switch) are optical with two transceivers each; scale-up links are copper or board "
           "traces without transceivers";
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
    for (const BomLinkLine &l : links)
        if (l.tier == t)
            return l;
    BomLinkLine empty;
    empty.tier = t;
    return empty;
}

BillOfMaterials computeBom(const Design &design)
{
    BillOfMaterials bom;
    std::map<std::string, std::int64_t> accels;
    std::map<std::tuple<SwitchRole, std::string>, std::int64_t> switches;
    for (const Node &nd : design.nodes()) {
        if (nd.isAccelerator())
            ++accels[nd.spec];
        else
            ++switches[{nd.role, nd.spec}];
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
    std::array<BomLinkLine, kTierNames.size()> tiers {};
    for (const Link &l : design.links()) {
        BomLinkLine &line
            = tiers[static_cast<std::size_t>(classifyLink(design.node(l.a), design.node(l.b)))];
        ++line.links;
        line.cables += l.lanes;
    }
    for (std::size_t t = 0; t < tiers.size(); ++t) {
        BomLinkLine line = tiers[t];
        if (line.links == 0)
            continue;
        line.tier = static_cast<BomTier>(t);
        line.optical = line.tier != BomTier::ScaleUp;
        line.transceivers = line.optical ? 2 * line.cables : 0;
        bom.totalCables += line.cables;
        bom.totalTransceivers += line.transceivers;
        bom.links.push_back(line);
    }
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
    s += "\nLinks\n  " + pad("tier", 18) + pad("medium", 8) + pad("links", 10, true)
        + pad("cables", 10, true) + pad("transceivers", 14, true) + "\n";
    for (const BomLinkLine &l : bom.links)
        s += "  " + pad(toString(l.tier), 18) + pad(l.optical ? "optical" : "copper", 8)
            + pad(n(l.links), 10, true) + pad(n(l.cables), 10, true)
            + pad(n(l.transceivers), 14, true) + "\n";
    s += "\nTotal: " + n(bom.totalAccelerators) + " accelerators, " + n(bom.totalSwitches)
        + " switches, " + n(bom.totalCables) + " cables, " + n(bom.totalTransceivers)
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
        s += std::string("link,") + toString(l.tier) + ",,," + (l.optical ? "optical" : "copper")
            + ",," + n(l.links) + "," + n(l.cables) + "," + n(l.transceivers) + "\n";
    return s;
}

} // namespace weft
