#pragma once
// The planner (`weft-cli plan`, Simulation > Plan..., issue 16): finds the fastest parallel
// configuration and placement of a design's model on its fabric. Candidates of the PlanSpace
// are screened by the workload's checks (divisibility, world size) and the exact memory model
// (the simulator's stageMemories()), ordered by the admissible lower bound (planbound.h), and
// simulated in full on several threads until the bound of the next one exceeds the K-th best
// step time simulated so far: nothing skipped could have entered the top K, so the ranking is
// the exhaustive one. Shards (candidate index % N == I) rank their own candidates the same way,
// and merging the shards' top K gives the whole space's top K.

#include "plan/planbound.h"
#include "plan/planspace.h"
#include "sim/result.h"

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace weft {

class Design;

enum class PlanObjective { StepTime, TokensPerSecond };
/// "step-time", "tokens-per-s".
const char *toString(PlanObjective o);
bool fromString(const std::string &s, PlanObjective &out);

/// One simulated candidate.
struct PlanRow
{
    long long index = 0; ///< enumeration index (PlanCandidate::index)
    TrainingConfig config;
    std::string order; ///< rank order of the placement
    double lowerBound = 0; ///< seconds (stepLowerBound)
    double stepTime = 0; ///< seconds
    double tokensPerSecond = 0;
    double mfu = 0; ///< fraction
    double peakMemoryPerGpu = 0; ///< bytes
    double memoryCapacityPerGpu = 0; ///< bytes
    bool fits = false;
    /// The simulation stopped once its step passed the K-th best already found (runPlan), so
    /// it cannot rank: no other field but the configuration holds a result.
    bool stopped = false;
    Breakdown breakdown; ///< seconds
    /// Peak memory above (1 - kMemoryHeadroom) of the capacity: what `simulate` warns about
    /// (memory-headroom, sim/memoryheadroom.h). Ranked all the same, and flagged.
    [[nodiscard]] bool overHeadroom() const;
};

/// How many candidates went where. Every enumerated candidate is counted once: infeasible
/// (by the first error code: "memory-over-capacity", "gpus-not-divisible", or a validate()
/// code such as "tp-heads"), pruned by the bound, simulated, deduplicated (the twin of a
/// simulated candidate, plantwins.h: its result copied), stopped in simulation once its step
/// passed the K-th best already simulated (with its twins), failed in simulation or left when
/// cancelled.
struct PlanCounts
{
    long long enumerated = 0;
    std::map<std::string, long long> infeasible;
    long long prunedByBound = 0;
    long long stoppedPastBest = 0;
    long long simulated = 0;
    long long deduplicated = 0;
    long long failed = 0;
    long long cancelled = 0;
    [[nodiscard]] long long infeasibleTotal() const;
    bool operator==(const PlanCounts &) const = default;
};

/// The candidate closest to fitting when memory ruled some out: the most any of its stages
/// needs per GPU against the HBM capacity.
struct MemoryShortfall
{
    TrainingConfig config;
    double neededBytes = 0;
    double capacityBytes = 0;
};

/// A well-known layout that loses to the best one, simulated for comparison.
struct PlanLoser
{
    std::string title; ///< "TP across scale-up domains"
    PlanRow row;
    double slowdown = 0; ///< step time / the best's - 1
    std::string why; ///< the breakdown part that grew most, in words
    /// The design's own parallel layout and placement (the one it would train with now), not
    /// a well-known loser: the plan says how far it is from the best.
    bool designOwn = false;
};

struct TrainingPlan
{
    std::string design;
    long long gpus = 0;
    int globalBatch = 0;
    PlanObjective objective = PlanObjective::StepTime;
    int top = 10;
    int shard = 0, shards = 1;
    std::string space; ///< the searched values per knob, "tp=1,2,4,8;pp=..." (merge check)
    std::string weftVersion; ///< WEFT_VERSION of the Weft that ran it (merge check)
    std::string workload; ///< planWorkloadText() of the base workload (merge check)
    /// The base workload as the plan started from it (the design's, or as the command line
    /// changed it, at the plan's global batch), JSON: what plan.json's "workload" shows.
    std::string baseWorkload;
    std::vector<PlanRow> ranked; ///< best first, at most `top`
    std::vector<PlanRow> simulated; ///< every simulated candidate that fits, by index
    PlanCounts counts;
    std::optional<MemoryShortfall> closest;
    std::vector<PlanLoser> losers; ///< only for an unsharded plan
    bool cancelled = false;
    bool outOfTime = false; ///< stopped by PlanOptions::timeBudget
};

/// Progress of a running plan: `done` of `total` candidates that passed screening have been
/// simulated, deduplicated, pruned by the bound or stopped in simulation once past the K-th
/// best.
struct PlanProgress
{
    long long done = 0, total = 0, simulated = 0, pruned = 0, deduplicated = 0, stopped = 0;
    /// Simulations still to start whose candidate's bound is below the K-th best so far (all
    /// of them before K are ranked): what the plan may still have to simulate; the rest will
    /// be pruned. -1 when not known (the time left then goes by candidates).
    long long toSimulate = -1;
    /// Fewer than K candidates ranked yet (with the bound): any candidate may still rank, so
    /// toSimulate is every one left and says nothing of the time left.
    bool beforeKth = false;
    /// Before the first simulation: the candidates' memory and lower bounds being computed
    /// (a minute for Qwen3-235B on 288 GB200: 3.1 million configurations, then the bounds of
    /// 371,000 placements), `prepared` of `toPrepare` configurations (or, with `placements`,
    /// placements) so far; false once candidates are simulated.
    bool preparing = false, placements = false;
    long long prepared = 0, toPrepare = 0;
};

struct PlanOptions
{
    int jobs = 1; ///< threads (>= 1)
    int top = 10; ///< K (>= 1)
    PlanObjective objective = PlanObjective::StepTime;
    int shard = 0, shards = 1;
    bool useBound = true; ///< false: simulate every feasible candidate (exhaustive)
    /// Simulate one of each set of twin candidates (plantwins.h) and copy its result to the
    /// others (on designs with one accelerator kind, where the memory model is exact).
    bool deduplicate = true;
    /// Leave out, as infeasible "memory-headroom", candidates whose memory is above what
    /// `simulate` warns about (PlanRow::overHeadroom()); false: rank them, flagged.
    bool keepHeadroom = false;
    bool losers = true; ///< simulate the well-known losing layouts of the best (unsharded only)
    /// Called (serialised, from worker threads) after each candidate simulated or pruned.
    std::function<void(const PlanProgress &)> progress;
    /// Called (serialised, from worker threads) with each simulated candidate that fits.
    std::function<void(const PlanRow &)> row;
    const std::atomic<bool> *cancel = nullptr; ///< set to stop; the result says `cancelled`
    /// Wall-clock budget in seconds (0: none): candidates not started by then are left as when
    /// cancelled, and the result says `cancelled` and `outOfTime` (bench_plan's
    /// BENCH_PLAN_SECONDS).
    double timeBudget = 0;
};

/// Runs the plan of `space` on `design` (whose workload the candidates replace). Throws
/// std::invalid_argument for bad options (jobs, top, shard) or a design without accelerator
/// specs; never for a candidate (it is counted).
TrainingPlan runPlan(const Design &design, const PlanSpace &space, const PlanOptions &options);

/// Whether `a` ranks before `b` under `objective`; ties (twins: ZeRO-1 and ZeRO-2 of one layout,
/// placements the fabric makes equal) go to the lower peak memory per GPU, then the lower
/// index.
bool ranksBefore(const PlanRow &a, const PlanRow &b, PlanObjective objective);

/// Combines shard results of one plan into the whole plan's (shard 0 of 1): the top K of the
/// shards' rows, counts summed. Throws std::invalid_argument when they belong to different
/// plans (planDifference(): Weft version, design, GPUs, batch, objective, top, shard count,
/// searched knob values, base workload; naming the shard, by `names[i]` when given, and the
/// setting with both values), a shard is given twice or one is missing (naming it).
TrainingPlan mergePlans(const std::vector<TrainingPlan> &shards,
                        const std::vector<std::string> &names = {});

/// The workload of a candidate: `base` with the row's knobs, DP and rank order (explicit map
/// and stage split cleared).
Workload candidateWorkload(const Workload &base, const TrainingConfig &config,
                           const std::string &order);

/// One sentence on why nothing can run, or empty when something ran: for a space where memory
/// ruled out every candidate that passes the workload checks, the closest one and its
/// shortfall ("every candidate that passes the workload checks needs more memory than the 80.0
/// GB of HBM per GPU: the closest, TP 8 · PP 16 ..., needs 91.2 GB per GPU, 11.2 GB more"),
/// then the counts by reason.
std::string infeasibleExplanation(const TrainingPlan &r);

/// Human name of a breakdown part: "compute", "TP exposed", ..., "pipeline bubble".
std::vector<std::pair<std::string, double>> breakdownParts(const Breakdown &b);

} // namespace weft
