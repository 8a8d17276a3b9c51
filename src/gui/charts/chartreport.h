#pragma once
// Headless rendering of every chart of a report from data to files, without showing a window:
// what `weft-cli report` calls (run it under QT_QPA_PLATFORM=offscreen). Needs a QApplication
// (the charts are widgets).

#include "chartdata.h"
#include "chartexporter.h"

#include <optional>

namespace weft {

/// The charts of one report; absent members are skipped.
struct ReportChartData
{
    std::optional<BreakdownChartData> breakdown;
    std::optional<TimelineChartData> timeline;
    std::optional<UtilizationChartData> utilization;
    std::optional<LinkSeriesChartData> linkSeries;
    std::optional<MemoryChartData> memory;
    std::optional<CollectiveChartData> collective;
    std::optional<SweepChartData> sweep;
    /// Why `collective` is empty when it was asked for (no group of 2+ GPUs, or what keeps
    /// the group from being routed); empty otherwise.
    QString collectiveNote;
};

/// Builds each present chart (light palette, report fonts) and writes
/// `dir`/<chart id>.<ext> for every format. Returns the written paths in chart order. On
/// error (no QApplication, invalid data, unwritable file) stops and sets *error naming the
/// chart and the cause; files already written stay.
QStringList renderReportCharts(const ReportChartData &data, const QString &dir,
                               ChartFormats formats, const ChartExportOptions &options,
                               QString *error = nullptr);

} // namespace weft
