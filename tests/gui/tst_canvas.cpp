// The canvas driven with real mouse events on the real view of a main window: palette drop,
// move, connect, drop into a domain, rubber-band select and delete, property edit through the
// dock, copy/paste; each followed by undo and redo with assertions on the document.
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/actions/editactions.h"
#include "gui/actions/viewactions.h"
#include "gui/canvas/catalogmime.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/minimap.h"
#include "gui/canvas/nodeitem.h"
#include "gui/canvas/tools/connecttool.h"
#include "gui/canvas/topologyscene.h"
#include "gui/docks/palettedock.h"
#include "gui/docks/propertiesdock.h"
#include "gui/mainwindow.h"
#include "gui/widgets/unitfield.h"

#include <QAction>
#include <QComboBox>
#include <QGraphicsLineItem>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidgetItemIterator>

using namespace weft;
using namespace weft::test;

namespace {

NodeId findNode(const Design &d, const std::string &name)
{
    for (const Node &n : d.nodes())
        if (n.name == name)
            return n.id;
    return {};
}

QPointF posOf(const Design &d, NodeId id)
{
    return {d.node(id)->x, d.node(id)->y};
}

std::vector<NodeId> accelerators(const Design &d, GroupId g)
{
    std::vector<NodeId> out;
    for (const NodeId m : d.group(g)->members)
        if (d.node(m)->isAccelerator())
            out.push_back(m);
    return out;
}

} // namespace

