#pragma once
// Flow-level network simulation over a design's fabric (simulator.md, Communication).
//
// CONTRACT between the network layer (routing, max-min solver, collective algorithms) and the
// workload/schedule layer. The schedule submits communication *jobs* (a collective or a p2p
// transfer, already expanded into phases of point-to-point flows, see collectives.h) at
// simulated times; the network shares link bandwidth among all active flows by max-min
// fairness, each direction of each link separately, recomputing rates whenever a flow starts or
// ends, and reports when each job completes. Units: seconds, bytes, bytes/s.
//
// Symmetric flows as classes (NetworkOptions::aggregate; issue 14): a phase of many flows (an
// all-to-all) is partitioned into symmetry classes (flowclasses.h); each class is one solver
// unit loading each link direction with the sum of its members' fractions, so the solver's
// work and the events scale with classes, not flows. All phases with the same classes form one
// aggregate *group*. Exactness: on a symmetric fabric every member of a class gets the same
// max-min rate (flowclasses.h), and against any other traffic the solver certifies each
// aggregate after every solve (a link class on every direction of which it is a bottleneck, see
// flowsolver.h), so the per-flow expansion is the per-flow max-min allocation. An aggregate
// without a certificate (a DP ring over some of its NICs) has its group refined: its flows, with
// the bytes they have left, are partitioned again with the other traffic on their links as
// part of the first colours, which is exact for that traffic (and checked again after every
// solve); only if that splits nothing do they become single flows (AggregationStats counts it).
// Where the fabric is not symmetric, the refinement splits only the classes it touches.

#include "model/design.h"
#include "sim/flowsolver.h"
#include "sim/routing.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace weft {

/// One point-to-point flow between two nodes (accelerators; a scale-up switch for in-network
/// reduction).
struct Flow
{
    NodeId src;
    NodeId dst;
    double bytes = 0;
    /// Rate cap of this flow, bytes/s (in-switch reduction throughput); +inf: none.
    double maxRate = std::numeric_limits<double>::infinity();
};

/// One phase of a job: all its flows start together after `latency` seconds; the phase ends
/// when the last flow has delivered its bytes. The next phase starts then.
struct Phase
{
    std::vector<Flow> flows;
    double latency = 0; ///< fixed cost before the flows start (alpha terms), seconds
    /// Pipelined phase (a ring in steady state): the flows advance in lock-step, each at a rate
    /// proportional to its bytes, so the phase moves at the pace of its most constrained flow
    /// and all its flows end together. Solved as one max-min unit.
    bool coupled = false;
};

using JobId = std::uint32_t;
/// Caller-chosen label of a job (e.g. a parallel group index) to collect the links it crossed.
using JobTag = std::uint32_t;
inline constexpr JobTag kNoTag = std::numeric_limits<JobTag>::max();

/// Link statistics per direction (dir 0: a->b, dir 1: b->a), over [0, end] of finish(end).
struct LinkDirStats
{
    double bytes = 0; ///< bytes carried
    double busyTime = 0; ///< seconds with at least one flow on it
    double averageUtilization = 0; ///< bytes / (achievable capacity x end)
    /// Max over time of (allocated rate / achievable capacity), over loads held for more than
    /// 1e-12 of the elapsed time (not the instants between flow ends a rounding error apart).
    double peakUtilization = 0;
    /// Average utilization per time bucket: NetworkOptions::seriesBuckets buckets of
    /// FlowNetwork::seriesBucketSeconds(); empty if the direction never carried traffic.
    std::vector<float> series;
};

/// Options of the network model.
struct NetworkOptions
{
    bool pxn = true; ///< inter-domain traffic may hop over NVLink to the rail-matched GPU
    int seriesBuckets = 100; ///< time buckets of each link's utilization series (0: none)
    std::uint64_t maxEvents = 50'000'000; ///< event-loop bound; exceeding it throws EventLimitError
    bool recordStats = true; ///< per-link statistics (off for quick estimates)
    /// Symmetric flows of a phase solved as classes (flowclasses.h); off: flow by flow (the
    /// reference the tests compare against). The answers are the same to rounding.
    bool aggregate = true;
    /// Phases with fewer moving flows are solved flow by flow (refinement would cost more).
    std::size_t aggregateMinFlows = 16;
};

/// What the symmetry aggregation did (FlowNetwork::aggregation), counted since construction.
struct AggregationStats
{
    std::uint64_t phases = 0; ///< phases refined (>= aggregateMinFlows moving flows)
    std::uint64_t flows = 0; ///< their moving flows
    std::uint64_t units = 0; ///< solver units they became (one per class)
    /// Flows in classes of one flow: the fabric (or the traffic) is not symmetric for them
    /// (a failed or slower link, an uneven group), so they are solved one by one.
    std::uint64_t asymmetricFlows = 0;
    /// Groups whose classes shared a saturable link direction with other traffic that broke
    /// their symmetry, refined into finer classes against that traffic (exact either way).
    std::uint64_t refinedPhases = 0;
    /// Of those, refinements met before and taken from the cache.
    std::uint64_t cachedRefinements = 0;
    /// Groups the refinement could not split, solved as single flows from then on, and the
    /// flows that became single-flow units either way.
    std::uint64_t splitPhases = 0;
    std::uint64_t splitFlows = 0;
};

