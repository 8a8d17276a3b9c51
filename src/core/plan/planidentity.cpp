#include "plan/planidentity.h"

#include "io/workloadjson.h"
#include "plan/planner.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace weft {

namespace {

// Names of the two plans compared, for the message.
struct Names
{
    const std::string &a, &b;
};

std::string both(const Names &n, const std::string &what, const std::string &x,
                 const std::string &y)
{
    return what + " " + (x.empty() ? "(not recorded)" : x) + " in " + n.a + ", "
        + (y.empty() ? "(not recorded)" : y) + " in " + n.b;
}

// "gpus=16;tp=1,2;..." as (key, values) in order.
std::vector<std::pair<std::string, std::string>> spaceItems(const std::string &space)
{
    std::vector<std::pair<std::string, std::string>> items;
    std::stringstream ss(space);
    std::string item;
    while (std::getline(ss, item, ';')) {
        const auto eq = item.find('=');
        items.emplace_back(item.substr(0, eq),
                           eq == std::string::npos ? std::string() : item.substr(eq + 1));
    }
    return items;
}

std::string spaceDifference(const Names &n, const std::string &a, const std::string &b)
{
    const auto x = spaceItems(a), y = spaceItems(b);
    for (std::size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
        const std::string key = i < x.size() ? x[i].first : y[i].first;
        const std::string u = i < x.size() ? x[i].second : std::string();
        const std::string v = i < y.size() ? y[i].second : std::string();
        if (i >= x.size() || i >= y.size() || x[i].first != y[i].first || u != v)
            return both(n, key == "gpus" ? "GPUs" : "searched values of knob " + key + " (--fix)",
                        u, v);
    }
    return {};
}

// The first JSON pointer at which `a` and `b` differ, with both values.
std::string jsonDifference(const Names &n, const nlohmann::json &a, const nlohmann::json &b)
{
    const nlohmann::json x = a.flatten(), y = b.flatten();
    for (const auto &[key, value] : x.items())
        if (!y.contains(key) || y.at(key) != value)
            return both(n, "workload setting " + key, value.dump(),
                        y.contains(key) ? y.at(key).dump() : std::string());
    for (const auto &[key, value] : y.items())
        if (!x.contains(key))
            return both(n, "workload setting " + key, {}, value.dump());
    return {};
}

std::string workloadDifference(const Names &n, const std::string &a, const std::string &b)
{
    if (a == b)
        return {};
    const nlohmann::json x = nlohmann::json::parse(a, nullptr, false);
    const nlohmann::json y = nlohmann::json::parse(b, nullptr, false);
    if (x.is_discarded() || y.is_discarded() || a.empty() || b.empty())
        return both(n, "base workload", a.empty() ? a : "recorded", b.empty() ? b : "recorded");
    if (x == y) // the same settings, keys in another order
        return {};
    const std::string d = jsonDifference(n, x, y);
    return d.empty() ? both(n, "base workload", a, b) : d;
}

} // namespace

std::string planWorkloadText(const Workload &base)
{
    Workload w = base;
    TrainingConfig &c = w.config;
    for (const PlanKnob &k : planKnobs())
        k.set(c, 1);
    c.dp = 1;
    c.globalBatch = 1; // compared on its own
    c.stageLayers.clear();
    w.placement = Placement {};
    return toJson(w).dump();
}

std::string planDifference(const TrainingPlan &a, const TrainingPlan &b, const std::string &aName,
                           const std::string &bName)
{
    const Names n {aName, bName};
    if (a.weftVersion != b.weftVersion)
        return both(n, "Weft version", a.weftVersion, b.weftVersion);
    if (a.design != b.design)
        return both(n, "design", "'" + a.design + "'", "'" + b.design + "'");
    if (a.gpus != b.gpus)
        return both(n, "GPUs", std::to_string(a.gpus), std::to_string(b.gpus));
    if (a.globalBatch != b.globalBatch)
        return both(n, "global batch", std::to_string(a.globalBatch),
                    std::to_string(b.globalBatch));
    if (a.objective != b.objective)
        return both(n, "objective", toString(a.objective), toString(b.objective));
    if (a.top != b.top)
        return both(n, "top", std::to_string(a.top), std::to_string(b.top));
    if (a.shards != b.shards)
        return both(n, "shard count", std::to_string(a.shards), std::to_string(b.shards));
    if (const std::string d = spaceDifference(n, a.space, b.space); !d.empty())
        return d;
    return workloadDifference(n, a.workload, b.workload);
}

} // namespace weft
