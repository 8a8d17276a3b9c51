// Plans Llama 3 405B on resources/examples/dgx-h100-16k.weft (16,384 H100, three tiers) on 2
// threads and prints the wall time (target: under 60 s on 2 cores), the counts, candidates
// simulated per second, the top 5 and where Meta's published layout for that cluster (TP 8,
// PP 16, interleaved 1F1B; Dubey et al. 2024, sec. 3.3.1) ranks, with both breakdowns when it
// is not in the top 5. Usage (from the repository root): bench_plan [DESIGN.weft] [JOBS] [TOP]
// [FIX, e.g. cp=1,zero_stage=1]. BENCH_PLAN_SECONDS=S stops the plan after S seconds (CI runs it
// short) and prints the rate, the projected time of the whole plan and the best so far (with
// Meta's layout against the first). It then prints, per ZeRO stage, PP degree and schedule,
// the bound of the candidates it simulated against their simulated step (bound / step: 1 is
// exact), with the bound's parts and the simulated breakdown's averaged, to show which terms
// are loose.
#include "io/designfile.h"
#include "plan/planlosers.h"
#include "plan/planner.h"
#include "sim/schedule.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>

using namespace weft;

namespace {

// CPU seconds of the calling thread (a worker's simulation time, whatever the machine's load).
double threadCpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void printRow(const char *label, const PlanRow &r)
{
    std::printf("%-6s %-78s %8.1f ms %6.1f%% MFU %5.1f GB  (bound %.1f ms)\n", label,
                describeCandidate(r.config, r.order).c_str(), r.stepTime * 1e3, r.mfu * 100,
                r.peakMemoryPerGpu / 1e9, r.lowerBound * 1e3);
}

void printBreakdown(const char *label, const Breakdown &b)
{
    std::printf("  %-8s", label);
    for (const auto &[name, s] : breakdownParts(b))
        std::printf(" %s %.1f ms,", name.c_str(), s * 1e3);
    std::printf("\n");
}

// The candidates (configuration and placement) that pass screening with a bound below
// `seconds` (what a plan whose K-th best is that must evaluate; none of them can be pruned),
// computed as runPlan screens them: in all, and by ZeRO stage and PP degree.
struct BoundBelow
{
    long long total = 0, feasible = 0; ///< below it; placements of configurations below it
    std::map<std::string, long long> by;
};

BoundBelow boundBelow(const Design &d, const PlanSpace &space, double seconds)
{
    const PlanHardware hw = planHardware(d, space.gpus);
    const TransformerSpec &m = space.base.model;
    BoundBelow out;
    const std::size_t accelerators = d.acceleratorCount();
    forEachConfig(space, [&](const TrainingConfig &c, bool integral) {
        if (!integral || hasError(validate(m, c, accelerators)))
            return;
        for (const MemoryBreakdown &mem : stageMemories(m, c, hw.slowest))
            if (mem.total() > mem.capacity)
                return;
        if (stepLowerBound(m, c, hw).total() >= seconds)
            return;
        for (const std::string &o : placementOrders(c, space.domainSize)) {
            ++out.feasible;
            if (candidateLowerBound(m, c, o, hw) >= seconds)
                continue;
            ++out.total;
            ++out.by["ZeRO " + std::to_string(c.effectiveZero()) + " PP " + std::to_string(c.pp)];
        }
    });
    return out;
}

void printUnprunable(const Design &d, const PlanSpace &space, double seconds)
{
    const PlanHardware hw = planHardware(d, space.gpus);
    const TransformerSpec &m = space.base.model;
    const BoundBelow below = boundBelow(d, space, seconds);
    std::printf("candidates with a bound below %.1f ms: %lld of %lld (configuration bound below "
                "it):",
                seconds * 1e3, below.total, below.feasible);
    for (const auto &[key, n] : below.by)
        std::printf(" %s: %lld;", key.c_str(), n);
    std::printf("\n");
    const TrainingConfig &meta = d.workload->config;
    std::printf("the design's own layout (%s): bound %.1f ms (configuration), %.1f ms (with its "
                "placement)\n",
                describeCandidate(meta, d.workload->placement.order).c_str(),
                stepLowerBound(m, meta, hw).total() * 1e3,
                candidateLowerBound(m, meta, d.workload->placement.order, hw) * 1e3);
}

// Bound against simulated step of the simulated candidates, per group (ZeRO stage, PP degree,
// schedule with its virtual stages): count, ratio min / mean / max, and the group's mean of the
// bound's parts and of the simulated breakdown, ms.
class BoundGap
{
public:
    BoundGap(const TransformerSpec &m, const PlanHardware &hw)
        : m_model(m)
        , m_hw(hw)
    {
    }
    void add(const PlanRow &r)
    {
        if (r.stepTime <= 0)
            return;
        const TrainingConfig &c = r.config;
        std::string key
            = "ZeRO " + std::to_string(c.effectiveZero()) + " PP " + std::to_string(c.pp);
        if (c.schedule == PipelineSchedule::Interleaved)
            key += " v" + std::to_string(c.vpp);
        Group &g = m_groups[key];
        const double ratio = r.lowerBound / r.stepTime;
        g.min = g.n ? std::min(g.min, ratio) : ratio;
        g.max = g.n ? std::max(g.max, ratio) : ratio;
        g.sum += ratio;
        ++g.n;
        const StepBound b = stepLowerBound(m_model, c, m_hw);
        g.pipeline += b.pipeline;
        g.optimizer += b.optimizer;
        g.gather += b.parameterGather;
        g.scaleOut += b.scaleOut;
        g.bound += r.lowerBound;
        g.step += r.stepTime;
        g.compute += r.breakdown.compute;
        g.bubble += r.breakdown.bubble + r.breakdown.ppExposed;
        g.dp += r.breakdown.dpExposed;
        g.opt += r.breakdown.optimizer;
        g.comm += r.breakdown.tpExposed + r.breakdown.cpExposed + r.breakdown.epExposed;
    }
    void print() const
    {
        std::printf("bound / simulated step of the simulated candidates (means in ms):\n");
        for (const auto &[key, g] : m_groups) {
            const double n = double(g.n);
            std::printf("  %-18s n %5lld  ratio %.3f / %.3f / %.3f  bound %.0f (pipeline %.0f, "
                        "optimizer %.0f, gather %.0f, scale-out %.0f)  step %.0f (compute %.0f, "
                        "bubble+PP %.0f, TP/CP/EP %.0f, DP %.0f, optimizer %.0f)\n",
                        key.c_str(), g.n, g.min, g.sum / n, g.max, 1e3 * g.bound / n,
                        1e3 * g.pipeline / n, 1e3 * g.optimizer / n, 1e3 * g.gather / n,
                        1e3 * g.scaleOut / n, 1e3 * g.step / n, 1e3 * g.compute / n,
                        1e3 * g.bubble / n, 1e3 * g.comm / n, 1e3 * g.dp / n, 1e3 * g.opt / n);
        }
    }

private:
    struct Group
    {
        long long n = 0;
        double min = 0, max = 0, sum = 0;
        double bound = 0, pipeline = 0, optimizer = 0, gather = 0, scaleOut = 0;
        double step = 0, compute = 0, bubble = 0, comm = 0, dp = 0, opt = 0;
    };
    const TransformerSpec &m_model;
    const PlanHardware &m_hw;
    std::map<std::string, Group> m_groups;
};

} // namespace