class TestCanvas : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_w;
    std::unique_ptr<RecordingPresenter> m_presenter;
    DesignDocument *doc() { return m_w->document(); }
    TopologyView &view() { return *m_w->view(); }

    void open(Design d) { openDesign(view(), std::move(d)); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1400, 900);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
    }

    void cleanup()
    {
        doc()->undoStack()->setClean();
        m_w.reset();
        m_presenter.reset();
    }

    void paletteFilterKeepsTiersUnderTheirSwitch()
    {
        open(fixtures::smallFabric());
        PaletteTree *tree = m_w->paletteDock()->tree();
        auto *filter = m_w->paletteDock()->findChild<QLineEdit *>();
        QVERIFY(filter);
        filter->setText(QStringLiteral("spine"));
        int spines = 0, shownAccelerators = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it) {
            const auto item = tree->itemOf(*it);
            if (!item || (*it)->isHidden())
                continue;
            QVERIFY(!(*it)->parent()->isHidden());
            if (item->kind == CatalogItem::Kind::Switch)
                spines += item->role == SwitchRole::Spine ? 1 : 1000; // only spines match
            else
                ++shownAccelerators;
        }
        QVERIFY(spines > 0 && spines < 1000);
        QCOMPARE(shownAccelerators, 0);
        filter->setText(QStringLiteral("QM9700")); // a model: all its tiers
        int tiers = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if (tree->itemOf(*it) && !(*it)->isHidden())
                tiers += (*it)->parent()->text(0).contains(QStringLiteral("QM9700")) ? 1 : 1000;
        QCOMPARE(tiers, 3); // leaf, spine and core of that one model
        filter->clear();
    }

    void paletteDropAddsSwitch()
    {
        open(fixtures::smallFabric());
        const std::size_t nodes = doc()->design().nodes().size();
        QTreeWidgetItem *entry = m_w->paletteDock()->tree()->findEntry(QStringLiteral("Spine"));
        QVERIFY(entry);
        auto mime = catalogMimeData(*m_w->paletteDock()->tree()->itemOf(entry));
        const QPointF at
            = doc()->design().nodes().front().x < 0 ? QPointF(-400, -300) : QPointF(400, -300);
        QVERIFY(drop(view(), mime.get(), at));
        QCOMPARE(doc()->design().nodes().size(), nodes + 1);
        const Node &added = doc()->design().nodes().back();
        QCOMPARE(added.role, SwitchRole::Spine);
        QCOMPARE(std::fmod(added.x, 8.0), 0.0); // snapped to the grid
        QVERIFY(m_w->view()->topologyScene()->nodeItem(added.id));
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().nodes().size(), nodes);
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().nodes().size(), nodes + 1);
    }

    void dragMovesOneStepPerGesture()
    {
        open(fixtures::smallFabric());
        const NodeId leaf = findNode(doc()->design(), "leaf-0");
        const QPointF start = posOf(doc()->design(), leaf);
        drag(view(), start, start + QPointF(101, 37));
        const QPointF moved = posOf(doc()->design(), leaf);
        QCOMPARE(
            moved,
            QPointF(std::round((start.x() + 101) / 8) * 8, std::round((start.y() + 37) / 8) * 8));
        QCOMPARE(doc()->undoStack()->count(), 1);
        QCOMPARE(m_w->view()->topologyScene()->nodeItem(leaf)->pos(), moved);
        drag(view(), moved, moved + QPointF(-3, 50), Qt::LeftButton,
             Qt::AltModifier); // Alt: no snap
        QCOMPARE(posOf(doc()->design(), leaf), moved + QPointF(-3, 50));
        QCOMPARE(doc()->undoStack()->count(), 2);
        doc()->undoStack()->undo();
        QCOMPARE(posOf(doc()->design(), leaf), moved);
        doc()->undoStack()->undo();
        QCOMPARE(posOf(doc()->design(), leaf), start);
        doc()->undoStack()->redo();
        QCOMPARE(posOf(doc()->design(), leaf), moved);
    }

    void dragCollapsedDomainMovesMembers()
    {
        open(fixtures::smallFabric());
        const GroupId g = doc()->design().groups().front().id;
        const NodeId gpu = accelerators(doc()->design(), g).front();
        const QPointF before = posOf(doc()->design(), gpu);
        const QPointF box
            = m_w->view()->topologyScene()->groupItem(g)->sceneBoundingRect().center();
        const NodeId anchor = doc()->design().group(g)->members.front();
        drag(view(), box, box + QPointF(0, 200));
        QVERIFY(std::abs(posOf(doc()->design(), gpu).y() - before.y() - 200) <= 4);
        QCOMPARE(std::fmod(posOf(doc()->design(), anchor).y(), 8.0), 0.0); // snapped as one block
        doc()->undoStack()->undo();
        QCOMPARE(posOf(doc()->design(), gpu), before);
    }

    void connectToolLinksAndRefusesOverflow()
    {
        open(fixtures::smallFabric());
        const GroupId g = doc()->design().groups().front().id;
        doc()->setCollapsed(g, false);
        const NodeId gpu = accelerators(doc()->design(), g)[2];
        const NodeId leaf = findNode(doc()->design(), "leaf-0");
        m_w->viewActions()->connectTool->trigger();
        QCOMPARE(view().toolKind(), TopologyView::ToolKind::Connect);
        const std::size_t links = doc()->design().links().size();
        // Press on the GPU, move: the temporary line follows the mouse.
        mouse(view(), QEvent::MouseButtonPress, posOf(doc()->design(), gpu), Qt::LeftButton,
              Qt::LeftButton);
        const QPointF mid = (posOf(doc()->design(), gpu) + posOf(doc()->design(), leaf)) / 2;
        mouse(view(), QEvent::MouseMove, mid, Qt::NoButton, Qt::LeftButton);
        auto *tool = static_cast<ConnectTool *>(view().tool());
        QVERIFY(tool->rubberLine());
        QVERIFY((tool->rubberLine()->line().p2() - mid).manhattanLength() < 2);
        mouse(view(), QEvent::MouseButtonRelease, posOf(doc()->design(), leaf), Qt::LeftButton,
              Qt::NoButton);
        QVERIFY(!tool->rubberLine());
        QCOMPARE(doc()->design().links().size(), links + 1);
        QCOMPARE(doc()->design().links().back().tech, std::string("ib-ndr"));
        // The GPU's only NIC is used now: a second link is refused with a message.
        QSignalSpy messages(&view(), &TopologyView::message);
        drag(view(), posOf(doc()->design(), gpu), posOf(doc()->design(), leaf));
        QCOMPARE(messages.count(), 1);
        QVERIFY(messages.front().front().toString().contains(QLatin1String("no free NIC")));
        QCOMPARE(m_presenter->errors.size(), 1);
        QCOMPARE(doc()->design().links().size(), links + 1);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().links().size(), links);
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().links().size(), links + 1);
    }

    void dropAcceleratorIntoDomain()
    {
        Design d = fixtures::smallFabric();
        const GroupId g = d.groups().front().id;
        d.removeNode(accelerators(d, g).back()); // a free slot on every NVSwitch chip
        open(std::move(d));
        const std::size_t links = doc()->design().links().size();
        auto mime = catalogMimeData({CatalogItem::Kind::Accelerator, "h100-sxm"});
        const QPointF box
            = m_w->view()->topologyScene()->groupItem(g)->sceneBoundingRect().center();
        QVERIFY(drop(view(), mime.get(), box));
        QCOMPARE(accelerators(doc()->design(), g).size(), 8u);
        QCOMPARE(doc()->design().links().size(), links + 4);
        QCOMPARE(doc()->undoStack()->count(), 1);
        doc()->undoStack()->undo();
        QCOMPARE(accelerators(doc()->design(), g).size(), 7u);
        QCOMPARE(doc()->design().links().size(), links);
        doc()->undoStack()->redo();
        QCOMPARE(accelerators(doc()->design(), g).size(), 8u);
    }

    void rubberBandSelectAndDelete()
    {
        open(fixtures::smallFabric());
        const Design before = doc()->design();
        const QRectF all = m_w->view()->topologyScene()->contentBounds();
        // Band around the domains' row only (below the leaf).
        const GroupId g0 = before.groups()[0].id, g1 = before.groups()[1].id;
        QRectF band = m_w->view()->topologyScene()->groupItem(g0)->sceneBoundingRect()
            | m_w->view()->topologyScene()->groupItem(g1)->sceneBoundingRect();
        band.adjust(-20, -20, 20, 20);
        QVERIFY(all.contains(band.center()));
        drag(view(), band.topLeft(), band.bottomRight());
        QCOMPARE(doc()->selection().groups, (std::set<GroupId> {g0, g1}));
        QVERIFY(doc()->selection().nodes.empty());
        m_w->editActions()->remove->trigger();
        QCOMPARE(doc()->design().nodes().size(), 1u); // the leaf stays
        QVERIFY(doc()->design().links().empty()); // links of deleted nodes went too
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().nodes().size(), before.nodes().size());
        QCOMPARE(doc()->design().links().size(), before.links().size());
        QVERIFY(m_w->view()->topologyScene()->groupItem(g0));
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().nodes().size(), 1u);
    }

    void clickSelectsAndPropertiesEdit()
    {
        open(fixtures::smallFabric());
        const NodeId leaf = findNode(doc()->design(), "leaf-0");
        click(view(), posOf(doc()->design(), leaf));
        QCOMPARE(doc()->selection().nodes, std::set<NodeId> {leaf});
        auto *name = qobject_cast<QLineEdit *>(m_w->properties()->field(QStringLiteral("Name")));
        QVERIFY(name);
        QCOMPARE(name->text(), QStringLiteral("leaf-0"));
        auto *y = qobject_cast<UnitField *>(m_w->properties()->field(QStringLiteral("Y")));
        QVERIFY(y && y->value());
        QCOMPARE(*y->value(), doc()->design().node(leaf)->y); // each row shows its own field
        auto *model
            = qobject_cast<QComboBox *>(m_w->properties()->field(QStringLiteral("Switch model")));
        QVERIFY(model);
        QCOMPARE(model->currentData().toString(), QStringLiteral("qm9700"));
        // Validation as you type: empty is flagged and not committed.
        name->setFocus();
        name->selectAll();
        QTest::keyClick(name, Qt::Key_Backspace);
        QVERIFY(name->styleSheet().contains(QLatin1String("border")));
        QTest::keyClicks(name, QStringLiteral("tor-1"));
        QTest::keyClick(name, Qt::Key_Return);
        QCOMPARE(doc()->design().node(leaf)->name, std::string("tor-1"));
        QCOMPARE(doc()->undoStack()->count(), 1);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().node(leaf)->name, std::string("leaf-0"));
        QCOMPARE(name->text(), QStringLiteral("leaf-0")); // the dock follows the model
        doc()->undoStack()->redo();
        QCOMPARE(name->text(), QStringLiteral("tor-1"));
    }

    void multiSelectionLinkEdit()
    {
        open(fixtures::smallFabric());
        IdSet sel;
        std::map<LinkId, double> rates;
        for (const Link &l : doc()->design().links())
            if (l.tech == "ib-ndr") {
                sel.links.insert(l.id);
                rates[l.id] = l.rate;
            }
        QCOMPARE(sel.links.size(), 2u);
        doc()->setSelection(sel);
        auto *rate
            = qobject_cast<UnitField *>(m_w->properties()->field(QStringLiteral("Rate per lane")));
        QVERIFY(rate);
        QCOMPARE(rate->lineEdit()->text(), QStringLiteral("400"));
        rate->lineEdit()->setFocus();
        rate->lineEdit()->selectAll();
        QTest::keyClicks(rate->lineEdit(), QStringLiteral("-5"));
        QVERIFY(!rate->isValid());
        rate->lineEdit()->selectAll();
        QTest::keyClicks(rate->lineEdit(), QStringLiteral("200"));
        QVERIFY(rate->isValid());
        QTest::keyClick(rate->lineEdit(), Qt::Key_Return);
        for (const LinkId id : sel.links)
            QCOMPARE(doc()->design().link(id)->rate, 25e9); // 200 Gb/s in bytes/s
        QCOMPARE(doc()->undoStack()->count(), 1);
        doc()->undoStack()->undo();
        for (const LinkId id : sel.links)
            QCOMPARE(doc()->design().link(id)->rate, rates[id]);
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().link(*sel.links.begin())->rate, 25e9);
    }

    void clickOnLinkSelectsIt()
    {
        open(fixtures::smallFabric());
        const Link l
            = doc()->design().links().back(); // a NIC link: GPU (in a collapsed box) to leaf
        const LinkLayer *layer = m_w->view()->topologyScene()->linkLayer();
        // The middle of the line drawn for it (it ends on the side of the collapsed box).
        const auto &bundles = layer->bundles();
        const auto drawn = std::find_if(bundles.begin(), bundles.end(), [&](const auto &b) {
            return std::find(b.links.begin(), b.links.end(), l.id) != b.links.end();
        });
        QVERIFY(drawn != bundles.end());
        const QPointF at = drawn->line.center();
        QVERIFY(!layer->linksAt(at, 3).empty());
        click(view(), at);
        QCOMPARE(doc()->selection().links.size(), 1u);
    }

    void copyPasteAndUndo()
    {
        open(fixtures::smallFabric());
        const GroupId g = doc()->design().groups().front().id;
        click(view(), m_w->view()->topologyScene()->groupItem(g)->sceneBoundingRect().center());
        QCOMPARE(doc()->selection().groups, std::set<GroupId> {g});
        m_w->editActions()->copy->trigger();
        m_w->editActions()->paste->trigger();
        QCOMPARE(doc()->design().groups().size(), 3u);
        const GroupId pasted = doc()->design().groups().back().id;
        QVERIFY(pasted != g);
        QCOMPARE(doc()->selection().groups.size(), 1u);
        QVERIFY(m_w->view()->topologyScene()->groupItem(pasted));
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().groups().size(), 2u);
        QVERIFY(!m_w->view()->topologyScene()->groupItem(pasted));
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().groups().size(), 3u);
        // Cut: copy + delete, one step.
        const int steps = doc()->undoStack()->count();
        doc()->setSelection({{}, {}, {pasted}});
        m_w->editActions()->cut->trigger();
        QCOMPARE(doc()->design().groups().size(), 2u);
        QCOMPARE(doc()->undoStack()->count(), steps + 1);
    }

    void selectAllAndFind()
    {
        open(fixtures::smallFabric());
        m_w->editActions()->selectAll->trigger();
        QCOMPARE(doc()->selection().nodes.size(), doc()->design().nodes().size());
        m_w->editActions()->findField->setText(QStringLiteral("kind:leaf"));
        QTest::keyClick(m_w->editActions()->findField, Qt::Key_Return);
        QCOMPARE(doc()->selection().nodes, std::set<NodeId> {findNode(doc()->design(), "leaf-0")});
    }

    void zoomPanAndExpand()
    {
        open(fixtures::smallFabric());
        const double z = view().zoom();
        QWheelEvent wheel(QPointF(200, 200), view().viewport()->mapToGlobal(QPointF(200, 200)), {},
                          {0, 120}, Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view().viewport(), &wheel);
        QVERIFY(view().zoom() > z);
        const int h = view().horizontalScrollBar()->value();
        const QPointF c = view().mapToScene(view().viewport()->rect().center());
        drag(view(), c, c + QPointF(80, 0), Qt::MiddleButton);
        QVERIFY(view().horizontalScrollBar()->value() < h);
        m_w->viewActions()->fit->trigger();
        QVERIFY(view()
                    .mapToScene(view().viewport()->rect())
                    .boundingRect()
                    .contains(m_w->view()->topologyScene()->contentBounds()));
        // Double-click a domain to expand it: its members get items.
        const GroupId g = doc()->design().groups().front().id;
        const NodeId gpu = accelerators(doc()->design(), g).front();
        QVERIFY(!m_w->view()->topologyScene()->nodeItem(gpu));
        const QPointF box
            = m_w->view()->topologyScene()->groupItem(g)->sceneBoundingRect().center();
        const QPoint p = view().mapFromScene(box);
        QTest::mouseDClick(view().viewport(), Qt::LeftButton, {}, p);
        QVERIFY(m_w->view()->topologyScene()->nodeItem(gpu));
        QCOMPARE(doc()->undoStack()->count(), 0); // view state, not an edit
    }

    void fitLeavesDesignClearOfMinimap()
    {
        open(fixtures::smallFabric());
        Minimap *map = view().minimap();
        view().setZoom(3.0);
        QVERIFY(map->isVisible()); // part of the design is out of view: the overview helps
        m_w->viewActions()->fit->trigger();
        const QRect onScreen
            = view().mapFromScene(view().topologyScene()->contentBounds()).boundingRect();
        QVERIFY(view().viewport()->rect().contains(onScreen));
        // The whole design is in view, so the minimap would only hide its bottom-right corner.
        QVERIFY(!map->isVisible());
        view().zoomIn();
        view().zoomIn();
        view().zoomIn();
        QVERIFY(map->isVisible());
        QVERIFY(map->geometry().bottomRight().y() <= view().viewport()->height());
        // View > Minimap off keeps it hidden whatever the zoom; on brings it back.
        m_w->viewActions()->minimap->trigger();
        QVERIFY(!map->isVisible());
        view().zoomIn();
        QVERIFY(!map->isVisible());
        m_w->viewActions()->minimap->trigger();
        QVERIFY(map->isVisible());
        QCOMPARE(doc()->undoStack()->count(), 0);
    }

    // At window teardown the scene (created first) is destroyed before the view; its
    // destructor detaches it from the view, which scrolls. The view must then stop announcing
    // moves and report no scene, or the minimap calls into a half-destroyed scene (UBSan).
    void viewOutlivesItsScene()
    {
        open(fixtures::smallFabric());
        view().setZoom(3.0); // scroll bars: detaching the scene moves the viewport
        QVERIFY(view().minimap()->isVisible());
        QSignalSpy moved(&view(), &TopologyView::viewportMoved);
        delete view().topologyScene();
        QCOMPARE(view().topologyScene(), nullptr);
        QCOMPARE(moved.count(), 0);
        m_w->resize(900, 700);
        view().minimap()->invalidate();
        view().minimap()->repaint();
        view().fitAll();
        view().restoreViewState({});
        QTest::keyClick(&view(), Qt::Key_Escape);
        QTest::mouseClick(view().viewport(), Qt::LeftButton);
        QTest::qWait(400); // the minimap's render timer, the queued restore
        QCOMPARE(moved.count(), 0);
    }
};

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
