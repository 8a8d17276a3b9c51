#pragma once
// What makes two plan results parts of one plan (issue 16, `weft-cli plan-merge`): the Weft
// version that made them (the simulator changes between versions), the design, GPUs, global
// batch, objective, top K, the searched values of every knob (--fix) and the base workload the
// candidates share (the model and the settings that are not knobs, such as sequence
// parallelism or the datatype). Shards that differ in any of them must not be merged.

#include <string>

namespace weft {

struct TrainingPlan;
struct Workload;

/// The base workload of a plan as the candidates see it: its JSON (io/workloadjson.h) with the
/// knobs, DP and placement left out (every candidate sets them), compact.
std::string planWorkloadText(const Workload &base);

/// The first setting in which `a` and `b` differ as plans, in words with both values and the
/// plans' names ("global batch 1024 in A, 2048 in B", "searched values of knob tp (--fix) 8 in
/// A, 1,2,4,8 in B", "workload setting /model/layers 80 in A, 126 in B", "Weft version ..."),
/// or empty when they are shards of one plan. The shard index is not compared (the count is).
std::string planDifference(const TrainingPlan &a, const TrainingPlan &b,
                           const std::string &aName = "the first",
                           const std::string &bName = "the second");

} // namespace weft
