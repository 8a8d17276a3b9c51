#include "plan/planner.h"

#include "io/workloadjson.h"
#include "model/design.h"
#include "plan/planidentity.h"
#include "plan/planlosers.h"
#include "plan/plantwins.h"
#include "sim/memoryheadroom.h"
#include "sim/schedule.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace weft {

const char *toString(PlanObjective o)
{
    return o == PlanObjective::StepTime ? "step-time" : "tokens-per-s";
}

bool fromString(const std::string &s, PlanObjective &out)
{
    if (s == "step-time")
        out = PlanObjective::StepTime;
    else if (s == "tokens-per-s")
        out = PlanObjective::TokensPerSecond;
    else
        return false;
    return true;
}

long long PlanCounts::infeasibleTotal() const
{
    long long n = 0;
    for (const auto &[code, count] : infeasible)
        n += count;
    return n;
}

bool PlanRow::overHeadroom() const
{
    return memoryCapacityPerGpu > 0
        && peakMemoryPerGpu > (1 - kMemoryHeadroom) * memoryCapacityPerGpu;
}

bool ranksBefore(const PlanRow &a, const PlanRow &b, PlanObjective objective)
{
    if (objective == PlanObjective::TokensPerSecond) {
        if (a.tokensPerSecond != b.tokensPerSecond)
            return a.tokensPerSecond > b.tokensPerSecond;
    } else if (a.stepTime != b.stepTime) {
        return a.stepTime < b.stepTime;
    }
    if (a.peakMemoryPerGpu != b.peakMemoryPerGpu) // as fast, more room to spare
        return a.peakMemoryPerGpu < b.peakMemoryPerGpu;
    return a.index < b.index;
}

Workload candidateWorkload(const Workload &base, const TrainingConfig &config,
                           const std::string &order)
{
    Workload w = base;
    w.config = config;
    w.config.stageLayers.clear();
    w.placement.order = order;
    w.placement.explicitMap.clear();
    return w;
}

std::vector<std::pair<std::string, double>> breakdownParts(const Breakdown &b)
{
    return {{"compute", b.compute},      {"TP exposed", b.tpExposed}, {"CP exposed", b.cpExposed},
            {"EP exposed", b.epExposed}, {"PP exposed", b.ppExposed}, {"pipeline bubble", b.bubble},
            {"DP exposed", b.dpExposed}, {"optimizer", b.optimizer}};
}

namespace {

std::string spaceText(const PlanSpace &space)
{
    std::string s = "gpus=" + std::to_string(space.gpus);
    const auto &knobs = planKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i) {
        s += ";" + knobs[i].name + "=";
        for (std::size_t j = 0; j < space.values[i].size(); ++j)
            s += (j ? "," : "") + knobs[i].format(space.values[i][j]);
    }
    return s;
}

struct Screened
{
    TrainingConfig config;
    long long firstIndex = 0;
    std::vector<std::string> orders;
    std::string reason; ///< empty: feasible
    double needed = 0, capacity = 0; ///< memory, when reason is memory-over-capacity
    double bound = 0;
};

struct Pending
{
    long long index = 0;
    std::size_t config = 0; ///< into the screened list
    std::size_t layout = 0; ///< into the placement groups
    std::string order;
    double bound = 0;
};

// Layouts the training stack refuses that validate() only warns about (the simulator runs
// what it is given; the planner proposes what Megatron-Core runs): the EP all-to-all overlap
// with PP > 1 without virtual stages and with full recomputation (TransformerConfig
// __post_init__ with overlap_moe_expert_parallel_comm).
bool refusedByTheStack(const Finding &f)
{
    return f.code == "ep-overlap-needs-interleaving" || f.code == "ep-overlap-full-recompute";
}

