// Issue 6, Compare: two placements of one design and two design files on the same axes, through
// the real main window on the bundled 256-GPU example. The current result is pinned, TP is
// raised to 16 (TP crosses the scale-out fabric), and the Results dock's charts and the Compare
// dock's table show both; labels rename; a design file is simulated in the background and added;
// bad and workload-less files are refused with messages that name them; remove and clear undo it.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "canvasdriver.h"
#include "document/designdocument.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartspanel.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/resultsdock.h"
#include "gui/docks/workloadform.h"
#include "gui/mainwindow.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/simulationrunner.h"
#include "partitionsdriver.h"
#include "storage/designstorage.h"
#include "windowdriver.h"

#include <QAction>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace weft;
using namespace weft::test;

class TestCompare : public QObject
{
    Q_OBJECT

    DesignDocument *doc() const { return m_w->document(); }
    SimulationRunner *runner() const { return m_w->simulation(); }
    ChartsPanel *charts() const { return m_w->results()->charts(); }
    QTableWidget *table() const { return m_w->compareDock()->table(); }
    std::shared_ptr<const SimResult> settled() const { return settledResult(*runner()); }
    QStringList breakdownLabels() const
    {
        QStringList labels;
        for (const StepBreakdown &b : charts()->breakdownChart()->data().designs)
            labels << b.design;
        return labels;
    }

