#include "plan/planprogressmeter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace weft {

std::string formatDuration(double seconds)
{
    const long long s = std::llround(std::max(0.0, seconds));
    char buf[48];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%lld s", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%lld min %lld s", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lld h %02lld min", s / 3600, (s % 3600) / 60);
    return buf;
}

std::string PlanProgressMeter::update(const PlanProgress &p, double elapsed)
{
    const bool last = p.total > 0 && p.done >= p.total;
    if (m_finished || (!last && elapsed - m_last < m_interval))
        return {};
    m_last = elapsed;
    char buf[256];
    if (p.preparing) { // before the first simulation (PlanProgress::preparing)
        std::snprintf(buf, sizeof buf, "preparing: %s of %lld/%lld %s (%.0f%%); %s elapsed",
                      p.placements ? "lower bounds" : "memory and lower bounds", p.prepared,
                      p.toPrepare, p.placements ? "placements" : "configurations",
                      p.toPrepare > 0 ? 100.0 * double(p.prepared) / double(p.toPrepare) : 100.0,
                      formatDuration(elapsed).c_str());
        return buf;
    }
    m_finished = last;
    std::snprintf(
        buf, sizeof buf,
        "%lld/%lld feasible candidates (%.0f%%): %lld simulated, %lld deduplicated, %lld pruned "
        "by the bound, %lld stopped past the K-th best; %.2f simulated/s; %s elapsed",
        p.done, p.total, p.total > 0 ? 100.0 * double(p.done) / double(p.total) : 100.0,
        p.simulated, p.deduplicated, p.pruned, p.stopped,
        elapsed > 0 ? double(p.simulated) / elapsed : 0.0, formatDuration(elapsed).c_str());
    std::string line = buf;
    // By the simulations that may still run, at the time each took so far (the candidates
    // pruned meanwhile cost next to nothing), once some have run; else by candidates.
    const long long runs = p.simulated + p.stopped;
    if (!last && p.beforeKth) // every candidate may still rank: nothing to go by yet
        line += ", the time left is estimated once the top candidates are ranked";
    else if (!last && p.toSimulate >= 0 && runs > 0)
        line += ", about " + formatDuration(elapsed / double(runs) * double(p.toSimulate))
            + " left (" + std::to_string(p.toSimulate)
            + " candidates can still beat the K-th best)";
    else if (!last && p.done > 0)
        line += ", about " + formatDuration(elapsed / double(p.done) * double(p.total - p.done))
            + " left";
    return line;
}

} // namespace weft