// Validity and exact memory of one configuration (placement-independent), on a design with
// `accelerators` accelerators (Design::acceleratorCount(), counted once per plan: it walks
// every node).
void screen(std::size_t accelerators, const PlanSpace &space, const PlanHardware &hw, bool headroom,
            Screened &s)
{
    const TransformerSpec &m = space.base.model;
    const std::vector<Finding> f = validate(m, s.config, accelerators);
    for (const Finding &x : f)
        if (x.severity == Severity::Error || refusedByTheStack(x)) {
            s.reason = x.code;
            return;
        }
    for (const MemoryBreakdown &mem : stageMemories(m, s.config, hw.slowest))
        if (mem.total() > s.needed) {
            s.needed = mem.total();
            s.capacity = mem.capacity;
        }
    if (s.needed > s.capacity) {
        s.reason = "memory-over-capacity";
        return;
    }
    if (headroom && s.needed > (1 - kMemoryHeadroom) * s.capacity) {
        s.reason = kMemoryHeadroomCode;
        return;
    }
    s.bound = stepLowerBound(m, s.config, hw).total();
}

template<typename Fn> void parallelFor(std::size_t n, int jobs, const Fn &fn)
{
    std::atomic<std::size_t> next {0};
    auto worker = [&] {
        for (std::size_t i = next++; i < n; i = next++)
            fn(i);
    };
    const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(n)));
    std::vector<std::thread> pool;
    for (int j = 1; j < threads; ++j)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();
}

// parallelFor in slices, reporting `prepared` of `total` after each (PlanProgress::preparing):
// the preparation of a large plan took a minute without a line.
template<typename Fn>
void parallelForReporting(std::size_t n, int jobs, const PlanOptions &options, bool placements,
                          const Fn &fn)
{
    constexpr std::size_t kSlice = 4096;
    for (std::size_t from = 0; from < n; from += kSlice) {
        const std::size_t count = std::min(kSlice, n - from);
        parallelFor(count, jobs, [&](std::size_t i) { fn(from + i); });
        if (options.progress) {
            PlanProgress p;
            p.preparing = true;
            p.placements = placements;
            p.prepared = static_cast<long long>(from + count);
            p.toPrepare = static_cast<long long>(n);
            options.progress(p);
        }
    }
}

} // namespace

SimOptions planSimOptions(const std::atomic<bool> *cancel)
{
    SimOptions o;
    o.cancel = cancel;
    o.network.recordStats = false;
    o.network.seriesBuckets = 0;
    return o;
}

PlanRow simulateCandidate(Design &scratch, const Workload &base, const TrainingConfig &c,
                          const std::string &order, const std::atomic<bool> *cancel,
                          std::string *error, double stopAfter, const StepBound *least,
                          const std::atomic<double> *stopShared)
{
    scratch.workload = candidateWorkload(base, c, order);
    SimOptions options = planSimOptions(cancel);
    options.stopAfter = stopAfter;
    options.stopAfterShared = stopShared;
    if (least)
        options.least = {least->forward, least->backward, least->hops, least->gradient,
                         least->parameterGather};
    const SimResult r = simulate(scratch, options);
    PlanRow row;
    row.config = scratch.workload->config;
    row.order = order;
    if (r.stopped) {
        row.stopped = true;
        return row;
    }
    row.stepTime = r.stepTime;
    row.tokensPerSecond = r.tokensPerSecond;
    row.mfu = r.mfu;
    row.peakMemoryPerGpu = r.peakMemoryPerGpu;
    row.memoryCapacityPerGpu = r.memoryCapacityPerGpu;
    row.fits = r.ok && r.memoryFits;
    row.breakdown = r.breakdown;
    if (error && !r.ok)
        for (const Finding &f : r.warnings)
            if (f.severity == Severity::Error) {
                *error = f.code;
                break;
            }
    return row;
}

