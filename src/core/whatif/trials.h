#pragma once
// What-if trials (issue 19): the distribution of the step time under K random cable failures.
// Trial i fails randomCableFailures(design, K, trialSeed(seed, i)); trials run on `jobs` threads
// (each simulates its own design copy) and can be sharded over machines like the sweep: shard I of
// N runs the trials with i % N == I, and the union of the shards equals one run.

#include "whatif/scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace weft {

struct WhatIfOptions
{
    int failures = 1; ///< K: cables failed per trial
    int trials = 10; ///< T
    int jobs = 1; ///< threads
    std::uint64_t seed = 1;
    int shardIndex = 0;
    int shardCount = 1;
    /// Called after each trial with (finished, total of this shard); may be called from any
    /// thread (serialised). Return false to cancel.
    std::function<bool(int, int)> progress;
};

struct TrialResult
{
    int index = 0;
    Scenario scenario;
    bool ok = false;
    double stepTime = 0; ///< s
    double slowdown = 0; ///< stepTime / healthy step time
    std::string problem; ///< why the trial could not run (an unroutable pair, ...)
};

struct WhatIfResult
{
    bool ok = false; ///< the healthy design simulated
    std::string problem;
    double healthyStepTime = 0; ///< s
    std::vector<TrialResult> trials; ///< this shard's, by index
    bool cancelled = false;
};

/// Statistics over the trials that ran (step times in s).
struct WhatIfStats
{
    int ran = 0;
    int failed = 0; ///< trials that could not be simulated (unroutable...)
    double median = 0, p95 = 0, worst = 0;
    /// Cable (link id) -> mean slowdown of the trials that failed it, worst first (at most 10).
    std::vector<std::pair<std::string, double>> hurtMost;
};

/// The seed of trial `index`: splitmix64 of seed + index, so trials are independent of jobs and
/// shards.
std::uint64_t trialSeed(std::uint64_t seed, int index);

/// Simulates the healthy design, then this shard's trials. Never throws.
WhatIfResult runWhatIf(const Design &design, const WhatIfOptions &options);

/// Median and p95 by the nearest-rank method (p95 = the ceil(0.95 n)-th smallest).
WhatIfStats whatIfStats(const std::vector<TrialResult> &trials);

/// One CSV row per trial: trial, failures (labels joined by ';'), ok (1/0), step_time_s,
/// slowdown, problem (RFC 4180, io/csv.h).
std::string trialsCsv(const std::vector<TrialResult> &trials);

/// Simulates `design` with `scenario` applied: the step time, or `problem`. Never throws.
TrialResult simulateScenario(const Design &design, const Scenario &scenario);

} // namespace weft
