// The plan charts as a reader sees them (issue 16): top candidates at one place share one rank
// label ("1–3") instead of digits printed over each other; the Pareto front's other points carry
// their layout; the axes span the candidates, with the HBM and headroom lines; the breakdown's bars
// say what tells the candidates apart, under a "candidate" axis; large tick values grouped by
// thousands.
#include "gui/charts/chartstyle.h"
#include "gui/charts/groupednumberticker.h"
#include "gui/charts/plancharts.h"

#include <QtTest>

using namespace weft;

namespace {

PlanRow row(long long index, int cp, int microBatch, double memoryGb, double tokens,
            const char *order)
{
    PlanRow r;
    r.index = index;
    r.config.tp = 1;
    r.config.pp = 1;
    r.config.cp = cp;
    r.config.dp = 8 / cp;
    r.config.microBatch = microBatch;
    r.config.zeroStage = 2;
    r.order = order;
    r.peakMemoryPerGpu = memoryGb * 1e9;
    r.memoryCapacityPerGpu = 80e9;
    r.tokensPerSecond = tokens;
    r.stepTime = 1e6 / tokens;
    r.fits = true;
    r.breakdown.compute = r.stepTime;
    return r;
}

// The texts of the chart's items marked with property `kind` ("pointLabel", "memoryLine").
QStringList itemTexts(const QCustomPlot &chart, const char *kind)
{
    QStringList texts;
    for (int i = 0; i < chart.itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(chart.item(i)); t && t->property(kind).toBool())
            texts << t->text();
    return texts;
}

QStringList pointLabels(const QCustomPlot &chart)
{
    return itemTexts(chart, "pointLabel");
}

} // namespace

class TestPlanCharts : public QObject
{
    Q_OBJECT
private slots:
    void coincidingRanksShareOneLabel()
    {
        TrainingPlan p;
        // Three equally good candidates at 76 GB, a lean one on the front at 30 GB.
        p.ranked = {row(0, 1, 1, 76.0, 82800, "dp"), row(1, 2, 2, 76.3, 82800, "cp-dp"),
                    row(2, 2, 2, 76.3, 82800, "dp-cp")};
        p.simulated = p.ranked;
        p.simulated.push_back(row(3, 4, 1, 30.0, 82000, "cp-dp"));
        PlanParetoChart chart;
        chart.setData(planParetoData(p));
        const QStringList labels = pointLabels(chart);
        QVERIFY2(labels.contains(QStringLiteral("1\u20133")), qPrintable(labels.join(u'|')));
        QVERIFY(!labels.contains(QStringLiteral("1")));
        QVERIFY2(labels.contains(QStringLiteral("TP1 PP1 DP2 CP4")), qPrintable(labels.join(u'|')));
        QCOMPARE(rankListLabel({5, 1, 2, 3, 7}), QStringLiteral("1\u20133, 5, 7"));
        // The front is that of what was simulated (pruned candidates never are), and says so.
        QCOMPARE(chart.graph(2)->name(),
                 QStringLiteral("Pareto front of the simulated candidates"));
    }

    // Ranks whose labels would overlap (points 0.6 GB and under 4% of the throughput axis apart:
    // a few pixels) share one label, as in the 16-GPU plan dialog. The throughput axis spans the
    // candidates (about 860,000 to 1,056,000 tokens/s here), so ranks 3 and 4 (4,500 apart)
    // share one; rank 5, 21,000 below them, and ranks 1 and 2, 9,000 apart, have their own.
    void nearRanksShareOneLabel()
    {
        TrainingPlan p;
        p.ranked = {row(0, 1, 1, 8.8, 1029231, "dp"), row(1, 1, 2, 8.8, 1020235, "dp"),
                    row(2, 2, 1, 6.4, 918722, "cp-dp"), row(3, 2, 2, 6.4, 914225, "cp-dp"),
                    row(4, 4, 1, 5.8, 893424, "cp-dp")};
        p.simulated = p.ranked;
        PlanParetoChart chart;
        chart.setData(planParetoData(p));
        const QStringList labels = pointLabels(chart);
        QCOMPARE(labels.join(u'|'), QStringLiteral("1|2|3\u20134|5"));
    }

