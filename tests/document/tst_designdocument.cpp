// DesignDocument: user-level operations, each one undo step, undone and redone with the
// design checked each way.
#include "canvasfixtures.h"
#include "document/commands/setfield.h"
#include "document/designdocument.h"
#include "document/find.h"
#include "document/pastenames.h"

#include <QSignalSpy>
#include <QTest>

using namespace weft;

namespace {

std::vector<NodeId> membersOf(const Design &d, GroupId g, bool accelerators)
{
    std::vector<NodeId> out;
    for (const NodeId m : d.group(g)->members)
        if (d.node(m)->isAccelerator() == accelerators)
            out.push_back(m);
    return out;
}

int linksAt(const Design &d, NodeId n)
{
    int c = 0;
    for (const Link &l : d.links())
        c += (l.a == n || l.b == n);
    return c;
}

} // namespace

class TestDesignDocument : public QObject
{
    Q_OBJECT
private slots:
    void addSwitchUndoRedo()
    {
        DesignDocument doc(builtinCatalog());
        const IdSet ids = doc.addFromCatalog(
            {CatalogItem::Kind::Switch, "qm9700", SwitchRole::Spine}, {100, 50}, {}, nullptr);
        QCOMPARE(ids.nodes.size(), 1u);
        const Node *n = doc.design().node(*ids.nodes.begin());
        QVERIFY(n);
        QCOMPARE(n->role, SwitchRole::Spine);
        QCOMPARE(n->x, 100.0);
        QVERIFY(doc.design().hardware.switches.count("qm9700"));
        QCOMPARE(doc.selection(), ids);
        doc.undoStack()->undo();
        QVERIFY(doc.design().nodes().empty());
        QVERIFY(doc.design().hardware.switches.empty()); // the spec it brought goes too
        QVERIFY(doc.selection().empty());
        doc.undoStack()->redo();
        QCOMPARE(doc.design().nodes().size(), 1u);
    }

