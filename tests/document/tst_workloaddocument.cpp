// DesignDocument's workload operations (Partitions dock): set or remove the workload, auto-map,
// place a group, swap two accelerators; each one undo step with workloadChanged() every way.
#include "document/designdocument.h"
#include "io/catalogfile.h"
#include "testcluster.h"

#include <QSignalSpy>
#include <QTest>

using namespace weft;

namespace {

Workload smallWorkload()
{
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.config.tp = 8;
    w.config.pp = 2;
    w.config.dp = 2;
    w.config.globalBatch = 16;
    return w;
}

// A document holding 4 DGX A100 domains and the small workload (history cleared).
void load(DesignDocument &doc, bool withWorkload = true)
{
    Design d = test::makeCluster("dgx-a100", 4).design;
    if (withWorkload)
        d.workload = smallWorkload();
    doc.resetDesign(std::move(d));
}

std::vector<NodeId> currentMap(const DesignDocument &doc)
{
    return *resolvedMap(doc.design(), *doc.design().workload);
}

} // namespace

class TestWorkloadDocument : public QObject
{
    Q_OBJECT
private slots:
    void setAndRemoveWorkload()
    {
        DesignDocument doc(builtinCatalog());
        load(doc, false);
        QSignalSpy spy(&doc, &DesignDocument::workloadChanged);
        doc.setWorkload(smallWorkload(), QStringLiteral("Add workload"));
        QVERIFY(doc.design().workload);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(spy.count(), 1);
        doc.setWorkload(std::nullopt, QStringLiteral("Remove workload"));
        QVERIFY(!doc.design().workload);
        doc.undoStack()->undo();
        QVERIFY(doc.design().workload);
        QCOMPARE(doc.design().workload->config.tp, 8);
        doc.undoStack()->undo();
        QVERIFY(!doc.design().workload);
        doc.undoStack()->redo();
        QVERIFY(doc.design().workload);
        QCOMPARE(spy.count(), 5);
    }

    void resetEmitsWorkloadChanged()
    {
        DesignDocument doc(builtinCatalog());
        QSignalSpy spy(&doc, &DesignDocument::workloadChanged);
        load(doc);
        QCOMPARE(spy.count(), 1);
        doc.generateCluster(test::makeCluster("dgx-a100", 2).design); // no workload: it changed
        QCOMPARE(spy.count(), 2);
        QVERIFY(!doc.design().workload);
        doc.undoStack()->undo();
        QCOMPARE(spy.count(), 3);
        QVERIFY(doc.design().workload);
    }

    void changedWorldSizeDropsExplicitMap()
    {
        DesignDocument doc(builtinCatalog());
        load(doc);
        const auto map = currentMap(doc);
        QVERIFY(doc.swapRanks(map[0], map[31], nullptr));
        QCOMPARE(doc.design().workload->placement.explicitMap.size(), 32u);
        Workload w = *doc.design().workload;
        w.config.tp = 4; // same map size no more: 16 ranks
        doc.setWorkload(w, QStringLiteral("Change TP"));
        QVERIFY(doc.design().workload->placement.explicitMap.empty());
        w = *doc.design().workload;
        w.config.dp = 4; // 32 ranks again: a map of 32 would be kept
        w.placement.explicitMap = map;
        doc.setWorkload(w, QStringLiteral("Change DP"));
        QCOMPARE(doc.design().workload->placement.explicitMap, map);
    }

