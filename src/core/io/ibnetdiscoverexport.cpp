#include "io/ibnetdiscoverexport.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace weft {

namespace {

std::string nodeId(bool isSwitch, std::size_t index)
{
    char buf[40];
    // Mellanox OUI 0x0002c9 in the GUID's top bytes; switches and HCAs in separate ranges.
    std::snprintf(
        buf, sizeof buf, "%s-0002c903%08llx", isSwitch ? "S" : "H",
        static_cast<unsigned long long>((isSwitch ? 0x10000000ULL : 0x20000000ULL) + index));
    return buf;
}

/// Width and speed of a cable of `rate` bytes/s: 4x first, then 2x, 1x, 8x, 12x.
bool widthSpeed(double rate, int &width, std::string &speed)
{
    for (const int w : {4, 2, 1, 8, 12}) {
        speed = ibSpeedForRate(rate * 4 / w);
        if (!speed.empty()) {
            width = w;
            return true;
        }
    }
    return false;
}

bool isFabricSwitch(const Node &n)
{
    return n.isSwitch() && n.role != SwitchRole::ScaleUp;
}

} // namespace

IbExportResult exportIbFabric(const Design &design)
{
    IbExportResult r;
    std::unordered_map<NodeId, std::size_t> ibIndex; // design switch -> fabric node
    for (const Node &n : design.nodes())
        if (isFabricSwitch(n)) {
            IbNode sw;
            sw.type = IbNodeType::Switch;
            sw.id = nodeId(true, ibIndex.size());
            sw.description = n.name;
            const SwitchSpec *spec = design.switchSpec(n);
            sw.ports = spec ? spec->radix : 0;
            if (spec && spec->technology != Technology::InfiniBand)
                r.warnings.push_back(n.name + " is a " + toString(spec->technology)
                                     + " switch; written as InfiniBand");
            ibIndex[n.id] = r.fabric.nodes.size();
            r.fabric.nodes.push_back(std::move(sw));
        }
    if (ibIndex.empty()) {
        r.warnings.emplace_back("the design has no leaf, spine or core switch to export");
        return r;
    }
    // NIC cables per server, in rail order, to name the HCAs mlx5_<i>.
    struct NicCable
    {
        const Link *link;
        NodeId accel;
    };
    std::map<std::string, std::vector<NicCable>> servers;
    for (const Link &l : design.links()) {
        const Node *a = design.node(l.a), *b = design.node(l.b);
        if (!a || !b)
            continue;
        const Node *acc = a->isAccelerator() ? a : b->isAccelerator() ? b : nullptr;
        const Node *sw = acc == a ? b : a;
        if (acc && isFabricSwitch(*sw)) {
            const Group *g = acc->group.valid() ? design.group(acc->group) : nullptr;
            servers[g ? g->name : acc->name].push_back({&l, acc->id});
        }
    }
    std::map<const Link *, std::size_t> hcaOf; // NIC link -> its HCA (one port per lane)
    for (auto &[server, cables] : servers) {
        std::stable_sort(cables.begin(), cables.end(), [&](const NicCable &x, const NicCable &y) {
            return design.node(x.accel)->rail < design.node(y.accel)->rail;
        });
        for (std::size_t i = 0; i < cables.size(); ++i) {
            IbNode ca;
            ca.type = IbNodeType::Ca;
            ca.ports = cables[i].link->lanes;
            ca.id = nodeId(false, r.fabric.nodes.size());
            ca.description = server + " mlx5_" + std::to_string(i);
            hcaOf[cables[i].link] = r.fabric.nodes.size();
            r.fabric.nodes.push_back(std::move(ca));
        }
    }
    std::vector<int> nextPort(r.fabric.nodes.size(), 1);
    const auto connect = [&](std::size_t x, std::size_t y, int width, const std::string &speed) {
        IbNode &nx = r.fabric.nodes[x], &ny = r.fabric.nodes[y];
        const int px = nextPort[x]++, py = nextPort[y]++;
        nx.links.push_back({px, ny.id, py, width, speed, 0});
        ny.links.push_back({py, nx.id, px, width, speed, 0});
    };
    std::vector<std::string> oddRates;
    for (const Link &l : design.links()) {
        const auto ia = ibIndex.find(l.a), ib = ibIndex.find(l.b);
        const bool nic = hcaOf.count(&l) > 0;
        if (!nic && (ia == ibIndex.end() || ib == ibIndex.end()))
            continue;
        int width = 0;
        std::string speed;
        if (!widthSpeed(l.rate, width, speed))
            oddRates.push_back(design.node(l.a)->name + " - " + design.node(l.b)->name);
        for (int k = 0; k < l.lanes; ++k) {
            if (nic) {
                const std::size_t sw = ia != ibIndex.end() ? ia->second : ib->second;
                connect(sw, hcaOf.at(&l), width, speed);
            } else {
                connect(ia->second, ib->second, width, speed);
            }
        }
    }
    for (std::size_t i = 0; i < r.fabric.nodes.size(); ++i)
        r.fabric.nodes[i].ports = std::max(r.fabric.nodes[i].ports, nextPort[i] - 1);
    if (!oddRates.empty())
        r.warnings.push_back(std::to_string(oddRates.size())
                             + " link(s) have a rate no InfiniBand width x speed gives (written "
                               "without one), e.g. "
                             + oddRates.front());
    return r;
}

} // namespace weft
