#pragma once
// Thin adapters from the simulator's SimResult (core/sim/result.h, SI units) to the chart
// data structs. They only regroup and relabel; no unit conversion happens here.

#include "chartdata.h"
#include "sim/result.h"

#include <functional>

namespace weft {

/// The step-time breakdown of one simulated design, labelled `design`.
StepBreakdown stepBreakdown(const SimResult &result, const QString &design);

/// One row per pipeline stage, from the timeline of the stage's lowest rank: the compute part
/// of a forward or backward op [start, computeEnd] as Forward/Backward, its exposed
/// communication [computeEnd, end] as Communication, DP communication as Communication and
/// the optimizer as Optimizer. Accelerators without a timeline are skipped.
TimelineChartData timelineChartData(const SimResult &result);

/// Average utilization of both directions of every link with capacity, grouped by tier in
/// the order scale-up, nic, leaf, spine, core, then any other tier in order of appearance.
UtilizationChartData utilizationChartData(const SimResult &result);

/// The utilization series of both directions of link `link`, labelled "a -> b" and "b -> a"
/// with `nodeName`. Returns an empty struct when the link is not in the result or has no series.
LinkSeriesChartData linkSeriesChartData(const SimResult &result, LinkId link,
                                        const std::function<QString(NodeId)> &nodeName);

/// One bar per pipeline stage: the memory of the stage's fullest accelerator, labelled
/// "stage s"; accelerators without a stage are skipped.
MemoryChartData memoryChartData(const SimResult &result);

} // namespace weft
