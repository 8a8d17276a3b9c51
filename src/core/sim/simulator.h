#pragma once
// The simulator facade (simulator.md): one call turns a design with a workload into a SimResult.
// Thread-compatible: the GUI runs it on a worker thread with a progress callback and a cancel
// flag; the design must not change meanwhile.

#include "model/design.h"
#include "sim/comm.h"
#include "sim/leasttimes.h"
#include "sim/network.h"
#include "sim/result.h"

#include <atomic>
#include <functional>
#include <limits>

namespace weft {

/// Options of one simulation.
struct SimOptions
{
    NetworkOptions network;
    /// Simulate identically placed DP replicas once. Exact when no pipeline traffic (TP, CP, EP,
    /// PP) of a replica leaves its leaf switch, or when no scale-out switch is oversubscribed
    /// (replicas then share no link that can saturate). When only the PP sends cross the leaves
    /// of an oversubscribed fabric (by design, or after a lost cable), replicas are still merged
    /// and each send gets its lockstep share of the links all replicas' sends over-demand
    /// (lockstepshare.h); a finding ("replicas-merged", "replica-sends-share-links") says so.
    /// When TP, CP or EP groups cross such a fabric, every replica is simulated
    /// ("replicas-simulated-separately" names the oversubscribed switches).
    bool exploitSymmetry = true;
    std::uint64_t maxEvents = 50'000'000; ///< bound of the schedule's event loop
    /// Simulated seconds after which the step is not worth finishing: the simulation stops as
    /// soon as the step is known to last longer, at its first event past it or when a stage's
    /// remaining compute and the optimizer would end past it (SimResult::stopped). The planner
    /// passes its K-th best step time. +infinity: never.
    double stopAfter = std::numeric_limits<double>::infinity();
    /// A limit like stopAfter that the caller may lower while the simulation runs (the
    /// planner's K-th best as its other threads improve it), read at every event: the
    /// simulation stops past the lower of the two. Null: none.
    const std::atomic<double> *stopAfterShared = nullptr;
    /// With stopAfter: what the caller knows of the step's least times (leasttimes.h).
    LeastTimes least;
    /// Fraction of the simulation done, in [0, 1], never decreasing: called after every event of
    /// the schedule (pipeline operations and DP/ZeRO requests finished over those known so far,
    /// scaled to 0.95) and with 1 once the link statistics are in. Return false to cancel.
    std::function<bool(double)> progress;
    const std::atomic<bool> *cancel = nullptr; ///< set to true to cancel
};

/// Simulates one training step of `design.workload` on `design`'s fabric with the flow-level
/// network (routing, max-min sharing, collective algorithms). Never throws: problems become
/// coded findings in SimResult::warnings (`ok` false when no step could be simulated).
SimResult simulate(const Design &design, const SimOptions &options = {});

/// The findings simulate() reports before it runs the step: workload validation, placement,
/// memory per stage against HBM, a TP group spanning scale-up domains, unbalanced stages. No
/// event loop, so it is cheap enough to run after every edit of a large design (the GUI's live
/// findings). Empty when the design has no workload. Never throws.
std::vector<Finding> preflight(const Design &design);

/// Same with a caller-supplied communication backend (tests, analytic estimates); no per-link
/// statistics are produced.
SimResult simulate(const Design &design, const SimOptions &options, CommBackend &backend);

} // namespace weft
