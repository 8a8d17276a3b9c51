#include "whatif/scenario.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <random>
#include <unordered_map>

namespace weft {

namespace {

Link *findLink(Design &d, const Fault &f)
{
    const Link *l = faultLink(d, f);
    return l ? d.link(l->id) : nullptr;
}

bool isFabricSwitch(const Node *n)
{
    return n && n->isSwitch() && n->role != SwitchRole::ScaleUp;
}

} // namespace

std::optional<Scenario> parseScenario(const std::string &text, std::string &error)
{
    Scenario sc;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find(',', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string item = text.substr(pos, end - pos);
        pos = end + 1;
        if (item.empty())
            continue;
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos) {
            error = "\"" + item + "\": expected KIND:TARGET (link, cable, switch or gpu)";
            return std::nullopt;
        }
        const std::string kind = item.substr(0, colon);
        std::string target = item.substr(colon + 1);
        Fault f;
        const std::size_t at = target.rfind('@');
        const bool hasFactor = at != std::string::npos;
        if (hasFactor) {
            const std::string v = target.substr(at + 1);
            const auto r = std::from_chars(v.data(), v.data() + v.size(), f.factor);
            if (r.ptr != v.data() + v.size() || v.empty() || !(f.factor > 0) || f.factor > 1) {
                error = "\"" + item + "\": the factor after @ must be a number in (0, 1]";
                return std::nullopt;
            }
            target.resize(at);
        }
        f.target = target;
        if (kind == "link")
            f.kind = hasFactor ? Fault::Kind::LinkRate : Fault::Kind::LinkDown;
        else if (kind == "cable" && !hasFactor)
            f.kind = Fault::Kind::CableDown;
        else if (kind == "switch" && !hasFactor)
            f.kind = Fault::Kind::SwitchDown;
        else if ((kind == "gpu" || kind == "accelerator") && hasFactor)
            f.kind = Fault::Kind::AcceleratorClock;
        else {
            error = "\"" + item
                + "\": expected link:ID, link:ID@F, cable:ID, switch:NAME or gpu:NAME@F";
            return std::nullopt;
        }
        if (target.empty()) {
            error = "\"" + item + "\": no target";
            return std::nullopt;
        }
        sc.faults.push_back(std::move(f));
    }
    return sc;
}

std::optional<FailedDesign> applyScenario(const Design &design, const Scenario &scenario,
                                          std::string &error)
{
    FailedDesign out {design, true};
    Design &d = out.design;
    std::vector<LinkId> remove;
    std::vector<NodeId> removeNodes;
    for (const Fault &f : scenario.faults) {
        if (f.kind == Fault::Kind::SwitchDown || f.kind == Fault::Kind::AcceleratorClock) {
            const Node *n = faultNode(d, f);
            if (n && f.target.rfind('#', 0) != 0) { // by name: it must name one node
                const auto same = std::count_if(d.nodes().begin(), d.nodes().end(),
                                                [&](const Node &x) { return x.name == f.target; });
                if (same > 1) {
                    error = f.label() + ": " + std::to_string(same) + " nodes are named \""
                        + f.target + "\" (give the node's #ID, or rename them)";
                    return std::nullopt;
                }
            }
            if (!n || (f.kind == Fault::Kind::SwitchDown) != n->isSwitch()) {
                error = f.label() + ": no "
                    + (f.kind == Fault::Kind::SwitchDown ? "switch" : "accelerator") + " named \""
                    + f.target + "\"";
                return std::nullopt;
            }
            if (f.kind == Fault::Kind::SwitchDown) {
                removeNodes.push_back(n->id);
                continue;
            }
            const AcceleratorSpec *spec = d.acceleratorSpec(*n);
            if (!spec) {
                error = f.label() + ": the accelerator has no spec in the design";
                return std::nullopt;
            }
            AcceleratorSpec slow = *spec;
            slow.key = spec->key + "@" + faultFactorText(f.factor);
            slow.name = spec->name + " at " + faultFactorText(f.factor * 100) + "% clock";
            slow.peakFlopsBf16 *= f.factor;
            slow.peakFlopsFp8 *= f.factor;
            slow.source
                = spec->source + "; what-if straggler: tensor peak x " + faultFactorText(f.factor);
            d.hardware.accelerators[slow.key] = slow;
            d.node(n->id)->spec = slow.key;
            continue;
        }
        Link *l = findLink(d, f);
        if (!l) {
            error = f.label() + ": no link with id " + f.target;
            return std::nullopt;
        }
        const bool nic = !d.node(l->a)->isSwitch() || !d.node(l->b)->isSwitch();
        if (f.kind == Fault::Kind::LinkDown) {
            remove.push_back(l->id);
        } else if (f.kind == Fault::Kind::CableDown) {
            if (--l->lanes <= 0)
                remove.push_back(l->id);
            else if (nic)
                out.exploitSymmetry = false;
        } else {
            l->rate *= f.factor;
            if (nic)
                out.exploitSymmetry = false;
        }
    }
    for (const LinkId id : remove)
        d.removeLink(id);
    for (const NodeId id : removeNodes)
        d.removeNode(id);
    d.scenario = {}; // applied: the copy is the faulted fabric itself
    return out;
}

Scenario randomCableFailures(const Design &design, int count, std::uint64_t seed)
{
    std::vector<std::pair<LinkId, int>> cables; // (link, lane)
    for (const Link &l : design.links())
        if (isFabricSwitch(design.node(l.a)) || isFabricSwitch(design.node(l.b)))
            for (int k = 0; k < l.lanes; ++k)
                cables.emplace_back(l.id, k);
    std::mt19937_64 rng(seed);
    Scenario sc;
    const std::size_t n
        = std::min<std::size_t>(cables.size(), static_cast<std::size_t>(std::max(0, count)));
    // Partial Fisher-Yates: the first n of a uniform random permutation.
    for (std::size_t i = 0; i < n; ++i) {
        // rng() % range rather than uniform_int_distribution, whose output differs between
        // standard libraries; the bias (range / 2^64) is negligible.
        std::swap(cables[i], cables[i + rng() % (cables.size() - i)]);
        Fault f;
        f.kind = Fault::Kind::CableDown;
        f.target = std::to_string(cables[i].first.value);
        sc.faults.push_back(f);
    }
    std::sort(sc.faults.begin(), sc.faults.end(), [](const Fault &a, const Fault &b) {
        return std::stoul(a.target) < std::stoul(b.target);
    });
    return sc;
}

} // namespace weft
