#include "comparechartdata.h"

#include <algorithm>

namespace weft {

namespace {

QString prefixed(const QString &label, const QString &text)
{
    return label + QStringLiteral(": ") + text;
}

// Appends the elements of every design's optional member `member` with `relabel` applied.
template<typename Data, typename Append>
std::optional<Data> mergeEach(const std::vector<LabelledCharts> &designs,
                              std::optional<Data> ReportChartData::*member, Append append)
{
    std::optional<Data> merged;
    for (const LabelledCharts &d : designs) {
        const std::optional<Data> &part = d.charts.*member;
        if (!part)
            continue;
        if (!merged)
            merged.emplace();
        append(*merged, *part, d.label);
    }
    return merged;
}

std::optional<UtilizationChartData> mergeUtilization(const std::vector<LabelledCharts> &designs)
{
    QStringList tiers; // in order of first appearance
    bool any = false;
    for (const LabelledCharts &d : designs) {
        if (!d.charts.utilization)
            continue;
        any = true;
        for (const TierUtilization &t : d.charts.utilization->tiers)
            if (!tiers.contains(t.tier))
                tiers << t.tier;
    }
    if (!any)
        return std::nullopt;
    UtilizationChartData merged;
    for (const QString &tier : tiers) {
        for (const LabelledCharts &d : designs) {
            if (!d.charts.utilization)
                continue;
            const auto &own = d.charts.utilization->tiers;
            const auto it = std::find_if(own.begin(), own.end(),
                                         [&](const TierUtilization &t) { return t.tier == tier; });
            if (it != own.end())
                merged.tiers.push_back({tier + QStringLiteral(" · ") + d.label, it->utilization});
        }
    }
    return merged;
}

} // namespace

ReportChartData compareChartData(const std::vector<LabelledCharts> &designs)
{
    if (designs.size() == 1)
        return designs.front().charts;
    ReportChartData merged;
    merged.breakdown = mergeEach(
        designs, &ReportChartData::breakdown,
        [](BreakdownChartData &m, const BreakdownChartData &part, const QString &label) {
            for (StepBreakdown b : part.designs) {
                b.design = label;
                m.designs.push_back(b);
            }
        });
    merged.timeline
        = mergeEach(designs, &ReportChartData::timeline,
                    [](TimelineChartData &m, const TimelineChartData &part, const QString &label) {
                        m.stepTime = std::max(m.stepTime, part.stepTime);
                        for (TimelineRow row : part.rows) {
                            row.label = prefixed(label, row.label);
                            m.rows.push_back(std::move(row));
                        }
                    });
    merged.utilization = mergeUtilization(designs);
    merged.memory
        = mergeEach(designs, &ReportChartData::memory,
                    [](MemoryChartData &m, const MemoryChartData &part, const QString &label) {
                        for (AcceleratorMemory a : part.accelerators) {
                            a.label = prefixed(label, a.label);
                            m.accelerators.push_back(std::move(a));
                        }
                    });
    merged.collective = mergeEach(
        designs, &ReportChartData::collective,
        [](CollectiveChartData &m, const CollectiveChartData &part, const QString &label) {
            for (CollectiveSeries s : part.series) {
                s.label = prefixed(label, s.label);
                m.series.push_back(std::move(s));
            }
        });
    return merged;
}

} // namespace weft
