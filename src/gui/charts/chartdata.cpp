#include "chartdata.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace weft {

QString breakdownPartName(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return QStringLiteral("compute");
    case BreakdownPart::TpExposed:
        return QStringLiteral("exposed TP");
    case BreakdownPart::CpExposed:
        return QStringLiteral("exposed CP");
    case BreakdownPart::EpExposed:
        return QStringLiteral("exposed EP");
    case BreakdownPart::PpExposed:
        return QStringLiteral("exposed PP");
    case BreakdownPart::Bubble:
        return QStringLiteral("pipeline bubble");
    case BreakdownPart::DpExposed:
        return QStringLiteral("exposed DP");
    case BreakdownPart::Optimizer:
        return QStringLiteral("optimizer");
    }
    return {};
}

double StepBreakdown::total() const
{
    return std::accumulate(seconds.begin(), seconds.end(), 0.0);
}

QString timelineKindName(TimelineKind kind)
{
    switch (kind) {
    case TimelineKind::Forward:
        return QStringLiteral("forward");
    case TimelineKind::Backward:
        return QStringLiteral("backward");
    case TimelineKind::Communication:
        return QStringLiteral("communication");
    case TimelineKind::Optimizer:
        return QStringLiteral("optimizer");
    }
    return {};
}

namespace {

QString quoted(const QString &name)
{
    return QLatin1Char('\'') + name + QLatin1Char('\'');
}

// Empty when v is a finite number >= 0, else "<what> is <v>, must be a finite number >= 0".
QString checkNonNegative(double v, const QString &what)
{
    if (std::isfinite(v) && v >= 0)
        return {};
    return QStringLiteral("%1 is %2, must be a finite number >= 0").arg(what).arg(v);
}

} // namespace

QString validateChartData(const BreakdownChartData &data)
{
    for (const StepBreakdown &d : data.designs) {
        for (int p = 0; p < kBreakdownPartCount; ++p) {
            const QString what
                = QStringLiteral("design %1: %2 (s)")
                      .arg(quoted(d.design), breakdownPartName(static_cast<BreakdownPart>(p)));
            if (QString e = checkNonNegative(d.seconds[std::size_t(p)], what); !e.isEmpty())
                return e;
        }
    }
    return {};
}

QString validateChartData(const TimelineChartData &data)
{
    if (QString e = checkNonNegative(data.stepTime, QStringLiteral("timeline step time (s)"));
        !e.isEmpty())
        return e;
    for (const TimelineRow &row : data.rows) {
        for (std::size_t i = 0; i < row.spans.size(); ++i) {
            const TimelineSpan &s = row.spans[i];
            const QString where
                = QStringLiteral("timeline row %1, span %2").arg(quoted(row.label)).arg(i);
            if (QString e = checkNonNegative(s.start, where + QStringLiteral(" start (s)"));
                !e.isEmpty())
                return e;
            if (!std::isfinite(s.end) || s.end < s.start)
                return QStringLiteral("%1 ends at %2 s, before its start %3 s")
                    .arg(where)
                    .arg(s.end)
                    .arg(s.start);
            // Rounding in the simulator may put an end a hair past the step; more is an error.
            if (s.end > data.stepTime * (1 + 1e-9) + 1e-12)
                return QStringLiteral("%1 ends at %2 s, after the step time %3 s")
                    .arg(where)
                    .arg(s.end)
                    .arg(data.stepTime);
        }
    }
    return {};
}

QString validateChartData(const UtilizationChartData &data)
{
    for (const TierUtilization &t : data.tiers) {
        for (std::size_t i = 0; i < t.utilization.size(); ++i) {
            const QString what
                = QStringLiteral("tier %1, link %2 utilization").arg(quoted(t.tier)).arg(i);
            if (QString e = checkNonNegative(t.utilization[i], what); !e.isEmpty())
                return e;
        }
    }
    return {};
}

