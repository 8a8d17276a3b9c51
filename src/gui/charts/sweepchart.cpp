#include "sweepchart.h"

#include "collectivechart.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace weft {

namespace {
constexpr double kPercent = 100;
} // namespace

SweepChart::SweepChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Sweep"));
    refresh();
}

void SweepChart::normalize(SweepChartData &data)
{
    for (SweepSeries &s : data.series) {
        std::stable_sort(
            s.points.begin(), s.points.end(),
            [](const SweepPoint &a, const SweepPoint &b) { return a.parameter < b.parameter; });
    }
}

QString SweepChart::parameterTitle() const
{
    const QString name = m_data.parameter.isEmpty() ? tr("parameter") : m_data.parameter;
    return m_data.parameterUnit.isEmpty() ? name : tr("%1 (%2)").arg(name, m_data.parameterUnit);
}

void SweepChart::build()
{
    xAxis->setLabel(parameterTitle());
    if (!m_data.parameter.isEmpty())
        setTitle(tr("Step time and MFU against %1").arg(m_data.parameter));
    yAxis->setLabel(tr("step time (s)"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("MFU (%)"));
    yAxis2->grid()->setVisible(false);
    if (m_data.logScale)
        xAxis->setScaleType(QCPAxis::stLogarithmic);

    std::set<double> values;
    for (const SweepSeries &s : m_data.series) {
        for (const SweepPoint &p : s.points)
            values.insert(p.parameter);
    }
    if (!values.empty() && values.size() <= 16) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (double v : values)
            ticker->addTick(v, QLocale::c().toString(v, 'g', 6));
        xAxis->setTicker(ticker);
        xAxis->setSubTicks(false);
    } else if (m_data.logScale) {
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setLogBase(2);
        xAxis->setTicker(ticker);
    }

    if (!m_data.notPlotted.isEmpty())
        setFootnote(tr("Not plotted: %1").arg(m_data.notPlotted.join(QStringLiteral("\n"))));

    for (std::size_t s = 0; s < m_data.series.size(); ++s) {
        const SweepSeries &series = m_data.series[s];
        QVector<double> keys;
        QVector<double> steps;
        QVector<double> mfus;
        for (const SweepPoint &p : series.points) {
            keys << p.parameter;
            steps << p.stepTime;
            mfus << p.mfu * kPercent;
        }
        // One series: step time and MFU in two colours, each axis's label in its line's colour
        // (one blue for both read as one line where they crossed); several: a colour per series.
        const bool single = m_data.series.size() == 1;
        const QColor colour = seriesColour(int(s));
        const QColor mfuColour = single ? seriesColour(1) : colour;
        const QString prefix
            = m_data.series.size() > 1 ? series.label + QStringLiteral(": ") : QString();
        QCPGraph *step = addGraph(xAxis, yAxis);
        step->setName(prefix + tr("step time"));
        step->setPen(QPen(colour, 2));
        step->setScatterStyle(QCPScatterStyle(seriesMarker(int(s)), colour, colour, 7));
        step->setData(keys, steps, true);
        step->setProperty("mfu", false);
        QCPGraph *mfu = addGraph(xAxis, yAxis2);
        mfu->setName(prefix + tr("MFU"));
        mfu->setPen(QPen(mfuColour, 2, Qt::DashLine));
        mfu->setScatterStyle(
            QCPScatterStyle(seriesMarker(int(s)), QPen(mfuColour, 1.5), theme().background, 7));
        mfu->setData(keys, mfus, true);
        mfu->setProperty("mfu", true);
        mfu->setProperty("series", int(s));
        step->setProperty("series", int(s));
    }
}

void SweepChart::restyle()
{
    const bool single = m_data.series.size() == 1;
    yAxis->setLabelColor(single ? seriesColour(0) : theme().foreground);
    yAxis2->setLabelColor(single ? seriesColour(1) : theme().foreground);
}

void SweepChart::fitView()
{
    double lo = 0;
    double hi = 0;
    double topStep = 0;
    double topMfu = 0;
    bool first = true;
    for (const SweepSeries &s : m_data.series) {
        for (const SweepPoint &p : s.points) {
            lo = first ? p.parameter : std::min(lo, p.parameter);
            hi = first ? p.parameter : std::max(hi, p.parameter);
            first = false;
            topStep = std::max(topStep, p.stepTime);
            topMfu = std::max(topMfu, p.mfu * kPercent);
        }
    }
    if (first) {
        lo = m_data.logScale ? 1 : 0;
        hi = m_data.logScale ? 2 : 1;
    }
    if (m_data.logScale) {
        const double margin = std::pow(hi / lo, 0.06) * 1.1; // 6 % of the decades plus 10 %
        xAxis->setRange(lo / margin, hi * margin);
    } else {
        const double margin = hi > lo ? 0.06 * (hi - lo) : std::max(1.0, std::abs(lo) * 0.1);
        xAxis->setRange(lo - margin, hi + margin);
    }
    // Both value axes start at zero so the reader compares magnitudes, not just trends.
    yAxis->setRange(0, topStep > 0 ? topStep * 1.12 : 1);
    yAxis2->setRange(0, topMfu > 0 ? std::min(100.0, topMfu * 1.12) : 100);
}

QString SweepChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *graph = qobject_cast<QCPGraph *>(plottable);
    if (!graph || index < 0)
        return {};
    const auto s = std::size_t(graph->property("series").toInt());
    if (s >= m_data.series.size() || std::size_t(index) >= m_data.series[s].points.size())
        return {};
    const SweepPoint &p = m_data.series[s].points[std::size_t(index)];
    return tr("%1\n%2 = %3\nstep time %4 s, MFU %5 %")
        .arg(m_data.series[s].label, parameterTitle(), QLocale::c().toString(p.parameter, 'g', 6),
             formatNumber(p.stepTime, 3), formatNumber(p.mfu * kPercent, 1));
}

ChartTable SweepChart::table() const
{
    ChartTable t;
    QString param = m_data.parameter.isEmpty() ? QStringLiteral("parameter") : m_data.parameter;
    param = param.toLower().replace(QLatin1Char(' '), QLatin1Char('_'));
    if (!m_data.parameterUnit.isEmpty())
        param += QLatin1Char('_')
            + m_data.parameterUnit.toLower().replace(QLatin1Char(' '), QLatin1Char('_'));
    t.header = QStringList {QStringLiteral("series"), param, QStringLiteral("step_time_s"),
                            QStringLiteral("mfu_fraction")};
    for (const SweepSeries &s : m_data.series) {
        for (const SweepPoint &p : s.points)
            t.rows.push_back(
                {s.label, csvNumber(p.parameter), csvNumber(p.stepTime), csvNumber(p.mfu)});
    }
    return t;
}

} // namespace weft