/// The event loop passed NetworkOptions::maxEvents events (a runaway simulation), reported
/// instead of hanging.
class EventLimitError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Event-driven flow simulator. Built once per design (routing tables are computed lazily and
/// cached); then jobs are submitted and the clock advanced by the caller's event loop.
///
/// Usage from a discrete-event schedule:
///   FlowNetwork net(design, opts);
///   JobId j = net.submit(phases, t, tag);       // t >= net.now()
///   while (...) {
///       double tNet = net.nextCompletionTime();  // +inf if nothing is in flight
///       double tNext = std::min(tNet, myNextComputeEvent);
///       std::vector<JobId> done = net.advanceTo(tNext); // jobs completed in (previous, tNext]
///       ...
///   }
///   net.finish(stepEnd);                         // closes the link statistics
///   net.linkStats(i, dir); net.linksOfTag(tag); net.reset(); // next step
/// Errors: a flow between nodes with no path throws UnroutableError (from submit) naming both
/// ends; more than maxEvents events throw EventLimitError.
class FlowNetwork
{
public:
    FlowNetwork(const Design &design, NetworkOptions options = {});
    /// Shares an existing router (and its route cache), which must outlive the network;
    /// NetworkOptions::pxn is then the router's.
    FlowNetwork(const Router &router, NetworkOptions options);
    ~FlowNetwork();
    FlowNetwork(const FlowNetwork &) = delete;
    FlowNetwork &operator=(const FlowNetwork &) = delete;

    /// Submits a job whose first phase starts at `startTime` (>= now()) plus its latency.
    /// Every flow is routed here, so an unroutable flow throws UnroutableError now.
    /// Flows with zero bytes or src == dst cost nothing; a job without bytes ends after its
    /// latencies. Throws std::invalid_argument for a start in the past or negative bytes.
    JobId submit(std::vector<Phase> phases, double startTime, JobTag tag = kNoTag);
    /// Time of the next internal event (a phase start or a flow end), +inf when idle. Advancing
    /// there completes zero or more jobs.
    [[nodiscard]] double nextCompletionTime() const;
    /// Advances the clock to `t` (>= now()), processing every event up to t; returns the jobs
    /// completed at or before t since the previous call, in completion order.
    std::vector<JobId> advanceTo(double t);
    /// Runs until every submitted job has completed; returns the time.
    double runUntilIdle();
    [[nodiscard]] double now() const { return m_now; }
    /// Completion time of a job, NaN while it runs. Throws std::out_of_range for unknown ids.
    [[nodiscard]] double jobFinishTime(JobId job) const;
    [[nodiscard]] std::size_t activeFlowUnits() const { return m_solver.liveUnits(); }
    [[nodiscard]] std::uint64_t eventCount() const { return m_eventCount; }
    [[nodiscard]] const AggregationStats &aggregation() const { return m_aggregation; }

    /// Closes the statistics at `endTime` (>= now(); in-flight traffic is counted up to it).
    void finish(double endTime);
    /// Statistics of link `linkIndex` (index in Design::links()) in direction `dir`, as of the
    /// last finish(). Untouched directions return all-zero stats.
    [[nodiscard]] const LinkDirStats &linkStats(std::size_t linkIndex, int dir) const;
    /// Width of a series bucket after finish(), seconds (end / seriesBuckets).
    [[nodiscard]] double seriesBucketSeconds() const { return m_bucketSeconds; }
    /// Marks the jobs tagged `tag` as traffic of a simulated DP replica that stands for other,
    /// identically placed replicas: their bytes per link direction are also counted apart
    /// (mirroredBytes), so the caller can copy them onto the other replicas' links.
    void setMirrored(JobTag tag);
    /// Bytes carried by link `linkIndex` in direction `dir` for jobs marked with setMirrored.
    [[nodiscard]] double mirroredBytes(std::size_t linkIndex, int dir) const;
    /// Links (indices in Design::links(), sorted) crossed by the flows of jobs tagged `tag`.
    [[nodiscard]] std::vector<std::uint32_t> linksOfTag(JobTag tag) const;
    /// Forgets every job, flow and statistic and sets the clock to 0 (routing caches stay).
    void reset();

    [[nodiscard]] const Router &router() const { return m_router; }
    [[nodiscard]] const NetworkOptions &options() const { return m_options; }

private:
    struct Job;
    struct UnitState;
    struct DirStats;
    struct Event
    {
        double time;
        std::uint64_t seq;
        std::uint32_t id;
        std::uint32_t version; // kPhaseStart for phase starts
        bool operator>(const Event &o) const
        {
            return time != o.time ? time > o.time : seq > o.seq;
        }
    };

    FlowNetwork(std::unique_ptr<Router> own, const Router *shared, NetworkOptions options);
    void push(double time, std::uint32_t id, std::uint32_t version);
    void startPhase(JobId job);
    void endPhase(JobId job);
    void unitDone(MaxMinSolver::UnitId u);
    void resolve();
    void integrate(LinkDir ld, double t);
    /// A coupled phase's flows merged into one solver unit: each link direction once, weighted
    /// by the members' shares of the largest member's bytes. Cached, since the same rings run
    /// again and again (every gradient bucket of a DP group, every layer's TP collective).
    struct CoupledUnit
    {
        std::vector<Flow> flows; ///< key: ends, bytes / largest bytes, cap of moving members
        std::vector<RouteEntry> entries;
        double cap = std::numeric_limits<double>::infinity();
        std::uint64_t key = 0; ///< solver class key: identical units share a class
        std::vector<JobTag> tags; ///< tags whose links already list these entries
    };
    CoupledUnit &coupledUnit(const std::vector<Flow> &flows, double maxBytes);
    /// The symmetry classes of a phase's flows (flowclasses.h), cached by the flows.
    struct PhaseClasses;
    std::shared_ptr<PhaseClasses> phaseClasses(const std::vector<Flow> &flows);
    void startAggregated(JobId job, const std::shared_ptr<PhaseClasses> &pc,
                         const std::vector<Flow> &flows);
    /// Replaces the units of aggregate group `group`, whose symmetry other traffic broke, by
    /// the classes of its flows (with the bytes they have left) refined against the traffic now
    /// on their links (flowclasses.h, FlowSeeds): a new group, exact while that traffic stays.
    /// If that splits nothing, by one unit per flow.
    void refineGroup(std::uint32_t group);
    MaxMinSolver::UnitId addUnit(JobId job, std::span<const RouteEntry> entries, double bytes,
                                 double cap, std::uint64_t classKey, std::uint32_t group = 0,
                                 bool countMirror = true,
                                 std::span<const std::uint32_t> cells = {});
    void recordTagLinks(JobTag tag, std::span<const RouteEntry> entries);
    void addToSeries(std::size_t slot, double t0, double t1, double util);

    NetworkOptions m_options;
    std::unique_ptr<Router> m_ownRouter; ///< set by the Design constructor
    const Router &m_router;
    MaxMinSolver m_solver;
    double m_now = 0;
    std::uint64_t m_seq = 0;
    std::uint64_t m_eventCount = 0;
    std::vector<Job> m_jobs;
    std::vector<UnitState> m_unitState;
    mutable std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    std::vector<JobId> m_completed;
    std::vector<std::int32_t> m_slot; ///< link direction -> index in m_stats, -1 untouched
    std::vector<DirStats> m_stats;
    std::vector<LinkDirStats> m_final;
    /// seriesBuckets floats per m_stats slot, in chunks kept across reset() (no reallocation,
    /// no fresh pages for every step).
    std::vector<std::unique_ptr<float[]>> m_pool;
    float *poolSlot(std::size_t slot);
    std::vector<double> m_rebin;
    double m_bucketSeconds = 0;
    std::map<JobTag, std::vector<std::uint32_t>> m_tagLinks;
    std::vector<char> m_mirroredTag; ///< by tag: traffic counted in m_mirrorBytes
    std::vector<double> m_mirrorBytes; ///< by link direction, empty until a tag is mirrored
    std::set<std::pair<JobTag, std::uint64_t>> m_tagFlows; ///< (tag, src:dst) already listed
    std::unordered_multimap<std::uint64_t, CoupledUnit> m_coupled; ///< by hash of the key
    std::size_t m_coupledEntries = 0;
    std::uint64_t m_coupledKeys = 0;
    std::vector<Flow> m_scratchKey;
    std::unordered_multimap<std::uint64_t, std::shared_ptr<PhaseClasses>> m_phaseClasses;
    std::size_t m_phaseClassFlows = 0; ///< flows held by m_phaseClasses
    struct GroupUnit
    {
        MaxMinSolver::UnitId unit;
        std::uint32_t cls; ///< index in the phase's classes
    };
    struct Group
    {
        std::shared_ptr<PhaseClasses> phase;
        std::vector<GroupUnit> units;
        std::uint32_t alive = 0; ///< units not done
        bool fresh = false; ///< refine without the cache (its classes came from it)
    };
    std::unordered_map<std::uint32_t, Group> m_groups; ///< live aggregate groups
    std::uint32_t m_groupCount = 0;
    std::uint64_t m_phaseIds = 0;
    /// Refined classes by the situation they were refined in (refineGroup).
    std::unordered_map<std::uint64_t, std::shared_ptr<PhaseClasses>> m_refinements;
    std::size_t m_refinedFlows = 0; ///< flows and class entries held by m_refinements
    std::vector<char> m_refineOwn; ///< by solver class, scratch of refineGroup
    std::vector<std::uint32_t> m_refineMark; ///< by link direction, scratch of refineGroup
    std::uint32_t m_refineStamp = 0;
    AggregationStats m_aggregation;
    std::vector<std::uint32_t> m_scratchGroups;
    std::vector<MaxMinSolver::UnitId> m_scratchUnits;
    std::vector<LinkDir> m_scratchLinks;
    std::vector<double> m_scratchWeight;
    std::vector<std::uint32_t> m_scratchMark;
};

} // namespace weft
