#include "io/serverdomains.h"

#include "generate/fabricgenerator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <unordered_map>

namespace weft {

namespace {

constexpr double kTierGap = 250; // scene units between tiers, as the generator

} // namespace

std::optional<Design> serverDomains(const Catalog &catalog, const std::string &preset,
                                    const std::vector<std::string> &hosts,
                                    std::vector<std::vector<NodeId>> &gpus, std::string &error)
{
    gpus.assign(hosts.size(), {});
    if (!catalog.scaleUpPresets.count(preset)) {
        error = "unknown scale-up preset '" + preset
            + "' (known: " + catalogKeys(catalog.scaleUpPresets) + ")";
        return std::nullopt;
    }
    if (hosts.empty())
        return Design();
    FabricParams p;
    p.scaleUpPreset = preset;
    p.domains = static_cast<int>(hosts.size());
    p.fabric = FabricKind::None;
    GenerateResult g = generateFabric(p, catalog);
    if (!g.ok()) {
        error = "cannot build the " + preset
            + " servers: " + (g.errors.empty() ? std::string("unknown reason") : g.errors.front());
        return std::nullopt;
    }
    Design d = std::move(*g.design);
    d.generator.reset();
    std::unordered_map<std::uint32_t, std::size_t> domainOf;
    std::size_t k = 0;
    for (const Group &grp : d.groups())
        if (grp.kind == GroupKind::ScaleUpDomain) {
            domainOf[grp.id.value] = k;
            d.group(grp.id)->name = hosts[k++];
        }
    for (const Node &n : d.nodes()) {
        const auto it = domainOf.find(n.group.value);
        if (it == domainOf.end())
            continue;
        Node *node = d.node(n.id);
        node->name = hosts[it->second] + node->name.substr(node->name.find('.'));
        if (n.isAccelerator())
            gpus[it->second].push_back(n.id);
    }
    return d;
}

void placeSwitchTiers(Design &design, const std::string &rowBelow)
{
    double xmin = 0, xmax = 0, ymax = 0;
    bool any = false;
    std::map<SwitchRole, std::vector<NodeId>> tiers;
    std::vector<NodeId> below;
    for (const Node &n : design.nodes()) {
        if (n.isSwitch() && n.role != SwitchRole::ScaleUp) {
            tiers[n.role].push_back(n.id);
        } else if (n.isAccelerator() && !rowBelow.empty() && n.spec == rowBelow) {
            below.push_back(n.id);
        } else {
            xmin = any ? std::min(xmin, n.x) : n.x;
            xmax = any ? std::max(xmax, n.x) : n.x;
            ymax = any ? std::max(ymax, n.y) : n.y;
            any = true;
        }
    }
    if (!any)
        xmax = 40.0 * static_cast<double>(design.nodes().size());
    const auto row = [&](const std::vector<NodeId> &ids, double y) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
            Node *n = design.node(ids[i]);
            n->x = xmin
                + (static_cast<double>(i) + 0.5) * (xmax - xmin + 40)
                    / static_cast<double>(ids.size());
            n->y = y;
        }
    };
    for (const auto &[role, ids] : tiers)
        row(ids, -kTierGap * (role == SwitchRole::Leaf ? 1 : role == SwitchRole::Spine ? 2 : 3));
    row(below, ymax + kTierGap);
}

std::string matchSwitchSpec(Design &design, const Catalog &catalog, Technology technology,
                            int radix, double portRate, const std::string &label,
                            const std::string &prefix, const std::string &source, PortCount count)
{
    const std::string *best = nullptr; // the first match, or the smallest radix that fits
    for (const auto &[key, s] : catalog.hardware.switches) {
        if (s.technology != technology || std::abs(s.portRate - portRate) > 1e-6 * portRate)
            continue;
        const bool fits = count == PortCount::Radix ? s.radix == radix || s.radix == radix - 1
                                                    : s.radix >= radix;
        if (fits && (!best || s.radix < catalog.hardware.switches.at(*best).radix))
            best = &key;
    }
    if (best) {
        design.hardware.switches[*best] = catalog.hardware.switches.at(*best);
        return *best;
    }
    std::string low = label;
    for (char &c : low)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string key = prefix + "-" + std::to_string(radix) + "p-" + low;
    if (!design.hardware.switches.count(key)) {
        SwitchSpec s;
        s.key = key;
        s.name = std::string(toString(technology)) + " switch, " + std::to_string(radix) + " ports "
            + label;
        s.technology = technology;
        s.radix = radix;
        s.portRate = portRate;
        s.source = source;
        design.hardware.switches[key] = s;
    }
    return key;
}

} // namespace weft