    std::unique_ptr<RecordingPresenter> m_presenter;
    std::unique_ptr<MainWindow> m_w;
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = shownWindow({1600, 1000});
        QVERIFY(m_w);
        QVERIFY(
            openSimulated(*m_w, QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-su.weft")));
        QVERIFY(runner()->result()->ok);
    }

    void cleanup()
    {
        m_w.reset();
        m_presenter.reset();
    }

    void twoPlacementsSideBySide()
    {
        CompareDock *dock = m_w->compareDock();
        QCOMPARE(table()->rowCount(), 1); // the current design alone
        QVERIFY(!dock->clear->isEnabled());
        QVERIFY(dock->pin->isEnabled());
        const double tp8 = runner()->result()->stepTime;
        dock->pin->trigger();
        QCOMPARE(table()->rowCount(), 2);
        QCOMPARE(table()->item(1, 0)->text(), QStringLiteral("dgx-h100-su · TP 8 · PP 8 · DP 4"));
        QCOMPARE(breakdownLabels(),
                 (QStringList {QStringLiteral("dgx-h100-su (current)"),
                               QStringLiteral("dgx-h100-su · TP 8 · PP 8 · DP 4")}));

        // Another placement: TP 16 crosses the scale-out fabric. Pin is off until it simulated.
        typeInto(qobject_cast<QSpinBox *>(m_w->partitions()->form()->field(QStringLiteral("tp"))),
                 QStringLiteral("16"));
        QVERIFY(!dock->pin->isEnabled());
        const auto tp16 = settled();
        QVERIFY(tp16 && tp16->ok);
        QVERIFY(dock->pin->isEnabled());
        const auto &bars = charts()->breakdownChart()->data().designs;
        QCOMPARE(bars.size(), std::size_t(2));
        QCOMPARE(bars[0].total(), tp16->stepTime); // current first
        QVERIFY(qAbs(bars[1].total() - tp8) < 1e-9 * tp8); // the pinned snapshot is unchanged
        QVERIFY(bars[0].seconds[std::size_t(BreakdownPart::TpExposed)]
                > 2 * bars[1].seconds[std::size_t(BreakdownPart::TpExposed)]);
        // The table: current row first, the pinned row says how it compares with it.
        QVERIFY(table()->item(0, 1)->text().startsWith(QStringLiteral("TP 16")));
        const QString change = table()->item(1, 3)->text();
        QVERIFY2(change.startsWith(QLatin1Char('-')), qPrintable(change)); // TP 8 was faster
        // The other charts label every element with its design.
        bool nicOfBoth[2] = {false, false};
        for (const TierUtilization &t : charts()->utilizationChart()->data().tiers) {
            nicOfBoth[0] |= t.tier == QStringLiteral("nic · dgx-h100-su (current)");
            nicOfBoth[1] |= t.tier == QStringLiteral("nic · dgx-h100-su · TP 8 · PP 8 · DP 4");
        }
        QVERIFY(nicOfBoth[0] && nicOfBoth[1]);
        const auto &memory = charts()->memoryChart()->data().accelerators;
        QVERIFY(memory.size() >= 2);
        QVERIFY(memory.front().label.startsWith(QStringLiteral("dgx-h100-su (current): ")));
        QVERIFY(memory.back().label.startsWith(QStringLiteral("dgx-h100-su · TP 8")));
        QVERIFY(charts()->timelineChart()->data().rows.size() >= 2);

        // Rename the pinned result in the table; a taken name is refused and restored.
        table()->item(1, 0)->setText(QStringLiteral("TP 8 placement"));
        QCOMPARE(breakdownLabels().at(1), QStringLiteral("TP 8 placement"));
        dock->pin->trigger(); // TP 16 pinned too
        QCOMPARE(table()->rowCount(), 3);
        table()->item(2, 0)->setText(QStringLiteral("TP 8 placement"));
        QCOMPARE(m_presenter->errors.size(), 1);
        QVERIFY(m_presenter->errors.front().contains(QStringLiteral("already names")));
        QVERIFY(table()->item(2, 0)->text().startsWith(QStringLiteral("dgx-h100-su · TP 16")));

        // Remove the selected row, then clear: the charts show the current design alone.
        table()->selectRow(1);
        QVERIFY(dock->remove->isEnabled());
        dock->remove->trigger();
        QCOMPARE(table()->rowCount(), 2);
        QVERIFY(table()->item(1, 0)->text().contains(QStringLiteral("TP 16")));
        dock->clear->trigger();
        QCOMPARE(table()->rowCount(), 1);
        QCOMPARE(charts()->breakdownChart()->data().designs.size(), std::size_t(1));
    }

    // The current row follows the window's design before the next simulation: its name after
    // Save As (it kept the old one), in the table and the Results charts, and its parallelism
    // after an edit.
    void currentRowFollowsTheDocument()
    {
        QVERIFY(table()->item(0, 0)->text().startsWith(QStringLiteral("dgx-h100-su (current)")));
        m_w->document()->setFilePath(QStringLiteral("/tmp/renamed-design.weft"));
        QVERIFY2(table()->item(0, 0)->text().startsWith(QStringLiteral("renamed-design (current)")),
                 qPrintable(table()->item(0, 0)->text()));
        // The Results charts name it so too (their labels were made at the last simulation).
        // Alone, the breakdown names its file.
        QCOMPARE(breakdownLabels(), QStringList {QStringLiteral("renamed-design.weft")});
        const QString before = table()->item(0, 1)->text();
        m_w->document()->addFromCatalog({CatalogItem::Kind::Accelerator, "h100-sxm"}, {}, {},
                                        nullptr);
        QVERIFY(table()->item(0, 1)->text() != before);
    }

    void designFileSimulatesInTheBackground()
    {
        // A second design: the example with TP 4 and PP 16, saved under another name.
        LoadResult other = loadDesignFile(
            QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-su.weft"), MigrationBackup::Skip);
        QVERIFY(other.ok());
        other.design->workload->config.tp = 4;
        other.design->workload->config.dp = 8;
        other.design->workload->placement.explicitMap.clear();
        const QString path = m_tmp.filePath(QStringLiteral("tp4.weft"));
        QVERIFY(!saveDesignFile(*other.design, path));
        m_presenter->openPath = path;
        m_w->compareDock()->addFile->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(table()->rowCount(), 2, 120000);
        QVERIFY2(m_presenter->errors.isEmpty(),
                 qPrintable(m_presenter->errors.join(QLatin1Char('\n'))));
        QCOMPARE(table()->item(1, 0)->text(), QStringLiteral("tp4"));
        QCOMPARE(table()->item(1, 0)->toolTip(), QFileInfo(path).absoluteFilePath());
        QVERIFY(table()->item(1, 1)->text().startsWith(QStringLiteral("TP 4 · PP 8 · DP 8")));
        QCOMPARE(breakdownLabels().at(1), QStringLiteral("tp4"));

        // A broken file and a design without workload: a message naming the file, nothing added.
        const QString broken = m_tmp.filePath(QStringLiteral("broken.weft"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"weft.design\", \"version\": ");
        f.close();
        m_presenter->openPath = broken;
        m_w->compareDock()->addFile->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_presenter->errors.size(), 1, 60000);
        QVERIFY(m_presenter->errors.front().contains(QStringLiteral("broken.weft")));
        QVERIFY(m_presenter->errors.front().contains(QStringLiteral("Problem:")));
        other.design->workload.reset();
        const QString bare = m_tmp.filePath(QStringLiteral("bare.weft"));
        QVERIFY(!saveDesignFile(*other.design, bare));
        m_presenter->openPath = bare;
        m_w->compareDock()->addFile->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_presenter->errors.size(), 2, 60000);
        QVERIFY(m_presenter->errors.back().contains(QStringLiteral("bare.weft has no workload")));
        QCOMPARE(table()->rowCount(), 2);
    }

    void screenshot()
    {
        const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set WEFT_SCREENSHOT_DIR to write the screenshots");
        m_w->compareDock()->pin->trigger();
        typeInto(qobject_cast<QSpinBox *>(m_w->partitions()->form()->field(QStringLiteral("tp"))),
                 QStringLiteral("16"));
        QVERIFY(settled());
        m_w->compareDock()->raise();
        QTest::qWait(300);
        m_w->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/compare.png"));
        charts()->breakdownChart()->grab().save(QString::fromLocal8Bit(dir)
                                                + QStringLiteral("/compare-breakdown.png"));
        charts()->setCurrentWidget(charts()->utilizationChart());
        charts()->utilizationChart()->resize(900, 420);
        charts()->utilizationChart()->grab().save(QString::fromLocal8Bit(dir)
                                                  + QStringLiteral("/compare-utilization.png"));
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
