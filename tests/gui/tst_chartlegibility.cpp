// Charts a demanding user can read (issue 18): an empty chart says what fills it instead of a
// squashed plot; the pipeline timeline thins its stage labels to what the height holds; the
// memory chart's axis says it shows pipeline stages; the Findings dock's title counts in words
// ("1 error", not "(1, 1 errors)").
#include "gui/charts/chartspanel.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/sweepchart.h"
#include "gui/charts/timelinechart.h"
#include "gui/docks/findingsdock.h"

#include <QTest>

using namespace weft;

namespace {

TimelineChartData stages(int n)
{
    TimelineChartData d;
    d.stepTime = 1;
    for (int s = 0; s < n; ++s) {
        TimelineRow row;
        row.label = QStringLiteral("stage %1").arg(s);
        row.spans.push_back({TimelineKind::Forward, 0.1 * s / n, 0.1 * s / n + 0.05, 0});
        d.rows.push_back(row);
    }
    return d;
}

int labelledTicks(const QCPAxis *axis)
{
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? int(ticker->ticks().size()) : -1;
}

} // namespace

class TestChartLegibility : public QObject
{
    Q_OBJECT
private slots:
    void emptyChartsShowAHint()
    {
        ChartsPanel panel;
        panel.resize(900, 320);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        for (Chart *chart : panel.charts()) {
            QVERIFY2(chart->showsHint(), qPrintable(chart->chartId()));
            QVERIFY(!chart->emptyHint().isEmpty());
            QVERIFY(!chart->xAxis->visible());
        }
        QVERIFY(panel.sweepChart()->emptyHint().contains(QLatin1String("Sweep")));
        // Data replaces the hint and brings the axes back.
        QVERIFY(panel.timelineChart()->setData(stages(4)));
        QVERIFY(!panel.timelineChart()->showsHint());
        QVERIFY(panel.timelineChart()->xAxis->visible());
        QVERIFY(panel.timelineChart()->setData({}));
        QVERIFY(panel.timelineChart()->showsHint());
    }

    // 16 stages in a 300 px chart overlapped; the labels now keep a line height apart.
    void timelineLabelsThinned_data()
    {
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("rows");
        QTest::newRow("short, 16 stages") << 300 << 16;
        QTest::newRow("tall, 16 stages") << 900 << 16;
        QTest::newRow("short, 4 stages") << 300 << 4;
        // The Results dock's timeline of the GB200 example (PP 8) labelled every other stage
        // though all 8 fit (fresh-user report).
        QTest::newRow("Results dock, 8 stages") << 235 << 8;
    }

    void timelineLabelsThinned()
    {
        QFETCH(int, height);
        QFETCH(int, rows);
        TimelineChart chart;
        chart.resize(800, height);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QVERIFY(chart.setData(stages(rows)));
        chart.replot();
        const int shown = labelledTicks(chart.yAxis);
        QVERIFY(shown >= 1 && shown <= rows);
        const int lineHeight = QFontMetrics(chart.fonts().tickLabel).height();
        const double pitch = double(chart.axisRect()->height()) / rows * double(rows) / shown;
        QVERIFY2(pitch >= lineHeight,
                 qPrintable(QStringLiteral("%1 labels, %2 px apart").arg(shown).arg(pitch)));
        if (rows <= 8 || height == 900)
            QCOMPARE(shown, rows); // room for all of them
    }

    void memoryAxisSaysStages()
    {
        MemoryChart chart;
        MemoryChartData d;
        for (int s = 0; s < 4; ++s)
            d.accelerators.push_back(
                {QStringLiteral("stage %1").arg(s), 10e9, 5e9, 20e9, 30e9, 80e9});
        QVERIFY(chart.setData(d));
        QVERIFY(chart.xAxis->label().contains(QLatin1String("pipeline stage")));
    }

    // 16 stages of the 16k example in a 600 px dock: the totals above the bars ("79.2") ran
    // into each other. They are thinned to those that fit side by side; one over capacity
    // always shows.
    void memoryTotalsDoNotOverlap_data()
    {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("width");
        QTest::newRow("16 in 600 px") << 16 << 600;
        QTest::newRow("32 in 800 px") << 32 << 800;
        QTest::newRow("4 in 600 px") << 4 << 600;
    }
    void memoryTotalsDoNotOverlap()
    {
        QFETCH(int, stages);
        QFETCH(int, width);
        MemoryChart chart;
        chart.resize(width, 320);
        MemoryChartData d;
        for (int s = 0; s < stages; ++s)
            d.accelerators.push_back(
                {QStringLiteral("stage %1").arg(s), 20.1e9, 10.05e9, 20.1e9, 28.95e9, 80e9});
        d.accelerators[5 % stages].activations = 40e9; // 90.3 GB: over
        QVERIFY(chart.setData(d));
        chart.replot();
        const QFontMetrics fm(chart.fonts().annotation);
        double lastRight = -1e9;
        int shown = 0;
        for (qsizetype i = 0; i < chart.totalLabels().size(); ++i) {
            const QCPItemText *label = chart.totalLabels()[i];
            if (!label->visible())
                continue;
            ++shown;
            const double centre = chart.xAxis->coordToPixel(double(i));
            const double half = fm.horizontalAdvance(label->text()) / 2.0;
            if (label->text().contains(QLatin1String("over")))
                continue; // always shown; its neighbours may give way
            QVERIFY2(centre - half > lastRight,
                     qPrintable(QStringLiteral("label %1 overlaps the one before").arg(i)));
            lastRight = centre + half;
        }
        QVERIFY(chart.totalLabels()[0]->visible());
        // Totals stand on a plate over the capacity line (it struck "74.9" through).
        QCOMPARE(chart.graphCount(), 1); // the capacity line
        for (const QCPItemText *label : chart.totalLabels()) {
            QVERIFY(label->layer()->index() > chart.graph(0)->layer()->index());
            QCOMPARE(label->brush().style(), Qt::SolidPattern);
        }
        QVERIFY(chart.totalLabels()[5 % stages]->visible());
        if (stages == 4)
            QCOMPARE(shown, 4); // room for all
        else
            QVERIFY(shown < stages);
    }

    void findingsTitleInWords()
    {
        QCOMPARE(FindingsDock::titleFor(0, 0), QStringLiteral("Findings"));
        QCOMPARE(FindingsDock::titleFor(1, 1), QStringLiteral("Findings (1 error)"));
        QCOMPARE(FindingsDock::titleFor(3, 1), QStringLiteral("Findings (1 error, 2 warnings)"));
        QCOMPARE(FindingsDock::titleFor(1, 0), QStringLiteral("Findings (1 warning)"));
    }
};

QTEST_MAIN(TestChartLegibility)
#include "tst_chartlegibility.moc"
