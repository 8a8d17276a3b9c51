#include "io/astrasimexport.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace weft {

namespace {

struct DomainShape
{
    int accelerators = 0;
    int switches = 0;
    double scaleUpBandwidth = 0; // per accelerator per direction, bytes/s
    double meshLinkRate = 0; // switchless: one peer link, bytes/s
    double latency = 0;
};

// Per-accelerator adjacency facts: scale-up capacity and scale-out (NIC) capacity.
struct AccelLinks
{
    double scaleUp = 0;
    double nic = 0;
    double nicLatency = 0;
    double scaleUpLatency = 0;
    std::vector<double> meshRates;
};

std::string formatNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// True when the node is a scale-out switch (leaf/spine/core).
bool isScaleOut(const Node *n)
{
    return n && n->isSwitch() && n->role != SwitchRole::ScaleUp;
}

} // namespace

AstraSimExport exportAstraSim(const Design &design)
{
    AstraSimExport out;
    std::map<NodeId, AccelLinks> accel;
    for (const Node &n : design.nodes())
        if (n.isAccelerator())
            accel[n.id];
    if (accel.empty()) {
        out.problems.push_back("the design has no accelerators");
        return out;
    }

    // Leaf oversubscription: downlink (towards accelerators) vs uplink (towards spines) capacity.
    std::map<NodeId, std::pair<double, double>> leafCapacity; // down, up
    double leafSpineLatency = -1, spineCoreLatency = -1; // -1: tier absent
    for (const Link &l : design.links()) {
        const Node *a = design.node(l.a);
        const Node *b = design.node(l.b);
        if (!a || !b)
            continue;
        const double latency = l.latency;
        for (int side = 0; side < 2; ++side) {
            const Node *self = side ? b : a;
            const Node *peer = side ? a : b;
            if (self->isAccelerator()) {
                AccelLinks &al = accel[self->id];
                if (peer->isAccelerator()) {
                    al.meshRates.push_back(l.capacity());
                    al.scaleUp += l.capacity();
                    al.scaleUpLatency = std::max(al.scaleUpLatency, latency);
                } else if (peer->role == SwitchRole::ScaleUp) {
                    al.scaleUp += l.capacity();
                    al.scaleUpLatency = std::max(al.scaleUpLatency, latency);
                } else {
                    al.nic += l.capacity();
                    al.nicLatency = std::max(al.nicLatency, latency);
                }
            }
            if (self->role == SwitchRole::Leaf && peer->role == SwitchRole::Spine
                && self->isSwitch() && peer->isSwitch())
                leafSpineLatency = std::max(leafSpineLatency, latency);
            if (self->role == SwitchRole::Spine && peer->role == SwitchRole::Core
                && self->isSwitch() && peer->isSwitch())
                spineCoreLatency = std::max(spineCoreLatency, latency);
            if (self->isSwitch() && self->role == SwitchRole::Leaf) {
                if (peer->isAccelerator())
                    leafCapacity[self->id].first += l.capacity();
                else if (isScaleOut(peer) && peer->role != SwitchRole::Leaf)
                    leafCapacity[self->id].second += l.capacity();
            }
        }
    }

    // Scale-up domains must all have the same shape.
    std::map<std::string, int> shapes;
    std::vector<const Group *> domains;
    std::size_t inDomains = 0;
    for (const Group &g : design.groups()) {
        if (g.kind != GroupKind::ScaleUpDomain)
            continue;
        int accs = 0, sws = 0;
        for (NodeId m : g.members) {
            const Node *n = design.node(m);
            if (n && n->isAccelerator())
                ++accs;
            else if (n && n->isSwitch())
                ++sws;
        }
        if (accs == 0)
            continue;
        domains.push_back(&g);
        inDomains += static_cast<std::size_t>(accs);
        shapes[std::to_string(accs)
               + (sws ? " accelerators with NVSwitch" : " accelerators, full mesh")]++;
    }
    if (inDomains != accel.size())
        out.problems.push_back(
            std::to_string(accel.size() - inDomains)
            + " accelerators belong to no scale-up domain; ASTRA-sim needs every "
              "accelerator in a uniform dimension");
    if (shapes.size() > 1) {
        std::string list;
        for (const auto &[s, count] : shapes)
            list += (list.empty() ? "" : ", ") + std::to_string(count) + " x (" + s + ")";
        out.problems.push_back("scale-up domains differ (" + list
                               + "); ASTRA-sim dimensions are uniform");
    }
    if (domains.empty()) {
        if (out.problems.empty())
            out.problems.push_back("the design has no scale-up domain");
        return out;
    }

    // Per-accelerator bandwidths must be uniform too.
    double minUp = 1e300, maxUp = 0, minNic = 1e300, maxNic = 0, nicLatency = 0, upLatency = 0;
    double meshRate = 0;
    for (const auto &[id, al] : accel) {
        minUp = std::min(minUp, al.scaleUp);
        maxUp = std::max(maxUp, al.scaleUp);
        minNic = std::min(minNic, al.nic);
        maxNic = std::max(maxNic, al.nic);
        nicLatency = std::max(nicLatency, al.nicLatency);
        upLatency = std::max(upLatency, al.scaleUpLatency);
        if (!al.meshRates.empty())
            meshRate = *std::min_element(al.meshRates.begin(), al.meshRates.end());
    }
    if (maxUp > minUp * 1.0001)
        out.problems.push_back("accelerators have different scale-up bandwidths ("
                               + formatNumber(minUp / 1e9) + " to " + formatNumber(maxUp / 1e9)
                               + " GB/s)");
    if (maxNic > minNic * 1.0001)
        out.problems.push_back("accelerators have different NIC bandwidths ("
                               + formatNumber(minNic / 1e9) + " to " + formatNumber(maxNic / 1e9)
                               + " GB/s)");
    for (const auto &[leaf, cap] : leafCapacity) {
        if (cap.second > 0 && cap.first > cap.second * 1.0001) {
            const Node *n = design.node(leaf);
            out.problems.push_back("leaf '" + (n ? n->name : std::string("?"))
                                   + "' is oversubscribed " + formatNumber(cap.first / cap.second)
                                   + ":1; ASTRA-sim's analytical Switch dimension is non-blocking");
            break; // one example is enough; they are usually all alike
        }
    }
    const int domainSize = static_cast<int>(inDomains / domains.size());
    const int domainCount = static_cast<int>(domains.size());
    if (domainCount > 1 && maxNic <= 0)
        out.problems.push_back(std::to_string(domainCount)
                               + " scale-up domains but no scale-out fabric connects them");
    if (!out.problems.empty())
        return out;

    const bool mesh = meshRate > 0;
    out.dimensions.push_back({mesh ? "FullyConnected" : "Switch", domainSize,
                              mesh ? meshRate : minUp, mesh ? upLatency : 2 * upLatency});
    if (domainCount > 1) {
        // The longest path up the tree and down again: NIC links, plus leaf-spine and spine-core
        // links where those tiers exist.
        double pathLatency = 2 * nicLatency;
        if (leafSpineLatency >= 0)
            pathLatency += 2 * leafSpineLatency;
        if (spineCoreLatency >= 0)
            pathLatency += 2 * spineCoreLatency;
        out.dimensions.push_back({"Switch", domainCount, minNic, pathLatency});
    }

    std::ostringstream yaml;
    yaml << "# ASTRA-sim analytical network configuration exported by Weft from '" << design.name
         << "'\n# bandwidth: GB/s per NPU per direction; latency: ns\n";
    auto list = [&](auto fn) {
        std::string s = "[ ";
        for (std::size_t i = 0; i < out.dimensions.size(); ++i)
            s += (i ? ", " : "") + fn(out.dimensions[i]);
        return s + " ]";
    };
    yaml << "topology: " << list([](const AstraSimDimension &d) { return d.topology; }) << "\n";
    yaml << "npus_count: "
         << list([](const AstraSimDimension &d) { return std::to_string(d.npus); }) << "\n";
    yaml << "bandwidth: " << list([](const AstraSimDimension &d) {
        return formatNumber(d.bandwidth / 1e9);
    }) << "\n";
    yaml << "latency: "
         << list([](const AstraSimDimension &d) { return formatNumber(d.latency * 1e9); }) << "\n";
    out.networkYaml = yaml.str();

    nlohmann::ordered_json sys;
    std::vector<std::string> impl;
    for (const AstraSimDimension &d : out.dimensions)
        impl.push_back(d.topology == "FullyConnected" ? "direct" : "ring");
    sys["scheduling-policy"] = "LIFO";
    sys["endpoint-delay"] = 10;
    sys["active-chunks-per-dimension"] = 1;
    sys["preferred-dataset-splits"] = 4;
    sys["all-reduce-implementation"] = impl;
    sys["all-gather-implementation"] = impl;
    sys["reduce-scatter-implementation"] = impl;
    sys["all-to-all-implementation"] = std::vector<std::string>(impl.size(), "direct");
    sys["collective-optimization"] = "localBWAware";
    sys["local-mem-bw"] = 1600;
    sys["boost-mode"] = 0;
    out.systemJson = sys.dump(2) + "\n";
    return out;
}

} // namespace weft
