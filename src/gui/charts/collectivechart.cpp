#include "collectivechart.h"

#include "bytesizeticker.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace weft {

namespace {
constexpr double kGBps = 1e9;
} // namespace

QCPScatterStyle::ScatterShape seriesMarker(int index)
{
    static constexpr std::array shapes = {
        QCPScatterStyle::ssDisc,    QCPScatterStyle::ssSquare, QCPScatterStyle::ssTriangle,
        QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross,  QCPScatterStyle::ssTriangleInverted,
        QCPScatterStyle::ssPlus,    QCPScatterStyle::ssStar};
    return shapes[std::size_t(index) % shapes.size()];
}

CollectiveChart::CollectiveChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Collective bus bandwidth"));
    refresh();
}

void CollectiveChart::build()
{
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new ByteSizeTicker));
    adaptTicksToWidth(width());
    xAxis->setLabel(tr("message size (bytes)"));
    yAxis->setLabel(tr("bus bandwidth (GB/s)"));
    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const CollectiveSeries &series = m_data.series[s];
        QVector<double> keys;
        QVector<double> values;
        for (const BusBandwidthPoint &p : series.points) {
            keys << p.messageBytes;
            values << p.busBandwidth / kGBps;
        }
        QCPGraph *graph = addGraph();
        graph->setName(series.label);
        const QColor colour = seriesColour(int(s));
        graph->setPen(QPen(colour, 2, s >= 4 ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(QCPScatterStyle(seriesMarker(int(s)), colour, 7));
        graph->setData(keys, values, false);
    }
}

void CollectiveChart::fitView()
{
    double lo = 0;
    double hi = 0;
    double top = 0;
    for (const CollectiveSeries &s : m_data.series) {
        for (const BusBandwidthPoint &p : s.points) {
            lo = lo > 0 ? std::min(lo, p.messageBytes) : p.messageBytes;
            hi = std::max(hi, p.messageBytes);
            top = std::max(top, p.busBandwidth / kGBps);
        }
    }
    if (lo <= 0) {
        lo = 1024;
        hi = std::ldexp(1.0, 33);
    }
    // Half an octave of margin on each side so the end markers are not cut.
    xAxis->setRange(lo / std::sqrt(2.0), hi * std::sqrt(2.0));
    yAxis->setRange(0, top > 0 ? top * 1.1 : 1);
}

void CollectiveChart::adaptTicksToWidth(int width)
{
    // About 50 px per label ("256M" at 9 pt plus spacing).
    if (auto ticker = xAxis->ticker().dynamicCast<ByteSizeTicker>())
        ticker->setMaxTicks(std::clamp(width / 50, 4, 16));
}

QString CollectiveChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *graph = qobject_cast<QCPGraph *>(plottable);
    if (!graph || index < 0 || index >= graph->dataCount())
        return {};
    const QCPGraphData &d = *graph->data()->at(index);
    return tr("%1\n%2 B: %3 GB/s")
        .arg(graph->name(), byteSizeLabel(d.key), formatNumber(d.value, 1));
}

ChartTable CollectiveChart::table() const
{
    ChartTable t;
    t.header = QStringList {QStringLiteral("series"), QStringLiteral("message_bytes"),
                            QStringLiteral("bus_bandwidth_bytes_per_s")};
    for (const CollectiveSeries &s : m_data.series) {
        for (const BusBandwidthPoint &p : s.points)
            t.rows.push_back({s.label, csvNumber(p.messageBytes), csvNumber(p.busBandwidth)});
    }
    return t;
}

} // namespace weft
