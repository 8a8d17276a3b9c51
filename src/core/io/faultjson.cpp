#include "io/faultjson.h"

#include "model/fault.h"

#include <algorithm>
#include <array>
#include <utility>

namespace weft {

namespace {

constexpr std::array<std::pair<Fault::Kind, const char *>, 5> kKinds {{
    {Fault::Kind::LinkDown, "link-down"},
    {Fault::Kind::CableDown, "cable-down"},
    {Fault::Kind::SwitchDown, "switch-down"},
    {Fault::Kind::LinkRate, "link-rate"},
    {Fault::Kind::AcceleratorClock, "accelerator-clock"},
}};

constexpr long long kMaxId = 0xfffffffeLL;

bool hasFactor(Fault::Kind k)
{
    return k == Fault::Kind::LinkRate || k == Fault::Kind::AcceleratorClock;
}

Fault readFault(const JsonReader &r, const Design &d)
{
    Fault f;
    const std::string kind = r.string("kind");
    const auto it = std::find_if(kKinds.begin(), kKinds.end(),
                                 [&](const auto &k) { return kind == k.second; });
    if (it == kKinds.end())
        r.fail("kind",
               "unknown fault kind \"" + kind
                   + "\" (expected one of: link-down, cable-down, switch-down, link-rate, "
                     "accelerator-clock)");
    f.kind = it->first;
    if (f.onLink()) {
        const auto id = LinkId(static_cast<std::uint32_t>(r.integer("link", 0, kMaxId)));
        if (!d.link(id))
            r.fail("link",
                   "the fault names link " + std::to_string(id.value) + ", which does not exist");
        f.target = faultTarget(id);
    } else {
        const auto id = NodeId(static_cast<std::uint32_t>(r.integer("node", 0, kMaxId)));
        const Node *n = d.node(id);
        if (!n)
            r.fail("node",
                   "the fault names node " + std::to_string(id.value) + ", which does not exist");
        const bool wantSwitch = f.kind == Fault::Kind::SwitchDown;
        if (n->isSwitch() != wantSwitch)
            r.fail("node",
                   "node " + std::to_string(id.value) + " (\"" + n->name + "\") is "
                       + (n->isSwitch() ? "a switch" : "an accelerator") + "; " + kind + " needs "
                       + (wantSwitch ? "a switch" : "an accelerator"));
        f.target = faultTarget(id);
    }
    if (hasFactor(f.kind)) {
        f.factor = r.number("factor");
        if (!(f.factor > 0) || f.factor > 1)
            r.fail("factor",
                   "the factor (the fraction kept) must be in (0, 1], found "
                       + faultFactorText(f.factor));
    }
    return f;
}

} // namespace

Scenario faultsFromJson(const JsonReader &faults, const Design &design)
{
    if (!faults.raw().is_array())
        faults.fail(std::string("expected an array of faults, found ")
                    + jsonTypeName(faults.raw()));
    Scenario sc;
    sc.faults.reserve(faults.size());
    for (std::size_t i = 0; i < faults.size(); ++i) {
        const JsonReader item = faults.at(i);
        if (!item.raw().is_object())
            item.fail(std::string("expected a fault object, found ") + jsonTypeName(item.raw()));
        sc.faults.push_back(readFault(item, design));
    }
    return sc;
}

nlohmann::ordered_json faultsToJson(const Design &d)
{
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const Fault &f : d.scenario.faults) {
        nlohmann::ordered_json j;
        const auto it = std::find_if(kKinds.begin(), kKinds.end(),
                                     [&](const auto &k) { return f.kind == k.first; });
        j["kind"] = it->second;
        if (f.onLink()) {
            const Link *l = faultLink(d, f);
            if (!l)
                continue;
            j["link"] = l->id.value;
        } else {
            const Node *n = faultNode(d, f);
            if (!n)
                continue;
            j["node"] = n->id.value;
        }
        if (hasFactor(f.kind))
            j["factor"] = f.factor;
        arr.push_back(std::move(j));
    }
    return arr;
}

} // namespace weft
