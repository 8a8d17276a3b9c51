#include "sweepoutput.h"

#include "command.h"
#include "designinput.h"
#include "gui/charts/chartreport.h"
#include "gui/charts/sweepchartdata.h"
#include "io/sweepjson.h"

namespace weft::cli {

int writeSweepOutputs(const QString &command, const SweepTable &table, const QDir &dir,
                      const QString &base, bool chart)
{
    const QString json = dir.filePath(base + QStringLiteral(".json"));
    const QString csv = dir.filePath(base + QStringLiteral(".csv"));
    if (!writeTextFile(command, json, sweepToJson(table))
        || !writeTextFile(command, csv, sweepToCsv(table)))
        return ExitUsage;
    out(json);
    out(csv);
    if (!chart)
        return ExitOk;
    ReportChartData charts;
    charts.sweep = sweepChartData(table);
    if (charts.sweep->series.empty()) {
        err(QStringLiteral("weft-cli %1: no variant ran, so there is no chart").arg(command));
        return ExitInvalid;
    }
    QString error;
    for (const QString &f : renderReportCharts(
             charts, dir.path(), ChartFormat::Png | ChartFormat::Pdf | ChartFormat::Svg,
             ChartExportOptions {}, &error))
        out(f);
    if (!error.isEmpty()) {
        err(QStringLiteral("weft-cli %1: %2").arg(command, error));
        return ExitUsage;
    }
    return ExitOk;
}

} // namespace weft::cli
