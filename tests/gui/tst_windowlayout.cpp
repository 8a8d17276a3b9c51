// The main window's first-run geometry and dock arrangement, and their restore from QSettings:
// without saved settings the window takes 90% of the screen and the docks leave the canvas and
// the Results charts the room (Findings and Compare tabbed beside Results, Properties and
// Partitions full height on the right); a closed window's arrangement comes back in the next.
#include "gui/canvas/topologyview.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/propertiesdock.h"
#include "gui/docks/resultsdock.h"
#include "windowdriver.h"

#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

class TestWindowLayout : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_config.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
    }

    void init() { QSettings().clear(); }

    void firstRunGeometryIsMostOfTheScreen()
    {
        QCOMPARE(MainWindow::firstRunGeometry(QRect(0, 0, 1600, 1000)), QRect(80, 50, 1440, 900));
        QCOMPARE(MainWindow::firstRunGeometry(QRect(1920, 30, 2560, 1400)),
                 QRect(2048, 100, 2304, 1260));
        MainWindow w; // nothing saved: not the old fixed 1280 x 800
        const QRect expected = MainWindow::firstRunGeometry(w.screen()->availableGeometry());
        QCOMPARE(w.size(), expected.size().expandedTo(w.minimumSizeHint())); // small test screen
    }

    void firstRunDocksLeaveTheCanvasAndChartsRoom()
    {
        const auto w = test::shownWindow(QSize(1600, 1000));
        QVERIFY(w);
        QCOMPARE(w->dockWidgetArea(w->results()), Qt::BottomDockWidgetArea);
        const QList<QDockWidget *> besideResults = w->tabifiedDockWidgets(w->results());
        QVERIFY(besideResults.contains(w->findings()));
        QVERIFY(besideResults.contains(w->compareDock()));
        QVERIFY(!w->results()->visibleRegion().isEmpty()); // the raised tab
        QCOMPARE(w->dockWidgetArea(w->properties()), Qt::RightDockWidgetArea);
        QVERIFY(w->tabifiedDockWidgets(w->properties()).contains(w->partitions()));
        QVERIFY(!w->properties()->visibleRegion().isEmpty());

        const QSize canvas = w->view()->size();
        QVERIFY2(
            canvas.width() >= 900 && canvas.height() >= 480,
            qPrintable(QStringLiteral("canvas %1 x %2").arg(canvas.width()).arg(canvas.height())));
        QVERIFY2(w->results()->width() >= 1100 && w->results()->height() >= 280,
                 qPrintable(QStringLiteral("results %1 x %2")
                                .arg(w->results()->width())
                                .arg(w->results()->height())));
        // The right column runs down beside the Results dock, not above it.
        QVERIFY(w->properties()->geometry().bottom() > w->results()->geometry().top());
        QVERIFY(w->results()->geometry().right() < w->properties()->geometry().left());
    }

    void firstRunDocksShareASmallWindow()
    {
        // 1100 x 700: the docks take at most their share, the canvas keeps a usable size.
        const auto w = test::shownWindow(QSize(1100, 700));
        QVERIFY(w);
        const int resultsFloor = w->results()->minimumSizeHint().height(); // tabs, one chart
        QVERIFY2(w->results()->height() <= std::max(700 / 3, resultsFloor) + 2,
                 qPrintable(QString::number(w->results()->height())));
        const int rightFloor = std::max(w->properties()->minimumSizeHint().width(),
                                        w->partitions()->minimumSizeHint().width());
        QVERIFY2(w->properties()->width() <= std::max(1100 / 4, rightFloor) + 2,
                 qPrintable(QString::number(w->properties()->width())));
        QVERIFY2(w->view()->height() >= 280, qPrintable(QString::number(w->view()->height())));
    }

    void closedWindowsArrangementComesBack()
    {
        {
            const auto w = test::shownWindow(QSize(1500, 950));
            QVERIFY(w);
            w->addDockWidget(Qt::RightDockWidgetArea, w->findings()); // the user moves a dock
            QVERIFY(w->close());
        }
        const auto w = test::shownWindow(QSize(1500, 950)); // shownWindow resizes after restore
        QVERIFY(w);
        QCOMPARE(w->dockWidgetArea(w->findings()), Qt::RightDockWidgetArea);
        QVERIFY(!w->tabifiedDockWidgets(w->results()).contains(w->findings()));
        MainWindow restored; // not resized: the saved geometry
        QCOMPARE(restored.size(), QSize(1500, 950));

        // A state saved by another layout version (the old arrangement) is ignored.
        QSettings().setValue(QStringLiteral("window/state"), w->saveState(0));
        MainWindow fresh;
        QCOMPARE(fresh.dockWidgetArea(fresh.findings()), Qt::BottomDockWidgetArea);
        QVERIFY(fresh.tabifiedDockWidgets(fresh.results()).contains(fresh.findings()));
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
