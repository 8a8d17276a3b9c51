#include "document/placementedit.h"

#include "model/design.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace weft {

const char *toString(RankGroupKind kind)
{
    switch (kind) {
    case RankGroupKind::Tp:
        return "tp";
    case RankGroupKind::Stage:
        return "stage";
    case RankGroupKind::DpReplica:
        return "dp-replica";
    case RankGroupKind::Cp:
        return "cp";
    case RankGroupKind::Ep:
        return "ep";
    case RankGroupKind::ExpertDp:
        return "expert-dp";
    }
    return "?";
}

std::optional<std::vector<NodeId>> resolvedMap(const Design &d, const Workload &w,
                                               std::vector<Finding> *findings)
{
    std::vector<Finding> local;
    const RankMap rm(d, w.config, w.placement, findings ? *findings : local);
    if (!rm.valid())
        return std::nullopt;
    std::vector<NodeId> map(static_cast<std::size_t>(rm.worldSize()));
    for (int r = 0; r < rm.worldSize(); ++r)
        map[static_cast<std::size_t>(r)] = rm.node(r);
    return map;
}

namespace {

// The coordinates a group of `kind` shares (the group key) and, for stage and replica, the
// natural index.
using Key = std::tuple<int, int, int, int>;

// EP and expert-DP groups follow the experts' decomposition (MoE parallel folding: etp, ep,
// expert-DP; RankMap::expertCoord).
Key keyOf(const RankCoord &c, const ExpertCoord &e, RankGroupKind kind)
{
    switch (kind) {
    case RankGroupKind::Tp:
        return {-1, c.cp, c.dp, c.pp};
    case RankGroupKind::Cp:
        return {c.tp, -1, c.dp, c.pp};
    case RankGroupKind::Ep:
        return {e.etp, -1, e.edp, e.pp};
    case RankGroupKind::ExpertDp:
        return {e.etp, e.ep, -1, e.pp};
    case RankGroupKind::Stage:
        return {-1, -1, -1, c.pp};
    case RankGroupKind::DpReplica:
        return {-1, -1, c.dp, -1};
    }
    return {};
}

} // namespace

std::vector<int> groupIndexOfRanks(const RankMap &map, RankGroupKind kind)
{
    const int world = map.worldSize();
    std::vector<int> index(static_cast<std::size_t>(world), 0);
    std::map<Key, int> seen;
    for (int r = 0; r < world; ++r) {
        const RankCoord c = map.coord(r);
        int &i = index[static_cast<std::size_t>(r)];
        if (kind == RankGroupKind::Stage)
            i = c.pp;
        else if (kind == RankGroupKind::DpReplica)
            i = c.dp;
        else
            i = seen.emplace(keyOf(c, map.expertCoord(r), kind), int(seen.size())).first->second;
    }
    return index;
}

std::vector<RankGroup> rankGroups(const RankMap &map, RankGroupKind kind)
{
    const std::vector<int> index = groupIndexOfRanks(map, kind);
    const int count = index.empty() ? 0 : *std::max_element(index.begin(), index.end()) + 1;
    std::vector<RankGroup> groups(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        groups[static_cast<std::size_t>(i)].kind = kind;
        groups[static_cast<std::size_t>(i)].index = i;
    }
    for (std::size_t r = 0; r < index.size(); ++r)
        groups[static_cast<std::size_t>(index[r])].ranks.push_back(int(r));
    return groups;
}

int placeRanks(std::vector<NodeId> &map, const std::vector<int> &ranks,
               const std::vector<NodeId> &targets)
{
    const std::size_t n = std::min(ranks.size(), targets.size());
    const auto valid = [&map](int r) { return r >= 0 && std::size_t(r) < map.size(); };
    // Ranks of the group already on one of the targets keep their accelerator.
    std::vector<int> toMove;
    std::vector<NodeId> freeTargets(targets.begin(), targets.begin() + long(n));
    std::vector<int> kept;
    for (std::size_t i = 0; i < n; ++i) {
        const int r = ranks[i];
        if (!valid(r))
            continue;
        auto it = std::find(freeTargets.begin(), freeTargets.end(), map[std::size_t(r)]);
        if (it != freeTargets.end())
            freeTargets.erase(it);
        else
            toMove.push_back(r);
    }
    int moved = 0;
    for (std::size_t i = 0; i < toMove.size() && i < freeTargets.size(); ++i) {
        const int r = toMove[i];
        const NodeId from = map[std::size_t(r)];
        const NodeId to = freeTargets[i];
        // Whoever holds `to` takes `from`: the map stays a permutation.
        auto holder = std::find(map.begin(), map.end(), to);
        if (holder != map.end())
            *holder = from;
        map[std::size_t(r)] = to;
        ++moved;
    }
    return moved;
}

bool swapAccelerators(std::vector<NodeId> &map, NodeId a, NodeId b)
{
    if (a == b)
        return false;
    auto ia = std::find(map.begin(), map.end(), a);
    auto ib = std::find(map.begin(), map.end(), b);
    if (ia == map.end() && ib == map.end())
        return false;
    if (ia != map.end())
        *ia = b;
    if (ib != map.end())
        *ib = a;
    return true;
}

std::vector<std::string> placementOrders()
{
    return {"tp-cp-ep-dp-pp", "tp-cp-ep-pp-dp", "tp-pp-cp-ep-dp",
            "tp-dp-cp-ep-pp", "pp-tp-cp-ep-dp", "dp-tp-cp-ep-pp"};
}

} // namespace weft
