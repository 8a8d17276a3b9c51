// What lies over what on the canvas: the legends keep clear of each other and of the fitted
// design in a 1000x650 window (and a large one); the lines of a row of collapsed NVL72 racks do
// not run under the neighbouring racks (they looked cabled to each other); link lines do not
// cross the NVSwitch labels of an expanded domain.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "document/tieredlayout.h"
#include "generate/fabricgenerator.h"
#include "gui/canvas/faultlegend.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/heatlegend.h"
#include "gui/canvas/legendlayout.h"
#include "gui/canvas/linkcrossings.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/nodeitem.h"
#include "gui/canvas/ranklegend.h"
#include "gui/docks/partitionsdock.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simulationrunner.h"
#include "storage/designstorage.h"
#include "workloadfixtures.h"

#include <QComboBox>
#include <QPainter>
#include <QStandardPaths>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

Design gb200()
{
    LoadResult r = loadDesignFile(
        QStringLiteral(WEFT_RESOURCES_DIR "/examples/gb200-nvl72-x8.weft"), MigrationBackup::Skip);
    Q_ASSERT(r.ok());
    return std::move(*r.design);
}

// Whether segment `l` passes through the inside of `r` (Liang-Barsky clipping).
bool crosses(const QLineF &l, const QRectF &r)
{
    double t0 = 0, t1 = 1;
    const double dx = l.dx(), dy = l.dy();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4]
        = {l.x1() - r.left(), r.right() - l.x1(), l.y1() - r.top(), r.bottom() - l.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] <= 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    return t1 - t0 > 1e-6;
}

// 16 NVL72 racks in two pods: the spines above both, so the lines to the lower pod's leaves
// pass the upper pod's racks.
Design gb200TwoPods()
{
    return fixtures::gb200Racks(16, 8, "q3400", 100e9);
}

// 16 NVL72 racks in one unit: 4 rows of 4, as far apart as the collapsed boxes.
Design gb200OneUnit()
{
    return fixtures::gb200Racks(16, 16, "qm9700", 400e9 / 8);
}

QRect legendRect(const TopologyView *view, const QWidget *legend)
{
    return QRect(legend->pos() - view->viewport()->pos(), legend->size());
}

} // namespace

