#pragma once
// Two or more designs on the same axes (product.md, Compare): the report charts of each design
// merged into one set, every element labelled with its design.

#include "chartreport.h"

namespace weft {

/// The charts of one design and its label ("dgx-h100-su", "placement B").
struct LabelledCharts
{
    QString label;
    ReportChartData charts;
};

/// Merges the charts of `designs`, in order:
/// - breakdown: one bar per design, named by its label (side by side);
/// - timeline: every design's rows, labelled "<label>: <row>", on the longest step;
/// - utilization: per tier (in order of first appearance), one box per design that has the
///   tier, named "<tier> · <label>" (UtilizationChart colours by the part before " · ");
/// - memory: every design's bars, labelled "<label>: <bar>";
/// - collective: every design's series, labelled "<label>: <series>".
/// The link series and the sweep are per design and are not merged. A single design is
/// returned as it is, unlabelled.
ReportChartData compareChartData(const std::vector<LabelledCharts> &designs);

} // namespace weft
