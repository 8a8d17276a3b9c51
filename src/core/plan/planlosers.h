#pragma once
// Well-known layouts that lose (issue 16, Output): the best candidate with one choice that
// practitioners know to be worse, simulated so the plan can say by how much and why:
//   * TP across scale-up domains (TP placed outermost): its all-reduces leave NVLink for the
//     scale-out fabric (Narayanan et al. 2021 sec. 3.3: keep TP inside a server);
//   * no interleaving (1F1B, one virtual stage): the bubble is (p-1)/m of the compute instead of
//     (p-1)/(m v) (Narayanan et al. 2021 sec. 2.2);
//   * full recomputation: every layer's forward runs twice (Korthikanti et al. 2022 sec. 5).
// Only those that apply to the best candidate (TP > 1 that fits a domain, interleaving, not
// already full recomputation) and that run are listed. After them, the design's own layout
// (its workload's configuration and rank order, at the plan's global batch) when it differs
// from the best, runs with the plan's model and GPUs, fits and is not faster (a space pinned
// with --fix may leave it out): how far the user's current choice is from the best, and why
// (PlanLoser::designOwn).

#include "plan/planner.h"
#include "sim/simulator.h"

#include <limits>

namespace weft {

/// The options the planner simulates a candidate with: no per-link statistics or utilization
/// series (a plan keeps the step time, breakdown and memory only; on a 16k-GPU fabric the
/// statistics of ~100,000 links were a third of each simulation). The step is the same.
SimOptions planSimOptions(const std::atomic<bool> *cancel);

/// Simulates `c` with rank order `order` on `scratch` (a copy of the design whose workload it
/// replaces with candidateWorkload(base, c, order)). `error` receives the first error code when
/// the simulation could not run. With `stopAfter` (simulated seconds) the simulation stops
/// once its step is known to last longer (SimOptions::stopAfter; with `least`, the
/// candidate's stepLowerBound(), its operations' least times): the row then has `stopped` set
/// and no result. `stopShared`: a stopAfter that other threads may lower meanwhile
/// (SimOptions::stopAfterShared).
PlanRow simulateCandidate(Design &scratch, const Workload &base, const TrainingConfig &c,
                          const std::string &order, const std::atomic<bool> *cancel,
                          std::string *error = nullptr,
                          double stopAfter = std::numeric_limits<double>::infinity(),
                          const StepBound *least = nullptr,
                          const std::atomic<double> *stopShared = nullptr);

/// The losing layouts of `best` (see above), in that order, then the design's own.
std::vector<PlanLoser> losingLayouts(const Design &design, const PlanSpace &space,
                                     const PlanRow &best, const std::atomic<bool> *cancel);

/// "TP exposed grows from 1.2 ms to 310.5 ms": the breakdown part of `loser` that grew most
/// against `best`.
std::string largestGrowth(const Breakdown &best, const Breakdown &loser);

} // namespace weft
