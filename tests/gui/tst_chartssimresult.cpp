// Adapters from SimResult to chart data: mapping details on a hand-built result, and a real
// simulation whose charts build without data errors. Set WEFT_CHART_SHOTS_DIR to keep PNGs of
// the simulated charts.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartexporter.h"
#include "gui/charts/linkserieschart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/simresultcharts.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"
#include "sim/simulator.h"
#include "testcluster.h"

using namespace weft;

namespace {

SimResult handBuilt()
{
    SimResult r;
    r.ok = true;
    r.stepTime = 1.0;
    r.breakdown = {0.5, 0.1, 0.0, 0.0, 0.05, 0.2, 0.1, 0.05};
    r.timelines = {{{TimelineOp::Kind::Forward, 0, -1, 0.0, 0.2, 0.25},
                    {TimelineOp::Kind::Backward, 0, -1, 0.3, 0.7, 0.7},
                    {TimelineOp::Kind::DpComm, -1, -1, 0.7, 0.7, 0.9},
                    {TimelineOp::Kind::Optimizer, -1, -1, 0.9, 1.0, 1.0}},
                   {{TimelineOp::Kind::Forward, 0, -1, 0.25, 0.45, 0.45}}};
    auto acc = [](int rank, int stage, int timeline, double activations) {
        AcceleratorResult a;
        a.node = NodeId(std::uint32_t(100 + rank));
        a.rank = rank;
        a.stage = stage;
        a.timeline = timeline;
        a.memory = {4e9, 4e9, 2e9, activations, 80e9, 3e9, 1e9, 0.5e9};
        return a;
    };
    // Stage 1 listed first, and its rank 3 before rank 2: rows come out by stage, the lowest
    // rank's timeline, the fullest accelerator's memory.
    r.accelerators
        = {acc(3, 1, 1, 30e9), acc(2, 1, 1, 31e9), acc(0, 0, 0, 50e9), acc(1, 0, 0, 49e9)};
    LinkResult nvlink;
    nvlink.id = LinkId(1);
    nvlink.tier = "scale-up";
    nvlink.capacity = 300e9;
    nvlink.dir[0].avgUtilization = 0.5;
    nvlink.dir[1].avgUtilization = 0.25;
    LinkResult uplink;
    uplink.id = LinkId(2);
    uplink.from = NodeId(7);
    uplink.to = NodeId(9);
    uplink.tier = "spine";
    uplink.capacity = 50e9;
    uplink.dir[0].series = {0.1f, 0.9f};
    uplink.dir[1].series = {0.0f, 0.5f};
    LinkResult custom = uplink;
    custom.id = LinkId(3);
    custom.tier = "optical";
    LinkResult dead = uplink;
    dead.id = LinkId(4);
    dead.capacity = 0;
    r.links = {custom, uplink, nvlink, dead};
    return r;
}

} // namespace

class TestChartsSimResult : public QObject
{
    Q_OBJECT
private slots:
    void breakdownKeepsEveryPart()
    {
        const StepBreakdown b = stepBreakdown(handBuilt(), QStringLiteral("A"));
        QCOMPARE(b.design, QStringLiteral("A"));
        QCOMPARE(b.seconds[std::size_t(BreakdownPart::Bubble)], 0.2);
        QCOMPARE(b.seconds[std::size_t(BreakdownPart::Optimizer)], 0.05);
        QCOMPARE(b.total(), handBuilt().breakdown.sum());
    }

    void timelineSplitsComputeAndExposedCommunication()
    {
        const TimelineChartData t = timelineChartData(handBuilt());
        QCOMPARE(t.stepTime, 1.0);
        QCOMPARE(t.rows.size(), std::size_t(2));
        QCOMPARE(t.rows[0].label, QStringLiteral("stage 0"));
        const auto &s = t.rows[0].spans;
        QCOMPARE(s.size(), std::size_t(5));
        QCOMPARE(s[0].kind, TimelineKind::Forward);
        QCOMPARE(s[0].end, 0.2);
        QCOMPARE(s[1].kind, TimelineKind::Communication); // the exposed 0.2 .. 0.25
        QCOMPARE(s[1].start, 0.2);
        QCOMPARE(s[1].end, 0.25);
        QCOMPARE(s[2].kind, TimelineKind::Backward); // no exposed part: one span
        QCOMPARE(s[3].kind, TimelineKind::Communication);
        QCOMPARE(s[3].start, 0.7);
        QCOMPARE(s[4].kind, TimelineKind::Optimizer);
        QCOMPARE(t.rows[1].spans.size(), std::size_t(1));
        QCOMPARE(validateChartData(t), QString());
    }

    void utilizationGroupsTiersInFabricOrder()
    {
        const UtilizationChartData u = utilizationChartData(handBuilt());
        QCOMPARE(u.tiers.size(), std::size_t(3));
        QCOMPARE(u.tiers[0].tier, QStringLiteral("scale-up"));
        QCOMPARE(u.tiers[0].utilization, (std::vector<double> {0.5, 0.25}));
        QCOMPARE(u.tiers[1].tier, QStringLiteral("spine"));
        QCOMPARE(u.tiers[1].utilization.size(),
                 std::size_t(2)); // the zero-capacity link is skipped
        QCOMPARE(u.tiers[2].tier, QStringLiteral("optical"));
    }

