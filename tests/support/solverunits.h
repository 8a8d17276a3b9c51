#pragma once
// Shared helpers of the flow-solver tests: a unit's entries on a list of link directions with
// one weight, one solve() whose outputs are not needed, and random instances (a few link
// directions and recurring unit shapes) played on two solvers side by side.

#include "seededdraws.h"
#include "sim/flowsolver.h"

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <utility>
#include <vector>

namespace weft::test {

inline std::vector<RouteEntry> on(std::initializer_list<LinkDir> lds, double f = 1.0)
{
    std::vector<RouteEntry> v;
    for (LinkDir ld : lds)
        v.push_back({ld, f});
    return v;
}

inline void solve(MaxMinSolver &s)
{
    std::vector<MaxMinSolver::UnitId> units;
    std::vector<LinkDir> links;
    s.solve(units, links);
}

/// Link capacities and a few unit shapes (entries, rate cap), each named by a key.
struct RandomInstance
{
    std::vector<double> cap;
    std::vector<std::pair<std::vector<RouteEntry>, double>> shapes;
};

/// `links` directions of capacity 1-20 (a third of them 10x), `shapes` shapes over a third of
/// them each with weights 0.25-1, a quarter of them with a rate cap.
inline RandomInstance drawInstance(SeededDraws &next, LinkDir links, int shapes)
{
    RandomInstance r;
    for (LinkDir i = 0; i < links; ++i)
        r.cap.push_back(1 + next(20) * (next(3) == 0 ? 10 : 1));
    for (int k = 0; k < shapes; ++k) {
        std::vector<RouteEntry> e;
        for (LinkDir ld = 0; ld < links; ++ld)
            if (next(3) == 0)
                e.push_back({ld, 0.25 * (1 + next(4))});
        if (e.empty())
            e.push_back({static_cast<LinkDir>(next(static_cast<int>(links))), 1.0});
        r.shapes.emplace_back(
            e, next(4) == 0 ? 0.5 + next(8) : std::numeric_limits<double>::infinity());
    }
    return r;
}

/// The same random steps on two solvers of one instance: their live units side by side.
struct TwinSteps
{
    std::vector<std::pair<MaxMinSolver::UnitId, MaxMinSolver::UnitId>> live;
    std::uint32_t group = 0;

    /// Removes a live unit (2 in 5) or adds one of a random shape, keyed by it, as an aggregate
    /// of a new group or plain; true when a solve should follow (1 in 2: units also come and
    /// go between solves).
    bool step(SeededDraws &next, const RandomInstance &r, MaxMinSolver &a, MaxMinSolver &b)
    {
        if (!live.empty() && next(5) < 2) {
            const auto k = static_cast<std::size_t>(next(static_cast<int>(live.size())));
            a.remove(live[k].first);
            b.remove(live[k].second);
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        } else {
            const int shape = next(static_cast<int>(r.shapes.size()));
            const auto &[e, rateCap] = r.shapes[static_cast<std::size_t>(shape)];
            const int kind = next(3); // keyed, aggregate, plain
            const std::uint64_t key = kind == 2 ? 0 : std::uint64_t(shape + 1);
            const std::uint32_t g = kind == 1 ? ++group : 0;
            const std::uint64_t k = key | (g ? 1ull << 63 : 0);
            live.emplace_back(a.add(e, rateCap, k, g), b.add(e, rateCap, k, g));
        }
        return next(2) != 0;
    }
};

} // namespace weft::test
