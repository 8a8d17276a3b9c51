#include "reportchartdata.h"

#include "sim/collectivesweep.h"
#include "simresultcharts.h"

#include <QObject>
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

/// The all-reduce chart of the first TP group of 2+ GPUs (else the first DP group), or none
/// with *why saying what is missing: no such group, or what keeps the group from being routed.
std::optional<CollectiveChartData> collectiveData(const SimResult &r, const Design &design,
                                                  QString *why)
{
    for (const char *kind : {"tp", "dp"}) {
        for (const GroupTraffic &g : r.groups) {
            if (g.kind != kind || g.members.size() < 2)
                continue;
            const QString group = QStringLiteral("%1 group %2 (%3 GPUs)")
                                      .arg(QString::fromLatin1(kind).toUpper())
                                      .arg(g.index)
                                      .arg(g.members.size());
            std::vector<double> sizes;
            for (double s = 1024; s <= 1024.0 * 1024 * 1024; s *= 4)
                sizes.push_back(s);
            try {
                const auto rows = sweepCollective(design, CollectiveKind::AllReduce, g.members,
                                                  sizes, CollectiveAlgorithm::Auto);
                CollectiveSeries series;
                series.label = QStringLiteral("all-reduce, %1").arg(group);
                for (const CollectiveSweepRow &row : rows)
                    series.points.push_back({row.bytes, row.busbw});
                return CollectiveChartData {{series}};
            } catch (const std::exception &e) {
                // The report goes on without this chart; the dock says what is unroutable.
                QString cause = QString::fromUtf8(e.what());
                if (cause.startsWith(QLatin1String("collective: ")))
                    cause = cause.mid(12);
                *why = QObject::tr("The all-reduce of %1 cannot be routed:\n%2").arg(group, cause);
                return std::nullopt;
            }
        }
    }
    *why = QObject::tr("No collective to plot: the step has no TP or DP group\nof two or more "
                       "GPUs (each rank's gradients stay on its GPU).");
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
        data.collective = collectiveData(r, design, &data.collectiveNote);
    return data;
}

} // namespace weft
