#pragma once
// Twin candidates of the planner (issue 16): configurations whose simulation is identical
// because they differ only in a knob that the simulator's timing does not see for them. The
// planner simulates one of each set of twins and copies its step time and breakdown to the
// others, each keeping its own memory figures (from the exact memory model that screened it).
//
// What the simulator sees of the ZeRO stage (simplan.cpp): whether gradients and optimizer
// states are sharded (stage >= 1) and whether parameters are gathered per operation (stage 3).
// So, for one layout and placement:
//   * ZeRO-1 and ZeRO-2 simulate alike (ZeRO-2 shards the gradients too: memory only);
//   * with one rank per DP x CP group and no expert-DP (nothing to shard over), ZeRO-0, 1 and 2
//     simulate alike and need the same memory.

#include "workload/workload.h"

#include <string>

namespace weft {

/// The configuration whose simulation stands for `c`'s: `c` with the ZeRO stage of its twin
/// class (2 -> 1; 0, 1, 2 -> 0 when DP x CP is 1 and expert-DP at most 1).
TrainingConfig simulationTwin(const TrainingConfig &c);

/// A key equal for candidates (configuration and rank order) whose simulations are identical
/// within one plan (the other settings come from the plan's base workload).
std::string simulationKey(const TrainingConfig &c, const std::string &order);

} // namespace weft