    void autoMapSetsOrderAndClearsMap()
    {
        DesignDocument doc(builtinCatalog());
        load(doc);
        const auto before = currentMap(doc);
        QVERIFY(doc.swapRanks(before[0], before[9], nullptr));
        QSignalSpy spy(&doc, &DesignDocument::workloadChanged);
        QVERIFY(doc.autoMap("pp-tp-cp-ep-dp"));
        QCOMPARE(spy.count(), 1);
        const Workload &w = *doc.design().workload;
        QCOMPARE(w.placement.order, std::string("pp-tp-cp-ep-dp"));
        QVERIFY(w.placement.explicitMap.empty());
        std::vector<Finding> f;
        const RankMap rm(doc.design(), w.config, w.placement, f);
        QCOMPARE(rm.node(1), acceleratorsInOrder(doc.design())[1]); // rank 1 is now stage 1
        QCOMPARE(rm.coord(1).pp, 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.design().workload->placement.order, std::string("tp-cp-ep-dp-pp"));
        QCOMPARE(doc.design().workload->placement.explicitMap.size(), 32u);
        QCOMPARE(spy.count(), 2);
        DesignDocument empty(builtinCatalog());
        QVERIFY(!empty.autoMap("tp-cp-ep-dp-pp"));
    }

    void placeStageOntoDomainUndoRedo()
    {
        DesignDocument doc(builtinCatalog());
        load(doc);
        const auto before = currentMap(doc);
        const auto all = acceleratorsInOrder(doc.design());
        const std::vector<NodeId> domain0(all.begin(), all.begin() + 8);
        QString error;
        QVERIFY(doc.placeGroup({RankGroupKind::Stage, 1}, domain0, &error));
        QCOMPARE(doc.undoStack()->count(), 1);
        auto after = currentMap(doc);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(after[std::size_t(16 + i)], domain0[std::size_t(i)]);
        doc.undoStack()->undo();
        QCOMPARE(currentMap(doc), before);
        QVERIFY(doc.design().workload->placement.explicitMap.empty());
        doc.undoStack()->redo();
        QCOMPARE(currentMap(doc), after);
        // Placing it again where it is: refused, no step.
        QVERIFY(!doc.placeGroup({RankGroupKind::Stage, 1}, domain0, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!doc.placeGroup({RankGroupKind::Tp, 99}, domain0, &error));
        QVERIFY(error.contains(QStringLiteral("99")));
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    void swapRanksUndoRedo()
    {
        DesignDocument doc(builtinCatalog());
        load(doc);
        const auto before = currentMap(doc);
        QSignalSpy spy(&doc, &DesignDocument::workloadChanged);
        QVERIFY(doc.swapRanks(before[2], before[27], nullptr));
        auto after = currentMap(doc);
        QCOMPARE(after[2], before[27]);
        QCOMPARE(after[27], before[2]);
        doc.undoStack()->undo();
        QCOMPARE(currentMap(doc), before);
        doc.undoStack()->redo();
        QCOMPARE(currentMap(doc), after);
        QCOMPARE(spy.count(), 3);
        // A switch is no accelerator.
        NodeId sw;
        for (const Node &n : doc.design().nodes())
            if (n.isSwitch())
                sw = n.id;
        QString error;
        QVERIFY(!doc.swapRanks(before[0], sw, &error));
        QVERIFY(!error.isEmpty());
    }

    void moveBackInOneGestureLeavesNoStep()
    {
        // A drag that turns into a rank swap takes its move back in the same gesture.
        DesignDocument doc(builtinCatalog());
        load(doc);
        const NodeId a = acceleratorsInOrder(doc.design())[0];
        const double x = doc.design().node(a)->x;
        const int gesture = doc.nextGesture();
        doc.moveNodes({a}, {16, 0}, gesture);
        doc.moveNodes({a}, {8, 0}, gesture);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.moveNodes({a}, {-24, 0}, gesture);
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(doc.design().node(a)->x, x);
    }

    void invalidPlacementRefusesEdits()
    {
        DesignDocument doc(builtinCatalog());
        Design d = test::makeCluster("dgx-a100", 4).design;
        Workload w = smallWorkload();
        w.config.tp = 64;
        d.workload = w;
        doc.resetDesign(std::move(d));
        QString error;
        const auto all = acceleratorsInOrder(doc.design());
        QVERIFY(!doc.swapRanks(all[0], all[1], &error));
        QVERIFY(error.contains(QStringLiteral("placement")));
        QCOMPARE(doc.undoStack()->count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestWorkloadDocument)
#include "tst_workloaddocument.moc"