    void addPresetBuildsDomain_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("accelerators");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("links");
        QTest::newRow("dgx-h100") << "dgx-h100" << 8 << 4 << 32;
        QTest::newRow("gb200-nvl72") << "gb200-nvl72" << 72 << 18 << 72 * 18;
        QTest::newRow("mi300x-8 mesh") << "mi300x-8" << 8 << 0 << 28;
    }
    void addPresetBuildsDomain()
    {
        QFETCH(QString, preset);
        QFETCH(int, accelerators);
        QFETCH(int, switches);
        QFETCH(int, links);
        DesignDocument doc(builtinCatalog());
        const IdSet ids = doc.addFromCatalog(
            {CatalogItem::Kind::ScaleUpPreset, preset.toStdString()}, {0, 0}, {}, nullptr);
        QCOMPARE(ids.groups.size(), 1u);
        const GroupId g = *ids.groups.begin();
        QCOMPARE(int(membersOf(doc.design(), g, true).size()), accelerators);
        QCOMPARE(int(membersOf(doc.design(), g, false).size()), switches);
        QCOMPARE(int(doc.design().links().size()), links);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.undoStack()->undo();
        QVERIFY(doc.design().nodes().empty() && doc.design().groups().empty()
                && doc.design().links().empty());
        doc.undoStack()->redo();
        QCOMPARE(int(doc.design().links().size()), links);
    }

    void acceleratorDroppedIntoDomainIsWired()
    {
        Design d;
        const GroupId g = fixtures::addDomain(d, "dgx-h100");
        // Make room: remove one GPU so the NVSwitch chips have free ports for a new member.
        d.removeNode(membersOf(d, g, true).back());
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(d);
        const std::size_t linksBefore = doc.design().links().size();
        QString error;
        const IdSet ids
            = doc.addFromCatalog({CatalogItem::Kind::Accelerator, "h100-sxm"}, {0, 0}, g, &error);
        QVERIFY2(!ids.empty(), qPrintable(error));
        const NodeId gpu = *ids.nodes.begin();
        QCOMPARE(doc.design().node(gpu)->group, g);
        QCOMPARE(doc.design().node(gpu)->rail, 7);
        QCOMPARE(membersOf(doc.design(), g, true).size(), 8u);
        QCOMPARE(doc.design().links().size(), linksBefore + 4); // one link per NVSwitch chip
        QCOMPARE(linksAt(doc.design(), gpu), 4);
        doc.undoStack()->undo();
        QCOMPARE(membersOf(doc.design(), g, true).size(), 7u);
        QCOMPARE(doc.design().links().size(), linksBefore);
        doc.undoStack()->redo();
        QCOMPARE(doc.design().node(gpu)->group, g);
    }

    void acceleratorIntoFullDomainRefused()
    {
        Design d;
        const GroupId g
            = fixtures::addDomain(d, "dgx-h100"); // NVSwitch ports all used? 8*4.5=36 of 64
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(d);
        // Fill every chip to its radix with extra GPUs until the budget refuses.
        QString error;
        int added = 0;
        while (!doc.addFromCatalog({CatalogItem::Kind::Accelerator, "h100-sxm"}, {0, 0}, g, &error)
                    .empty())
            QVERIFY(++added < 100);
        QVERIFY2(error.contains(QLatin1String("no free port")), qPrintable(error));
        QCOMPARE(doc.undoStack()->count(), added); // the refused drop left no step
    }

    void connectTakesDefaultsAndRefusesOverflow()
    {
        Design d = fixtures::smallFabric();
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(d);
        const Node *leaf = nullptr;
        for (const Node &n : doc.design().nodes())
            if (n.role == SwitchRole::Leaf && n.isSwitch())
                leaf = &n;
        const NodeId leafId = leaf->id;
        const GroupId g = doc.design().groups().front().id;
        const std::vector<NodeId> gpus = membersOf(doc.design(), g, true);
        QString error;
        QVERIFY2(doc.connectNodes(gpus[1], leafId, &error), qPrintable(error));
        const Link &l = doc.design().links().back();
        QCOMPARE(l.tech, std::string("ib-ndr"));
        QCOMPARE(l.rate, 50e9); // 400 Gb/s NIC and port
        QCOMPARE(l.lanes, 1);
        // The same GPU has one NIC only (DGX H100: one compute NIC per GPU).
        QVERIFY(!doc.connectNodes(gpus[1], leafId, &error));
        QVERIFY(error.contains(QLatin1String("no free NIC")));
        QVERIFY(!doc.connectNodes(leafId, leafId, &error));
        doc.undoStack()->undo();
        QCOMPARE(linksAt(doc.design(), gpus[1]), 4);
    }

    void leafPortBudget()
    {
        Design d;
        const NodeId leaf = fixtures::addSwitch(d, "qm9700", SwitchRole::Leaf, "leaf");
        const NodeId spine = fixtures::addSwitch(d, "qm9700", SwitchRole::Spine, "spine");
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(d);
        QString error;
        for (int i = 0; i < 64; ++i)
            QVERIFY2(doc.connectNodes(leaf, spine, &error), qPrintable(error));
        QVERIFY(!doc.connectNodes(leaf, spine, &error));
        QCOMPARE(error, QStringLiteral("Switch leaf has no free port: 64 of 64 ports are in use."));
    }

    void deleteTakesLinksAndMembers()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const Design before = doc.design();
        const GroupId g = before.groups().front().id;
        doc.setSelection({{}, {}, {g}});
        doc.deleteSelection();
        QVERIFY(!doc.design().group(g));
        QCOMPARE(doc.design().nodes().size(), before.nodes().size() - 12);
        QCOMPARE(doc.design().links().size(), before.links().size() - 33); // 32 NVLink + 1 NIC
        QVERIFY(doc.selection().empty());
        doc.undoStack()->undo();
        QCOMPARE(doc.design().nodes().size(), before.nodes().size());
        QCOMPARE(doc.design().links().size(), before.links().size());
        QCOMPARE(doc.design().group(g)->members.size(), 12u);
        for (const Link &l : before.links()) // same ids, same ends
            QVERIFY(doc.design().link(l.id) && doc.design().link(l.id)->a == l.a);
        doc.undoStack()->redo();
        QVERIFY(!doc.design().group(g));
    }

    void moveMergesWithinOneGestureOnly()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const NodeId n = doc.design().nodes().front().id;
        const QPointF start(doc.design().node(n)->x, doc.design().node(n)->y);
        int gesture = doc.nextGesture();
        for (int i = 0; i < 5; ++i)
            doc.moveNodes({n}, {10, 5}, gesture);
        QCOMPARE(doc.undoStack()->count(), 1);
        gesture = doc.nextGesture();
        doc.moveNodes({n}, {1, 1}, gesture);
        QCOMPARE(doc.undoStack()->count(), 2);
        QCOMPARE(doc.design().node(n)->x, start.x() + 51);
        doc.undoStack()->undo();
        QCOMPARE(doc.design().node(n)->x, start.x() + 50);
        doc.undoStack()->undo();
        QCOMPARE(doc.design().node(n)->x, start.x());
        QCOMPARE(doc.design().node(n)->y, start.y());
    }

    void setFieldMultiEditIsOneStep()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        std::vector<LinkId> ids;
        std::vector<int> lanes;
        for (const Link &l : doc.design().links()) {
            ids.push_back(l.id);
            lanes.push_back(l.lanes);
        }
        QSignalSpy changed(&doc, &DesignDocument::changed);
        doc.undoStack()->push(
            new SetField<Link, int>(&doc, ids, &Link::lanes, 7, QStringLiteral("lanes")));
        QCOMPARE(changed.count(), 1);
        for (const Link &l : doc.design().links())
            QCOMPARE(l.lanes, 7);
        doc.undoStack()->undo();
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(doc.design().link(ids[i])->lanes, lanes[i]); // each its own old value
    }

    void copyPasteGetsNewIds()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const GroupId g = doc.design().groups().front().id;
        doc.setSelection({{}, {}, {g}});
        const Fragment clip = doc.copySelection();
        QCOMPARE(clip.nodes.size(), 12u);
        QCOMPARE(clip.links.size(), 32u); // the NIC link leaves the copy (its leaf is not copied)
        const std::size_t nodes = doc.design().nodes().size(), links = doc.design().links().size();
        doc.paste(clip, 40, 40);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.design().nodes().size(), nodes + 12);
        QCOMPARE(doc.design().links().size(), links + 32);
        QCOMPARE(doc.design().groups().size(), 3u);
        const IdSet pasted = doc.selection();
        QCOMPARE(pasted.nodes.size(), 12u);
        for (const NodeId id : pasted.nodes)
            QVERIFY(std::none_of(clip.nodes.begin(), clip.nodes.end(),
                                 [id](const Node &n) { return n.id == id; }));
        const Group &copy = doc.design().groups().back();
        QCOMPARE(copy.members.size(), 12u);
        QVERIFY(copy.id != g);
        doc.undoStack()->undo();
        QCOMPARE(doc.design().nodes().size(), nodes);
        doc.undoStack()->redo();
        QCOMPARE(doc.design().links().size(), links + 32);
    }

    // Pasting used to keep the original names: two "gpu57" on the canvas and in findings.
    void pasteMintsUniqueNames()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const GroupId g = doc.design().groups().front().id;
        doc.setSelection({{}, {}, {g}});
        const Fragment clip = doc.copySelection();
        doc.paste(clip, 40, 40);
        doc.paste(clip, 80, 80); // twice: each paste's names differ from every earlier one
        std::set<std::string> nodeNames, groupNames;
        for (const Node &n : doc.design().nodes())
            QVERIFY2(nodeNames.insert(n.name).second, n.name.c_str());
        for (const Group &grp : doc.design().groups())
            QVERIFY2(groupNames.insert(grp.name).second, grp.name.c_str());
        // A series continues after its highest number; a name without a number gets "-2".
        Fragment f;
        Node a = clip.nodes.front();
        a.name = "gpu57";
        Node b = a;
        b.name = "leaf-0";
        Node c = a;
        c.name = "spare";
        f.nodes = {a, b, c, a};
        Design d;
        for (const char *name : {"gpu57", "gpu63", "leaf-0", "spare"}) {
            Node n = a;
            n.id = {}; // a fresh id each (the copied one would be refused as a duplicate)
            n.group = {};
            n.name = name;
            d.addNode(n);
        }
        mintUniqueNames(f, d);
        QCOMPARE(f.nodes[0].name, std::string("gpu64"));
        QCOMPARE(f.nodes[1].name, std::string("leaf-1"));
        QCOMPARE(f.nodes[2].name, std::string("spare-2"));
        QCOMPARE(f.nodes[3].name, std::string("gpu65"));
    }

    void generateClusterIsOneStep()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const std::size_t before = doc.design().nodes().size();
        Design big;
        for (int i = 0; i < 4; ++i)
            fixtures::addDomain(big, "hgx-b200");
        doc.generateCluster(big);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.design().groups().size(), 4u);
        QVERIFY(!needsLayout(doc.design()));
        doc.undoStack()->undo();
        QCOMPARE(doc.design().nodes().size(), before);
        doc.undoStack()->redo();
        QCOMPARE(doc.design().groups().size(), 4u);
    }

    void find_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("groups");
        QTest::newRow("name") << "leaf" << 1 << 0;
        QTest::newRow("name case") << "GPU3" << 2 << 0;
        QTest::newRow("kind switch") << "kind:switch" << 9 << 0;
        QTest::newRow("kind accelerator") << "kind:accelerator" << 16 << 0;
        QTest::newRow("kind role") << "kind:scale-up" << 8 << 0;
        QTest::newRow("kind domain") << "kind:domain" << 0 << 2;
        QTest::newRow("id") << "#0" << 1 << 0;
        QTest::newRow("id missing") << "id:99999" << 0 << 0;
        QTest::newRow("empty") << "  " << 0 << 0;
        QTest::newRow("domain name") << "DGX H100 #0" << 0 << 1;
    }
    void find()
    {
        QFETCH(QString, query);
        QFETCH(int, nodes);
        QFETCH(int, groups);
        const IdSet found = findObjects(fixtures::smallFabric(), query);
        QCOMPARE(int(found.nodes.size()), nodes);
        QCOMPARE(int(found.groups.size()), groups);
    }

    void tieredLayoutOrdersTiers()
    {
        Design d = fixtures::largeFabric();
        double coreY = -1e9, spineY = -1e9, leafY = -1e9, accY = 1e9;
        for (const Node &n : d.nodes()) {
            if (n.isAccelerator())
                accY = std::min(accY, n.y);
            else if (n.role == SwitchRole::Core)
                coreY = std::max(coreY, n.y);
            else if (n.role == SwitchRole::Spine)
                spineY = std::max(spineY, n.y);
            else if (n.role == SwitchRole::Leaf)
                leafY = std::max(leafY, n.y);
        }
        QVERIFY(coreY < spineY && spineY < leafY && leafY < accY);
        QCOMPARE(d.acceleratorCount(), 16384u);
        QVERIFY(d.links().size() > 100000);
    }
};

QTEST_GUILESS_MAIN(TestDesignDocument)
#include "tst_designdocument.moc"
