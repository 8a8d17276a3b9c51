#include "reportchartdata.h"

#include "sim/collectivesweep.h"
#include "simresultcharts.h"

#include <exception>

namespace weft {

namespace {

/// The link direction with the highest average utilization (and a series), or an invalid id.
LinkId busiestLink(const SimResult &r)
{
    LinkId best;
    double top = -1;
    for (const LinkResult &l : r.links)
        for (const LinkDirResult &d : l.dir)
            if (!d.series.empty() && d.avgUtilization > top) {
                top = d.avgUtilization;
                best = l.id;
            }
    return best;
}

std::optional<CollectiveChartData> collectiveData(const SimResult &r, const Design &design)
{
    for (const char *kind : {"tp", "dp"}) {
        for (const GroupTraffic &g : r.groups) {
            if (g.kind != kind || g.members.size() < 2)
                continue;
            std::vector<double> sizes;
            for (double s = 1024; s <= 1024.0 * 1024 * 1024; s *= 4)
                sizes.push_back(s);
            try {
                const auto rows = sweepCollective(design, CollectiveKind::AllReduce, g.members,
                                                  sizes, CollectiveAlgorithm::Auto);
                CollectiveSeries series;
                series.label = QStringLiteral("all-reduce, %1 group %2 (%3 GPUs)")
                                   .arg(QString::fromLatin1(kind).toUpper())
                                   .arg(g.index)
                                   .arg(g.members.size());
                for (const CollectiveSweepRow &row : rows)
                    series.points.push_back({row.bytes, row.busbw});
                return CollectiveChartData {{series}};
            } catch (const std::exception &) {
                return std::nullopt; // unroutable group: the report goes on without this chart
            }
        }
    }
    return std::nullopt;
}

} // namespace

ReportChartData reportChartData(const SimResult &r, const Design &design, bool collective)
{
    ReportChartData data;
    data.breakdown = BreakdownChartData {{stepBreakdown(r, QString::fromStdString(design.name))}};
    TimelineChartData timeline = timelineChartData(r);
    if (!timeline.rows.empty())
        data.timeline = std::move(timeline);
    UtilizationChartData utilization = utilizationChartData(r);
    if (!utilization.tiers.empty())
        data.utilization = std::move(utilization);
    if (const LinkId busiest = busiestLink(r); busiest.valid()) {
        LinkSeriesChartData series = linkSeriesChartData(r, busiest, [&](NodeId id) {
            const Node *n = design.node(id);
            return n ? QString::fromStdString(n->name) : QString::number(id.value);
        });
        if (!series.series.empty())
            data.linkSeries = std::move(series);
    }
    MemoryChartData memory = memoryChartData(r);
    if (!memory.accelerators.empty())
        data.memory = std::move(memory);
    if (collective)
        data.collective = collectiveData(r, design);
    return data;
}

} // namespace weft
