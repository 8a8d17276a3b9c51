#pragma once
// Progress lines of a running plan for a terminal (`weft-cli plan`, issue 16): at most one per
// interval (10 s by default), with the counts, the rate and an estimate of the time left, and
// always the last one. The caller gives the elapsed time, so it is testable without waiting.

#include "plan/planner.h"

#include <string>

namespace weft {

class PlanProgressMeter
{
public:
    explicit PlanProgressMeter(double intervalSeconds = 10)
        : m_interval(intervalSeconds)
    {
    }

    /// The line for `p` at `elapsed` seconds since the plan started, or empty when the last
    /// line (or the start) is less than the interval ago; the line of the last candidate
    /// (done == total) is always given, once. "312/5,000 candidates (6%): 40 simulated, 12
    /// deduplicated, 250 pruned by the bound, 10 stopped past the K-th best; 0.8 simulated/s;
    /// 50 s elapsed, about 12 min 30 s left" (the time left at the rate so far; none before
    /// anything is done). With PlanProgress::toSimulate known and a simulation done, the time
    /// left is that many simulations at the time each has taken so far, "about 2 min 10 s left
    /// (130 candidates can still beat the K-th best)": the bound prunes the rest. Before the
    /// top K are ranked (PlanProgress::beforeKth) it gives no time left: every candidate may
    /// still be simulated then, and the first plan of a 16k-GPU design said "about 50 h" for a
    /// 12 s plan. While the plan prepares (PlanProgress::preparing): "preparing: memory and lower
    /// bounds of 120000/780000 configurations (15%); 10 s elapsed", then "preparing: lower bounds
    /// of 1000/4000 placements (25%); 30 s elapsed".
    std::string update(const PlanProgress &p, double elapsed);

private:
    double m_interval;
    double m_last = 0;
    bool m_finished = false;
};

/// "45 s", "12 min 30 s", "2 h 05 min".
std::string formatDuration(double seconds);

} // namespace weft
