#include "sim/lockstepshare.h"

#include <algorithm>

namespace weft {

LockstepShares lockstepShares(const Router &router, std::span<const PipelineHop> hops)
{
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr int kNoUnit = -1;
    constexpr int kManyUnits = -2;
    const std::size_t dirs = router.linkCount() * 2;
    std::vector<double> demand(dirs, 0.0);
    std::vector<int> owner(dirs, kNoUnit); // the one unit using a direction, or kManyUnits
    std::vector<double> bound(hops.size(), kInf);
    Route r; // reused: a pass over every replica's sends would only evict the router's cache
    // First pass: every hop's rate alone and the demand of all of them.
    for (std::size_t h = 0; h < hops.size(); ++h) {
        if (hops[h].src == hops[h].dst)
            continue;
        router.routeUncached(hops[h].src, hops[h].dst, r);
        for (const RouteEntry &e : r.entries)
            bound[h] = std::min(bound[h], router.capacity(e.linkDir) / e.fraction);
        for (const RouteEntry &e : r.entries) {
            demand[e.linkDir] += e.fraction * bound[h];
            int &o = owner[e.linkDir];
            o = o == kNoUnit || o == hops[h].unit ? hops[h].unit : kManyUnits;
        }
    }
    LockstepShares out;
    std::vector<double> share(dirs, 1.0);
    for (LinkDir ld = 0; ld < dirs; ++ld) {
        const double cap = router.capacity(ld);
        // the solver's own test of a link that can saturate (MaxMinSolver::critical)
        if (owner[ld] == kManyUnits && demand[ld] > cap * (1 + 1e-9)) {
            share[ld] = cap / demand[ld];
            out.overDemanded.push_back(ld);
            out.excess.push_back(demand[ld] / cap);
        }
    }
    // Second pass: each hop at its share of the most over-demanded link it crosses.
    out.cap.assign(hops.size(), kInf);
    if (out.overDemanded.empty())
        return out;
    for (std::size_t h = 0; h < hops.size(); ++h) {
        if (hops[h].src == hops[h].dst)
            continue;
        double s = 1.0;
        router.routeUncached(hops[h].src, hops[h].dst, r);
        for (const RouteEntry &e : r.entries)
            s = std::min(s, share[e.linkDir]);
        if (s < 1.0)
            out.cap[h] = bound[h] * s;
    }
    return out;
}

} // namespace weft
