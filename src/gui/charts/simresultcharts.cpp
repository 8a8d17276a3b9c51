#include "simresultcharts.h"

#include <algorithm>
#include <map>

namespace weft {

StepBreakdown stepBreakdown(const SimResult &result, const QString &design)
{
    const Breakdown &b = result.breakdown;
    StepBreakdown s;
    s.design = design;
    s.seconds = {b.compute,   b.tpExposed, b.cpExposed, b.epExposed,
                 b.ppExposed, b.bubble,    b.dpExposed, b.optimizer};
    return s;
}

TimelineChartData timelineChartData(const SimResult &result)
{
    // The lowest rank of each stage represents it (its TP/CP peers share the timeline).
    std::map<int, const AcceleratorResult *> byStage;
    for (const AcceleratorResult &a : result.accelerators) {
        if (a.stage < 0 || a.timeline < 0 || std::size_t(a.timeline) >= result.timelines.size())
            continue;
        auto [it, inserted] = byStage.emplace(a.stage, &a);
        if (!inserted && a.rank < it->second->rank)
            it->second = &a;
    }
    TimelineChartData data;
    data.stepTime = result.stepTime;
    for (const auto &[stage, acc] : byStage) {
        TimelineRow row;
        row.label = QStringLiteral("stage %1").arg(stage);
        for (const TimelineOp &op : result.timelines[std::size_t(acc->timeline)]) {
            switch (op.kind) {
            case TimelineOp::Kind::Forward:
            case TimelineOp::Kind::Backward: {
                const auto kind = op.kind == TimelineOp::Kind::Forward ? TimelineKind::Forward
                                                                       : TimelineKind::Backward;
                row.spans.push_back({kind, op.start, op.computeEnd, op.microBatch});
                if (op.end > op.computeEnd)
                    row.spans.push_back(
                        {TimelineKind::Communication, op.computeEnd, op.end, op.microBatch});
                break;
            }
            case TimelineOp::Kind::DpComm:
                row.spans.push_back({TimelineKind::Communication, op.start, op.end, -1});
                break;
            case TimelineOp::Kind::Optimizer:
                row.spans.push_back({TimelineKind::Optimizer, op.start, op.end, -1});
                break;
            }
        }
        data.rows.push_back(std::move(row));
    }
    return data;
}

UtilizationChartData utilizationChartData(const SimResult &result)
{
    static const char *const order[] = {"scale-up", "nic", "leaf", "spine", "core"};
    UtilizationChartData data;
    auto tierIndex = [&data](const QString &tier) {
        for (std::size_t i = 0; i < data.tiers.size(); ++i) {
            if (data.tiers[i].tier == tier)
                return i;
        }
        data.tiers.push_back({tier, {}});
        return data.tiers.size() - 1;
    };
    for (const char *tier : order)
        tierIndex(QLatin1String(tier));
    for (const LinkResult &link : result.links) {
        if (link.capacity <= 0)
            continue;
        TierUtilization &t = data.tiers[tierIndex(QString::fromStdString(link.tier))];
        for (const LinkDirResult &dir : link.dir)
            t.utilization.push_back(dir.avgUtilization);
    }
    std::erase_if(data.tiers, [](const TierUtilization &t) { return t.utilization.empty(); });
    return data;
}

LinkSeriesChartData linkSeriesChartData(const SimResult &result, LinkId link,
                                        const std::function<QString(NodeId)> &nodeName)
{
    const auto it = std::find_if(result.links.begin(), result.links.end(),
                                 [link](const LinkResult &l) { return l.id == link; });
    LinkSeriesChartData data;
    if (it == result.links.end())
        return data;
    data.stepTime = result.stepTime;
    const QString a = nodeName(it->from);
    const QString b = nodeName(it->to);
    const QString labels[2] = {a + QStringLiteral(" -> ") + b, b + QStringLiteral(" -> ") + a};
    for (int d = 0; d < 2; ++d) {
        const std::vector<float> &series = it->dir[d].series;
        if (!series.empty())
            data.series.push_back({labels[d], std::vector<double>(series.begin(), series.end())});
    }
    return data;
}

MemoryChartData memoryChartData(const SimResult &result)
{
    std::map<int, const AcceleratorResult *> fullest;
    for (const AcceleratorResult &a : result.accelerators) {
        if (a.stage < 0)
            continue;
        auto [it, inserted] = fullest.emplace(a.stage, &a);
        if (!inserted && a.memory.total() > it->second->memory.total())
            it->second = &a;
    }
    MemoryChartData data;
    for (const auto &[stage, acc] : fullest) {
        const MemoryBreakdown &m = acc->memory;
        data.accelerators.push_back({QStringLiteral("stage %1").arg(stage), m.weights, m.gradients,
                                     m.optimizer, m.activations, m.capacity,
                                     m.runtime + m.commBuffers + m.fragmentation});
    }
    return data;
}

} // namespace weft