class TestCanvasOverlays : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void legendsClearOfEachOtherAndTheDesign_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1000x650") << QSize(1000, 650);
        QTest::newRow("1600x1000") << QSize(1600, 1000);
    }

    // The heat, rank and fault legends all shown: none overlaps another, all inside the
    // viewport, and Fit keeps the design out from under them. A crowded (small) viewport
    // shows them as titles; a click still opens one.
    void legendsClearOfEachOtherAndTheDesign()
    {
        QFETCH(QSize, size);
        RecordingPresenter presenter;
        MainWindow w;
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->resetDesign(fixtures::cluster256());
        w.simulation()->setDebounce(0);
        w.simulation()->simulate();
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 120000);
        QComboBox *combo = w.partitions()->colourCombo();
        combo->setCurrentIndex(combo->findData(int(RankColouring::Mode::Stage)));
        const Design &d = w.document()->design();
        const auto leaf = std::find_if(d.nodes().begin(), d.nodes().end(),
                                       [](const Node &n) { return n.role == SwitchRole::Leaf; });
        QVERIFY(leaf != d.nodes().end());
        QString error;
        QVERIFY(w.document()->setFault({Fault::Kind::SwitchDown, leaf->name, 1}, &error));
        TopologyView *view = w.view();
        QTRY_VERIFY(view->heatLegend()->isVisible());
        QTRY_VERIFY(view->rankLegend()->isVisible());
        QTRY_VERIFY(view->faultLegend()->isVisible());
        view->fitAll();
        const QRect vp = view->viewport()->rect();
        const QList<QWidget *> legends {view->rankLegend(), view->heatLegend(),
                                        view->faultLegend()};
        for (QWidget *a : legends) {
            const QRect ra = legendRect(view, a);
            QVERIFY2(vp.contains(ra), qPrintable(a->objectName()));
            for (QWidget *b : legends)
                if (a != b)
                    QVERIFY2(
                        !ra.intersects(legendRect(view, b)),
                        qPrintable(a->objectName() + QStringLiteral(" over ") + b->objectName()));
        }
        const QRect design
            = view->mapFromScene(view->topologyScene()->contentBounds()).boundingRect();
        for (QWidget *l : legends)
            QVERIFY2(!design.intersects(legendRect(view, l)),
                     qPrintable(QStringLiteral("the design under the ") + l->objectName()));
        // A crowded viewport shows the legends' titles only, a roomy one all of them.
        const bool crowded = size.width() < 1200;
        QCOMPARE(view->heatLegend()->isCollapsed(), crowded);
        QCOMPARE(view->rankLegend()->isCollapsed(), crowded);
        QCOMPARE(view->faultLegend()->isCompact(), crowded);
        if (crowded)
            for (QWidget *l : legends)
                QVERIFY(l->height() < 2 * l->fontMetrics().height() + 20);
        if (crowded) { // a click opens one anyway, still clear of the others
            QTest::mouseClick(view->heatLegend(), Qt::LeftButton);
            QVERIFY(!view->heatLegend()->isCollapsed());
            QCOMPARE(view->heatLegend()->size(), view->heatLegend()->fullSize());
            QVERIFY(!legendRect(view, view->heatLegend())
                         .intersects(legendRect(view, view->rankLegend())));
        }
        w.document()->undoStack()->setClean();
    }

    // The pure geometry: two wide legends that do not fit side by side stack on the left.
    void layoutStacksWhenTheTopIsFull()
    {
        const LegendSizes s {QSize(200, 120), QSize(380, 100), QSize(300, 70)};
        QVERIFY(LegendLayout::crowded(QSize(560, 360), s));
        QVERIFY(!LegendLayout::crowded(QSize(1400, 800), s));
        const LegendRects r = LegendLayout::place(QSize(560, 360), s);
        QVERIFY(!r.rank.intersects(r.heat));
        QCOMPARE(r.heat.left(), r.rank.left());
        const LegendRects wide = LegendLayout::place(QSize(1400, 800), s);
        QCOMPARE(wide.heat.right(), 1400 - 1 - LegendLayout::kMargin);
        for (const QRect &area : LegendLayout::clearAreas(QRect(0, 0, 1400, 800), wide))
            for (const QRect &l : {wide.rank, wide.heat, wide.fault})
                QVERIFY(!area.intersects(l));
    }

    // GB200 NVL72 x8: the racks stand in a row; each line of a collapsed rack leaves it from
    // its side facing the other end and passes under no other rack.
    void rackLinesPassNoOtherRack()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(gb200());
        TopologyScene scene(&doc);
        const Design &d = doc.design();
        std::vector<std::pair<GroupId, QRectF>> racks;
        for (const Group &g : d.groups())
            if (g.kind == GroupKind::ScaleUpDomain) {
                QVERIFY(scene.groupItem(g.id)->collapsed());
                racks.emplace_back(g.id, scene.groupItem(g.id)->frame());
            }
        QCOMPARE(racks.size(), std::size_t(8));
        int checked = 0;
        for (const LinkLayer::Bundle &b : scene.linkLayer()->bundles()) {
            const Link *l = d.link(b.links.front());
            const GroupId ends[2] = {d.node(l->a)->group, d.node(l->b)->group};
            for (const auto &[id, frame] : racks) {
                const bool own = id == ends[0] || id == ends[1];
                // A line may touch its own box's edge, never enter a box.
                QVERIFY2(!crosses(b.line, frame.adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("%1 -> %2 through %3")
                                        .arg(QString::fromStdString(d.node(l->a)->name),
                                             QString::fromStdString(d.node(l->b)->name),
                                             QString::fromStdString(d.group(id)->name))));
                if (own) {
                    const QRectF edge = frame.adjusted(-1, -1, 1, 1);
                    QVERIFY(edge.contains(b.line.p1()) || edge.contains(b.line.p2()));
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 8); // every rack has its line to its leaf
    }

    // Two pods of racks: a line passing a rack it does not end at is drawn over it as a bridge
    // (LinkCrossings), so that it does not vanish into one rack and come out of another.
    void linesPassingARackAreDrawnOverIt()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(gb200TwoPods());
        TopologyScene scene(&doc);
        const Design &d = doc.design();
        const LinkLayer *layer = scene.linkLayer();
        int passing = 0;
        for (const LinkLayer::Bundle &b : layer->bundles())
            for (const Group &g : d.groups()) {
                if (g.kind != GroupKind::ScaleUpDomain)
                    continue;
                const QRectF frame = scene.groupItem(g.id)->frame();
                const Link *l = d.link(b.links.front());
                if (d.node(l->a)->group == g.id || d.node(l->b)->group == g.id
                    || !crosses(b.line, frame.adjusted(1, 1, -1, -1)))
                    continue;
                ++passing;
                const auto &cs = layer->crossings();
                const std::size_t index = std::size_t(&b - layer->bundles().data());
                QVERIFY2(std::any_of(
                             cs.begin(), cs.end(),
                             [&](const LinkLayer::Crossing &c) {
                                 return c.bundle == index
                                     && frame.adjusted(-1, -1, 1, 1).contains(c.segment.center());
                             }),
                         g.name.c_str());
            }
        QVERIFY(passing > 0); // the layout does make lines pass racks
        // Drawn: the middle of a crossing shows the line's pen over the box.
        const LinkLayer::Crossing &c = layer->crossings().front();
        const QRectF around(c.segment.center() - QPointF(3, 3), QSizeF(6, 6));
        const auto render = [&] {
            QImage img(QSize(24, 24), QImage::Format_ARGB32);
            img.fill(Qt::transparent);
            QPainter p(&img);
            scene.render(&p, QRectF(0, 0, 24, 24), around);
            return img;
        };
        const QImage with = render();
        {
            TopologyView view(&scene);
            view.resize(800, 600);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            view.setZoom(1.0);
            view.centerOn(c.segment.center());
            QApplication::processEvents();
            const QPoint at = view.mapFromScene(c.segment.center());
            const QImage shown = view.viewport()->grab().toImage();
            for (QGraphicsItem *item : scene.items())
                if (dynamic_cast<LinkCrossings *>(item))
                    item->setVisible(false);
            QApplication::processEvents();
            const QImage hidden = view.viewport()->grab().toImage();
            for (QGraphicsItem *item : scene.items())
                if (dynamic_cast<LinkCrossings *>(item))
                    item->setVisible(true);
            QVERIFY2(shown.copy(QRect(at - QPoint(3, 3), QSize(7, 7)))
                         != hidden.copy(QRect(at - QPoint(3, 3), QSize(7, 7))),
                     "the crossing is not drawn in a view");
        }
        for (QGraphicsItem *item : scene.items())
            if (dynamic_cast<LinkCrossings *>(item))
                item->setVisible(false);
        QVERIFY(with != render());
    }

    // Rows of racks stand as far apart as the collapsed boxes: an expanded rack reaches over
    // the racks below it. Its frame is drawn over them (they went over its GPUs and labels),
    // a click there hits the expanded rack, and collapsing it brings them back on top.
    void expandedRackDrawnOverTheRacksBelow()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(gb200OneUnit());
        TopologyScene scene(&doc);
        const Design &d = doc.design();
        std::vector<GroupId> racks;
        for (const Group &g : d.groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                racks.push_back(g.id);
        QCOMPARE(racks.size(), std::size_t(16));
        GroupItem *top = scene.groupItem(racks[0]);
        const QRectF box = top->frame();
        doc.setCollapsed(racks[0], false);
        QVERIFY(!top->collapsed());
        const QRectF frame = top->frame();
        QVERIFY(frame.height() > 4 * box.height()); // it reaches over the rows below
        int covered = 0;
        for (std::size_t i = 1; i < racks.size(); ++i) {
            GroupItem *item = scene.groupItem(racks[i]);
            QVERIFY(item->collapsed());
            const bool under = item->frame().intersects(frame);
            QCOMPARE(item->covered(), under);
            if (!under) {
                QVERIFY(item->zValue() > top->zValue()); // boxes stay over the links elsewhere
                continue;
            }
            ++covered;
            QVERIFY2(item->zValue() < top->zValue(), d.group(racks[i])->name.c_str());
            const CanvasHit hit = scene.hitAt(item->frame().center(), 0);
            QVERIFY(hit.group == racks[0] || hit.node.valid() || !hit.links.empty()); // its own
            QVERIFY(hit.group != racks[i]);
        }
        QVERIFY(covered >= 3); // the rows below in its column
        doc.setCollapsed(racks[0], true);
        for (std::size_t i = 1; i < racks.size(); ++i) {
            QVERIFY(!scene.groupItem(racks[i])->covered());
            QVERIFY(scene.groupItem(racks[i])->zValue() > 1); // over the links again
        }
    }

    // A node's label is short (the domain prefix dropped, elided to its grid cell): the tooltip
    // names it in full with its hardware and domain; a domain's box says what it holds.
    void nodesAndRacksHaveToolTips()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(gb200());
        const Design &d = doc.design();
        const Group &rack = *std::find_if(d.groups().begin(), d.groups().end(), [](auto &g) {
            return g.kind == GroupKind::ScaleUpDomain;
        });
        TopologyScene scene(&doc);
        const QString boxTip = scene.groupItem(rack.id)->toolTip();
        QVERIFY2(boxTip.contains(QString::fromStdString(rack.name)), qPrintable(boxTip));
        QVERIFY2(boxTip.contains(QStringLiteral("72 accelerators")), qPrintable(boxTip));
        QVERIFY2(boxTip.contains(QStringLiteral("expand")), qPrintable(boxTip));
        doc.setCollapsed(rack.id, false);
        int checked = 0;
        for (const NodeId id : rack.members) {
            const Node *n = d.node(id);
            const QString tip = scene.nodeItem(id)->toolTip();
            QVERIFY2(tip.startsWith(QString::fromStdString(n->name)), qPrintable(tip));
            const std::string spec
                = n->isAccelerator() ? d.acceleratorSpec(*n)->name : d.switchSpec(*n)->name;
            QVERIFY2(tip.contains(QString::fromStdString(spec)), qPrintable(tip));
            QVERIFY2(tip.contains(QString::fromStdString(rack.name)), qPrintable(tip));
            ++checked;
        }
        QCOMPARE(checked, 90);
        // A fabric switch, outside any domain.
        const Node &leaf = *std::find_if(d.nodes().begin(), d.nodes().end(),
                                         [](auto &n) { return n.role == SwitchRole::Leaf; });
        const QString tip = scene.nodeItem(leaf.id)->toolTip();
        QVERIFY2(tip.contains(QString::fromStdString(d.switchSpec(leaf)->name)), qPrintable(tip));
    }

    // An expanded NVL72 rack: the lines from each NVSwitch chip to the GPUs below start under
    // the chip's label; the label reads the same with the links drawn as without them.
    void switchLabelsStayReadableOverLinks()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(gb200());
        const Design &d = doc.design();
        const GroupId rack = std::find_if(d.groups().begin(), d.groups().end(), [](auto &g) {
                                 return g.kind == GroupKind::ScaleUpDomain;
                             })->id;
        doc.setCollapsed(rack, false);
        TopologyScene scene(&doc);
        QFont font = QApplication::font();
        const auto render = [&](const QRectF &source) {
            QImage img((source.size() * 4).toSize(), QImage::Format_ARGB32);
            img.fill(Qt::transparent);
            QPainter p(&img);
            p.setFont(font);
            scene.render(&p, QRectF(QPointF(0, 0), img.size()), source);
            return img;
        };
        int labels = 0;
        for (const NodeId id : d.group(rack)->members) {
            const Node *n = d.node(id);
            if (!n->isSwitch() || n->role != SwitchRole::ScaleUp)
                continue;
            NodeItem *item = scene.nodeItem(id);
            QVERIFY(item);
            // The middle of the label under the chip ("nvs12").
            const QRectF label(n->x - 9, n->y + layout::kSwitchHeight / 2 + 3, 18, 8);
            scene.linkLayer()->setVisible(true);
            const QImage with = render(label);
            scene.linkLayer()->setVisible(false);
            const QImage without = render(label);
            scene.linkLayer()->setVisible(true);
            QVERIFY2(with == without, n->name.c_str());
            ++labels;
        }
        QCOMPARE(labels, 18);
    }
};

QTEST_MAIN(TestCanvasOverlays)
#include "tst_canvasoverlays.moc"
