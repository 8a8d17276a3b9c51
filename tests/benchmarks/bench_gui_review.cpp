// Screenshots of the designer for review (not a test): the bundled examples simulated, File >
// New Cluster over an open design, the 16k example at Fit, an expanded domain, the charts with
// 16 pipeline stages, empty charts, the forms and the user guide; light and dark themes, at
// 1600x1000 and at a small window.
//   xvfb-run -a -s "-screen 0 1920x1200x24" ./bench_gui_review EXAMPLES_DIR OUTDIR
#include "document/designdocument.h"
#include "generate/fabricgenerator.h"
#include "gui/actions/helpactions.h"
#include "gui/actions/viewactions.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/minimap.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/charts/chartspanel.h"
#include "gui/dialogs/aboutdialog.h"
#include "gui/dialogs/customhardwaredialog.h"
#include "gui/dialogs/newclusterwizard.h"
#include "gui/dialogs/plandialog.h"
#include "gui/dialogs/preferencesdialog.h"
#include "gui/dialogs/sweepdialog.h"
#include "gui/docks/resultsdock.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simulationrunner.h"
#include "gui/theme.h"
#include "io/catalogfile.h"
#include "workloadfixtures.h"

#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTimer>

using namespace weft;

namespace {

void settle(int ms = 400)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
}

// Waits until the window's runner holds a result of its current design.
void simulated(MainWindow &w)
{
    w.simulation()->simulate();
    QElapsedTimer t;
    t.start();
    while (
        t.elapsed() < 120000
        && (w.simulation()->isRunning() || w.simulation()->isStale() || !w.simulation()->result()))
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    settle();
}