TrainingPlan runPlan(const Design &design, const PlanSpace &space, const PlanOptions &options)
{
    if (options.jobs < 1)
        throw std::invalid_argument("jobs must be at least 1 (got " + std::to_string(options.jobs)
                                    + ")");
    if (options.top < 1)
        throw std::invalid_argument("top must be at least 1 (got " + std::to_string(options.top)
                                    + ")");
    if (options.shards < 1 || options.shard < 0 || options.shard >= options.shards)
        throw std::invalid_argument("shard " + std::to_string(options.shard) + "/"
                                    + std::to_string(options.shards)
                                    + " is out of range (I/N needs 0 <= I < N)");
    const PlanHardware hw = planHardware(design, space.gpus);
    if (!hw.valid)
        throw std::invalid_argument("the design has no accelerator with a known spec");
    TrainingPlan res;
    res.design = design.name;
    res.gpus = space.gpus;
    res.globalBatch = space.base.config.globalBatch;
    res.objective = options.objective;
    res.top = options.top;
    res.shard = options.shard;
    res.shards = options.shards;
    res.space = spaceText(space) + (options.keepHeadroom ? ";headroom=leave-out" : "");
    res.weftVersion = WEFT_VERSION;
    res.workload = planWorkloadText(space.base);
    {
        Workload shown = space.base;
        shown.config.globalBatch = res.globalBatch;
        res.baseWorkload = toJson(shown).dump();
    }

    // Enumerate; a configuration's placements get consecutive indices.
    std::vector<Screened> configs;
    long long index = 0;
    const auto mine = [&](long long i) { return i % options.shards == options.shard; };
    forEachConfig(space, [&](const TrainingConfig &c, bool integral) {
        Screened s;
        s.config = c;
        s.firstIndex = index;
        if (integral)
            s.orders = placementOrders(c, space.domainSize);
        else
            s.reason = "gpus-not-divisible";
        index += std::max<long long>(1, static_cast<long long>(s.orders.size()));
        bool any = false;
        for (long long i = s.firstIndex; i < index; ++i)
            any = any || mine(i);
        if (any)
            configs.push_back(std::move(s));
    });
    const std::size_t accelerators = design.acceleratorCount();
    parallelForReporting(configs.size(), options.jobs, options, false, [&](std::size_t i) {
        if (configs[i].reason.empty())
            screen(accelerators, space, hw, options.keepHeadroom, configs[i]);
    });

    // The placement's part of the bound, per parallel layout and order (the other knobs do not
    // change which groups cross domains, only the bytes).
    std::vector<Pending> pending;
    for (std::size_t k = 0; k < configs.size(); ++k) {
        const Screened &s = configs[k];
        const std::size_t n = std::max<std::size_t>(1, s.orders.size());
        for (std::size_t j = 0; j < n; ++j) {
            const long long i = s.firstIndex + static_cast<long long>(j);
            if (!mine(i))
                continue;
            ++res.counts.enumerated;
            if (!s.reason.empty()) {
                ++res.counts.infeasible[s.reason];
                continue;
            }
            pending.push_back({i, k, 0, s.orders[j], s.bound});
        }
        if (s.reason == "memory-over-capacity"
            && (!res.closest
                || s.needed - s.capacity < res.closest->neededBytes - res.closest->capacityBytes))
            res.closest = MemoryShortfall {s.config, s.needed, s.capacity};
    }
    std::map<std::string, std::size_t> layoutIndex;
    std::vector<std::size_t> layoutOf(pending.size());
    std::vector<const Pending *> layouts;
    for (std::size_t i = 0; i < pending.size(); ++i) {
        const TrainingConfig &c = configs[pending[i].config].config;
        const std::string key = std::to_string(c.tp) + "/" + std::to_string(c.cp) + "/"
            + std::to_string(c.dp) + "/" + std::to_string(c.pp) + "/" + std::to_string(c.ep) + "/"
            + std::to_string(c.expertTp()) + "/" + pending[i].order;
        const auto [it, fresh] = layoutIndex.emplace(key, layouts.size());
        if (fresh)
            layouts.push_back(&pending[i]);
        layoutOf[i] = it->second;
        pending[i].layout = it->second;
    }
    std::vector<PlacementGroups> groups(layouts.size());
    parallelFor(layouts.size(), options.jobs, [&](std::size_t i) {
        groups[i] = placementGroups(space.base.model, configs[layouts[i]->config].config,
                                    layouts[i]->order, hw);
    });
    // Each candidate's own bound: the configuration's with this placement's domain crossings
    // per operation, and the step's scale-out imports.
    parallelForReporting(pending.size(), options.jobs, options, true, [&](std::size_t i) {
        pending[i].bound
            = std::max(pending[i].bound,
                       candidateLowerBound(space.base.model, configs[pending[i].config].config,
                                           groups[layoutOf[i]], hw));
    });
    std::sort(pending.begin(), pending.end(), [](const Pending &a, const Pending &b) {
        return a.bound != b.bound ? a.bound < b.bound : a.index < b.index;
    });

    // Twins (plantwins.h) ride on one simulation: a job is a candidate to simulate and the
    // twins that take its result. Twins share their bound; a job keeps the least.
    struct Job
    {
        Pending first;
        std::vector<Pending> twins;
    };
    std::vector<Job> jobs;
    {
        std::map<std::string, std::size_t> jobOf;
        const bool dedupe = options.deduplicate && hw.uniform;
        for (const Pending &p : pending) {
            if (dedupe) {
                const auto [it, fresh]
                    = jobOf.emplace(simulationKey(configs[p.config].config, p.order), jobs.size());
                if (!fresh) {
                    jobs[it->second].twins.push_back(p);
                    continue;
                }
            }
            jobs.push_back({p, {}});
        }
    }

    // Branch and bound: simulate in bound order; skip a candidate whose bound exceeds the K-th
    // best step time (its own step time can only be higher).
    std::mutex mutex;
    std::vector<PlanRow> best; // sorted by step time, at most top
    // The K-th best as it falls, for the simulations running meanwhile to stop past.
    std::atomic<double> kthShared {std::numeric_limits<double>::infinity()};
    PlanProgress progress;
    progress.total = static_cast<long long>(pending.size());
    std::atomic<std::size_t> next {0};
    // The jobs' bounds, ascending (jobs follow the pending candidates' bound order): those
    // from `next` on below the K-th best are what may still be simulated (PlanProgress).
    std::vector<double> jobBounds;
    for (const Job &j : jobs)
        jobBounds.push_back(j.first.bound);
    const auto toSimulate = [&] {
        const std::size_t from = std::min(next.load(), jobBounds.size());
        const double kth = kthShared.load(std::memory_order_relaxed);
        const auto end = options.useBound
            ? std::upper_bound(jobBounds.begin() + static_cast<std::ptrdiff_t>(from),
                               jobBounds.end(), kth)
            : jobBounds.end();
        return static_cast<long long>(end
                                      - (jobBounds.begin() + static_cast<std::ptrdiff_t>(from)));
    };
    // Progress after `done` more candidates (under the lock): what may still be simulated and
    // whether the K-th best exists yet (PlanProgress).
    const auto report = [&](long long done) {
        progress.done += done;
        progress.toSimulate = toSimulate();
        progress.beforeKth
            = options.useBound && std::isinf(kthShared.load(std::memory_order_relaxed));
        if (options.progress)
            options.progress(progress);
    };
    const auto started = std::chrono::steady_clock::now();
    std::atomic<bool> outOfTime {false};
    const auto cancelled = [&] {
        if (options.timeBudget > 0 && !outOfTime
            && std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
                > options.timeBudget)
            outOfTime = true;
        return outOfTime || (options.cancel && options.cancel->load());
    };
    // Counts one result (under the lock): a candidate simulated (or deduplicated) that fits
    // enters the ranking.
    const auto record = [&](const PlanRow &row, const std::string &error, bool copy) {
        if (!row.fits) {
            if (error.empty())
                ++res.counts.infeasible["memory-over-capacity"];
            else
                ++res.counts.failed;
        } else {
            ++(copy ? res.counts.deduplicated : res.counts.simulated);
            ++(copy ? progress.deduplicated : progress.simulated);
            res.simulated.push_back(row);
            const auto at = std::upper_bound(best.begin(), best.end(), row,
                                             [](const PlanRow &a, const PlanRow &b) {
                                                 return ranksBefore(a, b, PlanObjective::StepTime);
                                             });
            best.insert(at, row);
            if (static_cast<int>(best.size()) > options.top)
                best.pop_back();
            if (static_cast<int>(best.size()) >= options.top)
                kthShared.store(best.back().stepTime, std::memory_order_relaxed);
            if (options.row)
                options.row(row);
        }
        report(1);
    };
    auto worker = [&] {
        Design scratch = design;
        for (std::size_t k = next++; k < jobs.size(); k = next++) {
            const Job &job = jobs[k];
            const Pending &p = job.first;
            const long long members = 1 + static_cast<long long>(job.twins.size());
            if (cancelled()) {
                const std::lock_guard lock(mutex);
                res.counts.cancelled += members;
                continue;
            }
            bool prune = false;
            double kth = std::numeric_limits<double>::infinity(); // the K-th best so far
            if (options.useBound) {
                const std::lock_guard lock(mutex);
                if (static_cast<int>(best.size()) >= options.top)
                    kth = best.back().stepTime;
                prune = p.bound > kth;
            }
            // Counts a job left out (under the lock) in its plan count and its progress one.
            const auto leftOut = [&](long long &count, long long &shown) {
                count += members;
                shown += members;
                report(members);
            };
            if (prune) {
                const std::lock_guard lock(mutex);
                leftOut(res.counts.prunedByBound, progress.pruned);
                continue;
            }
            std::string error;
            // A step that passes the K-th best cannot rank: its simulation stops there
            // (only ever later than a strictly slower step, as the bound's pruning), also
            // when other threads lower the K-th best while it runs.
            const TrainingConfig &c = configs[p.config].config;
            const StepBound least = stepLowerBound(space.base.model, c, hw, &groups[p.layout]);
            PlanRow row = simulateCandidate(scratch, space.base, c, p.order, options.cancel, &error,
                                            kth, &least, options.useBound ? &kthShared : nullptr);
            row.index = p.index;
            row.lowerBound = p.bound;
            const std::lock_guard lock(mutex);
            if (options.cancel && options.cancel->load()) { // the simulation was cut short
                res.counts.cancelled += members;
                continue;
            }
            if (row.stopped) {
                leftOut(res.counts.stoppedPastBest, progress.stopped);
                continue;
            }
            record(row, error, false);
            for (const Pending &t : job.twins) {
                // The twin's own knobs, index, bound and memory (the exact model of screen()).
                const Screened &s = configs[t.config];
                PlanRow twin = row;
                twin.config = s.config;
                twin.config.stageLayers.clear();
                twin.index = t.index;
                twin.lowerBound = t.bound;
                twin.peakMemoryPerGpu = s.needed;
                twin.memoryCapacityPerGpu = s.capacity;
                twin.fits = error.empty() && s.needed <= s.capacity;
                record(twin, error, true);
            }
        }
    };
    const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(jobs.size())));
    std::vector<std::thread> pool;
    for (int j = 1; j < threads; ++j)
        pool.emplace_back(worker);
    worker();
    for (std::thread &t : pool)
        t.join();

    res.cancelled = cancelled();
    res.outOfTime = outOfTime;
    std::sort(res.simulated.begin(), res.simulated.end(),
              [](const PlanRow &a, const PlanRow &b) { return a.index < b.index; });
    res.ranked = res.simulated;
    std::sort(res.ranked.begin(), res.ranked.end(), [&](const PlanRow &a, const PlanRow &b) {
        return ranksBefore(a, b, options.objective);
    });
    if (static_cast<int>(res.ranked.size()) > options.top)
        res.ranked.resize(static_cast<std::size_t>(options.top));
    if (options.losers && options.shards == 1 && !res.ranked.empty() && !res.cancelled)
        res.losers = losingLayouts(design, space, res.ranked.front(), options.cancel);
    return res;
}

