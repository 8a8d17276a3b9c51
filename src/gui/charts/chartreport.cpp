#include "chartreport.h"

#include "breakdownchart.h"
#include "collectivechart.h"
#include "linkserieschart.h"
#include "memorychart.h"
#include "sweepchart.h"
#include "timelinechart.h"
#include "utilizationchart.h"

#include <QApplication>

namespace weft {

namespace {

// Builds a ChartType from data and exports it; false (with *error) on invalid data or I/O.
template<typename ChartType, typename Data>
bool renderOne(const std::optional<Data> &data, const QString &dir, ChartFormats formats,
               const ChartExportOptions &options, QStringList *written, QString *error)
{
    if (!data)
        return true;
    ChartType chart;
    chart.setPalette(lightChartPalette());
    chart.resize(options.size);
    QString dataError;
    if (!chart.setData(*data, &dataError)) {
        if (error)
            *error = QStringLiteral("chart '%1': %2").arg(chart.chartId(), dataError);
        return false;
    }
    QString exportError;
    *written << ChartExporter::exportChart(chart, dir, formats, options, &exportError);
    if (!exportError.isEmpty()) {
        if (error)
            *error = QStringLiteral("chart '%1': %2").arg(chart.chartId(), exportError);
        return false;
    }
    return true;
}

} // namespace

QStringList renderReportCharts(const ReportChartData &data, const QString &dir,
                               ChartFormats formats, const ChartExportOptions &options,
                               QString *error)
{
    QStringList written;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        if (error)
            *error = QStringLiteral(
                "rendering charts needs a QApplication (use QT_QPA_PLATFORM=offscreen "
                "when there is no display)");
        return written;
    }
    const bool ok
        = renderOne<BreakdownChart>(data.breakdown, dir, formats, options, &written, error)
        && renderOne<TimelineChart>(data.timeline, dir, formats, options, &written, error)
        && renderOne<UtilizationChart>(data.utilization, dir, formats, options, &written, error)
        && renderOne<LinkSeriesChart>(data.linkSeries, dir, formats, options, &written, error)
        && renderOne<MemoryChart>(data.memory, dir, formats, options, &written, error)
        && renderOne<CollectiveChart>(data.collective, dir, formats, options, &written, error)
        && renderOne<SweepChart>(data.sweep, dir, formats, options, &written, error);
    Q_UNUSED(ok);
    return written;
}

} // namespace weft
