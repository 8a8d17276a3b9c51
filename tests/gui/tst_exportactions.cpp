// File > Export Canvas… / Export Visible Canvas… / Export Bill of Materials (issue 6): driven
// through the menu's actions with a recording dialog presenter.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "generate/bom.h"
#include "gui/actions/exportactions.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/topologyview.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simulationrunner.h"
#include "io/resultcsv.h"
#include "sweepdesigns.h"

#include <QAction>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

QAction *fileMenuAction(MainWindow &w, const QString &startsWith)
{
    for (QAction *menu : w.menuBar()->actions())
        if (menu->menu() && menu->text().remove(u'&') == QLatin1String("File"))
            for (QAction *a : menu->menu()->actions())
                if (a->text().remove(u'&').startsWith(startsWith))
                    return a;
    return nullptr;
}

} // namespace

class TestExportActions : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportsWholeAndVisibleCanvas()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        MainWindow w;
        w.resize(900, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->resetDesign(sweepDesign(2, 8));
        QAction *whole = fileMenuAction(w, QStringLiteral("Export Canvas"));
        QAction *visible = fileMenuAction(w, QStringLiteral("Export Visible Canvas"));
        QVERIFY(whole && visible);

        presenter.exportPath = dir.filePath(QStringLiteral("whole.png"));
        whole->trigger();
        QVERIFY2(presenter.errors.isEmpty(), qPrintable(presenter.errors.join(u'\n')));
        const QImage all(presenter.exportPath);
        QVERIFY(!all.isNull());

        w.view()->zoomIn();
        w.view()->zoomIn();
        w.view()->zoomIn();
        presenter.exportPath = dir.filePath(QStringLiteral("visible.png"));
        visible->trigger();
        const QImage part(presenter.exportPath);
        QVERIFY(!part.isNull());
        // The visible part at 3 zoom steps covers less of the design than the whole.
        const QRectF shown = w.view()->mapToScene(w.view()->viewport()->rect()).boundingRect();
        // The page is the visible part plus the legends' column beside it, at 192 dpi.
        CanvasExportOptions visibleOnly;
        visibleOnly.source = shown;
        const CanvasExporter::PageLayout page
            = CanvasExporter::layout(*w.view()->topologyScene(), visibleOnly);
        QCOMPARE(page.canvas.width(), shown.width());
        QCOMPARE(part.width(), int(std::ceil(page.page.width() * 2)));
        QVERIFY(part.width() < all.width());

        presenter.exportPath = dir.filePath(QStringLiteral("canvas.gif"));
        whole->trigger();
        QCOMPARE(presenter.errors.size(), 1);
        QVERIFY(presenter.errors.front().contains(QLatin1String(".svg, .pdf or .png")));
    }

    void exportsBillOfMaterials()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        MainWindow w;
        w.document()->resetDesign(sweepDesign(2, 8));
        QAction *bom = fileMenuAction(w, QStringLiteral("Export Bill of Materials"));
        QVERIFY(bom);
        presenter.exportPath = dir.filePath(QStringLiteral("bom.csv"));
        bom->trigger();
        QFile f(presenter.exportPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().toStdString(), formatBomCsv(computeBom(w.document()->design())));
    }

    void exportsTheSimulationResultAsJsonAndCsv()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        MainWindow w;
        QAction *result = fileMenuAction(w, QStringLiteral("Export Simulation Result"));
        QVERIFY(result);
        QVERIFY(!result->isEnabled()); // nothing simulated yet
        QString error;
        QVERIFY(!w.findChild<ExportActions *>()->exportResult(
            dir.filePath(QStringLiteral("r.json")), &error));
        QVERIFY(error.contains(QStringLiteral("simulate first")));

        w.document()->resetDesign(sweepDesign(2, 8));
        QVERIFY(w.document()->design().workload);
        w.simulation()->setDebounce(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 60000);
        QVERIFY(result->isEnabled());
        const SimResult &r = *w.simulation()->result();

        presenter.exportPath = dir.filePath(QStringLiteral("result.json"));
        result->trigger();
        QFile json(presenter.exportPath);
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(doc.value(QStringLiteral("step_time_s")).toDouble(), r.stepTime);
        QVERIFY(presenter.errors.isEmpty());

        presenter.exportPath = dir.filePath(QStringLiteral("result.csv"));
        result->trigger();
        QFile summary(presenter.exportPath),
            links(dir.filePath(QStringLiteral("result-links.csv")));
        QVERIFY(summary.open(QIODevice::ReadOnly) && links.open(QIODevice::ReadOnly));
        QCOMPARE(summary.readAll().toStdString(), resultSummaryCsv(r));
        QCOMPARE(links.readAll().toStdString(), resultLinksCsv(r, w.document()->design()));
        QVERIFY(presenter.errors.isEmpty());
    }
};

QTEST_MAIN(TestExportActions)
#include "tst_exportactions.moc"
