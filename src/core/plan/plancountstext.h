#pragma once
// The sentence that says what a plan did with its candidates, the same in weft-cli plan and in
// the app's Plan dialog (issue 16: "how many were enumerated, infeasible (by reason), pruned by
// bound, and simulated").

#include "plan/planner.h"

#include <string>

namespace weft {

/// "1st", "2nd", "3rd", "4th", "11th", "21st", ... (n >= 1).
std::string ordinal(int n);

/// "240 candidates: 141 infeasible (12 gpus-not-divisible, 129 layers-below-stages), 59 pruned
/// by the lower bound, 7 simulated, 33 stopped in simulation once past the 5th best, 2
/// deduplicated (twins of a simulated one), 1 failed in simulation, 3 not run (cancelled)":
/// the parts after "simulated" only when non-zero; `top` is the plan's K.
std::string describePlanCounts(const PlanCounts &c, int top);

} // namespace weft
