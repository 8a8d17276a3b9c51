#include "sim/replicamirror.h"

#include <algorithm>
#include <unordered_map>

namespace weft {

namespace {

// Each node's incident links (indices in Design::links()), in that order.
std::unordered_map<NodeId, std::vector<std::size_t>> incidentLinks(const Design &d)
{
    std::unordered_map<NodeId, std::vector<std::size_t>> out;
    for (std::size_t i = 0; i < d.links().size(); ++i) {
        out[d.links()[i].a].push_back(i);
        out[d.links()[i].b].push_back(i);
    }
    return out;
}

// Adds `share` of the simulated direction `src` to the mirrored direction `dst`.
void addScaled(const LinkDirResult &src, double bytes, double share, double stepTime,
               LinkDirResult &dst)
{
    dst.bytes += bytes;
    dst.avgUtilization += src.avgUtilization * share;
    dst.peakUtilization = std::max(dst.peakUtilization, src.peakUtilization * share);
    dst.busyTime = std::min(stepTime, std::max(dst.busyTime, src.busyTime * share));
    if (src.series.empty())
        return;
    if (dst.series.empty())
        dst.series.assign(src.series.size(), 0.0f);
    for (std::size_t i = 0; i < src.series.size() && i < dst.series.size(); ++i) {
        dst.series[i] = std::min(1.0f, dst.series[i] + static_cast<float>(src.series[i] * share));
        dst.peakUtilization = std::max(dst.peakUtilization, static_cast<double>(dst.series[i]));
    }
}

// Kinds of parallel groups whose traffic stays inside one DP unit's pipeline.
bool isReplicaGroupKind(const std::string &kind)
{
    return kind == "tp" || kind == "cp" || kind == "ep" || kind == "pp";
}

// For each simulated pipeline, the DP unit simulated for it (the first unit merged into it).
std::vector<int> firstUnits(const SimPlan &plan)
{
    std::vector<int> first;
    for (std::size_t u = 0; u < plan.unitPipeline.size(); ++u) {
        const auto pl = static_cast<std::size_t>(plan.unitPipeline[u]);
        if (pl >= first.size())
            first.resize(pl + 1, -1);
        if (first[pl] < 0)
            first[pl] = static_cast<int>(u);
    }
    return first;
}

} // namespace

std::vector<int> mirroredTags(const SimPlan &plan)
{
    std::vector<int> tags;
    if (!plan.symmetric)
        return tags;
    std::vector<int> unitsPerPipeline;
    for (const int pl : plan.unitPipeline) {
        if (pl >= static_cast<int>(unitsPerPipeline.size()))
            unitsPerPipeline.resize(static_cast<std::size_t>(pl) + 1, 0);
        ++unitsPerPipeline[static_cast<std::size_t>(pl)];
    }
    for (std::size_t tag = 0; tag < plan.groups.size(); ++tag) {
        const GroupMeta &g = plan.groups[tag];
        const auto u = static_cast<std::size_t>(g.index);
        if (isReplicaGroupKind(g.kind) && u < plan.unitPipeline.size()
            && unitsPerPipeline[static_cast<std::size_t>(plan.unitPipeline[u])] > 1)
            tags.push_back(static_cast<int>(tag));
    }
    return tags;
}

void mirrorReplicaTraffic(const Design &design, const SimPlan &plan,
                          const std::function<double(std::size_t, int)> &mirroredBytes,
                          double stepTime, std::vector<LinkResult> &links,
                          std::vector<GroupTraffic> &groups)
{
    if (!plan.symmetric || !plan.ranks || !design.workload || links.size() != design.links().size())
        return;
    const RankMap &rk = *plan.ranks;
    const int units = static_cast<int>(plan.unitPipeline.size());
    const std::vector<int> firstUnit = firstUnits(plan); // pipeline -> the unit simulated for it
    // The simulated links carrying mirrored bytes, found once.
    std::vector<std::size_t> carrying;
    for (std::size_t i = 0; i < links.size(); ++i)
        if (mirroredBytes(i, 0) > 0 || mirroredBytes(i, 1) > 0)
            carrying.push_back(i);
    if (carrying.empty())
        return;
    const auto incident = incidentLinks(design);
    std::unordered_map<LinkId, std::size_t> indexOf;
    for (std::size_t i = 0; i < design.links().size(); ++i)
        indexOf.emplace(design.links()[i].id, i);
    std::unordered_map<std::size_t, LinkResult> simulated; // sources, as simulated
    for (const std::size_t li : carrying)
        simulated.emplace(li, links[li]);
    std::vector<std::vector<int>> ranksOfUnit(static_cast<std::size_t>(units));
    for (int rank = 0; rank < rk.worldSize(); ++rank) {
        const int u = rk.coord(rank).dp / rk.replicasPerUnit();
        if (u >= 0 && u < units)
            ranksOfUnit[static_cast<std::size_t>(u)].push_back(rank);
    }
    std::vector<GroupTraffic> added;
    for (int u = 0; u < units; ++u) {
        const auto pl = static_cast<std::size_t>(plan.unitPipeline[static_cast<std::size_t>(u)]);
        const int u0 = firstUnit[pl];
        if (u0 == u)
            continue;
        // Node map u0 -> u over the unit's ranks.
        std::unordered_map<NodeId, NodeId> nodeMap;
        for (const int rank : ranksOfUnit[static_cast<std::size_t>(u0)]) {
            RankCoord x = rk.coord(rank);
            const NodeId from = rk.node(rank);
            x.dp += rk.replicasPerUnit() * (u - u0);
            nodeMap.emplace(from, rk.node(x));
        }
        auto mapLink = [&](std::size_t li, bool &flip) -> std::ptrdiff_t {
            const Link &l = design.links()[li];
            for (const NodeId end : {l.a, l.b}) {
                const auto m = nodeMap.find(end);
                if (m == nodeMap.end())
                    continue;
                const auto &mine = incident.at(end);
                const auto it = incident.find(m->second);
                if (it == incident.end() || it->second.size() != mine.size())
                    return -1;
                const auto k = std::find(mine.begin(), mine.end(), li) - mine.begin();
                const std::size_t target = it->second[static_cast<std::size_t>(k)];
                flip = (l.a == end) != (design.links()[target].a == m->second);
                return static_cast<std::ptrdiff_t>(target);
            }
            return -1; // between two switches: shared by the replicas, left as simulated
        };
        std::unordered_map<std::size_t, std::size_t> linkMap;
        for (const std::size_t li : carrying) {
            bool flip = false;
            const std::ptrdiff_t target = mapLink(li, flip);
            if (target < 0 || static_cast<std::size_t>(target) == li)
                continue;
            linkMap.emplace(li, static_cast<std::size_t>(target));
            for (int d = 0; d < 2; ++d) {
                const double bytes = mirroredBytes(li, d);
                const LinkDirResult &src = simulated.at(li).dir[d];
                if (!(bytes > 0) || !(src.bytes > 0))
                    continue;
                addScaled(src, bytes, std::min(1.0, bytes / src.bytes), stepTime,
                          links[static_cast<std::size_t>(target)].dir[flip ? 1 - d : d]);
            }
        }
        for (const GroupTraffic &g : groups) {
            if (g.index != u0 || !isReplicaGroupKind(g.kind))
                continue;
            GroupTraffic m {g.kind, u, {}, {}};
            for (const NodeId n : g.members) {
                const auto it = nodeMap.find(n);
                m.members.push_back(it != nodeMap.end() ? it->second : n);
            }
            for (const LinkId id : g.links) {
                const auto at = indexOf.find(id);
                const auto it = at != indexOf.end() ? linkMap.find(at->second) : linkMap.end();
                m.links.push_back(it != linkMap.end() ? design.links()[it->second].id : id);
            }
            added.push_back(std::move(m));
        }
    }
    groups.insert(groups.end(), std::make_move_iterator(added.begin()),
                  std::make_move_iterator(added.end()));
}

} // namespace weft
