#pragma once
// The charts of a simulation report from one SimResult: what `weft-cli report` renders and
// what the Results dock can show. Pure regrouping, plus one collective sweep (busbw against
// message size of the first TP group, else the first DP group, simulated alone on the fabric).

#include "chartreport.h"
#include "model/design.h"
#include "sim/result.h"

namespace weft {

/// Step-time breakdown, pipeline timeline, link utilization per tier, the series of the
/// busiest link, memory per stage and, when `collective` is set and the result has a group of
/// two or more accelerators, the all-reduce busbw chart of that group. Charts whose data is
/// empty are left out. Requires `result.ok`.
ReportChartData reportChartData(const SimResult &result, const Design &design,
                                bool collective = true);

} // namespace weft
