// What a demanding user reads on the canvas (issue 18): stage colours distinct or labelled up
// to 64 stages and colour-blind safe, legends clear of the design at Fit and foldable, NVSwitch
// boxes of an expanded domain apart with short labels, Expand/Collapse with nothing selected
// acting on every domain, and canvas exports with their legends in light report colours.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "gui/actions/viewactions.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/heatlegend.h"
#include "gui/canvas/nodeitem.h"
#include "gui/canvas/rankcolouring.h"
#include "gui/canvas/ranklegend.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/docks/partitionsdock.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simulationrunner.h"
#include "gui/theme.h"
#include "workloadfixtures.h"

#include <QComboBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

// The 256-GPU unit with Llama 70B at PP `pp` (TP 8, DP from the rest).
Design withStages(int pp)
{
    Design d = fixtures::cluster256();
    d.workload->config.pp = pp;
    d.workload->config.dp = 256 / (8 * pp);
    d.workload->config.globalBatch = 64 * d.workload->config.dp;
    d.workload->model.layers = 80;
    return d;
}

// CIE76 distance of two colours in L*a*b* (D65): > ~2.3 is a just noticeable difference.
double deltaE(const QColor &a, const QColor &b)
{
    const auto lab = [](const QColor &c) {
        const auto lin = [](double v) {
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
        const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
        const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
        const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
        const auto f
            = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
        return std::array<double, 3> {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
    };
    const auto p = lab(a), q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// True when the design as drawn in `view` lies inside its viewport with air to the edges and
// under none of the legends, and the legends inside the viewport; says where otherwise.
bool clearOfTheEdgesAndLegends(const TopologyView &view)
{
    constexpr int kAir = 8; // pixels between the design and the viewport's edges
    const QRect design = view.mapFromScene(view.topologyScene()->contentBounds()).boundingRect();
    const QRect inner = view.viewport()->rect().adjusted(kAir, kAir, -kAir, -kAir);
    bool ok = inner.contains(design);
    QString text = QStringLiteral("design %1,%2 %3x%4 in %5x%6")
                       .arg(design.x())
                       .arg(design.y())
                       .arg(design.width())
                       .arg(design.height())
                       .arg(view.viewport()->width())
                       .arg(view.viewport()->height());
    for (const QWidget *legend : {static_cast<const QWidget *>(view.rankLegend()),
                                  static_cast<const QWidget *>(view.heatLegend())})
        if (legend->isVisible()) {
            const QRect r(view.viewport()->mapFrom(&view, legend->pos()), legend->size());
            ok = ok && !r.intersects(design) && view.viewport()->rect().contains(r);
            text += QStringLiteral(", %1 %2,%3 %4x%5")
                        .arg(legend->objectName())
                        .arg(r.x())
                        .arg(r.y())
                        .arg(r.width())
                        .arg(r.height());
        }
    if (!ok)
        qWarning("%s", qPrintable(text));
    return ok;
}

} // namespace

class TestCanvasLegibility : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_w;

    void showStages()
    {
        QComboBox *combo = m_w->partitions()->colourCombo();
        combo->setCurrentIndex(combo->findData(int(RankColouring::Mode::Stage)));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1600, 1000);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
    }

    void cleanup()
    {
        m_w->document()->undoStack()->setClean();
        m_w.reset();
    }

    // "Stages 0, 9" shared one colour from 9 stages on. Now every group of up to 64 has its own
    // colour (neighbours on the scale differ visibly, and the scale is viridis: colour-blind
    // safe) and accelerators carry their group's label once colours run along one scale.
    void stageColoursDistinctUpTo64_data()
    {
        QTest::addColumn<int>("groups");
        QTest::addColumn<bool>("dark");
        for (int g : {4, 9, 16, 64})
            for (bool dark : {false, true})
                QTest::addRow("%d %s", g, dark ? "dark" : "light") << g << dark;
    }

    void stageColoursDistinctUpTo64()
    {
        QFETCH(int, groups);
        QFETCH(bool, dark);
        std::vector<QColor> colours;
        for (int g = 0; g < groups; ++g)
            colours.push_back(RankColouring::groupColour(g, groups, dark));
        // Up to 16 groups every pair differs by more than a just noticeable difference; with
        // 64 neighbours on the scale come closer (at the dark end of viridis), which is why
        // accelerators then carry their group's label (manyStagesAreLabelled).
        const double jnd = groups <= 16 ? 2.3 : 0.5;
        for (int i = 0; i < groups; ++i)
            for (int j = i + 1; j < groups; ++j)
                QVERIFY2(deltaE(colours[std::size_t(i)], colours[std::size_t(j)]) > jnd,
                         qPrintable(QStringLiteral("groups %1 and %2").arg(i).arg(j)));
    }

    void manyStagesAreLabelled()
    {
        openDesign(*m_w->view(), withStages(16));
        showStages();
        const RankColouring &rc = m_w->view()->topologyScene()->rankColouring();
        QCOMPARE(rc.groupCount(), 16);
        QVERIFY(rc.needsLabels());
        const auto legend = rc.legend();
        QCOMPARE(legend.size(), std::size_t(9));
        QCOMPARE(legend.front().text, QStringLiteral("Stage 0"));
        QCOMPARE(legend.back().text, QStringLiteral("Stage 15"));
        QSet<QRgb> distinct;
        for (const auto &row : legend)
            distinct.insert(row.colour.rgb());
        QCOMPARE(distinct.size(), 9);
        const Design &d = m_w->document()->design();
        for (const Node &n : d.nodes())
            if (n.isAccelerator() && rc.rank(n.id) >= 0) {
                QVERIFY(rc.groupLabel(n.id).startsWith(u'S'));
                break;
            }
        // The note under the rows comes a clause a line: on one line it made the legend 300 px
        // wide, and Fit left the design that much less room beside it.
        RankLegend *box = m_w->view()->rankLegend();
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->width() < QFontMetrics(box->font())
                                   .horizontalAdvance(QStringLiteral(
                                       "16 groups on one scale; accelerators say theirs")));
        // Four stages: the qualitative palette, no labels needed.
        openDesign(*m_w->view(), withStages(4));
        QVERIFY(!m_w->view()->topologyScene()->rankColouring().needsLabels());
    }

    // The legends covered the 4th spine of dgx-h100-su even after Fit: Fit now keeps the
    // design out of the legends' corners; a click folds a legend to its title.
    void fitKeepsTheDesignClearOfTheLegends_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("small") << QSize(1000, 700);
    }

    void fitKeepsTheDesignClearOfTheLegends()
    {
        QFETCH(QSize, size);
        m_w->resize(size);
        openDesign(*m_w->view(), withStages(4));
        showStages();
        TopologyView *view = m_w->view();
        RankLegend *legend = view->rankLegend();
        QTRY_VERIFY(legend->isVisible());
        view->fitAll();
        const QRectF content = view->topologyScene()->contentBounds();
        const QRect onScreen = view->mapFromScene(content).boundingRect();
        const QRect legendRect(view->viewport()->mapFrom(view, legend->pos()), legend->size());
        QVERIFY2(!onScreen.intersects(legendRect),
                 qPrintable(QStringLiteral("design %1,%2 %3x%4 under the legend %5x%6")
                                .arg(onScreen.x())
                                .arg(onScreen.y())
                                .arg(onScreen.width())
                                .arg(onScreen.height())
                                .arg(legendRect.width())
                                .arg(legendRect.height())));
        const QSize open = legend->size();
        QTest::mouseClick(legend, Qt::LeftButton);
        QVERIFY(legend->isCollapsed());
        QVERIFY(legend->height() < open.height());
        QTest::mouseClick(legend, Qt::LeftButton);
        QCOMPARE(legend->size(), open);
    }

    // The 16k example at Fit sat right of the stage legend flush against the viewport's right
    // edge (the 40-unit margin is one pixel at 2.8%), and after Simulate the link-utilization
    // legend appeared over its top-right corner (screenshots 16k-fit and 16k-simulated at
    // 1600x1000): the fitted design keeps some pixels of air inside the viewport, clear of
    // every legend, also once a result adds its legend. The folded link-utilization legend
    // (its full title, 344 px) stuck out of the 343 px canvas of a 1000x650 window.
    void largeDesignFitsBesideTheLegends_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1600x1000") << QSize(1600, 1000);
        QTest::newRow("1000x650") << QSize(1000, 650);
    }

    void largeDesignFitsBesideTheLegends()
    {
        QFETCH(QSize, size);
        m_w->resize(size);
        QVERIFY(m_w->openFile(QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-16k.weft"))
                == m_w.get());
        showStages();
        TopologyView *view = m_w->view();
        QTRY_VERIFY(view->rankLegend()->isVisible());
        view->fitAll();
        QVERIFY2(clearOfTheEdgesAndLegends(*view), "at Fit");
        // The window changes by a pixel (as docks do when a result arrives): the viewport's
        // centre moves by less than a pixel, so the view is still where Fit left it.
        m_w->resize(size - QSize(1, 1));
        QTest::qWait(50);
        m_w->simulation()->simulate();
        QTRY_VERIFY_WITH_TIMEOUT(m_w->simulation()->result() != nullptr, 120000);
        QTRY_VERIFY(view->heatLegend()->isVisible());
        QTest::qWait(100);
        QVERIFY2(clearOfTheEdgesAndLegends(*view), "after Simulate");
    }

    // NVSwitch boxes of an expanded DGX H100 overlapped and their labels ran together
    // ("d0.nvs0d0.nvs1"): the boxes stay apart and the labels drop the domain prefix.
    void expandedDomainSwitchesApart()
    {
        openDesign(*m_w->view(), fixtures::cluster256(false));
        m_w->document()->setSelection({});
        m_w->viewActions()->expand->trigger(); // nothing selected: every domain
        const Design &d = m_w->document()->design();
        for (const Group &g : d.groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                QVERIFY(!g.collapsed);
        TopologyScene *scene = m_w->view()->topologyScene();
        const Group &first = *std::find_if(d.groups().begin(), d.groups().end(), [](auto &g) {
            return g.kind == GroupKind::ScaleUpDomain;
        });
        std::vector<QRectF> chips;
        for (const NodeId id : first.members)
            if (d.node(id)->role == SwitchRole::ScaleUp && d.node(id)->isSwitch()) {
                NodeItem *item = scene->nodeItem(id);
                QVERIFY(item);
                chips.push_back(item->mapRectToScene(item->box()));
            }
        QCOMPARE(chips.size(), std::size_t(4));
        for (std::size_t i = 0; i < chips.size(); ++i)
            for (std::size_t j = i + 1; j < chips.size(); ++j)
                QVERIFY(!chips[i].intersects(chips[j]));
        m_w->viewActions()->collapse->trigger();
        for (const Group &g : d.groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                QVERIFY(g.collapsed);
    }

    // Exports had no legend and followed the dark theme: now the legends stand beside the
    // design and the colours are the light report style unless asked otherwise.
    void exportHasLegendsInReportStyle()
    {
        openDesign(*m_w->view(), withStages(4));
        showStages();
        TopologyScene &scene = *m_w->view()->topologyScene();
        scene.setStylePalette(themePalette(Theme::Dark));
        const QColor darkBackground = scene.style().background;
        CanvasExportOptions options;
        const CanvasExporter::PageLayout l = CanvasExporter::layout(scene, options);
        QVERIFY(l.drawRank);
        QVERIFY(l.rankLegend.x() >= l.canvas.right()); // beside, not over the design
        QVERIFY(l.page.width() > l.canvas.width());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("canvas.png"));
        QString error;
        options.dpi = 96;
        QVERIFY2(CanvasExporter::save(scene, path, CanvasFormat::Png, options, &error),
                 qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.width(), int(std::ceil(l.page.width())));
        QVERIFY(qGray(image.pixel(2, 2)) > 200); // light background although the theme is dark
        QCOMPARE(scene.style().background, darkBackground); // the screen keeps its theme
        // The legend's swatches: the stage colours appear in the legend column.
        const QColor stage0 = RankColouring::groupColour(0, 4, false);
        bool found = false;
        for (int y = 0; y < image.height() && !found; ++y)
            for (int x = int(l.canvas.right()) + 1; x < image.width() && !found; ++x)
                found = image.pixelColor(x, y) == stage0;
        QVERIFY(found);
        options.reportStyle = false;
        const QString screen = dir.filePath(QStringLiteral("screen.png"));
        QVERIFY(CanvasExporter::save(scene, screen, CanvasFormat::Png, options, &error));
        QVERIFY(qGray(QImage(screen).pixel(2, 2)) < 100);
    }
};

QTEST_MAIN(TestCanvasLegibility)
#include "tst_canvaslegibility.moc"
