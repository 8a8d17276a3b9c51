// The Results-dock chart panel: one tab per chart, an export context menu per chart, exports
// through the menu's code path write the chosen format.

#include "chartsamples.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartspanel.h"
#include "gui/charts/memorychart.h"

#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace weft;

class TestChartsPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Export options are user settings: keep them in a throw-away folder.
        QVERIFY(m_config.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
    }

    void hasATabPerChart()
    {
        ChartsPanel panel;
        QCOMPARE(panel.count(), 7);
        QCOMPARE(panel.charts().size(), 7);
        for (int i = 0; i < panel.count(); ++i)
            QCOMPARE(panel.widget(i), panel.charts().at(i));
        QCOMPARE(panel.tabText(0), QStringLiteral("Breakdown"));
        QCOMPARE(panel.charts().at(4)->chartId(), QStringLiteral("memory"));
        for (Chart *chart : panel.charts())
            QCOMPARE(chart->contextMenuPolicy(), Qt::CustomContextMenu);
    }

    void contextMenuOffersEveryExport()
    {
        ChartsPanel panel;
        std::unique_ptr<QMenu> menu(panel.createContextMenu(panel.breakdownChart()));
        QStringList formats;
        QStringList texts;
        for (QAction *action : menu->actions()) {
            texts << action->text();
            if (action->data().isValid())
                formats << chartFormatExtension(ChartFormat(action->data().toInt()));
        }
        QCOMPARE(formats,
                 (QStringList {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg"),
                               QStringLiteral("csv")}));
        QVERIFY(texts.contains(QStringLiteral("&Reset view")));
    }

    void resetViewFromTheMenuUndoesAZoom()
    {
        ChartsPanel panel;
        MemoryChart *chart = panel.memoryChart();
        chart->setData(samples::memoryData());
        const QCPRange fitted = chart->yAxis->range();
        chart->yAxis->setRange(10, 20);
        std::unique_ptr<QMenu> menu(panel.createContextMenu(chart));
        menu->actions().last()->trigger();
        QCOMPARE(chart->yAxis->range(), fitted);
    }

    void exportsThroughThePanel()
    {
        QTemporaryDir dir;
        ChartsPanel panel;
        panel.breakdownChart()->setData(samples::breakdownData());
        panel.setExportOptions({QSize(400, 300), 96});
        QString error;
        const QString png = dir.filePath(QStringLiteral("b.png"));
        QVERIFY2(panel.exportTo(panel.breakdownChart(), ChartFormat::Png, png, &error),
                 qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(400, 300));
        const QString csv = dir.filePath(QStringLiteral("b.csv"));
        QVERIFY(panel.exportTo(panel.breakdownChart(), ChartFormat::Csv, csv, &error));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("design,compute_s,"));
        QVERIFY(!panel.exportTo(panel.breakdownChart(), ChartFormat::Svg,
                                QStringLiteral("/nonexistent/x.svg"), &error));
        QVERIFY(error.contains(QStringLiteral("/nonexistent/x.svg")));
    }

private:
    QTemporaryDir m_config;
};

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
