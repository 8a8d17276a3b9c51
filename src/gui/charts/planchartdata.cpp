#include "planchartdata.h"

#include <algorithm>
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

QString planShortLabel(const TrainingConfig &c)
{
    QString s = QStringLiteral("TP%1 PP%2 DP%3").arg(c.tp).arg(c.pp).arg(c.dp);
    if (c.cp > 1)
        s += QStringLiteral(" CP%1").arg(c.cp);
    if (c.ep > 1) { // MoE candidates differ also by expert TP and by the token dispatcher
        s += QStringLiteral(" EP%1").arg(c.ep);
        if (c.expertTp() != c.tp)
            s += QStringLiteral(" ETP%1").arg(c.expertTp());
        s += u' ' + QString::fromLatin1(toString(c.dispatcher));
    }
    if (c.schedule == PipelineSchedule::Interleaved)
        s += QStringLiteral(" v%1").arg(c.vpp);
    return s;
}

QString planDetailLabel(const PlanRow &row)
{
    // Parts joined by " · ", each kept on one line (no-break spaces inside).
    const TrainingConfig &c = row.config;
    QStringList parts {QStringLiteral("b\u00a0%1").arg(c.microBatch)};
    if (c.recompute != Recompute::None)
        parts
            << QStringLiteral("%1\u00a0recompute").arg(QString::fromLatin1(toString(c.recompute)));
    parts << QStringLiteral("ZeRO\u00a0%1").arg(c.effectiveZero())
          << QString::fromStdString(row.order);
    return parts.join(QStringLiteral(" · "));
}

QString rankListLabel(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    QStringList parts;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        parts << (j > i ? QStringLiteral("%1\u2013%2").arg(ranks[i]).arg(ranks[j])
                        : QString::number(ranks[i]));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
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
        p.shortLabel = planShortLabel(row.config);
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
        b.design
            = QStringLiteral("#%1 %2\n%3").arg(i + 1).arg(planShortLabel(c), planDetailLabel(row));
        const Breakdown &x = row.breakdown;
        b.seconds = {x.compute,   x.tpExposed, x.cpExposed, x.epExposed,
                     x.ppExposed, x.bubble,    x.dpExposed, x.optimizer};
        d.designs.push_back(std::move(b));
    }
    return d;
}

} // namespace weft
