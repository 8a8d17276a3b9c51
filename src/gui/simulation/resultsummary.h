#pragma once
// One-line summaries of a simulation result for the status bar and the Results dock: step time,
// tokens/s, MFU and the largest exposed cost of the step (the part of the breakdown, other than
// compute, that costs the most).

#include "sim/result.h"

#include <QString>
#include <optional>

namespace weft {

/// The largest non-compute part of `b`: its name ("exposed TP", "bubble", "optimizer", ...)
/// and its duration in seconds. Empty name when every part is zero.
std::pair<QString, double> largestExposed(const Breakdown &b);

/// "Step 1.23 s · 45.1k tokens/s · MFU 41.2% · largest overhead: exposed DP 120 ms"; for a failed
/// result the first error's message.
QString summaryText(const SimResult &result);

/// What the status bar and the Results dock say about the design's simulation: an empty design
/// (no accelerator, as the empty charts say: resultChartHint), no workload,
/// why it cannot be simulated (the first error of `findings` when the result is missing or
/// `stale`), the result's summary (marked out of date when `stale`), or that it waits for
/// Simulate.
/// With `faults` > 0 the result is of the design with its what-if faults applied: the summary
/// starts with whatIfText(), then the faulted step's own summary.
QString statusSummary(bool hasAccelerators, bool hasWorkload, const SimResult *result, bool stale,
                      const std::vector<Finding> &findings, int faults = 0,
                      std::optional<double> healthyStepTime = {});

/// What the Results dock's charts show while they have no result to plot: that the design is
/// empty (no accelerator), that it needs a workload, that it has one and waits for Simulate,
/// or that its simulation failed. Lines separated by '\n'.
QString resultChartHint(bool hasAccelerators, bool hasWorkload, const SimResult *result);

/// "What if (2 faults): slowdown ×1.083 (+8.3%) against healthy 1.20 s" for a faulted step of
/// `stepTime`; without the healthy step time (it could not be simulated) it says so. Times in s.
QString whatIfText(int faults, double stepTime, std::optional<double> healthyStepTime);

/// A duration in seconds as text with a fitting unit (µs, ms, s).
QString durationText(double seconds);

/// A memory size in bytes as GB (1e9 bytes) with one decimal, as weft-cli prints memory: "85.5"
/// for an H100's HBM (the 0-decimal "86" beside the command line's 85.5 read as another figure).
QString gigabytesText(double bytes);

} // namespace weft