QString validateChartData(const LinkSeriesChartData &data)
{
    if (QString e = checkNonNegative(data.stepTime, QStringLiteral("link series step time (s)"));
        !e.isEmpty())
        return e;
    for (const LinkSeries &s : data.series) {
        if (s.utilization.empty())
            return QStringLiteral("link series %1 has no time buckets").arg(quoted(s.label));
        for (std::size_t i = 0; i < s.utilization.size(); ++i) {
            const QString what = QStringLiteral("link series %1, bucket %2 utilization")
                                     .arg(quoted(s.label))
                                     .arg(i);
            if (QString e = checkNonNegative(s.utilization[i], what); !e.isEmpty())
                return e;
        }
    }
    return {};
}

QString validateChartData(const MemoryChartData &data)
{
    for (const AcceleratorMemory &a : data.accelerators) {
        const std::pair<double, const char *> fields[] = {{a.weights, "weights"},
                                                          {a.gradients, "gradients"},
                                                          {a.optimizer, "optimizer states"},
                                                          {a.activations, "activations"},
                                                          {a.other, "other"},
                                                          {a.capacity, "capacity"}};
        for (const auto &[value, name] : fields) {
            const QString what = QStringLiteral("accelerator %1: %2 (bytes)")
                                     .arg(quoted(a.label), QLatin1String(name));
            if (QString e = checkNonNegative(value, what); !e.isEmpty())
                return e;
        }
    }
    return {};
}

QString validateChartData(const CollectiveChartData &data)
{
    for (const CollectiveSeries &s : data.series) {
        if (s.points.empty())
            return QStringLiteral("collective series %1 has no points").arg(quoted(s.label));
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const BusBandwidthPoint &p = s.points[i];
            const QString where
                = QStringLiteral("collective series %1, point %2").arg(quoted(s.label)).arg(i);
            if (!std::isfinite(p.messageBytes) || p.messageBytes <= 0)
                return QStringLiteral("%1: message size %2 bytes must be > 0 (log axis)")
                    .arg(where)
                    .arg(p.messageBytes);
            if (QString e = checkNonNegative(p.busBandwidth,
                                             where + QStringLiteral(": bus bandwidth (bytes/s)"));
                !e.isEmpty())
                return e;
        }
    }
    return {};
}

QString validateChartData(const SweepChartData &data)
{
    for (const SweepSeries &s : data.series) {
        if (s.points.empty())
            return QStringLiteral("sweep series %1 has no points").arg(quoted(s.label));
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const SweepPoint &p = s.points[i];
            const QString where
                = QStringLiteral("sweep series %1, point %2").arg(quoted(s.label)).arg(i);
            if (!std::isfinite(p.parameter) || (data.logScale && p.parameter <= 0))
                return QStringLiteral("%1: parameter %2 must be finite%3")
                    .arg(where)
                    .arg(p.parameter)
                    .arg(data.logScale ? QStringLiteral(" and > 0 (log axis)") : QString());
            if (QString e = checkNonNegative(p.stepTime, where + QStringLiteral(": step time (s)"));
                !e.isEmpty())
                return e;
            if (QString e = checkNonNegative(p.mfu, where + QStringLiteral(": MFU")); !e.isEmpty())
                return e;
        }
    }
    return {};
}

namespace {

// Hyndman & Fan definition 7: h = (n - 1) p, linear between the order statistics around h.
double quantileSorted(const std::vector<double> &sorted, double p)
{
    const double h = double(sorted.size() - 1) * p;
    const auto lo = std::size_t(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

} // namespace

BoxStatistics boxStatistics(std::vector<double> values)
{
    BoxStatistics s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    s.lowerQuartile = quantileSorted(values, 0.25);
    s.median = quantileSorted(values, 0.5);
    s.upperQuartile = quantileSorted(values, 0.75);
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    const double iqr = s.upperQuartile - s.lowerQuartile;
    const double lowFence = s.lowerQuartile - 1.5 * iqr;
    const double highFence = s.upperQuartile + 1.5 * iqr;
    s.minimum = s.lowerQuartile;
    s.maximum = s.upperQuartile;
    for (double v : values) {
        if (v < lowFence || v > highFence) {
            s.outliers.push_back(v);
            continue;
        }
        s.minimum = std::min(s.minimum, v);
        s.maximum = std::max(s.maximum, v);
    }
    return s;
}

} // namespace weft
