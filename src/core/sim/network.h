#pragma once
// Flow-level network simulation over a design's fabric (simulator.md, Communication).
//
// CONTRACT between the network layer (routing, max-min solver, collective algorithms) and the
// workload/schedule layer. The schedule submits communication *jobs* (a collective or a p2p
// transfer, already expanded into phases of point-to-point flows) at simulated times; the
// network shares link bandwidth among all active flows by max-min fairness, each direction of
// each link separately, recomputing rates whenever a flow starts or ends, and reports when each
// job completes. Units: seconds, bytes, bytes/s.

#include "model/design.h"

#include <cstdint>
#include <vector>

namespace weft {

/// One point-to-point flow between two accelerators.
struct Flow
{
    NodeId src;
    NodeId dst;
    double bytes = 0;
};

/// One phase of a job: all its flows start together after `latency` seconds; the phase ends
/// when the last flow has delivered its bytes. The next phase starts then.
struct Phase
{
    std::vector<Flow> flows;
    double latency = 0;  ///< fixed cost before the flows start (alpha terms), seconds
};

using JobId = std::uint32_t;

/// Link statistics per direction (dir 0: a->b, dir 1: b->a), over the simulated interval.
struct LinkDirStats
{
    double bytes = 0;          ///< bytes carried
    double busyTime = 0;       ///< seconds with at least one flow on it
    double peakUtilization = 0;  ///< max over time of (allocated rate / achievable capacity)
    std::vector<float> series; ///< utilization per time bucket (see FlowNetwork::setSeriesBuckets)
};

/// Options of the network model.
struct NetworkOptions
{
    bool pxn = true;             ///< inter-domain traffic may hop over NVLink to the rail-matched GPU
    int seriesBuckets = 100;     ///< time buckets of each link's utilization series
    std::uint64_t maxEvents = 50'000'000; ///< event-loop bound; exceeding it is reported, not hung
};

/// Event-driven flow simulator. Built once per design (routing tables are computed lazily and
/// cached); then jobs are submitted and the clock advanced by the caller's event loop.
///
/// Usage from a discrete-event schedule:
///   FlowNetwork net(design, opts);
///   JobId j = net.submit(phases, t);            // t >= net.now()
///   while (...) {
///       double tNet = net.nextCompletionTime();  // +inf if nothing is in flight
///       double tNext = std::min(tNet, myNextComputeEvent);
///       std::vector<JobId> done = net.advanceTo(tNext); // jobs completed at exactly tNext
///       ...
///   }
/// Errors: a flow between nodes with no path throws UnroutableError naming both ends.
class FlowNetwork;

} // namespace weft
