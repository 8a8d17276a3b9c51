#include "planchartdata.h"

#include <cmath>

namespace weft {

QString validateChartData(const PlanParetoData &data)
{
    if (!std::isfinite(data.capacityBytes) || data.capacityBytes < 0)
        return QStringLiteral("the HBM capacity must be a finite number >= 0");
    for (std::size_t i = 0; i < data.points.size(); ++i) {
        const PlanPoint &p = data.points[i];
        if (!std::isfinite(p.memoryBytes) || p.memoryBytes < 0 || !std::isfinite(p.tokensPerSecond)
            || p.tokensPerSecond < 0)
            return QStringLiteral("point %1 (%2): memory and tokens/s must be finite and >= 0")
                .arg(i)
                .arg(p.label);
    }
    return {};
}

QString planRowLabel(const PlanRow &row)
{
    return QString::fromStdString(describeCandidate(row.config, row.order));
}

void markParetoFront(std::vector<PlanPoint> &points)
{
    for (PlanPoint &p : points) {
        p.pareto = true;
        for (const PlanPoint &q : points)
            if (&q != &p && q.memoryBytes <= p.memoryBytes && q.tokensPerSecond >= p.tokensPerSecond
                && (q.memoryBytes < p.memoryBytes || q.tokensPerSecond > p.tokensPerSecond)) {
                p.pareto = false;
                break;
            }
    }
}

PlanParetoData planParetoData(const TrainingPlan &r)
{
    PlanParetoData d;
    for (const PlanRow &row : r.simulated) {
        PlanPoint p;
        p.label = planRowLabel(row);
        p.memoryBytes = row.peakMemoryPerGpu;
        p.tokensPerSecond = row.tokensPerSecond;
        for (std::size_t i = 0; i < r.ranked.size(); ++i)
            if (r.ranked[i].index == row.index)
                p.rank = static_cast<int>(i) + 1;
        d.capacityBytes = std::max(d.capacityBytes, row.memoryCapacityPerGpu);
        d.points.push_back(std::move(p));
    }
    markParetoFront(d.points);
    return d;
}

BreakdownChartData planBreakdownData(const TrainingPlan &r, int count)
{
    BreakdownChartData d;
    for (int i = 0; i < count && i < static_cast<int>(r.ranked.size()); ++i) {
        const PlanRow &row = r.ranked[static_cast<std::size_t>(i)];
        const TrainingConfig &c = row.config;
        StepBreakdown b;
        b.design = QStringLiteral("#%1 TP%2 PP%3 DP%4%5%6")
                       .arg(i + 1)
                       .arg(c.tp)
                       .arg(c.pp)
                       .arg(c.dp)
                       .arg(c.cp > 1 ? QStringLiteral(" CP%1").arg(c.cp) : QString())
                       .arg(c.schedule == PipelineSchedule::Interleaved
                                ? QStringLiteral(" v%1").arg(c.vpp)
                                : QString());
        const Breakdown &x = row.breakdown;
        b.seconds = {x.compute,   x.tpExposed, x.cpExposed, x.epExposed,
                     x.ppExposed, x.bubble,    x.dpExposed, x.optimizer};
        d.designs.push_back(std::move(b));
    }
    return d;
}

} // namespace weft
