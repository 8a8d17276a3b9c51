// Tests of the Design container: ids, lookups, removal cascades.
#include "model/design.h"

#include <QtTest>

using namespace weft;

class TestDesign : public QObject
{
    Q_OBJECT
private slots:
    void addAssignsFreshIds()
    {
        Design d;
        const NodeId a = d.addNode(Node {});
        const NodeId b = d.addNode(Node {});
        QVERIFY(a.valid() && b.valid());
        QVERIFY(a != b);
        QCOMPARE(d.nodes().size(), std::size_t(2));
    }
    void duplicateIdRefused()
    {
        Design d;
        Node n;
        n.id = NodeId(7);
        QCOMPARE(d.addNode(n), NodeId(7));
        QVERIFY(!d.addNode(n).valid());
        QCOMPARE(d.addNode(Node {}), NodeId(8)); // counter stays above explicit ids
    }
    void removeNodeRemovesItsLinksAndMembership()
    {
        Design d;
        Group g;
        const GroupId gid = d.addGroup(g);
        Node n;
        n.group = gid;
        const NodeId a = d.addNode(n);
        const NodeId b = d.addNode(Node {});
        const NodeId c = d.addNode(Node {});
        Link l1;
        l1.a = a;
        l1.b = b;
        Link l2;
        l2.a = b;
        l2.b = c;
        d.addLink(l1);
        const LinkId keep = d.addLink(l2);
        QCOMPARE(d.group(gid)->members.size(), std::size_t(1));
        QVERIFY(d.removeNode(a));
        QCOMPARE(d.links().size(), std::size_t(1));
        QVERIFY(d.link(keep));
        QVERIFY(d.group(gid)->members.empty());
        QVERIFY(d.node(c));
        QVERIFY(!d.node(a));
        QVERIFY(!d.removeNode(a));
    }
    void removeGroupReparents()
    {
        Design d;
        const GroupId outer = d.addGroup(Group {});
        Group innerG;
        innerG.parent = outer;
        const GroupId inner = d.addGroup(innerG);
        Group leaf;
        leaf.parent = inner;
        const GroupId leafId = d.addGroup(leaf);
        QVERIFY(d.removeGroup(inner));
        QCOMPARE(d.group(leafId)->parent, outer);
    }
};

QTEST_GUILESS_MAIN(TestDesign)
#include "tst_design.moc"