    void linkSeriesNamesBothDirections()
    {
        const auto name = [](NodeId n) { return QStringLiteral("n%1").arg(n.value); };
        const LinkSeriesChartData l = linkSeriesChartData(handBuilt(), LinkId(2), name);
        QCOMPARE(l.series.size(), std::size_t(2));
        QCOMPARE(l.series[0].label, QStringLiteral("n7 -> n9"));
        QCOMPARE(l.series[1].label, QStringLiteral("n9 -> n7"));
        QCOMPARE(l.series[0].utilization[1], double(0.9f));
        QVERIFY(linkSeriesChartData(handBuilt(), LinkId(99), name).series.empty());
    }

    void memoryShowsTheFullestAcceleratorPerStage()
    {
        const MemoryChartData m = memoryChartData(handBuilt());
        QCOMPARE(m.accelerators.size(), std::size_t(2));
        QCOMPARE(m.accelerators[0].label, QStringLiteral("stage 0"));
        QCOMPARE(m.accelerators[0].activations, 50e9);
        QCOMPARE(m.accelerators[1].activations, 31e9);
        QCOMPARE(m.accelerators[1].capacity, 80e9);
        // The CUDA context, NCCL buffers and fragmentation count: the bar's total is what the
        // memory-headroom warning compares with the capacity (it was 4.5 GB short).
        QCOMPARE(m.accelerators[0].other, 4.5e9);
        QCOMPARE(m.accelerators[0].total(), handBuilt().accelerators[2].memory.total());
    }

    void aSimulatedStepChartsWithoutDataErrors()
    {
        Design d = test::makeCluster("dgx-a100", 4).design;
        Workload &w = d.workload.emplace();
        w.model.name = "gpt-1.3b";
        w.model.layers = 8;
        w.model.hidden = 2048;
        w.model.heads = w.model.kvHeads = 16;
        w.model.ffn = 8192;
        w.model.vocab = 51200;
        w.model.seq = 2048;
        w.config.tp = 8;
        w.config.pp = 2;
        w.config.dp = 2;
        w.config.globalBatch = 16;
        const SimResult r = simulate(d);
        QVERIFY(r.ok);

        const QString keep = qEnvironmentVariable("WEFT_CHART_SHOTS_DIR");
        auto check = [&keep](Chart &chart, bool accepted, const QString &error) {
            QVERIFY2(accepted, qPrintable(error));
            QVERIFY(chart.plottableCount() > 0);
            if (!keep.isEmpty())
                QVERIFY(ChartExporter::savePng(chart,
                                               QDir(keep).filePath(QStringLiteral("sim-")
                                                                   + chart.chartId()
                                                                   + QStringLiteral("-light.png")),
                                               {QSize(800, 500), 144}));
        };
        QString error;
        BreakdownChart breakdown;
        breakdown.setPalette(lightChartPalette());
        check(breakdown,
              breakdown.setData({{stepBreakdown(r, QStringLiteral("4 x DGX A100"))}}, &error),
              error);
        QVERIFY(qAbs(breakdown.data().designs[0].total() - r.stepTime) < 1e-9 * r.stepTime);

        TimelineChart timeline;
        timeline.setPalette(lightChartPalette());
        const TimelineChartData t = timelineChartData(r);
        QCOMPARE(t.rows.size(), std::size_t(2));
        check(timeline, timeline.setData(t, &error), error);

        UtilizationChart utilization;
        utilization.setPalette(lightChartPalette());
        const UtilizationChartData u = utilizationChartData(r);
        QVERIFY(!u.tiers.empty());
        QCOMPARE(u.tiers[0].tier, QStringLiteral("scale-up"));
        check(utilization, utilization.setData(u, &error), error);

        MemoryChart memory;
        memory.setPalette(lightChartPalette());
        QCOMPARE(memoryChartData(r).accelerators.size(), std::size_t(2));
        check(memory, memory.setData(memoryChartData(r), &error), error);

        // The busiest NIC link over the step.
        const auto busiest = std::max_element(r.links.begin(), r.links.end(),
                                              [](const LinkResult &a, const LinkResult &b) {
                                                  return a.dir[0].bytes < b.dir[0].bytes;
                                              });
        QVERIFY(busiest != r.links.end());
        LinkSeriesChart link;
        link.setPalette(lightChartPalette());
        const LinkSeriesChartData l = linkSeriesChartData(
            r, busiest->id, [](NodeId n) { return QStringLiteral("node %1").arg(n.value); });
        if (!l.series.empty())
            check(link, link.setData(l, &error), error);
    }
};

QTEST_MAIN(TestChartsSimResult)
#include "tst_chartssimresult.moc"
