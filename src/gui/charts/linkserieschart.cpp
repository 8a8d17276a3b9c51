#include "linkserieschart.h"

#include <algorithm>

namespace weft {

namespace {
constexpr double kMs = 1e3;
constexpr double kPercent = 100;
} // namespace

LinkSeriesChart::LinkSeriesChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Link utilization over the step"));
    refresh();
}

void LinkSeriesChart::build()
{
    xAxis->setLabel(tr("time in step (ms)"));
    yAxis->setLabel(tr("link utilization (%)"));
    if (!m_data.note.isEmpty())
        setFootnote(m_data.note);
    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const LinkSeries &series = m_data.series[s];
        const double bucket = m_data.stepTime / double(series.utilization.size());
        QVector<double> keys;
        QVector<double> values;
        for (std::size_t i = 0; i < series.utilization.size(); ++i) {
            keys << double(i) * bucket * kMs;
            values << series.utilization[i] * kPercent;
        }
        // The last bucket ends at the step time: repeat its value there so the step is drawn.
        keys << m_data.stepTime * kMs;
        values << series.utilization.back() * kPercent;
        QCPGraph *graph = addGraph();
        graph->setName(series.label);
        graph->setLineStyle(QCPGraph::lsStepLeft);
        const QColor colour = seriesColour(int(s));
        graph->setPen(QPen(colour, 2, s % 2 ? Qt::DashLine : Qt::SolidLine));
        if (m_data.series.size() == 1) {
            QColor fill = colour;
            fill.setAlphaF(0.2f);
            graph->setBrush(fill);
        }
        graph->setData(keys, values, true);
    }
}

void LinkSeriesChart::fitView()
{
    double top = 100;
    for (const LinkSeries &s : m_data.series) {
        for (double u : s.utilization)
            top = std::max(top, u * kPercent);
    }
    xAxis->setRange(0, std::max(m_data.stepTime * kMs, 1e-3));
    yAxis->setRange(0, top * 1.05);
}

QString LinkSeriesChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *graph = qobject_cast<QCPGraph *>(plottable);
    if (!graph || index < 0 || index >= graph->dataCount())
        return {};
    // The last point only closes the step line; it belongs to the last bucket.
    const int bucket = std::min(index, graph->dataCount() - 2);
    const double start = graph->data()->at(bucket)->key;
    const double end = graph->data()->at(bucket + 1)->key;
    return tr("%1\n%2 to %3 ms: %4 %")
        .arg(graph->name(), formatNumber(start, 3), formatNumber(end, 3),
             formatNumber(graph->data()->at(bucket)->value, 1));
}

ChartTable LinkSeriesChart::table() const
{
    ChartTable t;
    t.header = QStringList {QStringLiteral("bucket"), QStringLiteral("start_s"),
                            QStringLiteral("end_s")};
    std::size_t buckets = 0;
    for (const LinkSeries &s : m_data.series) {
        t.header << s.label + QStringLiteral(" utilization_fraction");
        buckets = std::max(buckets, s.utilization.size());
    }
    // Series may have different bucket counts; each row is a bucket of the finest series and
    // the others give the value of the bucket containing its start.
    const double width = buckets ? m_data.stepTime / double(buckets) : 0;
    for (std::size_t i = 0; i < buckets; ++i) {
        QStringList row {QString::number(i), csvNumber(double(i) * width),
                         csvNumber(double(i + 1) * width)};
        for (const LinkSeries &s : m_data.series) {
            const std::size_t j
                = std::min(s.utilization.size() - 1, i * s.utilization.size() / buckets);
            row << csvNumber(s.utilization[j]);
        }
        t.rows.push_back(row);
    }
    return t;
}

} // namespace weft