void shot(QWidget *w, const QString &path)
{
    settle();
    w->grab().save(path);
    std::printf("%s\n", qPrintable(path));
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    qputenv("WEFT_NO_AUTOSAVE_PROMPT", "1");
    const QString examples = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    const QString out = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("review");
    const QString only = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    QDir().mkpath(out);
    const auto wanted
        = [&only](const char *name) { return only.isEmpty() || only == QLatin1String(name); };
    for (const Theme theme : {Theme::Light, Theme::Dark}) {
        applyTheme(theme);
        const QString t = theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
        for (const QSize size : {QSize(1600, 1000), QSize(1000, 650)}) {
            const QString s = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            const auto file = [&](const char *what) {
                return QStringLiteral("%1/%2-%3-%4.png").arg(out, QLatin1String(what), t, s);
            };
            if (wanted("su")) {
                MainWindow w;
                w.resize(size);
                w.show();
                w.openFile(QDir(examples).filePath(QStringLiteral("dgx-h100-su.weft")));
                simulated(w);
                w.view()->fitAll();
                shot(&w, file("su"));
                // File > New Cluster over it: the same size of fabric (links used to vanish).
                FabricParams p;
                p.domains = 32;
                w.document()->generateCluster(fixtures::gb200Racks(16, 16, "qm9700", 400e9 / 8));
                w.view()->fitAll();
                shot(&w, file("newcluster"));
                w.document()->undoStack()->undo();
                shot(&w, file("newcluster-undo"));
                w.document()->undoStack()->setClean();
            }
            if (wanted("gb200")) {
                MainWindow w;
                w.resize(size);
                w.show();
                w.openFile(QDir(examples).filePath(QStringLiteral("gb200-nvl72-x8.weft")));
                simulated(w);
                w.view()->fitAll();
                shot(&w, file("gb200"));
                // Close up of the racks' top edges (where the lines meet or pass them), and one
                // rack expanded: its NVSwitch labels over the links to the GPUs.
                const Group *rack = nullptr;
                for (const Group &g : w.document()->design().groups())
                    if (g.kind == GroupKind::ScaleUpDomain && !rack)
                        rack = &g;
                if (rack) {
                    const QRectF frame
                        = w.view()->topologyScene()->groupItem(rack->id)->sceneBoundingRect();
                    w.view()->setZoom(1.0);
                    w.view()->centerOn(frame.topRight());
                    shot(&w, file("gb200-zoom"));
                    const GroupId id = rack->id;
                    w.document()->setCollapsed(id, false);
                    w.view()->setZoom(1.5);
                    w.view()->centerOn(frame.topLeft() + QPointF(120, 80));
                    shot(&w, file("gb200-expanded"));
                    w.document()->setCollapsed(id, true);
                    w.document()->undoStack()->setClean();
                }
            }
            if (wanted("gb200-16")) {
                // 16 racks in one unit: 4 rows of 4 at Fit, one rack expanded over the rows
                // below it.
                MainWindow w;
                w.resize(size);
                w.show();
                w.document()->generateCluster(fixtures::gb200Racks(16, 16, "qm9700", 400e9 / 8));
                settle();
                w.view()->fitAll();
                shot(&w, file("gb200-16-fit"));
                const Group *rack = nullptr;
                for (const Group &g : w.document()->design().groups())
                    if (g.kind == GroupKind::ScaleUpDomain && !rack)
                        rack = &g;
                if (rack) {
                    const GroupId id = rack->id;
                    w.document()->setCollapsed(id, false);
                    w.view()->fitAll();
                    shot(&w, file("gb200-16-expanded"));
                    const QRectF frame
                        = w.view()->topologyScene()->groupItem(id)->sceneBoundingRect();
                    w.view()->setZoom(1.2);
                    w.view()->centerOn(frame.center() + QPointF(0, 120));
                    shot(&w, file("gb200-16-expanded-zoom"));
                }
                w.document()->undoStack()->setClean();
            }
            if (wanted("16k")) {
                MainWindow w;
                w.resize(size);
                w.show();
                w.openFile(QDir(examples).filePath(QStringLiteral("dgx-h100-16k.weft")));
                settle(1500);
                w.view()->fitAll();
                shot(&w, file("16k-fit"));
                simulated(w);
                shot(&w, file("16k-simulated"));
                auto *panel = w.results()->findChild<ChartsPanel *>();
                for (int i = 0; panel && i < panel->count(); ++i) {
                    panel->setCurrentIndex(i);
                    shot(w.results(),
                         QStringLiteral("%1/chart-%2-%3-%4.png")
                             .arg(out, panel->tabText(i).toLower(), t, s));
                }
                w.view()->setZoom(0.5);
                shot(&w, file("16k-zoom"));
                w.view()->minimap()->render();
                w.document()->setSelection({});
                w.view()->setZoom(1.2);
                w.viewActions()->expand->trigger();
                shot(&w, file("16k-expanded"));
                w.viewActions()->collapse->trigger();
                CanvasExportOptions options;
                options.dpi = 96;
                CanvasExporter::save(*w.view()->topologyScene(), file("16k-export"),
                                     CanvasFormat::Png, options);
            }
            if (wanted("empty")) {
                MainWindow w;
                w.resize(size);
                w.show();
                shot(&w, file("empty"));
            }
            if (wanted("dialogs") && size.width() == 1600) {
                MainWindow w;
                w.resize(size);
                w.show();
                w.openFile(QDir(examples).filePath(QStringLiteral("dgx-h100-su.weft")));
                settle();
                {
                    NewClusterWizard d(builtinCatalog(), &w);
                    d.show();
                    settle(2500);
                    shot(&d, file("dialog-newcluster"));
                }
                {
                    PreferencesDialog d(&w);
                    d.show();
                    shot(&d, file("dialog-preferences"));
                }
                {
                    CustomHardwareDialog d(builtinCatalog().hardware.switches.at("qm9700"), &w);
                    d.show();
                    shot(&d, file("dialog-customswitch"));
                }
                {
                    CustomHardwareDialog d(builtinCatalog().hardware.accelerators.at("h100-sxm"),
                                           &w);
                    d.show();
                    shot(&d, file("dialog-customaccelerator"));
                }
                {
                    SweepDialog d(w.document(), &w);
                    d.show();
                    shot(&d, file("dialog-sweep"));
                }
                {
                    PlanDialog d(w.document(), nullptr, &w);
                    d.show();
                    shot(&d, file("dialog-plan"));
                    d.resize(1100, 950);
                    shot(&d, file("dialog-plan-tall"));
                }
                {
                    SweepDialog d(w.document(), &w);
                    d.show();
                    d.resize(1, 1);
                    shot(&d, file("dialog-sweep-least"));
                }
                {
                    AboutDialog d(&w);
                    d.show();
                    shot(&d, file("dialog-about"));
                }
                QDialog *guide = w.helpActions()->guideWindow();
                guide->show();
                shot(guide, file("dialog-guide"));
                guide->close();
                w.helpActions()->shortcuts->trigger();
                settle();
                if (auto *k = w.findChild<QDialog *>(QStringLiteral("KeyboardShortcuts")))
                    shot(k, file("dialog-shortcuts"));
            }
        }
    }
    return 0;
}
