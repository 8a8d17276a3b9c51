// What-if faults in the document: mark down, degrade and restore are undo steps; deleting a
// faulted link or switch removes its faults in the same step (no fault ever names a missing
// object) and undo brings both back; bad faults are refused with a reason and change nothing.
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "document/faultedit.h"

#include <QSignalSpy>
#include <QTest>

using namespace weft;

namespace {

NodeId leafOf(const Design &d)
{
    for (const Node &n : d.nodes())
        if (n.isSwitch() && n.role == SwitchRole::Leaf)
            return n.id;
    return {};
}

// A link from the leaf to an accelerator.
LinkId uplink(const Design &d)
{
    const NodeId leaf = leafOf(d);
    for (const Link &l : d.links())
        if (l.a == leaf || l.b == leaf)
            return l.id;
    return {};
}

NodeId anAccelerator(const Design &d)
{
    for (const Node &n : d.nodes())
        if (n.isAccelerator())
            return n.id;
    return {};
}

} // namespace

class TestFaultDocument : public QObject
{
    Q_OBJECT
private slots:
    void markDownUndoRedo()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const LinkId link = uplink(doc.design());
        QSignalSpy changed(&doc, &DesignDocument::scenarioChanged);
        QString error;
        QVERIFY(doc.setFault({Fault::Kind::LinkDown, faultTarget(link), 1}, &error));
        QCOMPARE(doc.design().scenario.faults.size(), 1u);
        QVERIFY(faultOn(doc.design(), link));
        QCOMPARE(faultOn(doc.design(), link)->kind, Fault::Kind::LinkDown);
        QCOMPARE(changed.count(), 1);
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        QVERIFY(doc.design().scenario.empty());
        QVERIFY(!faultOn(doc.design(), link));
        doc.undoStack()->redo();
        QCOMPARE(faultOn(doc.design(), link)->kind, Fault::Kind::LinkDown);
        QCOMPARE(changed.count(), 3);
    }

    // A link keeps one fault: degrading a link that is down replaces the fault (one step).
    void degradeReplacesAndRestore()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const LinkId link = uplink(doc.design());
        const NodeId leaf = leafOf(doc.design());
        const NodeId acc = anAccelerator(doc.design());
        QVERIFY(doc.setFault({Fault::Kind::LinkDown, faultTarget(link), 1}, nullptr));
        QVERIFY(doc.setFault({Fault::Kind::LinkRate, faultTarget(link), 0.5}, nullptr));
        QVERIFY(doc.setFault({Fault::Kind::SwitchDown, faultTarget(leaf), 1}, nullptr));
        QVERIFY(doc.setFault({Fault::Kind::AcceleratorClock, faultTarget(acc), 0.8}, nullptr));
        QCOMPARE(doc.design().scenario.faults.size(), 3u);
        QCOMPARE(faultOn(doc.design(), link)->factor, 0.5);
        QCOMPARE(faultOn(doc.design(), acc)->kind, Fault::Kind::AcceleratorClock);
        IdSet ids;
        ids.links.insert(link);
        QVERIFY(doc.restoreFaults(ids));
        QVERIFY(!faultOn(doc.design(), link));
        QVERIFY(!doc.restoreFaults(ids)); // nothing left to restore: no undo step
        QVERIFY(doc.restoreAllFaults());
        QVERIFY(doc.design().scenario.empty());
        QVERIFY(!doc.restoreAllFaults());
        doc.undoStack()->undo(); // restore all
        QCOMPARE(doc.design().scenario.faults.size(), 2u);
        doc.undoStack()->undo(); // restore the link
        QCOMPARE(faultOn(doc.design(), link)->kind, Fault::Kind::LinkRate);
    }

    void refusesBadFaults()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const int steps = doc.undoStack()->count();
        QString error;
        QVERIFY(!doc.setFault({Fault::Kind::LinkDown, "99999", 1}, &error));
        QVERIFY2(error.contains(QStringLiteral("99999")), qPrintable(error));
        QVERIFY(
            !doc.setFault({Fault::Kind::LinkRate, faultTarget(uplink(doc.design())), 1.5}, &error));
        QVERIFY(error.contains(QStringLiteral("at most 1")));
        QVERIFY(!doc.setFault(
            {Fault::Kind::SwitchDown, faultTarget(anAccelerator(doc.design())), 1}, &error));
        QVERIFY(error.contains(QStringLiteral("not a switch")));
        QVERIFY(doc.design().scenario.empty());
        QCOMPARE(doc.undoStack()->count(), steps);
    }

    // Delete a faulted link: the link and its fault go in one step; undo brings both back.
    void deleteFaultedLink()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const LinkId link = uplink(doc.design());
        QVERIFY(doc.setFault({Fault::Kind::LinkDown, faultTarget(link), 1}, nullptr));
        const int steps = doc.undoStack()->count();
        IdSet sel;
        sel.links.insert(link);
        doc.setSelection(sel);
        doc.deleteSelection();
        QCOMPARE(doc.undoStack()->count(), steps + 1); // one step
        QVERIFY(!doc.design().link(link));
        QVERIFY(doc.design().scenario.empty());
        doc.undoStack()->undo();
        QVERIFY(doc.design().link(link));
        QCOMPARE(faultOn(doc.design(), link)->kind, Fault::Kind::LinkDown);
        doc.undoStack()->redo();
        QVERIFY(!doc.design().link(link));
        QVERIFY(doc.design().scenario.empty());
    }

    // Delete a switch that is down and whose link is degraded: both faults go with it.
    void deleteFaultedSwitch()
    {
        DesignDocument doc(builtinCatalog());
        doc.resetDesign(fixtures::smallFabric());
        const NodeId leaf = leafOf(doc.design());
        const LinkId link = uplink(doc.design());
        const NodeId acc = anAccelerator(doc.design());
        QVERIFY(doc.setFaults({{Fault::Kind::SwitchDown, faultTarget(leaf), 1},
                               {Fault::Kind::LinkRate, faultTarget(link), 0.25},
                               {Fault::Kind::AcceleratorClock, faultTarget(acc), 0.9}},
                              nullptr));
        IdSet sel;
        sel.nodes.insert(leaf);
        doc.setSelection(sel);
        doc.deleteSelection();
        QVERIFY(!doc.design().node(leaf));
        QCOMPARE(doc.design().scenario.faults.size(), 1u); // the accelerator's stays
        QVERIFY(faultOn(doc.design(), acc));
        doc.undoStack()->undo();
        QCOMPARE(doc.design().scenario.faults.size(), 3u);
        QCOMPARE(faultOn(doc.design(), link)->factor, 0.25);
        QCOMPARE(faultOn(doc.design(), leaf)->kind, Fault::Kind::SwitchDown);
    }
};

QTEST_GUILESS_MAIN(TestFaultDocument)
#include "tst_faultdocument.moc"