int main(int argc, char **argv)
{
    // Run from the repository root, or give the design's path.
    const std::string path = argc > 1 ? argv[1] : "resources/examples/dgx-h100-16k.weft";
    const int jobs = argc > 2 ? std::atoi(argv[2]) : 2;
    const int top = argc > 3 ? std::atoi(argv[3]) : 5;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const ParseResult parsed = parseDesign(text.str(), path);
    if (!parsed.ok() || !parsed.design->workload) {
        std::fprintf(stderr, "cannot read %s: %s\n", path.c_str(), parsed.error.toString().c_str());
        return 2;
    }
    const Design &d = *parsed.design;
    PlanSpace space = defaultPlanSpace(d, *d.workload);
    if (argc > 4)
        fixKnobs(space, argv[4]); // e.g. "cp=1,zero_stage=1"
    if (const char *t = std::getenv("BENCH_PLAN_BOUND_BELOW")) {
        printUnprunable(d, space, std::atof(t));
        return 0;
    }
    PlanOptions o;
    o.jobs = jobs;
    o.top = top;
    o.losers = false; // timed on their own below
    if (const char *t = std::getenv("BENCH_PLAN_SECONDS"))
        o.timeBudget = std::atof(t);
    const auto t0 = std::chrono::steady_clock::now();
    o.progress = [&t0](const PlanProgress &p) {
        if (p.done % 10 == 0 || p.done == p.total)
            std::fprintf(
                stderr, "%lld/%lld (%lld simulated, %lld pruned) %.1f s\n", p.done, p.total,
                p.simulated, p.pruned,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    };
    const PlanHardware hw = planHardware(d, space.gpus);
    BoundGap gap(space.base.model, hw);
    const bool verbose = std::getenv("BENCH_PLAN_VERBOSE") != nullptr;
    o.row = [&t0, &gap, verbose](const PlanRow &r) {
        gap.add(r);
        if (verbose) {
            // The thread's CPU time since its previous row: one simulation (and any pruning
            // between), or the screening before the first.
            thread_local double last = 0;
            const double cpu = threadCpuSeconds();
            std::fprintf(
                stderr, "%.1f s: %s: step %.1f ms, bound %.1f ms, %.2f s CPU\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                describeCandidate(r.config, r.order).c_str(), r.stepTime * 1e3, r.lowerBound * 1e3,
                cpu - last);
            last = cpu;
        }
    };
    const TrainingPlan r = runPlan(d, space, o);
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %s on %lld GPUs, %d threads\n", path.c_str(), d.workload->model.name.c_str(),
                r.gpus, jobs);
    std::printf("plan wall time %.1f s (target < 60 s on 2 cores)\n", wall);
    std::printf("enumerated %lld, infeasible %lld (", r.counts.enumerated,
                r.counts.infeasibleTotal());
    for (const auto &[code, n] : r.counts.infeasible)
        std::printf("%s %lld; ", code.c_str(), n);
    std::printf("), pruned by bound %lld, stopped past the K-th best %lld, simulated %lld, "
                "deduplicated %lld, failed %lld\n",
                r.counts.prunedByBound, r.counts.stoppedPastBest, r.counts.simulated,
                r.counts.deduplicated, r.counts.failed);
    std::printf("candidates simulated per second: %.2f\n",
                wall > 0 ? double(r.counts.simulated) / wall : 0.0);
    if (r.outOfTime) {
        // Candidates done so far and, for a projection, how many the whole plan must still
        // evaluate: those whose bound is below the K-th best simulated so far (the rest are
        // pruned at no cost), less the share of twins, at the rate of simulation so far.
        const long long done = r.counts.simulated + r.counts.deduplicated + r.counts.prunedByBound
            + r.counts.stoppedPastBest + r.counts.failed;
        std::printf("stopped at the budget of %.0f s (BENCH_PLAN_SECONDS): %lld candidates done, "
                    "%lld left\n",
                    o.timeBudget, done, r.counts.cancelled);
        if (static_cast<int>(r.ranked.size()) >= top && r.counts.simulated > 0) {
            const double kth = r.ranked.back().stepTime;
            const long long needed = boundBelow(d, space, kth).total;
            const double twins = double(r.counts.deduplicated)
                / double(r.counts.simulated + r.counts.deduplicated);
            // Simulations stopped past the K-th best took their time too.
            const double perSimulation
                = wall / double(r.counts.simulated + r.counts.stoppedPastBest);
            std::printf("candidates with a bound below the K-th best so far (%.1f ms): %lld; "
                        "projected whole plan: %.0f s (%.0f%% of them twins, %.2f s per "
                        "simulation on %d threads)\n",
                        kth * 1e3, needed, double(needed) * (1 - twins) * perSimulation,
                        twins * 100, perSimulation, jobs);
        }
        std::printf("best so far:\n");
    }
    gap.print();
    for (std::size_t i = 0; i < r.ranked.size(); ++i)
        printRow(("#" + std::to_string(i + 1)).c_str(), r.ranked[i]);
    if (!r.ranked.empty() && !r.outOfTime && !std::getenv("BENCH_PLAN_NO_LOSERS")) {
        const auto t1 = std::chrono::steady_clock::now();
        const std::vector<PlanLoser> losers = losingLayouts(d, space, r.ranked.front(), nullptr);
        std::printf("losing layouts simulated in %.1f s\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
        for (const PlanLoser &l : losers)
            std::printf("%s: %s: %.1f%% slower: %s\n",
                        l.designOwn ? "against the best" : "known loser", l.title.c_str(),
                        l.slowdown * 100, l.why.c_str());
    }
    // Meta's layout: TP 8, PP 16, interleaved (any other knob).
    int metaRank = 0;
    for (std::size_t i = 0; i < r.ranked.size() && metaRank == 0; ++i) {
        const TrainingConfig &c = r.ranked[i].config;
        if (c.tp == 8 && c.pp == 16 && c.schedule == PipelineSchedule::Interleaved)
            metaRank = static_cast<int>(i) + 1;
    }
    if (metaRank > 0) {
        std::printf("Meta's choice (TP 8, PP 16, interleaved) ranks #%d%s\n", metaRank,
                    r.outOfTime ? " so far" : "");
    } else if (!r.ranked.empty()) {
        Design scratch = d;
        PlanRow meta = simulateCandidate(scratch, *d.workload, d.workload->config,
                                         d.workload->placement.order, nullptr);
        meta.lowerBound = candidateLowerBound(d.workload->model, d.workload->config,
                                              d.workload->placement.order, planHardware(d));
        std::printf("Meta's choice (TP 8, PP 16, interleaved) is not in the top %d%s:\n", top,
                    r.outOfTime ? " so far" : "");
        printRow("meta", meta);
        printRow("#1", r.ranked.front());
        printBreakdown("meta", meta.breakdown);
        printBreakdown("#1", r.ranked.front().breakdown);
        std::printf("  the largest difference: %s\n",
                    largestGrowth(r.ranked.front().breakdown, meta.breakdown).c_str());
    }
    return 0;
}
