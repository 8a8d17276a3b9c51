#pragma once
// Plan results as files (`weft-cli plan`, `weft-cli plan-merge`): JSON (format "weft.plan",
// version 1; what a shard writes and the merge reads back exactly: doubles round-trip) and the
// ranked table as CSV. Units are in the key names (_s seconds, _bytes); MFU is a fraction.

#include "io/fileerror.h"
#include "plan/planner.h"

#include <string>
#include <string_view>
#include <variant>

namespace weft {

/// JSON text: design, gpus, global_batch, objective, top, shard, shards, space, weft_version,
/// workload (the base workload as the plan started from it: the design's parallelism and stack,
/// the plan's global batch; plan-merge compares what planWorkloadText() keeps of it), counts
/// (enumerated, infeasible {code: n}, infeasible_total, pruned_by_bound, stopped_past_best
/// (simulations stopped once past the K-th best), simulated, deduplicated, failed, cancelled),
/// closest (the memory shortfall), candidates (ranked, each with rank, index, the knobs tp cp pp ep
/// schedule vpp micro_batch recompute zero_stage, dp, placement, step_time_s, tokens_per_s, mfu,
/// peak_memory_bytes_per_gpu, memory_capacity_bytes_per_gpu, fits, over_headroom
/// (PlanRow::overHeadroom()), lower_bound_s and breakdown {compute_s, tp_exposed_s, ...}),
/// simulated (every simulated candidate that fits, by index, same keys without rank) and losers.
std::string planToJson(const TrainingPlan &r);

/// Parses planToJson() output; `sourceName` names the file in errors (with the JSON Pointer).
std::variant<TrainingPlan, FileError> parsePlanJson(std::string_view text,
                                                    const std::string &sourceName);

/// The ranked candidates: a header line, then one line per candidate (rank, the JSON keys of a
/// candidate with the breakdown flattened). Depends only on `r.ranked`, so a merged plan gives
/// the same bytes as the unsharded one.
std::string planToCsv(const TrainingPlan &r);

} // namespace weft
