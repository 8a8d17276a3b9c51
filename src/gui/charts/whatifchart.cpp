#include "whatifchart.h"

#include <algorithm>
#include <cmath>

namespace weft {

WhatIfChartData whatIfChartData(const QString &design, int failures, const WhatIfResult &result)
{
    WhatIfChartData data;
    data.design = design;
    data.failures = failures;
    data.healthyStepTime = result.healthyStepTime;
    for (const TrialResult &t : result.trials)
        if (t.ok)
            data.stepTimes.push_back(t.stepTime);
    return data;
}

namespace {

constexpr double kMs = 1e3;
constexpr double kPercent = 100;

/// Nearest-rank quantile of ascending `v` (as whatif/trials.h).
double rank(const std::vector<double> &v, double q)
{
    const auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(k, 1, v.size()) - 1];
}

} // namespace

WhatIfChart::WhatIfChart(QWidget *parent)
    : Chart(parent)
{
    setTitle(tr("Step time under random failures"));
    refresh();
}

bool WhatIfChart::setData(const WhatIfChartData &data, QString *error)
{
    QString e;
    if (!(data.healthyStepTime > 0) || !std::isfinite(data.healthyStepTime))
        e = tr("the healthy step time must be a positive number of seconds");
    for (std::size_t i = 0; i < data.stepTimes.size() && e.isEmpty(); ++i)
        if (!(data.stepTimes[i] > 0) || !std::isfinite(data.stepTimes[i]))
            e = tr("step time %1 is not a positive number of seconds").arg(i);
    m_data = e.isEmpty() ? data : WhatIfChartData {};
    m_sorted = m_data.stepTimes;
    std::sort(m_sorted.begin(), m_sorted.end());
    return acceptData(e, error);
}

void WhatIfChart::build()
{
    xAxis->setLabel(tr("step time (ms)"));
    yAxis->setLabel(tr("trials at or below (%)"));
    if (m_data.failures > 0)
        setTitle(m_data.failures == 1
                     ? tr("Step time with 1 random cable failure")
                     : tr("Step time with %1 random cable failures").arg(m_data.failures));
    if (m_sorted.empty())
        return;
    const std::size_t n = m_sorted.size();
    QVector<double> keys, values;
    keys << m_sorted.front() * kMs;
    values << 0;
    for (std::size_t i = 0; i < n; ++i) {
        keys << m_sorted[i] * kMs;
        values << static_cast<double>(i + 1) / static_cast<double>(n) * kPercent;
    }
    QCPGraph *cdf = addGraph();
    cdf->setData(keys, values, true);
    cdf->setLineStyle(QCPGraph::lsStepLeft);
    cdf->setPen(QPen(seriesColour(0), 2));
    const QString trials = n == 1 ? tr("1 trial") : tr("%1 trials").arg(n);
    cdf->setName(tr("%1: median %2 ms, p95 %3 ms, worst %4 ms")
                     .arg(trials)
                     .arg(rank(m_sorted, 0.5) * kMs, 0, 'f', 1)
                     .arg(rank(m_sorted, 0.95) * kMs, 0, 'f', 1)
                     .arg(m_sorted.back() * kMs, 0, 'f', 1));
    QCPGraph *healthy = addGraph();
    const double h = m_data.healthyStepTime * kMs;
    healthy->setData(QVector<double> {h, h}, QVector<double> {0, kPercent}, true);
    QPen pen(seriesColour(1), 2, Qt::DashLine);
    healthy->setPen(pen);
    healthy->setName(tr("healthy: %1 ms").arg(h, 0, 'f', 1));
}

void WhatIfChart::fitView()
{
    if (m_sorted.empty()) {
        Chart::fitView();
        return;
    }
    const double lo = std::min(m_sorted.front(), m_data.healthyStepTime) * kMs;
    const double hi = std::max(m_sorted.back(), m_data.healthyStepTime) * kMs;
    const double pad = std::max(0.05 * (hi - lo), 0.01 * m_data.healthyStepTime * kMs);
    xAxis->setRange(lo - pad, hi + pad);
    yAxis->setRange(0, kPercent * 1.05);
}

ChartTable WhatIfChart::table() const
{
    ChartTable t;
    t.header = {tr("rank"), tr("step_time_s"), tr("slowdown"), tr("trials_at_or_below_pct")};
    for (std::size_t i = 0; i < m_sorted.size(); ++i)
        t.rows.push_back(
            {QString::number(i + 1), QString::number(m_sorted[i], 'g', 9),
             QString::number(m_sorted[i] / m_data.healthyStepTime, 'f', 6),
             QString::number(double(i + 1) / double(m_sorted.size()) * kPercent, 'f', 2)});
    return t;
}

QString WhatIfChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    if (plottable == graph(0) && index > 0 && index <= int(m_sorted.size()))
        return tr("%1 ms: %2% of trials at or below, x%3 the healthy step")
            .arg(m_sorted[std::size_t(index - 1)] * kMs, 0, 'f', 2)
            .arg(double(index) / double(m_sorted.size()) * kPercent, 0, 'f', 1)
            .arg(m_sorted[std::size_t(index - 1)] / m_data.healthyStepTime, 0, 'f', 3);
    if (plottable == graph(1))
        return tr("healthy design: %1 ms").arg(m_data.healthyStepTime * kMs, 0, 'f', 2);
    return {};
}

} // namespace weft
