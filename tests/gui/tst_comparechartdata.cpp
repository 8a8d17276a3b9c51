// The data behind comparisons and sweeps (issue 6): compareChartData() puts several designs on
// the same axes with every element labelled by its design; sweepChartData() keeps failed
// variants as "not plotted" notes, which the sweep chart draws as a footnote and exports.
#include "chartsamples.h"
#include "gui/charts/comparechartdata.h"
#include "gui/charts/sweepchart.h"
#include "gui/charts/sweepchartdata.h"
#include "gui/charts/utilizationchart.h"

#include <QtTest>

using namespace weft;

namespace {

ReportChartData sampleReport(double tpSeconds)
{
    ReportChartData r;
    r.breakdown
        = BreakdownChartData {{samples::breakdown(QStringLiteral("x"), tpSeconds, 0.2, 0.3)}};
    r.timeline = samples::timelineData(2, 4);
    r.utilization = samples::utilizationData();
    r.memory = samples::memoryData(2);
    r.linkSeries = samples::linkSeriesData();
    return r;
}

SweepTable sweepTable()
{
    SweepTable t;
    t.design = "dgx-h100-su";
    t.param = SweepParam::Tp;
    t.values = {4, 8, 16, 3};
    for (int i = 0; i < 4; ++i) {
        SweepRow r;
        r.index = i;
        r.value = t.values[std::size_t(i)];
        r.ok = i < 3;
        r.stepTime = r.ok ? 5.0 + i : 0;
        r.mfu = r.ok ? 0.4 - 0.05 * i : 0;
        if (!r.ok)
            r.reason = "heads (64) are not divisible by TP (3)";
        t.rows.push_back(r);
    }
    return t;
}

} // namespace

class TestCompareChartData : public QObject
{
    Q_OBJECT
private slots:
    void oneDesignIsUnchanged()
    {
        const ReportChartData one = sampleReport(0.4);
        const ReportChartData same = compareChartData({{QStringLiteral("A"), one}});
        QCOMPARE(same.breakdown->designs.front().design, QStringLiteral("x"));
        QCOMPARE(same.memory->accelerators.front().label, QStringLiteral("stage 0"));
    }

    void designsShareTheAxes()
    {
        ReportChartData b = sampleReport(0.9);
        b.utilization->tiers.pop_back(); // B has no core tier
        b.timeline->stepTime *= 2;
        const ReportChartData m = compareChartData(
            {{QStringLiteral("A"), sampleReport(0.4)}, {QStringLiteral("B"), b}});
        QCOMPARE(m.breakdown->designs.size(), std::size_t(2));
        QCOMPARE(m.breakdown->designs[0].design, QStringLiteral("A"));
        QCOMPARE(m.breakdown->designs[1].design, QStringLiteral("B"));
        QCOMPARE(m.breakdown->designs[1].seconds[std::size_t(BreakdownPart::TpExposed)], 0.9);
        // Tiers grouped: scale-up of A and B, leaf of A and B, ..., core of A only.
        QStringList tiers;
        for (const TierUtilization &t : m.utilization->tiers)
            tiers << t.tier;
        QCOMPARE(tiers,
                 (QStringList {QStringLiteral("scale-up · A"), QStringLiteral("scale-up · B"),
                               QStringLiteral("leaf · A"), QStringLiteral("leaf · B"),
                               QStringLiteral("spine · A"), QStringLiteral("spine · B"),
                               QStringLiteral("core · A")}));
        QCOMPARE(tierColour(QStringLiteral("leaf · B"), 3), tierColour(QStringLiteral("leaf"), 0));
        QCOMPARE(m.memory->accelerators.size(), std::size_t(4));
        QCOMPARE(m.memory->accelerators[2].label, QStringLiteral("B: stage 0"));
        QCOMPARE(m.timeline->rows.size(), std::size_t(4));
        QCOMPARE(m.timeline->rows[0].label.left(3), QStringLiteral("A: "));
        QCOMPARE(m.timeline->stepTime, b.timeline->stepTime); // the longest step
        QVERIFY(!m.linkSeries); // one link belongs to one design
        QVERIFY(!m.collective);
        for (const QString &e : {validateChartData(*m.breakdown), validateChartData(*m.timeline),
                                 validateChartData(*m.utilization), validateChartData(*m.memory)})
            QVERIFY2(e.isEmpty(), qPrintable(e));
    }

    void failedVariantsAreNotedNotDropped()
    {
        const SweepChartData d = sweepChartData(sweepTable());
        QCOMPARE(d.parameter, QStringLiteral("TP degree"));
        QVERIFY(d.logScale);
        QCOMPARE(d.series.size(), std::size_t(1));
        QCOMPARE(d.series[0].label, QStringLiteral("dgx-h100-su"));
        QCOMPARE(d.series[0].points.size(), std::size_t(3));
        QCOMPARE(
            d.notPlotted,
            QStringList {QStringLiteral("TP degree 3: heads (64) are not divisible by TP (3)")});
        const SweepChartData labelled = sweepChartData(sweepTable(), QStringLiteral("mine"));
        QCOMPARE(labelled.series[0].label, QStringLiteral("mine"));
        QVERIFY(labelled.notPlotted.front().startsWith(QStringLiteral("mine, TP degree 3")));

        const SweepChartData both = combineSweepChartData(d, labelled);
        QCOMPARE(both.series.size(), std::size_t(2));
        QCOMPARE(both.notPlotted.size(), 2);
        SweepTable other = sweepTable();
        other.param = SweepParam::MicroBatch;
        const SweepChartData replaced = combineSweepChartData(d, sweepChartData(other));
        QCOMPARE(replaced.parameter, QStringLiteral("micro-batch size"));
        QCOMPARE(replaced.series.size(), std::size_t(1));
    }

    void sweepChartShowsTheNotesAsAFootnote()
    {
        SweepChart chart;
        chart.resize(800, 420);
        QVERIFY(chart.setData(sweepChartData(sweepTable())));
        QVERIFY(chart.footnote().startsWith(QStringLiteral("Not plotted: TP degree 3")));
        QVERIFY(chart.setData(samples::sweepData()));
        QVERIFY(chart.footnote().isEmpty()); // cleared with the data that needed it
    }
};

QTEST_MAIN(TestCompareChartData)
#include "tst_comparechartdata.moc"