TrainingPlan mergePlans(const std::vector<TrainingPlan> &shards,
                        const std::vector<std::string> &names)
{
    if (shards.empty())
        throw std::invalid_argument("no shard results to merge");
    const TrainingPlan &first = shards.front();
    TrainingPlan r;
    r.design = first.design;
    r.gpus = first.gpus;
    r.globalBatch = first.globalBatch;
    r.objective = first.objective;
    r.top = first.top;
    r.space = first.space;
    r.weftVersion = first.weftVersion;
    r.workload = first.workload;
    r.baseWorkload = first.baseWorkload;
    std::set<int> seen;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const TrainingPlan &s = shards[i];
        const auto name = [&](std::size_t k) {
            const TrainingPlan &x = shards[k];
            const std::string shard
                = "shard " + std::to_string(x.shard) + "/" + std::to_string(x.shards);
            return k < names.size() ? names[k] + " (" + shard + ")" : shard;
        };
        if (const std::string d = planDifference(s, first, name(i), name(0)); !d.empty())
            throw std::invalid_argument(name(i) + " belongs to another plan than " + name(0) + ": "
                                        + d
                                        + " (run every shard with the same Weft and the same "
                                          "plan options)");
        if (!seen.insert(s.shard).second)
            throw std::invalid_argument(name(i) + " is given twice");
        r.simulated.insert(r.simulated.end(), s.simulated.begin(), s.simulated.end());
        r.ranked.insert(r.ranked.end(), s.ranked.begin(), s.ranked.end());
        r.counts.enumerated += s.counts.enumerated;
        for (const auto &[code, n] : s.counts.infeasible)
            r.counts.infeasible[code] += n;
        r.counts.prunedByBound += s.counts.prunedByBound;
        r.counts.stoppedPastBest += s.counts.stoppedPastBest;
        r.counts.simulated += s.counts.simulated;
        r.counts.deduplicated += s.counts.deduplicated;
        r.counts.failed += s.counts.failed;
        r.counts.cancelled += s.counts.cancelled;
        r.cancelled = r.cancelled || s.cancelled;
        if (s.closest
            && (!r.closest
                || s.closest->neededBytes - s.closest->capacityBytes
                    < r.closest->neededBytes - r.closest->capacityBytes))
            r.closest = s.closest;
    }
    std::string missing;
    for (int i = 0; i < first.shards; ++i)
        if (!seen.count(i))
            missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    if (!missing.empty())
        throw std::invalid_argument("shards missing from the results: " + missing + " of "
                                    + std::to_string(first.shards));
    std::sort(r.simulated.begin(), r.simulated.end(),
              [](const PlanRow &a, const PlanRow &b) { return a.index < b.index; });
    std::sort(r.ranked.begin(), r.ranked.end(),
              [&](const PlanRow &a, const PlanRow &b) { return ranksBefore(a, b, r.objective); });
    if (static_cast<int>(r.ranked.size()) > r.top)
        r.ranked.resize(static_cast<std::size_t>(r.top));
    return r;
}

