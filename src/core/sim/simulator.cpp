#include "sim/simulator.h"

#include "sim/netcomm.h"
#include "sim/replicamirror.h"
#include "sim/simplan.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <tuple>
#include <unordered_map>

namespace weft {

namespace {

std::string gb(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
    return buf;
}

void memoryFindings(const SimPlan &plan, const RankMap &rk, SimResult &r)
{
    const int p = static_cast<int>(plan.stageMemory.size());
    for (int st = 0; st < p; ++st) {
        const MemoryBreakdown &mem = plan.stageMemory[static_cast<std::size_t>(st)];
        if (mem.total() > r.peakMemoryPerGpu) {
            r.peakMemoryPerGpu = mem.total();
            r.memoryCapacityPerGpu = mem.capacity;
        }
        if (mem.fits())
            continue;
        r.memoryFits = false;
        Finding f {Severity::Error,
                   "memory-over-capacity",
                   "pipeline stage " + std::to_string(st) + " needs " + gb(mem.total())
                       + " per accelerator (" + gb(mem.weights) + " weights, " + gb(mem.gradients)
                       + " gradients, " + gb(mem.optimizer) + " optimizer, " + gb(mem.activations)
                       + " activations) but has " + gb(mem.capacity),
                   {"stage:" + std::to_string(st)}};
        for (int rank = 0, listed = 0; rank < rk.worldSize() && listed < 16; ++rank)
            if (rk.coord(rank).pp == st) {
                f.subjects.push_back("node:" + std::to_string(rk.node(rank).value));
                ++listed;
            }
        r.warnings.push_back(std::move(f));
    }
}

void placementFindings(const Design &d, const SimPlan &plan, SimResult &r)
{
    const long long world = plan.ranks->worldSize();
    const auto accelerators = static_cast<long long>(d.acceleratorCount());
    if (world < accelerators)
        r.warnings.push_back(
            {Severity::Info,
             "accelerators-idle",
             std::to_string(accelerators - world) + " of " + std::to_string(accelerators)
                 + " accelerators carry no rank (world size " + std::to_string(world) + ")",
             {}});
    // A TP group whose members sit in different scale-up domains sends its all-reduces over
    // the scale-out fabric.
    for (const GroupMeta &g : plan.groups) {
        if (g.kind != "tp")
            continue;
        const Node *first = d.node(g.members.front());
        const bool spans = std::any_of(g.members.begin(), g.members.end(), [&](NodeId id) {
            const Node *n = d.node(id);
            return !first || !n || !n->group.valid() || n->group != first->group;
        });
        if (!spans)
            continue;
        Finding f {Severity::Warning,
                   "tp-spans-scale-out",
                   "a TP group of " + std::to_string(g.members.size())
                       + " ranks spans more than one scale-up domain: its all-reduces cross the "
                         "scale-out fabric",
                   {}};
        for (NodeId id : g.members)
            f.subjects.push_back("node:" + std::to_string(id.value));
        r.warnings.push_back(std::move(f));
        break;
    }
    const auto [mn, mx]
        = std::minmax_element(plan.stageComputeTime.begin(), plan.stageComputeTime.end());
    if (mn != plan.stageComputeTime.end() && *mn > 0 && *mx / *mn > 1.10) {
        Finding f {Severity::Warning,
                   "stages-unbalanced",
                   "pipeline stages are unbalanced: the slowest computes "
                       + std::to_string(static_cast<int>((*mx / *mn - 1) * 100 + 0.5))
                       + "% longer than the fastest",
                   {"stage:" + std::to_string(mx - plan.stageComputeTime.begin()),
                    "stage:" + std::to_string(mn - plan.stageComputeTime.begin())}};
        r.warnings.push_back(std::move(f));
    }
}

// Leaves whose scale-out uplinks carry less than their downlinks and whose uplinks carried
// traffic in this step: the traffic crossing them is slowed by the oversubscription.
void linkFindings(const Design &d, SimResult &r)
{
    std::unordered_map<NodeId, std::array<double, 3>> leaf; // down capacity, up capacity, up bytes
    for (const LinkResult &l : r.links) {
        const Node *a = d.node(l.from);
        const Node *b = d.node(l.to);
        if (!a || !b)
            continue;
        for (const auto &[sw, other, dirUp] : {std::tuple {a, b, 0}, std::tuple {b, a, 1}}) {
            if (!sw->isSwitch() || sw->role != SwitchRole::Leaf)
                continue;
            auto &e = leaf[sw->id];
            if (other->isAccelerator())
                e[0] += l.capacity;
            else if (other->isSwitch() && other->role != SwitchRole::ScaleUp
                     && other->role != SwitchRole::Leaf) {
                e[1] += l.capacity;
                e[2] += l.dir[dirUp].bytes;
            }
        }
    }
    int reported = 0;
    for (const auto &[id, e] : leaf) {
        if (e[1] <= 0 || e[0] <= e[1] * 1.0001 || e[2] <= 0 || reported >= 16)
            continue;
        const Node *n = d.node(id);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f:1", e[0] / e[1]);
        r.warnings.push_back(
            {Severity::Warning,
             "link-oversubscribed",
             "leaf " + (n ? n->name : std::string()) + " is oversubscribed " + buf
                 + " (downlinks : uplinks) and this step's traffic crosses its uplinks",
             {"node:" + std::to_string(id.value)}});
        ++reported;
    }
}

} // namespace

namespace detail {

// Share of the progress bar given to the event loop; the rest is the link statistics.
constexpr double kScheduleShare = 0.95;

// Runs the plan on `backend` and fills everything but the link statistics.
SimResult run(const Design &d, const SimOptions &o, CommBackend &backend, SimPlan &plan)
{
    SimResult r;
    const Workload &w = *d.workload;
    const TrainingConfig &c = w.config;
    plan.schedule.maxEvents = o.maxEvents;
    plan.schedule.stopAfter = o.stopAfter;
    plan.schedule.stopShared = o.stopAfterShared;
    plan.schedule.least = o.least;
    const RankMap &rk = *plan.ranks;
    memoryFindings(plan, rk, r);
    placementFindings(d, plan, r);
    double reported = 0; // the schedule's fraction can step back when a bucket is submitted
    const ProgressFn progress = [&o, &reported](double f) {
        if (o.cancel && o.cancel->load())
            return false;
        reported = std::max(reported, f);
        return !o.progress || o.progress(kScheduleShare * reported);
    };
    const ScheduleOutcome out = runSchedule(plan.schedule, backend, progress);
    r.events = out.events;
    if (out.stopped) {
        r.stopped = true;
        r.stepTime = out.stepTime;
        r.warnings.push_back({Severity::Error,
                              "stopped-past-limit",
                              "the simulation stopped once the step was known to last at "
                              "least "
                                  + std::to_string(out.stepTime) + " s, past the limit of "
                                  + std::to_string(out.stopLimit) + " s",
                              {}});
        return r;
    }
    if (out.cancelled) {
        r.cancelled = true;
        r.warnings.push_back({Severity::Error, "cancelled", "the simulation was cancelled", {}});
        return r;
    }
    if (!out.ok) {
        std::string code = out.errorCode;
        if (code == "comm-error" && out.error.find("rout") != std::string::npos)
            code = "unroutable-pair";
        r.warnings.push_back({Severity::Error, code, out.error, {}});
        return r;
    }
    progress(1.0); // the event loop is done; the link statistics follow
    r.ok = true;
    r.stepTime = out.stepTime;
    r.breakdown = out.breakdown;
    const double world = static_cast<double>(c.worldSize());
    const double peak
        = plan.meanPeakFlops > 0 ? plan.meanPeakFlops : plan.accelerator.peakFlops(c.dtype);
    if (r.stepTime > 0) {
        r.tokensPerSecond = double(c.globalBatch) * w.model.seq / r.stepTime;
        const double model = modelFlopsPerStep(w.model, c) / r.stepTime / world;
        const double hw = hardwareFlopsPerStep(w.model, c) / r.stepTime / world;
        r.modelTflopsPerGpu = model / 1e12;
        r.hardwareTflopsPerGpu = hw / 1e12;
        r.mfu = peak > 0 ? model / peak : 0;
        r.hfu = peak > 0 ? hw / peak : 0;
    }
    // Timelines: one per simulated pipeline and stage, shared by the stage's TP/CP ranks.
    const int p = plan.schedule.p;
    for (const auto &pipeline : out.ops)
        for (const auto &stage : pipeline) {
            std::vector<TimelineOp> tl;
            tl.reserve(stage.size());
            for (const OpRecord &op : stage)
                tl.push_back(
                    {op.op.forward ? TimelineOp::Kind::Forward : TimelineOp::Kind::Backward,
                     op.op.microBatch, op.op.chunk, op.start, op.computeEnd, op.end});
            if (r.breakdown.optimizer > 0)
                tl.push_back({TimelineOp::Kind::Optimizer, -1, -1,
                              r.stepTime - r.breakdown.optimizer, r.stepTime, r.stepTime});
            r.timelines.push_back(std::move(tl));
        }
    r.accelerators.reserve(static_cast<std::size_t>(rk.worldSize()));
    for (int rank = 0; rank < rk.worldSize(); ++rank) {
        const RankCoord x = rk.coord(rank);
        const int pl = plan.unitPipeline[static_cast<std::size_t>(x.dp / rk.replicasPerUnit())];
        r.accelerators.push_back({rk.node(rank), rank, x.pp, pl * p + x.pp,
                                  plan.stageMemory[static_cast<std::size_t>(x.pp)]});
    }
    return r;
}

} // namespace detail

SimResult simulate(const Design &design, const SimOptions &options, CommBackend &backend)
{
    const auto t0 = std::chrono::steady_clock::now();
    SimResult r;
    if (!design.workload) {
        r.warnings.push_back(
            {Severity::Error, "no-workload", "the design has no workload to simulate", {}});
        return r;
    }
    SimPlan plan = buildPlan(design, *design.workload, options.exploitSymmetry);
    if (hasError(plan.findings)) {
        r.warnings = plan.findings;
    } else {
        r = detail::run(design, options, backend, plan);
        r.warnings.insert(r.warnings.begin(), plan.findings.begin(), plan.findings.end());
        for (const GroupMeta &g : plan.groups)
            r.groups.push_back({g.kind, g.index, g.members, {}});
        if (r.ok && options.progress)
            options.progress(1.0);
    }
    r.simulationWallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::vector<Finding> preflight(const Design &design)
{
    if (!design.workload)
        return {};
    try {
        SimPlan plan = buildPlan(design, *design.workload, true);
        if (hasError(plan.findings))
            return plan.findings;
        SimResult r;
        r.warnings = plan.findings;
        memoryFindings(plan, *plan.ranks, r);
        placementFindings(design, plan, r);
        return r.warnings;
    } catch (const std::exception &e) {
        return {{Severity::Error, "internal-error", e.what(), {}}};
    }
}

SimResult simulate(const Design &design, const SimOptions &options)
{
    const auto t0 = std::chrono::steady_clock::now();
    SimResult r;
    if (!design.workload) {
        r.warnings.push_back(
            {Severity::Error, "no-workload", "the design has no workload to simulate", {}});
        return r;
    }
    try {
        SimPlan plan = buildPlan(design, *design.workload, options.exploitSymmetry);
        if (hasError(plan.findings)) {
            r.warnings = plan.findings;
        } else {
            NetworkOptions no = options.network;
            no.maxEvents = std::min(no.maxEvents, options.maxEvents);
            NetComm net(design, no);
            for (const int tag : mirroredTags(plan))
                net.setMirrored(tag);
            r = detail::run(design, options, net, plan);
            r.warnings.insert(r.warnings.begin(), plan.findings.begin(), plan.findings.end());
            for (const GroupMeta &g : plan.groups)
                r.groups.push_back({g.kind, g.index, g.members,
                                    r.ok ? net.linksOfTag(static_cast<int>(r.groups.size()))
                                         : std::vector<LinkId> {}});
            if (r.ok) {
                r.links = net.linkResults(r.stepTime);
                mirrorReplicaTraffic(
                    design, plan,
                    [&net](std::size_t link, int dir) { return net.mirroredBytes(link, dir); },
                    r.stepTime, r.links, r.groups);
                linkFindings(design, r);
                if (options.progress)
                    options.progress(1.0);
            }
        }
    } catch (const std::exception &e) {
        r.ok = false;
        r.warnings.push_back({Severity::Error, "internal-error", e.what(), {}});
    }
    r.simulationWallSeconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace weft
