// The canvas follows its document when a whole design replaces another (File > New Cluster,
// its Undo and Redo, opening a file): the links of the new design are painted. A design of the
// size of the one it replaced used to draw no link at all (the rebuilt link layer kept an empty
// extent while the scene rectangle stayed). The minimap's viewport rectangle sits on the part of
// the overview image it stands for.
#include "document/designdocument.h"
#include "generate/fabricgenerator.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/minimap.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "io/catalogfile.h"

#include <QPainter>
#include <QTest>

using namespace weft;

namespace {

Design generated(int domains)
{
    FabricParams p;
    p.domains = domains;
    GenerateResult r = generateFabric(p, builtinCatalog());
    if (!r.design)
        qFatal("cannot generate the test fabric");
    return std::move(*r.design);
}

// The link layer paints over the design (its bounding rectangle covers the content) and has
// something to paint.
bool linksPainted(const TopologyScene &scene)
{
    const LinkLayer *links = scene.linkLayer();
    return links->boundingRect().contains(scene.contentBounds()) && links->bundleCount() > 0;
}

} // namespace

class TestCanvasRefresh : public QObject
{
    Q_OBJECT
private slots:
    void newClusterOverADesignOfTheSameSizeDrawsItsLinks_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("second");
        QTest::newRow("same size") << 32 << 32;
        QTest::newRow("smaller") << 32 << 8;
        QTest::newRow("larger") << 8 << 32;
    }

    void newClusterOverADesignOfTheSameSizeDrawsItsLinks()
    {
        QFETCH(int, first);
        QFETCH(int, second);
        DesignDocument doc(builtinCatalog());
        TopologyScene scene(&doc);
        doc.resetDesign(generated(first)); // as opening a file
        QVERIFY(linksPainted(scene));
        doc.generateCluster(generated(second)); // File > New Cluster
        QVERIFY(!doc.design().links().empty());
        QVERIFY(linksPainted(scene));
        doc.undoStack()->undo();
        QVERIFY(linksPainted(scene));
        doc.undoStack()->redo();
        QVERIFY(linksPainted(scene));
    }

    void paintedPixelsShowTheLinks()
    {
        DesignDocument doc(builtinCatalog());
        TopologyScene scene(&doc);
        doc.resetDesign(generated(4));
        doc.generateCluster(generated(4));
        // Only the link layer: every non-background pixel is a link.
        for (QGraphicsItem *item : scene.items())
            item->setVisible(item == scene.linkLayer());
        QImage image(400, 300, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        scene.render(&p, image.rect(), scene.contentBounds());
        p.end();
        int drawn = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                drawn += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
        QVERIFY2(drawn > 200, qPrintable(QString::number(drawn)));
    }

    // The overview's drawn pixels lie inside contentRect() and fill it across its long side;
    // the viewport rectangle of a view showing the design's top-left corner starts there.
    void minimapRectangleSitsOnItsContent()
    {
        DesignDocument doc(builtinCatalog());
        TopologyScene scene(&doc);
        doc.resetDesign(generated(32)); // a wide block of domains under its tiers
        TopologyView view(&scene);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom(0.5);
        view.centerOn(scene.contentBounds().topLeft());
        Minimap *map = view.minimap();
        map->render();
        const QRectF content = map->contentRect();
        QVERIFY(!content.isEmpty());
        const QImage image = map->overview();
        const QRgb background = image.pixel(0, 0);
        QRect drawn;
        const double dpr = image.devicePixelRatio();
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) != background)
                    drawn |= QRect(int(x / dpr), int(y / dpr), 1, 1);
        QVERIFY(!drawn.isEmpty());
        // The design is drawn where the mapping says (a 40-unit margin around it, < 8 px).
        QVERIFY2(content.adjusted(-1, -1, 1, 1).contains(QRectF(drawn)),
                 qPrintable(QStringLiteral("drawn %1,%2 %3x%4 outside %5,%6 %7x%8")
                                .arg(drawn.x())
                                .arg(drawn.y())
                                .arg(drawn.width())
                                .arg(drawn.height())
                                .arg(content.x())
                                .arg(content.y())
                                .arg(content.width())
                                .arg(content.height())));
        QVERIFY(std::abs(drawn.center().y() - content.center().y()) < 8);
        QVERIFY(std::abs(drawn.center().x() - content.center().x()) < 8);
        // The view's centre is the content's top-left corner: so is the rectangle's centre.
        const QRectF vis = map->viewportRect();
        const double scale = content.width() / (scene.contentBounds().width() + 80);
        const QPointF corner = content.topLeft() + QPointF(40, 40) * scale;
        QVERIFY(std::abs(vis.center().x() - corner.x()) < 3);
        QVERIFY(std::abs(vis.center().y() - corner.y()) < 3);
    }
};

QTEST_MAIN(TestCanvasRefresh)
#include "tst_canvasrefresh.moc"
