#pragma once
// From a sweep table (core/sweep) to the sweep chart's data: what `weft-cli sweep`,
// `weft-cli sweep-merge` and the GUI's sweep dialog plot.

#include "chartdata.h"
#include "sweep/sweep.h"

namespace weft {

/// The sweep chart of `table`: one series labelled `label` (the design name when empty) with
/// the variants that ran (step time s, MFU fraction), the parameter's title and unit, a log2
/// axis for the power-of-two parameters (domain size, TP, PP, DP), and one `notPlotted` line
/// per variant that did not run or does not fit ("TP degree 16: peak memory ...", prefixed
/// with "<label>, " when a label is given).
SweepChartData sweepChartData(const SweepTable &table, const QString &label = {});

/// `data` with the series and notes of `more` added (e.g. a second design swept over the
/// same parameter). When the parameters differ, returns `more` alone.
SweepChartData combineSweepChartData(const SweepChartData &data, const SweepChartData &more);

} // namespace weft
