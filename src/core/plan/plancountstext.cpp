#include "plan/plancountstext.h"

#include <algorithm>

namespace weft {

std::string ordinal(int n)
{
    const int lastTwo = n % 100, last = n % 10;
    const char *suffix = "th";
    if (lastTwo < 11 || lastTwo > 13) {
        if (last == 1)
            suffix = "st";
        else if (last == 2)
            suffix = "nd";
        else if (last == 3)
            suffix = "rd";
    }
    return std::to_string(n) + suffix;
}

std::string describePlanCounts(const PlanCounts &c, int top)
{
    std::string reasons;
    for (const auto &[code, n] : c.infeasible)
        reasons += (reasons.empty() ? "" : ", ") + std::to_string(n) + ' ' + code;
    std::string s = std::to_string(c.enumerated)
        + " candidates: " + std::to_string(c.infeasibleTotal()) + " infeasible"
        + (reasons.empty() ? std::string() : " (" + reasons + ')') + ", "
        + std::to_string(c.prunedByBound) + " pruned by the lower bound, "
        + std::to_string(c.simulated) + " simulated";
    if (c.stoppedPastBest > 0)
        s += ", " + std::to_string(c.stoppedPastBest) + " stopped in simulation once past the "
            + ordinal(std::max(1, top)) + " best";
    if (c.deduplicated > 0)
        s += ", " + std::to_string(c.deduplicated) + " deduplicated (twins of a simulated one)";
    if (c.failed > 0)
        s += ", " + std::to_string(c.failed) + " failed in simulation";
    if (c.cancelled > 0)
        s += ", " + std::to_string(c.cancelled) + " not run (cancelled)";
    return s;
}

} // namespace weft