    // The axes span the candidates, not zero to the best: five candidates within 1% of each
    // other at 62-84 GB were one dot in a corner of a 0-140,000 tokens/s, 0-92 GB chart. The
    // memory axis runs to past the HBM capacity and shows the headroom line (90% of HBM, where
    // `simulate` warns) beside it, each labelled.
    void axesSpanTheCandidates()
    {
        TrainingPlan p;
        p.ranked = {row(0, 1, 1, 83.3, 127350, "dp"), row(1, 2, 1, 83.3, 126620, "cp-dp"),
                    row(2, 1, 2, 61.8, 126500, "dp")};
        p.simulated = p.ranked;
        PlanParetoChart chart;
        chart.resize(800, 500);
        chart.setData(planParetoData(p));
        chart.replot();
        QVERIFY2(chart.yAxis->range().lower > 100000,
                 qPrintable(QString::number(chart.yAxis->range().lower)));
        QVERIFY(chart.yAxis->range().upper > 127350);
        QVERIFY(chart.yAxis->range().upper < 135000);
        QVERIFY2(chart.xAxis->range().lower > 50,
                 qPrintable(QString::number(chart.xAxis->range().lower)));
        QVERIFY(chart.xAxis->range().lower < 61.8);
        QVERIFY(chart.xAxis->range().upper > 80); // the capacity, 80 GB
        const QStringList lines = itemTexts(chart, "memoryLine");
        QCOMPARE(lines,
                 (QStringList {QStringLiteral("HBM 80.0 GB"), QStringLiteral("90% of HBM")}));
        // Equal throughputs still get a readable range (4% of the best), not a zero-height axis.
        TrainingPlan flat;
        flat.ranked = {row(0, 1, 1, 40.0, 100000, "dp"), row(1, 2, 1, 50.0, 100000, "cp-dp")};
        flat.simulated = flat.ranked;
        chart.setData(planParetoData(flat));
        chart.replot();
        QVERIFY2(chart.yAxis->range().size() >= 4000,
                 qPrintable(QString::number(chart.yAxis->range().size())));
        QVERIFY(chart.yAxis->range().contains(100000));
    }

    // The HBM line gives the capacity as weft-cli does, with one decimal: an H100's 85.5 GB was
    // "HBM 86 GB" beside the command line's "of 85.5 GB".
    void hbmLineReadsAsTheCommandLine()
    {
        TrainingPlan p;
        p.ranked = {row(0, 1, 1, 81.3, 127350, "dp")};
        p.ranked[0].memoryCapacityPerGpu = 85.521e9; // the catalog's H100 SXM
        p.simulated = p.ranked;
        PlanParetoChart chart;
        chart.setData(planParetoData(p));
        const QStringList lines = itemTexts(chart, "memoryLine");
        QVERIFY2(lines.contains(QStringLiteral("HBM 85.5 GB")), qPrintable(lines.join(u'|')));
    }

    // Throughputs of a million tokens/s read "750,000", "1,000,000" on one axis, not "750000"
    // beside "1·10⁶" (QCustomPlot's default format); small numbers keep their own form.
    void largeTicksAreGrouped()
    {
        TrainingPlan p;
        p.ranked = {row(0, 1, 1, 8.8, 1029231, "dp"), row(1, 2, 1, 6.4, 918722, "cp-dp")};
        p.simulated = p.ranked;
        PlanParetoChart chart;
        chart.resize(600, 400);
        chart.setData(planParetoData(p));
        chart.replot();
        const QVector<QString> labels = chart.yAxis->tickVectorLabels();
        const QStringList all(labels.begin(), labels.end());
        QVERIFY2(all.contains(QStringLiteral("1,000,000")), qPrintable(all.join(u'|')));
        for (const QString &l : all)
            QVERIFY2(!l.contains(u'\u00b7') && !l.contains(u'e'), qPrintable(l));
        QCOMPARE(groupedTickLabel(750000, QStringLiteral("x")), QStringLiteral("750,000"));
        QCOMPARE(groupedTickLabel(2500, QStringLiteral("2500")), QStringLiteral("2500"));
        QCOMPARE(groupedTickLabel(12500.5, QStringLiteral("12500.5")), QStringLiteral("12500.5"));
        QCOMPARE(groupedTickLabel(-20000, QStringLiteral("x")), QStringLiteral("-20,000"));
    }
    void breakdownBarsSayWhatDiffers()
    {
        TrainingPlan p;
        p.ranked = {row(0, 2, 2, 76.0, 82800, "cp-dp"), row(1, 2, 2, 76.0, 82700, "dp-cp")};
        const BreakdownChartData d = planBreakdownData(p);
        QCOMPARE(d.designs.size(), std::size_t(2));
        // Same layout, told apart by the placement on the second line.
        QVERIFY(d.designs[0].design.startsWith(QStringLiteral("#1 TP1 PP1 DP4 CP2\n")));
        QVERIFY(d.designs[0].design.endsWith(QStringLiteral("cp-dp")));
        QVERIFY(d.designs[1].design.endsWith(QStringLiteral("dp-cp")));
        QVERIFY(d.designs[0].design.contains(QStringLiteral("ZeRO\u00a02")));
        PlanBreakdownChart chart;
        chart.setData(d);
        QCOMPARE(chart.xAxis->label(), QStringLiteral("candidate"));
        QCOMPARE(chart.table().header.front(), QStringLiteral("candidate"));
    }