std::string infeasibleExplanation(const TrainingPlan &r)
{
    if (!r.ranked.empty())
        return {};
    char buf[64];
    const auto gb = [&buf](double bytes) {
        std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
        return std::string(buf);
    };
    const long long memory = r.counts.infeasible.count("memory-over-capacity")
        ? r.counts.infeasible.at("memory-over-capacity")
        : 0;
    if (r.counts.enumerated == 0)
        return "the search space is empty";
    if (r.cancelled)
        return "the plan was cancelled before any candidate was simulated";
    // Candidates that pass the workload checks are screened by memory; when none of them got
    // further, memory ruled out every one of them.
    const bool memoryOnly = r.closest && memory > 0 && r.counts.simulated == 0
        && r.counts.prunedByBound == 0 && r.counts.stoppedPastBest == 0 && r.counts.failed == 0
        && r.counts.cancelled == 0;
    std::string s = memoryOnly
        ? "every candidate that passes the workload checks needs more memory than the "
            + gb(r.closest->capacityBytes) + " of HBM per GPU:"
        : std::string("no candidate can run") + (r.closest ? "; of those over memory," : "");
    if (r.closest)
        s += " the closest, " + describeCandidate(r.closest->config, {}) + ", needs "
            + gb(r.closest->neededBytes) + " per GPU, "
            + gb(r.closest->neededBytes - r.closest->capacityBytes) + " more";
    s += " (";
    bool firstReason = true;
    for (const auto &[code, n] : r.counts.infeasible) {
        s += (firstReason ? "" : ", ") + std::to_string(n) + " " + code;
        firstReason = false;
    }
    if (r.counts.failed > 0)
        s += (firstReason ? "" : ", ") + std::to_string(r.counts.failed) + " failed in simulation";
    return s + ")";
}

} // namespace weft
