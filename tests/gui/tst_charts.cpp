// The charts build the right plottables from data, describe values under the mouse, zoom and
// pan, follow the palette and reject bad data with a message naming the element.

#include "chartsamples.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/bytesizeticker.h"
#include "gui/charts/collectivechart.h"
#include "gui/charts/ganttbars.h"
#include "gui/charts/linkserieschart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/sweepchart.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"

#include <QTest>

using namespace weft;

namespace {

template<typename T> T *plottableNamed(Chart &chart, const QString &name)
{
    for (int i = 0; i < chart.plottableCount(); ++i) {
        if (chart.plottable(i)->name() == name)
            return qobject_cast<T *>(chart.plottable(i));
    }
    return nullptr;
}

QStringList plottableNames(Chart &chart)
{
    QStringList names;
    for (int i = 0; i < chart.plottableCount(); ++i)
        names << chart.plottable(i)->name();
    return names;
}

int legendItems(Chart &chart)
{
    int n = 0;
    for (int i = 0; i < chart.legend->itemCount(); ++i)
        n += chart.legend->item(i) != nullptr;
    return n;
}

// Shows nothing: lays the chart out at a fixed size so pixel positions are meaningful (a hidden
// widget gets its resize event only when shown, so the width-dependent layout is applied here).
void layOut(Chart &chart)
{
    chart.resize(800, 500);
    chart.adaptToWidth(800);
    chart.replot();
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT
private slots:
    void breakdownStacksUsedPartsPerDesign()
    {
        BreakdownChart chart;
        QVERIFY(chart.setData(samples::breakdownData()));
        // CP and EP are zero in every design: no series for them.
        QCOMPARE(plottableNames(chart),
                 (QStringList {QStringLiteral("compute"), QStringLiteral("exposed TP"),
                               QStringLiteral("exposed PP"), QStringLiteral("pipeline bubble"),
                               QStringLiteral("exposed DP"), QStringLiteral("optimizer")}));
        QCOMPARE(legendItems(chart), 6);
        QCOMPARE(chart.unitSeconds(), 1.0);
        auto *dp = plottableNamed<QCPBars>(chart, QStringLiteral("exposed DP"));
        QVERIFY(dp);
        QCOMPARE(dp->dataCount(), 3);
        QCOMPARE(dp->data()->at(1)->value, 1.20);
        QCOMPARE(dp->barBelow(), plottableNamed<QCPBars>(chart, QStringLiteral("pipeline bubble")));
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("(s)")));
        QCOMPARE(chart.itemCount(), 3); // the totals above the bars
        chart.adaptToWidth(800);
        QCOMPARE(chart.legend->wrap(), 3); // six items in two balanced rows at 800 px
        chart.adaptToWidth(2000);
        QCOMPARE(chart.legend->wrap(), 6);
        QCOMPARE(qobject_cast<QCPItemText *>(chart.item(1))->text(), QStringLiteral("9.08"));
    }

    void breakdownUsesMillisecondsBelowOneSecond()
    {
        BreakdownChart chart;
        StepBreakdown b;
        b.design = QStringLiteral("small");
        b.seconds[std::size_t(BreakdownPart::Compute)] = 0.250;
        b.seconds[std::size_t(BreakdownPart::EpExposed)] = 0.030;
        QVERIFY(chart.setData(BreakdownChartData {{b}}));
        QCOMPARE(chart.unitSeconds(), 1e-3);
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("(ms)")));
        QCOMPARE(plottableNamed<QCPBars>(chart, QStringLiteral("exposed EP"))->data()->at(0)->value,
                 30.0);
    }

    // A generated design's name is a long description: it wraps onto short lines instead of
    // being rotated across the plot.
    void longCategoryLabelsWrap()
    {
        BreakdownChart chart;
        StepBreakdown b;
        b.design = QStringLiteral("16 x dgx-h100, rail-optimized, 2 tiers of qm9700, 400G NICs, "
                                  "1:1, 1 plane");
        b.seconds[std::size_t(BreakdownPart::Compute)] = 1;
        QVERIFY(chart.setData(BreakdownChartData {{b}}));
        layOut(chart);
        QCOMPARE(chart.xAxis->tickLabelRotation(), 0.0);
        const QStringList lines = chart.xAxis->tickVectorLabels().value(0).split(u'\n');
        QVERIFY(lines.size() >= 3);
        for (const QString &line : lines)
            QVERIFY2(line.size() <= 28, qPrintable(line));
        QCOMPARE(lines.join(u' '), b.design);
    }

    // Many long labels (a plan's top candidates) are rotated; the first reaches left of its
    // bar, and QCustomPlot leaves out a label the widget's side would clip: the plot keeps
    // room for it.
    void rotatedLabelsKeepTheFirst()
    {
        BreakdownChart chart;
        BreakdownChartData data;
        for (int i = 1; i <= 5; ++i) {
            StepBreakdown b;
            b.design = QStringLiteral("#%1 TP2 PP4 DP16 CP2 v8 b 1 · ZeRO 2 · cp-tp-dp-pp").arg(i);
            b.seconds[std::size_t(BreakdownPart::Compute)] = 4;
            data.designs.push_back(b);
        }
        QVERIFY(chart.setData(data));
        layOut(chart);
        QVERIFY(chart.xAxis->tickLabelRotation() < 0);
        const QStringList lines = chart.xAxis->tickVectorLabels().value(0).split(u'\n');
        const QFontMetrics fm(chart.xAxis->tickLabelFont());
        int width = 0;
        for (const QString &line : lines)
            width = std::max(width, fm.horizontalAdvance(line));
        const double a = qDegreesToRadians(-chart.xAxis->tickLabelRotation());
        const double left = chart.xAxis->coordToPixel(chart.xAxis->tickVector().value(0))
            - width * std::cos(a) - fm.lineSpacing() * double(lines.size()) * std::sin(a);
        QVERIFY2(left >= 0, qPrintable(QString::number(left)));
    }

    void timelineHasOneBarPerSpanAndIdleGaps()
    {
        TimelineChart chart;
        const TimelineChartData data = samples::timelineData(4, 8);
        QVERIFY(chart.setData(data));
        QCOMPARE(plottableNames(chart),
                 (QStringList {QStringLiteral("forward"), QStringLiteral("backward"),
                               QStringLiteral("communication"), QStringLiteral("optimizer"),
                               QStringLiteral("idle")}));
        auto *forward = plottableNamed<GanttBars>(chart, QStringLiteral("forward"));
        QCOMPARE(forward->bars().size(), std::size_t(4 * 8));
        // Stage 0's first forward starts at 0 ms and lasts 40 ms, labelled with its micro-batch.
        const GanttBars::Bar &first = forward->bars().front();
        QCOMPARE(first.row, 0.0);
        QCOMPARE(first.start, 0.0);
        QVERIFY(qAbs(first.end - 40.0) < 1e-9);
        QCOMPARE(first.label, QStringLiteral("0"));
        // Stage 3 waits for three forwards (+ sends) before it starts: idle from 0 ms.
        auto *idle = plottableNamed<GanttBars>(chart, QStringLiteral("idle"));
        const auto stage3Idle = std::find_if(idle->bars().begin(), idle->bars().end(),
                                             [](const GanttBars::Bar &b) { return b.row == 3.0; });
        QVERIFY(stage3Idle != idle->bars().end());
        QCOMPARE(stage3Idle->start, 0.0);
        QVERIFY(qAbs(stage3Idle->end - 3 * 43.0) < 1e-9);
        // Busy plus idle time of every row covers the step exactly.
        for (std::size_t r = 0; r < data.rows.size(); ++r) {
            double covered = 0;
            for (const auto &p : chart.plottedSpans(r))
                covered += p.span.end - p.span.start;
            QVERIFY2(qAbs(covered - data.stepTime) < 1e-9, qPrintable(data.rows[r].label));
        }
        QVERIFY(chart.yAxis->rangeReversed());
        QVERIFY(qAbs(chart.xAxis->range().upper - data.stepTime * 1e3 * 1.01) < 1e-6);
        QVERIFY(chart.xAxis->range().lower < 0);
        QVERIFY(chart.xAxis->label().contains(QStringLiteral("(ms)")));
    }

    void utilizationHasABoxPerTier()
    {
        UtilizationChart chart;
        const UtilizationChartData data = samples::utilizationData();
        QVERIFY(chart.setData(data));
        QCOMPARE(chart.plottableCount(), 5); // four tiers and the means
        auto *leaf = plottableNamed<QCPStatisticalBox>(chart, QStringLiteral("leaf (n = 512)"));
        QVERIFY(leaf);
        const BoxStatistics s = boxStatistics(data.tiers[1].utilization);
        QCOMPARE(leaf->data()->at(0)->key, 1.0);
        QCOMPARE(leaf->data()->at(0)->median, s.median * 100);
        QVERIFY(leaf->data()->at(0)->outliers.contains(93.0));
        auto *means = plottableNamed<QCPGraph>(chart, QStringLiteral("mean"));
        QCOMPARE(means->dataCount(), 4);
        QVERIFY(
            qAbs(means->data()->at(0)->value - boxStatistics(data.tiers[0].utilization).mean * 100)
            < 1e-9);
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("(%)")));
    }

    void boxStatisticsMatchesDefinition7_data()
    {
        QTest::addColumn<std::vector<double>>("values");
        QTest::addColumn<double>("q1");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("q3");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::addColumn<int>("outliers");
        // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) = 1.75, 2.5, 3.25
        QTest::newRow("four") << std::vector<double> {4, 1, 3, 2} << 1.75 << 2.5 << 3.25 << 1.0
                              << 4.0 << 0;
        QTest::newRow("one") << std::vector<double> {0.5} << 0.5 << 0.5 << 0.5 << 0.5 << 0.5 << 0;
        // q1 = 2, q3 = 4, IQR 2: 100 is beyond 4 + 3 = 7
        QTest::newRow("outlier") << std::vector<double> {1, 2, 3, 4, 100} << 2.0 << 3.0 << 4.0
                                 << 1.0 << 4.0 << 1;
    }

    void boxStatisticsMatchesDefinition7()
    {
        QFETCH(std::vector<double>, values);
        const BoxStatistics s = boxStatistics(values);
        QTEST(s.lowerQuartile, "q1");
        QTEST(s.median, "median");
        QTEST(s.upperQuartile, "q3");
        QTEST(s.minimum, "low");
        QTEST(s.maximum, "high");
        QTEST(int(s.outliers.size()), "outliers");
    }

    void linkSeriesIsAStepLinePerDirection()
    {
        LinkSeriesChart chart;
        const LinkSeriesChartData data = samples::linkSeriesData();
        QVERIFY(chart.setData(data));
        QCOMPARE(chart.plottableCount(), 2);
        auto *up = plottableNamed<QCPGraph>(chart, QStringLiteral("leaf 3 -> spine 1"));
        QCOMPARE(up->lineStyle(), QCPGraph::lsStepLeft);
        QCOMPARE(up->dataCount(), 221); // 220 buckets and the closing point at the step end
        QVERIFY(qAbs(up->data()->at(1)->key - 10.0) < 1e-9); // 10 ms buckets
        QCOMPARE(up->data()->at(1)->value, data.series[0].utilization[1] * 100);
        QCOMPARE(up->data()->at(220)->key, 2200.0);
    }

    void memoryStacksPartsUnderTheCapacityLine()
    {
        MemoryChart chart;
        QVERIFY(chart.setData(samples::memoryData(4)));
        QCOMPARE(plottableNames(chart),
                 (QStringList {QStringLiteral("weights"), QStringLiteral("gradients"),
                               QStringLiteral("optimizer states"), QStringLiteral("activations"),
                               QStringLiteral("CUDA context, NCCL buffers, fragmentation"),
                               QStringLiteral("HBM capacity")}));
        auto *act = plottableNamed<QCPBars>(chart, QStringLiteral("activations"));
        QCOMPARE(act->dataCount(), 4);
        QCOMPARE(act->data()->at(0)->value, 70.0); // 4 x 17.5 GB on stage 0
        auto *capacity = plottableNamed<QCPGraph>(chart, QStringLiteral("HBM capacity"));
        QCOMPARE(capacity->dataCount(), 5);
        QCOMPARE(capacity->data()->at(0)->key, -0.5);
        QCOMPARE(capacity->data()->at(4)->value, 80.0);
        // Stage 0 holds 80.4 GB: its total is flagged over the 80 GB capacity.
        QCOMPARE(qobject_cast<QCPItemText *>(chart.item(0))->text(), QStringLiteral("80.4 (over)"));
        QCOMPARE(qobject_cast<QCPItemText *>(chart.item(1))->text(), QStringLiteral("62.9"));
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("(GB)")));
    }

    void collectiveUsesLog2ByteAxis()
    {
        CollectiveChart chart;
        const CollectiveChartData data = samples::collectiveData();
        QVERIFY(chart.setData(data));
        QCOMPARE(chart.plottableCount(), 3);
        auto *sim = qobject_cast<QCPGraph *>(chart.plottable(0));
        QCOMPARE(sim->dataCount(), 31);
        QCOMPARE(sim->data()->at(30)->key, std::ldexp(1.0, 33));
        QCOMPARE(sim->data()->at(30)->value, data.series[0].points[30].busBandwidth / 1e9);
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("GB/s")));
        // Tick labels read like nccl-tests sizes.
        layOut(chart);
        const QVector<QString> labels = chart.xAxis->tickVectorLabels();
        QVERIFY(labels.contains(QStringLiteral("1K")));
        QVERIFY(labels.contains(QStringLiteral("1G")));
        QVERIFY(labels.contains(QStringLiteral("4K")));
        QVERIFY(labels.size() <= 16);
        // A narrow chart shows fewer sizes, still on powers of 1024 where they fall.
        chart.adaptToWidth(300);
        chart.replot();
        QVERIFY(chart.xAxis->tickVectorLabels().size() <= 6);
        QVERIFY(chart.xAxis->tickVectorLabels().contains(QStringLiteral("1M")));
        QVERIFY(qobject_cast<QCPGraph *>(chart.plottable(1))->scatterStyle().shape()
                != sim->scatterStyle().shape());
    }

    void byteSizeLabels_data()
    {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("label");
        QTest::newRow("8") << 8.0 << QStringLiteral("8");
        QTest::newRow("1K") << 1024.0 << QStringLiteral("1K");
        QTest::newRow("1.5K") << 1536.0 << QStringLiteral("1.5K");
        QTest::newRow("256M") << std::ldexp(1.0, 28) << QStringLiteral("256M");
        QTest::newRow("8G") << std::ldexp(1.0, 33) << QStringLiteral("8G");
    }

    void byteSizeLabels()
    {
        QFETCH(double, bytes);
        QTEST(byteSizeLabel(bytes), "label");
    }

    void sweepPlotsStepTimeAndMfuOnTwoAxes()
    {
        SweepChart chart;
        SweepChartData data = samples::sweepData();
        std::reverse(data.series[0].points.begin(), data.series[0].points.end()); // sorted on input
        QVERIFY(chart.setData(data));
        QCOMPARE(chart.plottableCount(), 4);
        auto *step
            = plottableNamed<QCPGraph>(chart, QStringLiteral("rail-optimized 1:1: step time"));
        auto *mfu = plottableNamed<QCPGraph>(chart, QStringLiteral("rail-optimized 1:1: MFU"));
        QVERIFY(step && mfu);
        QCOMPARE(step->valueAxis(), chart.yAxis);
        QCOMPARE(mfu->valueAxis(), chart.yAxis2);
        QVERIFY(chart.yAxis2->visible());
        QCOMPARE(step->data()->at(0)->key, 8.0);
        QCOMPARE(step->data()->at(3)->value, 7.3);
        QCOMPARE(mfu->data()->at(3)->value, 47.4);
        QVERIFY(chart.xAxis->label().contains(QStringLiteral("(GPUs)")));
        QVERIFY(chart.yAxis->label().contains(QStringLiteral("(s)")));
        QVERIFY(chart.yAxis2->label().contains(QStringLiteral("(%)")));
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        // Several series: a colour each, step time and MFU alike; one series: two colours, each
        // axis title in its line's (one blue for both read as one line where they crossed).
        QCOMPARE(step->pen().color(), mfu->pen().color());
        data.series.resize(1);
        QVERIFY(chart.setData(data));
        step = plottableNamed<QCPGraph>(chart, QStringLiteral("step time"));
        mfu = plottableNamed<QCPGraph>(chart, QStringLiteral("MFU"));
        QVERIFY(step && mfu);
        QVERIFY(step->pen().color() != mfu->pen().color());
        QCOMPARE(chart.yAxis->labelColor(), step->pen().color());
        QCOMPARE(chart.yAxis2->labelColor(), mfu->pen().color());
    }

    void invalidDataIsRejectedWithItsLocation()
    {
        TimelineChart timeline;
        TimelineChartData t = samples::timelineData(2, 2);
        t.rows[1].spans[0].end = t.rows[1].spans[0].start - 0.01;
        QString error;
        QVERIFY(!timeline.setData(t, &error));
        QVERIFY2(error.contains(QStringLiteral("'stage 1', span 0")), qPrintable(error));
        QCOMPARE(timeline.plottableCount(), 0);
        QCOMPARE(timeline.dataError(), error);

        MemoryChart memory;
        MemoryChartData m = samples::memoryData(2);
        m.accelerators[1].activations = std::nan("");
        QVERIFY(!memory.setData(m, &error));
        QVERIFY2(error.contains(QStringLiteral("'stage 1': activations")), qPrintable(error));

        CollectiveChart collective;
        CollectiveChartData c = samples::collectiveData();
        c.series[2].points[4].messageBytes = 0;
        QVERIFY(!collective.setData(c, &error));
        QVERIFY2(error.contains(QStringLiteral("IB NDR (sim)', point 4")), qPrintable(error));

        // Good data afterwards is accepted again.
        QVERIFY(collective.setData(samples::collectiveData(), &error));
        QVERIFY(error.isEmpty());
        QVERIFY(collective.dataError().isEmpty());
    }

    void tooltipsDescribeTheValueUnderTheMouse()
    {
        BreakdownChart breakdown;
        breakdown.setData(samples::breakdownData());
        layOut(breakdown);
        const QPointF dpBar(breakdown.xAxis->coordToPixel(1),
                            breakdown.yAxis->coordToPixel(6.1 + 0.42 + 0.35 + 0.95 + 0.6));
        const QString text = breakdown.toolTipAt(dpBar);
        QVERIFY2(text.contains(QStringLiteral("fat-tree 4:1"))
                     && text.contains(QStringLiteral("exposed DP: 1.20 s")),
                 qPrintable(text));
        QVERIFY(breakdown.toolTipAt(QPointF(2, 2)).isEmpty());

        TimelineChart timeline;
        timeline.setData(samples::timelineData(4, 8));
        layOut(timeline);
        const QString span = timeline.toolTipAt(
            QPointF(timeline.xAxis->coordToPixel(20), timeline.yAxis->coordToPixel(0)));
        QVERIFY2(span.contains(QStringLiteral("stage 0"))
                     && span.contains(QStringLiteral("forward, micro-batch 0"))
                     && span.contains(QStringLiteral("0.000 to 40.000 ms")),
                 qPrintable(span));

        SweepChart sweep;
        sweep.setData(samples::sweepData());
        layOut(sweep);
        const QString point = sweep.toolTipAt(
            QPointF(sweep.xAxis->coordToPixel(32), sweep.yAxis->coordToPixel(7.6)));
        QVERIFY2(point.contains(QStringLiteral("step time 7.600 s, MFU 45.5 %")),
                 qPrintable(point));
    }

    void wheelZoomsDragPansDoubleClickResets()
    {
        LinkSeriesChart chart;
        chart.setData(samples::linkSeriesData());
        layOut(chart);
        const QCPRange before = chart.xAxis->range();
        const QPointF centre = chart.axisRect()->center();
        QWheelEvent wheel(centre, chart.mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&chart, &wheel);
        QVERIFY(chart.xAxis->range().size() < before.size() * 0.95);

        const QCPRange zoomed = chart.xAxis->range();
        const QPointF to = centre + QPointF(100, 0);
        QMouseEvent press(QEvent::MouseButtonPress, centre, chart.mapToGlobal(centre),
                          Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QMouseEvent move(QEvent::MouseMove, to, chart.mapToGlobal(to), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QMouseEvent release(QEvent::MouseButtonRelease, to, chart.mapToGlobal(to), Qt::LeftButton,
                            Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&chart, &press);
        QCoreApplication::sendEvent(&chart, &move);
        QCoreApplication::sendEvent(&chart, &release);
        QVERIFY(chart.xAxis->range().lower < zoomed.lower - 1e-6); // dragged right: earlier times
        QVERIFY(qAbs(chart.xAxis->range().size() - zoomed.size()) < 1e-6);

        QTest::mouseDClick(&chart, Qt::LeftButton, {}, centre.toPoint());
        QCOMPARE(chart.xAxis->range(), before);
    }

    void followsLightAndDarkPalettes()
    {
        MemoryChart chart;
        chart.setData(samples::memoryData(4));
        chart.setPalette(darkChartPalette());
        QVERIFY(chart.theme().dark);
        QCOMPARE(chart.xAxis->labelColor(), darkChartPalette().color(QPalette::Text));
        QCOMPARE(chart.yAxis->tickLabelColor(), darkChartPalette().color(QPalette::Text));
        QVERIFY(chart.legend->item(0));
        QCOMPARE(chart.legend->item(0)->textColor(), darkChartPalette().color(QPalette::Text));
        QImage dark = chart.toPixmap(600, 400).toImage();
        QVERIFY(dark.pixelColor(3, 3).lightnessF() < 0.2);
        // The data colours stay the Okabe-Ito ones.
        QCOMPARE(plottableNamed<QCPBars>(chart, QStringLiteral("weights"))->brush().color(),
                 okabeIto(OkabeIto::Blue));

        chart.setPalette(lightChartPalette());
        QVERIFY(!chart.theme().dark);
        QCOMPARE(chart.xAxis->labelColor(), QColor(Qt::black));
        QImage light = chart.toPixmap(600, 400).toImage();
        QVERIFY(light.pixelColor(3, 3).lightnessF() > 0.9);
        QCOMPARE(plottableNamed<QCPBars>(chart, QStringLiteral("weights"))->brush().color(),
                 okabeIto(OkabeIto::Blue));
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