    // Every part of a bar shows in its own colour, however thin: the bars' white outlines and
    // QCustomPlot's 1 px stacking gap (2 px each in the 192 dpi PNG) hid the 20 ms exposed PP,
    // 24 ms exposed DP and 31 ms optimizer of a 4.73 s step (weft-cli plan --out, the DGX H100
    // SU example's best candidate). WEFT_SCREENSHOT_DIR keeps the picture.
    void thinPartsShowInTheirColour()
    {
        PlanRow r = row(0, 1, 1, 80.4, 110787, "tp-dp-pp");
        r.breakdown = {};
        r.breakdown.compute = 3.5688;
        r.breakdown.tpExposed = 0.8495;
        r.breakdown.ppExposed = 0.0199;
        r.breakdown.bubble = 0.2384;
        r.breakdown.dpExposed = 0.0244;
        r.breakdown.optimizer = 0.0313;
        r.stepTime = r.breakdown.sum();
        TrainingPlan p;
        p.ranked = {r};
        PlanBreakdownChart chart;
        chart.setPalette(lightChartPalette()); // as exported
        chart.resize(800, 500);
        QVERIFY(chart.setData(planBreakdownData(p)));
        const double scale = 2; // ChartExportOptions' 192 dpi
        const QImage image = chart.toPixmap(800, 500, scale).toImage();
        if (qEnvironmentVariableIsSet("WEFT_SCREENSHOT_DIR"))
            image.save(qEnvironmentVariable("WEFT_SCREENSHOT_DIR")
                       + QStringLiteral("/plan-breakdown-thin.png"));
        const int x = qRound(chart.xAxis->coordToPixel(0) * scale);
        double base = 0;
        QCOMPARE(chart.plottableCount(), 6);
        for (int i = 0; i < chart.plottableCount(); ++i) {
            auto *bars = qobject_cast<QCPBars *>(chart.plottable(i));
            QVERIFY(bars);
            const double top = base + bars->data()->at(0)->value;
            const int from = int(std::ceil(chart.yAxis->coordToPixel(top) * scale));
            const int to = int(std::floor(chart.yAxis->coordToPixel(base) * scale));
            base = top;
            const QColor want = bars->brush().color();
            bool seen = false;
            for (int y = from; y < to && !seen; ++y) {
                const QColor got = image.pixelColor(x, y);
                seen = std::abs(got.red() - want.red()) <= 24
                    && std::abs(got.green() - want.green()) <= 24
                    && std::abs(got.blue() - want.blue()) <= 24;
            }
            QVERIFY2(
                seen,
                qPrintable(QStringLiteral("%1 (%2 px) not seen").arg(bars->name()).arg(to - from)));
        }
    }

    // MoE candidates that differ only by the token dispatcher or the expert TP read apart.
    void moeLabelsNameTheDispatcher()
    {
        TrainingConfig c;
        c.tp = 1;
        c.dp = 8;
        c.ep = 4;
        c.dispatcher = TokenDispatcher::HybridEP;
        QCOMPARE(planShortLabel(c), QStringLiteral("TP1 PP1 DP8 EP4 hybridep"));
        c.dispatcher = TokenDispatcher::DeepEP;
        c.etp = 2;
        QCOMPARE(planShortLabel(c), QStringLiteral("TP1 PP1 DP8 EP4 ETP2 deepep"));
        c.ep = 1; // dense: no expert knobs
        QCOMPARE(planShortLabel(c), QStringLiteral("TP1 PP1 DP8"));
    }
};

QTEST_MAIN(TestPlanCharts)
#include "tst_plancharts.moc"
