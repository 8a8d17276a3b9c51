#include "sweepchartdata.h"

#include <QLocale>

namespace weft {

SweepChartData sweepChartData(const SweepTable &table, const QString &label)
{
    SweepChartData data;
    data.parameter = QString::fromStdString(sweepParamTitle(table.param));
    data.parameterUnit = QString::fromStdString(sweepParamUnit(table.param));
    data.logScale = table.param == SweepParam::ScaleUpDomain || table.param == SweepParam::Tp
        || table.param == SweepParam::Pp || table.param == SweepParam::Dp;
    SweepSeries series;
    series.label = label.isEmpty() ? QString::fromStdString(table.design) : label;
    for (const SweepRow &r : table.rows) {
        if (r.ok) {
            series.points.push_back({r.value, r.stepTime, r.mfu});
            continue;
        }
        const QString value = QLocale::c().toString(r.value, 'g', 6)
            + (data.parameterUnit.isEmpty() ? QString() : u' ' + data.parameterUnit);
        data.notPlotted << QStringLiteral("%1%2 %3: %4")
                               .arg(label.isEmpty() ? QString() : label + QStringLiteral(", "),
                                    data.parameter, value, QString::fromStdString(r.reason));
    }
    if (!series.points.empty())
        data.series.push_back(std::move(series));
    return data;
}

SweepChartData combineSweepChartData(const SweepChartData &data, const SweepChartData &more)
{
    if (data.parameter != more.parameter || data.parameterUnit != more.parameterUnit)
        return more;
    SweepChartData combined = data;
    combined.series.insert(combined.series.end(), more.series.begin(), more.series.end());
    combined.notPlotted << more.notPlotted;
    return combined;
}

} // namespace weft
