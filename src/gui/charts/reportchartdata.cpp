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

/// The busbw of `kind` over `g`'s members from 1 KiB to 1 GiB, labelled "<what>, <KIND> group
/// i (n GPUs)"; nullopt with *why when the group cannot be routed.
std::optional<CollectiveSeries> groupSeries(const Design &design, const GroupTraffic &g,
                                            CollectiveKind kind, const QString &what, QString *why)
{
    const QString group = QStringLiteral("%1 group %2 (%3 GPUs)")
                              .arg(QString::fromStdString(g.kind).toUpper())
                              .arg(g.index)
                              .arg(g.members.size());
    std::vector<double> sizes;
    for (double s = 1024; s <= 1024.0 * 1024 * 1024; s *= 4)
        sizes.push_back(s);
    try {
        const auto rows
            = sweepCollective(design, kind, g.members, sizes, CollectiveAlgorithm::Auto);
        CollectiveSeries series;
        series.label = QStringLiteral("%1, %2").arg(what, group);
        for (const CollectiveSweepRow &row : rows)
            series.points.push_back({row.bytes, row.busbw});
        return series;
    } catch (const std::exception &e) {
        // The report goes on without this series; the dock says what is unroutable.
        QString cause = QString::fromUtf8(e.what());
        if (cause.startsWith(QLatin1String("collective: ")))
            cause = cause.mid(12);
        *why = QObject::tr("The %1 of %2 cannot be routed:\n%3").arg(what, group, cause);
        return std::nullopt;
    }
}

const GroupTraffic *firstGroup(const SimResult &r, const char *kind)
{
    for (const GroupTraffic &g : r.groups)
        if (g.kind == kind && g.members.size() >= 2)
            return &g;
    return nullptr;
}

/// The all-reduce of the first TP group of 2+ GPUs (else the first DP group) and, with expert
/// parallelism, the all-to-all of the first EP group (the exchange that dominates a MoE step;
/// it was left out), or none with *why saying what is missing: no such group, or what keeps
/// the group from being routed.
std::optional<CollectiveChartData> collectiveData(const SimResult &r, const Design &design,
                                                  QString *why)
{
    CollectiveChartData data;
    const GroupTraffic *reduce = firstGroup(r, "tp");
    if (!reduce)
        reduce = firstGroup(r, "dp");
    if (reduce) {
        if (auto s = groupSeries(design, *reduce, CollectiveKind::AllReduce,
                                 QStringLiteral("all-reduce"), why))
            data.series.push_back(std::move(*s));
        else
            return std::nullopt;
    }
    if (const GroupTraffic *ep = firstGroup(r, "ep")) {
        if (auto s
            = groupSeries(design, *ep, CollectiveKind::AllToAll, QStringLiteral("all-to-all"), why))
            data.series.push_back(std::move(*s));
        else
            return std::nullopt;
    }
    if (!data.series.empty())
        return data;
    *why = QObject::tr("No collective to plot: the step has no TP, DP or EP group\nof two or "
                       "more GPUs (each rank's gradients stay on its GPU).");
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
        series.note = QObject::tr("The step's busiest link: the highest average utilization, "
                                  "either direction (the app plots the link selected on the "
                                  "canvas).");
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
