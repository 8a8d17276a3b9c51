#include "sim/network.h"

#include "sim/flowclasses.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

namespace weft {

namespace {
constexpr std::uint32_t kPhaseStart = std::numeric_limits<std::uint32_t>::max();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kChunkSlots = 4096; // link directions per statistics chunk
// Merged routes of coupled phases are cached up to this many entries in total, then start over.
constexpr std::size_t kCoupledEntryLimit = 16'000'000;

// Link classes of the classes of `fc` marked in `live` (all if empty).
std::size_t linkCells(const FlowClasses &fc, const std::vector<char> &live)
{
    std::vector<std::uint32_t> cells;
    for (std::uint32_t c = 0; c < fc.classes.size(); ++c)
        if (live.empty() || live[c])
            cells.insert(cells.end(), fc.classes[c].cells.begin(), fc.classes[c].cells.end());
    std::sort(cells.begin(), cells.end());
    return static_cast<std::size_t>(std::unique(cells.begin(), cells.end()) - cells.begin());
}

// The solver key of class `cls` of the phase classes numbered `phase`: it names the class's
// entries, cap and link cells (a phase's classes never change), so the solver may wake the
// dormant class of an earlier phase with these classes (flowsolver.h). The top bit keeps it
// apart from the coupled units' keys; the solver compares the entries on a hit.
std::uint64_t aggregateKey(std::uint64_t phase, std::uint32_t cls)
{
    std::uint64_t h
        = (phase * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t(cls) * 0xc2b2ae3d27d4eb4full);
    h ^= h >> 29;
    return (1ull << 63) | h;
}

std::vector<double> linkDirCapacities(const Router &r)
{
    std::vector<double> cap(2 * r.linkCount());
    for (std::size_t i = 0; i < cap.size(); ++i)
        cap[i] = r.capacity(static_cast<LinkDir>(i));
    return cap;
}
} // namespace

struct FlowNetwork::Job
{
    std::vector<Phase> phases;
    /// Per phase: its symmetry classes, if it is solved by classes (set by submit).
    std::vector<std::shared_ptr<PhaseClasses>> classes;
    std::size_t phase = 0;
    std::uint32_t outstanding = 0;
    JobTag tag = kNoTag;
    double finish = std::numeric_limits<double>::quiet_NaN();
};

struct FlowNetwork::PhaseClasses
{
    std::vector<Flow> flows; ///< the phase's flows (the cache key)
    FlowClasses classes;
    bool aggregate = false; ///< some class has several flows
    bool uniform = false; ///< all flows have the same bytes (any size shares these classes)
    std::uint32_t group = 0; ///< aggregate group of every phase with these classes
    std::uint64_t id = 0; ///< unique: names these classes in refinement keys
    /// Refined classes (refineGroup): per flow, the unit of the refined group it came from
    /// (classes never span two); `flows` then hold placeholder bytes (the units' are theirs).
    std::vector<std::uint32_t> unitOf;
    /// Refined classes: the classes they refine (id) and the live units' classes there, in
    /// unit order (what unitOf indexes): a cache hit must match them.
    std::uint64_t source = 0;
    std::vector<std::uint32_t> sourceUnits;
    std::vector<JobTag> tags; ///< tags whose links already list these flows' links
};

struct FlowNetwork::UnitState
{
    JobId job = 0;
    std::uint32_t group = 0; ///< aggregate group, 0 for none
    double remaining = 0; ///< bytes of the unit's largest flow still to send
    double rate = 0; ///< bytes/s of that flow
    double lastT = 0;
    std::uint32_t version = 0;
    bool alive = false;
};

struct FlowNetwork::DirStats
{
    LinkDir linkDir = 0;
    double load = 0; ///< bytes/s since lastT
    double lastT = 0;
    double bytes = 0;
    double busy = 0;
    double peak = 0;
    double width = 0; ///< series bucket width (0: no series yet), doubled as time grows
};

FlowNetwork::FlowNetwork(const Design &design, NetworkOptions options)
    : FlowNetwork(std::make_unique<Router>(design, options.pxn), nullptr, options)
{
}

FlowNetwork::FlowNetwork(const Router &router, NetworkOptions options)
    : FlowNetwork(std::unique_ptr<Router>(), &router, options)
{
}

FlowNetwork::FlowNetwork(std::unique_ptr<Router> own, const Router *shared, NetworkOptions options)
    : m_options(options)
    , m_ownRouter(std::move(own))
    , m_router(m_ownRouter ? *m_ownRouter : *shared)
    , m_solver(linkDirCapacities(m_router))
{
    m_options.pxn = m_router.pxn();
    m_options.seriesBuckets = std::max(0, m_options.seriesBuckets);
    m_solver.setTrackLoads(m_options.recordStats); // loads are read for the statistics only
    m_slot.assign(2 * m_router.linkCount(), -1);
    m_scratchWeight.assign(2 * m_router.linkCount(), 0);
    m_scratchMark.assign(2 * m_router.linkCount(), 0);
    m_refineMark.assign(2 * m_router.linkCount(), 0);
}

FlowNetwork::~FlowNetwork() = default;

JobId FlowNetwork::submit(std::vector<Phase> phases, double startTime, JobTag tag)
{
    if (!(startTime >= m_now - 1e-12 * std::max(1.0, m_now)) || !std::isfinite(startTime))
        throw std::invalid_argument("network: job submitted at t=" + std::to_string(startTime)
                                    + " s, before the current time " + std::to_string(m_now)
                                    + " s");
    startTime = std::max(startTime, m_now);
    for (const Phase &p : phases) {
        if (!(p.latency >= 0) || !std::isfinite(p.latency))
            throw std::invalid_argument("network: phase latency must be finite and >= 0");
        for (const Flow &f : p.flows) {
            if (!(f.bytes >= 0) || !std::isfinite(f.bytes))
                throw std::invalid_argument("network: flow bytes must be finite and >= 0");
            if (!(f.maxRate > 0))
                throw std::invalid_argument("network: a flow's rate cap must be positive");
        }
    }
    // Every moving flow is routed now, so an unroutable one throws UnroutableError here, not
    // later: by classifying the phase (which routes its flows the first time these ends are
    // seen) or flow by flow.
    Job job;
    job.tag = tag;
    job.classes.resize(phases.size());
    for (std::size_t i = 0; i < phases.size(); ++i) {
        const Phase &p = phases[i];
        const auto moving = static_cast<std::size_t>(
            std::count_if(p.flows.begin(), p.flows.end(),
                          [](const Flow &f) { return f.bytes > 0 && f.src != f.dst; }));
        if (!p.coupled && m_options.aggregate && p.flows.size() >= m_options.aggregateMinFlows)
            job.classes[i] = phaseClasses(p.flows);
        if (job.classes[i] && job.classes[i]->classes.flows == moving)
            continue;
        for (const Flow &f : p.flows)
            if (f.bytes > 0)
                (void)m_router.route(f.src, f.dst);
    }
    const auto id = static_cast<JobId>(m_jobs.size());
    const double first = phases.empty() ? 0.0 : phases.front().latency;
    job.phases = std::move(phases);
    m_jobs.push_back(std::move(job));
    push(startTime + first, id, kPhaseStart);
    return id;
}

void FlowNetwork::push(double time, std::uint32_t id, std::uint32_t version)
{
    m_events.push(Event {time, m_seq++, id, version});
}

double FlowNetwork::nextCompletionTime() const
{
    while (!m_events.empty()) {
        const Event &e = m_events.top();
        if (e.version == kPhaseStart
            || (m_unitState[e.id].alive && m_unitState[e.id].version == e.version))
            return e.time;
        m_events.pop();
    }
    return kInf;
}

std::vector<JobId> FlowNetwork::advanceTo(double t)
{
    if (t < m_now)
        throw std::invalid_argument("network: cannot advance to t=" + std::to_string(t)
                                    + " s, before the current time " + std::to_string(m_now)
                                    + " s");
    for (double next = nextCompletionTime(); next <= t; next = nextCompletionTime()) {
        m_now = std::max(m_now, next);
        while (nextCompletionTime() <= next) {
            const Event e = m_events.top();
            m_events.pop();
            if (++m_eventCount > m_options.maxEvents)
                throw EventLimitError("network: event limit of "
                                      + std::to_string(m_options.maxEvents) + " reached at t="
                                      + std::to_string(m_now) + " s; the simulation was stopped");
            if (e.version == kPhaseStart)
                startPhase(e.id);
            else
                unitDone(e.id);
        }
        resolve();
    }
    if (std::isfinite(t))
        m_now = std::max(m_now, t);
    return std::exchange(m_completed, {});
}

double FlowNetwork::runUntilIdle()
{
    for (double next = nextCompletionTime(); std::isfinite(next); next = nextCompletionTime())
        advanceTo(next);
    return m_now;
}

double FlowNetwork::jobFinishTime(JobId job) const
{
    return m_jobs.at(job).finish;
}

void FlowNetwork::startPhase(JobId jobId)
{
    Job &job = m_jobs[jobId];
    if (job.phase >= job.phases.size()) {
        job.finish = m_now;
        m_completed.push_back(jobId);
        return;
    }
    const Phase &phase = job.phases[job.phase];
    const std::uint32_t before = job.outstanding;
    if (phase.coupled) {
        double maxBytes = 0;
        for (const Flow &f : phase.flows)
            if (f.src != f.dst)
                maxBytes = std::max(maxBytes, f.bytes);
        if (maxBytes > 0) {
            CoupledUnit &cu = coupledUnit(phase.flows, maxBytes);
            if (job.tag != kNoTag
                && std::find(cu.tags.begin(), cu.tags.end(), job.tag) == cu.tags.end()) {
                cu.tags.push_back(job.tag);
                recordTagLinks(job.tag, cu.entries);
            }
            addUnit(jobId, cu.entries, maxBytes, cu.cap, cu.key);
        }
    } else {
        const std::shared_ptr<PhaseClasses> pc = std::move(job.classes[job.phase]);
        if (pc && pc->aggregate)
            startAggregated(jobId, pc, phase.flows);
        else
            for (const Flow &f : phase.flows)
                if (f.bytes > 0 && f.src != f.dst) {
                    const Route &r = m_router.route(f.src, f.dst);
                    const std::uint64_t ends = (std::uint64_t(f.src.value) << 32) | f.dst.value;
                    if (job.tag != kNoTag && m_tagFlows.insert({job.tag, ends}).second)
                        recordTagLinks(job.tag, r.entries);
                    addUnit(jobId, r.entries, f.bytes, f.maxRate, 0);
                }
    }
    if (job.outstanding == before) {
        endPhase(jobId);
        return;
    }
    job.phases[job.phase].flows = {}; // the flows live in the solver now
}

FlowNetwork::CoupledUnit &FlowNetwork::coupledUnit(const std::vector<Flow> &flows, double maxBytes)
{
    // The key: every moving member's ends, share of the largest member's bytes and cap.
    m_scratchKey.clear();
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mixIn = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
    for (const Flow &f : flows) {
        if (f.bytes <= 0 || f.src == f.dst)
            continue;
        m_scratchKey.push_back({f.src, f.dst, f.bytes / maxBytes, f.maxRate});
        mixIn(f.src.value);
        mixIn(f.dst.value);
        mixIn(std::bit_cast<std::uint64_t>(f.bytes / maxBytes));
        mixIn(std::bit_cast<std::uint64_t>(f.maxRate));
    }
    auto sameKey = [this](const std::vector<Flow> &k) {
        return std::equal(k.begin(), k.end(), m_scratchKey.begin(), m_scratchKey.end(),
                          [](const Flow &a, const Flow &b) {
                              return a.src == b.src && a.dst == b.dst && a.bytes == b.bytes
                                  && a.maxRate == b.maxRate;
                          });
    };
    for (auto [it, end] = m_coupled.equal_range(h); it != end; ++it)
        if (sameKey(it->second.flows))
            return it->second;
    // Merge the member routes; a member with half the bytes runs at half the rate.
    CoupledUnit cu;
    cu.flows = m_scratchKey;
    cu.key = ++m_coupledKeys;
    constexpr std::uint32_t mark = 1; // reset to 0 below
    for (const Flow &f : cu.flows) {
        const double scale = f.bytes;
        cu.cap = std::min(cu.cap, f.maxRate / scale);
        for (const RouteEntry &e : m_router.route(f.src, f.dst).entries) {
            if (m_scratchMark[e.linkDir] != mark) {
                m_scratchMark[e.linkDir] = mark;
                m_scratchWeight[e.linkDir] = 0;
                cu.entries.push_back(e);
            }
            m_scratchWeight[e.linkDir] += e.fraction * scale;
        }
    }
    for (RouteEntry &e : cu.entries) {
        e.fraction = m_scratchWeight[e.linkDir];
        m_scratchMark[e.linkDir] = 0;
    }
    if (m_coupledEntries > kCoupledEntryLimit) {
        m_coupled.clear();
        m_coupledEntries = 0;
    }
    m_coupledEntries += cu.entries.size() + cu.flows.size();
    return m_coupled.emplace(h, std::move(cu))->second;
}

std::shared_ptr<FlowNetwork::PhaseClasses> FlowNetwork::phaseClasses(const std::vector<Flow> &flows)
{
    // Phases of equal bytes per flow (all-to-alls) with the same ends share their classes
    // whatever the size: the refinement's first colours do not depend on it.
    const bool uniform = std::all_of(flows.begin(), flows.end(), [&flows](const Flow &f) {
        return f.bytes == flows.front().bytes;
    });
    std::uint64_t h = uniform ? 0x9e3779b97f4a7c15ull : 0xcbf29ce484222325ull;
    auto mixIn = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
    for (const Flow &f : flows) {
        mixIn((std::uint64_t(f.src.value) << 32) | f.dst.value);
        if (!uniform)
            mixIn(std::bit_cast<std::uint64_t>(f.bytes));
        mixIn(std::bit_cast<std::uint64_t>(f.maxRate));
    }
    auto same = [&flows, uniform](const PhaseClasses &k) {
        return k.uniform == uniform
            && std::equal(k.flows.begin(), k.flows.end(), flows.begin(), flows.end(),
                          [uniform](const Flow &a, const Flow &b) {
                              return a.src == b.src && a.dst == b.dst
                                  && (uniform || a.bytes == b.bytes) && a.maxRate == b.maxRate;
                          });
    };
    for (auto [it, end] = m_phaseClasses.equal_range(h); it != end; ++it)
        if (same(*it->second))
            return it->second;
    auto pc = std::make_shared<PhaseClasses>();
    pc->flows = flows;
    pc->uniform = uniform;
    pc->group = ++m_groupCount;
    pc->id = ++m_phaseIds;
    pc->classes = symmetricFlowClasses(m_router, flows);
    pc->aggregate = pc->classes.classes.size() < pc->classes.flows;
    if (m_phaseClassFlows > kCoupledEntryLimit) {
        m_phaseClasses.clear(); // live groups keep theirs
        m_phaseClassFlows = 0;
    }
    m_phaseClassFlows += flows.size();
    m_phaseClasses.emplace(h, pc);
    return pc;
}

void FlowNetwork::startAggregated(JobId jobId, const std::shared_ptr<PhaseClasses> &pc,
                                  const std::vector<Flow> &flows)
{
    const JobTag tag = m_jobs[jobId].tag;
    if (tag != kNoTag && std::find(pc->tags.begin(), pc->tags.end(), tag) == pc->tags.end()) {
        pc->tags.push_back(tag);
        for (const FlowClass &c : pc->classes.classes)
            recordTagLinks(tag, c.entries);
    }
    // Every class of the phase, single flows included, is a unit of the group: the rates are
    // exact while the group's saturable links carry it alone (see network.h). Every phase with
    // these classes joins the same group: their union has the union of the classes as an
    // equitable partition, with the same link classes.
    const std::uint32_t group = pc->group;
    Group &g = m_groups[group];
    g.phase = pc;
    g.alive += static_cast<std::uint32_t>(pc->classes.classes.size());
    for (std::uint32_t c = 0; c < pc->classes.classes.size(); ++c) {
        const FlowClass &k = pc->classes.classes[c];
        const Flow &f = flows[k.members.front()];
        const auto cells = k.members.size() > 1 ? std::span<const std::uint32_t>(k.cells)
                                                : std::span<const std::uint32_t>();
        g.units.push_back({addUnit(jobId, k.entries, f.bytes, f.maxRate, aggregateKey(pc->id, c),
                                   group, true, cells),
                           c});
        if (k.members.size() == 1)
            ++m_aggregation.asymmetricFlows;
    }
    ++m_aggregation.phases;
    m_aggregation.flows += pc->classes.flows;
    m_aggregation.units += pc->classes.classes.size();
}

void FlowNetwork::refineGroup(std::uint32_t group)
{
    auto it = m_groups.find(group);
    if (it == m_groups.end())
        throw std::logic_error("network: unknown aggregate group");
    Group g = std::move(it->second);
    m_groups.erase(it);
    // The group's live units, what each has left (its members: equal bytes, one rate) and the
    // solver classes that are its own.
    struct Live
    {
        MaxMinSolver::UnitId unit;
        std::uint32_t cls; ///< in g.phase's classes
        double left;
        JobId job;
    };
    std::vector<Live> live;
    std::vector<char> &own = m_refineOwn;
    for (const GroupUnit &gu : g.units) {
        const UnitState &st = m_unitState[gu.unit];
        if (!st.alive || st.group != group)
            continue;
        live.push_back(
            {gu.unit, gu.cls, std::max(0.0, st.remaining - st.rate * (m_now - st.lastT)), st.job});
        const std::uint32_t cls = m_solver.classOf(gu.unit);
        if (cls >= own.size())
            own.resize(cls + 1, 0);
        own[cls] = 1;
    }
    // A link direction's seed: the other traffic on it, each solver class by its content (so
    // identical traffic of another job or step gives the same seed), units and weight.
    std::vector<MaxMinSolver::ClassOnLink> on;
    auto linkSeed = [&](LinkDir ld, std::vector<std::uint64_t> &words) {
        on.clear();
        m_solver.classesOn(ld, on);
        std::erase_if(on, [&own](const MaxMinSolver::ClassOnLink &x) {
            return x.cls < own.size() && own[x.cls];
        });
        std::sort(on.begin(), on.end(), [](const auto &a, const auto &b) {
            return std::tie(a.content, a.units, a.weight) < std::tie(b.content, b.units, b.weight);
        });
        for (const auto &x : on) {
            words.push_back(x.content);
            words.push_back(x.units);
            words.push_back(std::bit_cast<std::uint64_t>(x.weight));
        }
    };
    // The refinement depends only on the classes refined, which of them are live in which
    // units, and the seeds: the same situation (every micro-batch of a pipeline meets the same
    // traffic) is refined once. A hit must refine the same classes with the same units; a key
    // colliding only in the seeds can give classes that fail their certificate, which are then
    // refined afresh (`fresh`).
    std::uint64_t key = 0xcbf29ce484222325ull;
    auto mixIn = [&key](std::uint64_t v) { key = (key ^ v) * 0x100000001b3ull; };
    mixIn(g.phase->id);
    std::vector<std::uint64_t> words;
    const std::uint32_t stamp = ++m_refineStamp;
    for (const Live &l : live) {
        mixIn(l.cls);
        for (const RouteEntry &e : g.phase->classes.classes[l.cls].entries) {
            if (m_refineMark[e.linkDir] == stamp)
                continue;
            m_refineMark[e.linkDir] = stamp;
            words.clear();
            linkSeed(e.linkDir, words);
            mixIn(e.linkDir);
            mixIn(words.size());
            for (std::uint64_t w : words)
                mixIn(w);
        }
    }
    std::vector<std::uint32_t> liveClasses(live.size());
    for (std::size_t u = 0; u < live.size(); ++u)
        liveClasses[u] = live[u].cls;
    std::shared_ptr<PhaseClasses> refined;
    if (!g.fresh)
        if (auto hit = m_refinements.find(key); hit != m_refinements.end()
            && hit->second->source == g.phase->id && hit->second->sourceUnits == liveClasses)
            refined = hit->second;
    const bool cached = refined != nullptr;
    m_aggregation.cachedRefinements += cached ? 1 : 0;
    bool singles = false;
    if (!refined) {
        refined = std::make_shared<PhaseClasses>();
        refined->id = ++m_phaseIds;
        refined->source = g.phase->id;
        refined->sourceUnits = std::move(liveClasses);
        std::vector<std::uint64_t> seed;
        for (std::uint32_t u = 0; u < live.size(); ++u)
            for (std::uint32_t i : g.phase->classes.classes[live[u].cls].members) {
                Flow f = g.phase->flows[i];
                f.bytes = 1; // a unit's members have equal bytes; the seed keeps units apart
                refined->flows.push_back(f);
                refined->unitOf.push_back(u);
                seed.push_back(u);
            }
        FlowSeeds seeds;
        seeds.flow = seed;
        seeds.link = linkSeed;
        refined->classes = symmetricFlowClasses(m_router, refined->flows, seeds);
        refined->aggregate = true;
        // Progress is a finer partition of the flows or of their link directions (a unit keeps
        // its flows but its bottleneck directions are told apart from the others). Without it
        // the rates are off for a reason the refinement cannot see (rounding): single flows.
        std::vector<char> wasLive(g.phase->classes.classes.size(), 0);
        for (const Live &l : live)
            wasLive[l.cls] = 1;
        singles = refined->classes.classes.size() <= live.size()
            && linkCells(refined->classes, {}) <= linkCells(g.phase->classes, wasLive);
        if (!singles) {
            if (m_refinedFlows > kCoupledEntryLimit) {
                m_refinements.clear();
                m_refinedFlows = 0;
            }
            m_refinedFlows += refined->flows.size();
            for (const FlowClass &k : refined->classes.classes)
                m_refinedFlows += k.entries.size();
            m_refinements[key] = refined;
        }
    }
    for (const Live &l : live)
        own[m_solver.classOf(l.unit)] = 0;
    ++(singles ? m_aggregation.splitPhases : m_aggregation.refinedPhases);
    for (const Live &l : live) {
        UnitState &st = m_unitState[l.unit];
        st.alive = false;
        st.group = 0;
        m_solver.remove(l.unit);
        --m_jobs[l.job].outstanding;
    }
    const std::uint32_t ng = ++m_groupCount;
    Group &n = m_groups[ng];
    n.phase = refined;
    n.fresh = cached; // classes from the cache that fail are refined afresh
    for (std::uint32_t c = 0; c < refined->classes.classes.size(); ++c) {
        const FlowClass &k = refined->classes.classes[c];
        const Live &from = live[refined->unitOf[k.members.front()]];
        if (singles || k.members.size() == 1) {
            for (std::uint32_t i : k.members) {
                const Flow &f = refined->flows[i];
                const Live &l = live[refined->unitOf[i]];
                addUnit(l.job, m_router.route(f.src, f.dst).entries, l.left, f.maxRate, 0, 0,
                        false);
                ++m_aggregation.splitFlows;
            }
            continue;
        }
        n.units.push_back(
            {addUnit(from.job, k.entries, from.left, refined->flows[k.members.front()].maxRate,
                     aggregateKey(refined->id, c), ng, false, k.cells),
             c});
        ++n.alive;
    }
    if (n.units.empty())
        m_groups.erase(ng);
}

MaxMinSolver::UnitId FlowNetwork::addUnit(JobId jobId, std::span<const RouteEntry> entries,
                                          double bytes, double cap, std::uint64_t classKey,
                                          std::uint32_t group, bool countMirror,
                                          std::span<const std::uint32_t> cells)
{
    const MaxMinSolver::UnitId u = m_solver.add(entries, cap, classKey, group, cells);
    if (u >= m_unitState.size())
        m_unitState.resize(u + 1);
    UnitState &st = m_unitState[u];
    st.job = jobId;
    st.remaining = bytes;
    st.rate = 0;
    st.lastT = m_now;
    st.alive = true;
    st.group = group;
    ++st.version;
    Job &job = m_jobs[jobId];
    if (countMirror && job.tag < m_mirroredTag.size() && m_mirroredTag[job.tag])
        for (const RouteEntry &e : entries)
            m_mirrorBytes[e.linkDir] += bytes * e.fraction;
    ++job.outstanding;
    return u;
}

void FlowNetwork::setMirrored(JobTag tag)
{
    if (tag == kNoTag)
        return;
    if (tag >= m_mirroredTag.size())
        m_mirroredTag.resize(std::size_t(tag) + 1, 0);
    m_mirroredTag[tag] = 1;
    m_mirrorBytes.resize(m_slot.size(), 0.0);
}

double FlowNetwork::mirroredBytes(std::size_t linkIndex, int dir) const
{
    const std::size_t ld = 2 * linkIndex + static_cast<std::size_t>(dir);
    return ld < m_mirrorBytes.size() ? m_mirrorBytes[ld] : 0.0;
}

void FlowNetwork::recordTagLinks(JobTag tag, std::span<const RouteEntry> entries)
{
    auto &links = m_tagLinks[tag];
    for (const RouteEntry &e : entries)
        links.push_back(e.linkDir / 2);
    if (links.size() > 4096) {
        std::sort(links.begin(), links.end());
        links.erase(std::unique(links.begin(), links.end()), links.end());
        links.reserve(2 * links.size());
    }
}

void FlowNetwork::endPhase(JobId jobId)
{
    Job &job = m_jobs[jobId];
    ++job.phase;
    if (job.phase < job.phases.size())
        push(m_now + job.phases[job.phase].latency, jobId, kPhaseStart);
    else
        startPhase(jobId); // completes the job
}

void FlowNetwork::unitDone(MaxMinSolver::UnitId u)
{
    UnitState &st = m_unitState[u];
    st.alive = false;
    if (st.group != 0) {
        auto it = m_groups.find(st.group);
        if (it != m_groups.end() && --it->second.alive == 0)
            m_groups.erase(it);
        st.group = 0;
    }
    m_solver.remove(u);
    Job &job = m_jobs[st.job];
    if (--job.outstanding == 0)
        endPhase(st.job);
}

void FlowNetwork::resolve()
{
    for (;;) {
        m_solver.solve(m_scratchUnits, m_scratchLinks, m_scratchGroups);
        if (m_scratchGroups.empty())
            break;
        for (std::uint32_t g : m_scratchGroups)
            refineGroup(g);
    }
    if (m_options.recordStats) {
        for (LinkDir ld : m_scratchLinks) {
            const double load = m_solver.load(ld);
            if (m_slot[ld] < 0) {
                if (load <= 0)
                    continue;
                m_slot[ld] = static_cast<std::int32_t>(m_stats.size());
                m_stats.emplace_back();
                m_stats.back().linkDir = ld;
                m_stats.back().lastT = m_now;
                if (m_options.seriesBuckets > 0) {
                    float *b = poolSlot(m_stats.size() - 1);
                    std::fill(b, b + m_options.seriesBuckets, 0.0f);
                }
            }
            DirStats &s = m_stats[static_cast<std::size_t>(m_slot[ld])];
            if (load == s.load)
                continue; // integrated when it changes
            integrate(ld, m_now);
            s.load = load;
        }
    }
    for (MaxMinSolver::UnitId u : m_scratchUnits) {
        UnitState &st = m_unitState[u];
        st.remaining = std::max(0.0, st.remaining - st.rate * (m_now - st.lastT));
        st.rate = m_solver.rate(u);
        st.lastT = m_now;
        ++st.version;
        if (!(st.rate > 0))
            throw std::logic_error("network: a flow was given no bandwidth");
        push(m_now + st.remaining / st.rate, u, st.version);
    }
}

void FlowNetwork::integrate(LinkDir ld, double t)
{
    DirStats &s = m_stats[static_cast<std::size_t>(m_slot[ld])];
    if (t > s.lastT && s.load > 0) {
        const double dt = t - s.lastT;
        // The peak of loads held for a time: not of the instants between flow ends a rounding
        // error apart (flows of one kind finishing 1e-18 s apart).
        if (dt > 1e-12 * t)
            s.peak = std::max(s.peak, s.load / m_solver.capacity(ld));
        s.bytes += s.load * dt;
        s.busy += dt;
        if (m_options.seriesBuckets > 0)
            addToSeries(static_cast<std::size_t>(m_slot[ld]), s.lastT, t,
                        s.load / m_solver.capacity(ld));
    }
    s.lastT = std::max(s.lastT, t);
}

// Buckets of width s.width cover [0, N x width); the width doubles (merging bucket pairs) when
// time runs past the end, so memory stays N floats per link direction whatever the step length.
// The first width is set by the first change of the direction's load (it is integrated only
// when its load changes), so it depends on this direction's traffic alone.
void FlowNetwork::addToSeries(std::size_t slot, double t0, double t1, double util)
{
    DirStats &s = m_stats[slot];
    const auto n = static_cast<std::size_t>(m_options.seriesBuckets);
    float *buckets = poolSlot(slot);
    if (s.width == 0)
        s.width = std::max(t1, 1e-9) / static_cast<double>(n);
    while (t1 > s.width * static_cast<double>(n) * (1 + 1e-12)) {
        for (std::size_t i = 0; i < n; ++i)
            buckets[i] = i < (n + 1) / 2
                ? buckets[2 * i] + (2 * i + 1 < n ? buckets[2 * i + 1] : 0.0f)
                : 0.0f;
        s.width *= 2;
    }
    auto b = static_cast<std::size_t>(t0 / s.width);
    for (; b < n && static_cast<double>(b) * s.width < t1; ++b) {
        const double lo = std::max(t0, static_cast<double>(b) * s.width);
        const double hi = std::min(t1, static_cast<double>(b + 1) * s.width);
        if (hi > lo)
            buckets[b] += static_cast<float>(util * (hi - lo));
    }
}

float *FlowNetwork::poolSlot(std::size_t slot)
{
    auto &chunks = m_pool;
    const auto n = static_cast<std::size_t>(m_options.seriesBuckets);
    while (slot / kChunkSlots >= chunks.size())
        chunks.push_back(std::make_unique_for_overwrite<float[]>(kChunkSlots * n));
    return chunks[slot / kChunkSlots].get() + (slot % kChunkSlots) * n;
}

void FlowNetwork::finish(double endTime)
{
    if (endTime < m_now)
        throw std::invalid_argument("network: finish time before the current time");
    m_final.assign(m_stats.size(), LinkDirStats {});
    const auto n = static_cast<std::size_t>(m_options.seriesBuckets);
    m_bucketSeconds = n > 0 ? endTime / static_cast<double>(n) : 0.0;
    for (std::size_t k = 0; k < m_stats.size(); ++k) {
        DirStats &s = m_stats[k];
        integrate(s.linkDir, endTime);
        LinkDirStats &f = m_final[k];
        const double cap = m_solver.capacity(s.linkDir);
        f.bytes = s.bytes;
        f.busyTime = s.busy;
        f.peakUtilization = s.peak;
        f.averageUtilization = endTime > 0 ? s.bytes / (cap * endTime) : 0.0;
        if (s.width == 0 || !(m_bucketSeconds > 0))
            continue;
        // Re-bin the doubling buckets onto N buckets over [0, endTime], uniform within a bucket's
        // time before endTime (nothing was integrated after it).
        const float *buckets = poolSlot(k);
        m_rebin.assign(n, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            const double lo = static_cast<double>(i) * s.width;
            const double hi = std::min(lo + s.width, endTime);
            if (buckets[i] == 0.0f || !(hi > lo))
                continue;
            for (auto j = static_cast<std::size_t>(lo / m_bucketSeconds); j < n; ++j) {
                const double a = std::max(lo, static_cast<double>(j) * m_bucketSeconds);
                const double b = std::min(hi, static_cast<double>(j + 1) * m_bucketSeconds);
                if (b <= a)
                    break;
                m_rebin[j] += buckets[i] * (b - a) / (hi - lo);
            }
        }
        f.series.resize(n);
        for (std::size_t j = 0; j < n; ++j)
            f.series[j] = static_cast<float>(std::min(1.0, m_rebin[j] / m_bucketSeconds));
    }
}

const LinkDirStats &FlowNetwork::linkStats(std::size_t linkIndex, int dir) const
{
    static const LinkDirStats empty;
    const std::size_t ld = 2 * linkIndex + (dir ? 1 : 0);
    if (ld >= m_slot.size() || m_slot[ld] < 0
        || static_cast<std::size_t>(m_slot[ld]) >= m_final.size())
        return empty;
    return m_final[static_cast<std::size_t>(m_slot[ld])];
}

std::vector<std::uint32_t> FlowNetwork::linksOfTag(JobTag tag) const
{
    auto it = m_tagLinks.find(tag);
    if (it == m_tagLinks.end())
        return {};
    std::vector<std::uint32_t> links = it->second;
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

void FlowNetwork::reset()
{
    m_solver.clear();
    m_jobs.clear();
    m_unitState.clear();
    m_events = {};
    m_completed.clear();
    for (const DirStats &s : m_stats)
        m_slot[s.linkDir] = -1;
    m_stats.clear();
    m_final.clear();
    m_tagLinks.clear();
    m_tagFlows.clear();
    m_groups.clear();
    m_mirroredTag.clear();
    m_mirrorBytes.clear();
    for (auto &[h, cu] : m_coupled)
        cu.tags.clear();
    for (auto &[h, pc] : m_phaseClasses)
        pc->tags.clear();
    m_now = 0;
    m_eventCount = 0;
    m_bucketSeconds = 0;
}

} // namespace weft
