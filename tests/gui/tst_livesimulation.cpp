// Issue 5's main job, through the real widgets of a main window on the bundled 256-GPU example
// (32 DGX H100 servers, GPT-3 175B TP 8 PP 8 DP 4): each placement edit re-simulates on the
// worker thread; TP 16 raises a finding and the step time, a stage dragged onto another domain
// and a swap of two accelerators move ranks in the result; undo restores all of it.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/linkheat.h"
#include "gui/canvas/topologyscene.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/parallelgrouptree.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/workloadform.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simstatus.h"
#include "gui/simulation/simulationrunner.h"
#include "partitionsdriver.h"
#include "windowdriver.h"

#include <QStandardPaths>
#include <QTreeWidget>

using namespace weft;
using namespace weft::test;

namespace {

bool hasCode(const std::vector<Finding> &fs, const char *code)
{
    return std::any_of(fs.begin(), fs.end(), [&](const Finding &f) { return f.code == code; });
}

bool listed(const FindingsDock &dock, const char *code)
{
    const QTreeWidget *list = dock.list();
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        if (list->topLevelItem(i)->text(1) == QLatin1String(code))
            return true;
    return false;
}

/// The accelerator the result places `rank` on.
NodeId resultNode(const SimResult &r, int rank)
{
    for (const AcceleratorResult &a : r.accelerators)
        if (a.rank == rank)
            return a.node;
    return {};
}

} // namespace

class TestLiveSimulation : public QObject
{
    Q_OBJECT

    DesignDocument *doc() const { return m_w->document(); }
    SimulationRunner *runner() const { return m_w->simulation(); }
    QSpinBox *spin(const char *key) const
    {
        return qobject_cast<QSpinBox *>(m_w->partitions()->form()->field(QString::fromLatin1(key)));
    }
    std::shared_ptr<const SimResult> settled() const { return settledResult(*runner()); }

    std::unique_ptr<RecordingPresenter> m_presenter;
    std::unique_ptr<MainWindow> m_w;
    std::shared_ptr<const SimResult> m_first;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = shownWindow({1600, 1000});
        QVERIFY(m_w);
        QVERIFY(
            openSimulated(*m_w, QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-su.weft")));
        m_first = settled();
        QVERIFY(m_first && m_first->ok);
        m_w->partitions()->raise();
    }

    void cleanup()
    {
        m_first.reset();
        m_w.reset();
        m_presenter.reset();
    }

    void tp16CrossesTheScaleOutFabricAndUndoRestores()
    {
        QVERIFY(!hasCode(runner()->findings(), "tp-spans-scale-out"));
        QVERIFY(!listed(*m_w->findings(), "tp-spans-scale-out"));
        typeInto(spin("tp"), QStringLiteral("16"));
        QCOMPARE(doc()->design().workload->config.tp, 16);
        QVERIFY(runner()->isStale()); // at once, before the worker answers
        const auto tp16 = settled();
        QVERIFY(tp16 && tp16->ok);
        QVERIFY(hasCode(runner()->findings(), "tp-spans-scale-out"));
        QVERIFY(listed(*m_w->findings(), "tp-spans-scale-out"));
        QVERIFY2(tp16->stepTime > 1.2 * m_first->stepTime,
                 qPrintable(QStringLiteral("%1 vs %2").arg(tp16->stepTime).arg(m_first->stepTime)));
        QVERIFY(tp16->breakdown.tpExposed > 2 * m_first->breakdown.tpExposed);
        // The TP all-reduces now cross the NICs: the busiest NIC link is far busier.
        const auto busiestNic = [](const SimResult &r) {
            double u = 0;
            for (const LinkResult &l : r.links)
                if (l.tier == "nic")
                    u = std::max({u, l.dir[0].avgUtilization, l.dir[1].avgUtilization});
            return u;
        };
        QVERIFY(busiestNic(*tp16) > 2 * busiestNic(*m_first));
        QVERIFY(m_w->simStatus()->text().startsWith(QStringLiteral("Step ")));

        doc()->undoStack()->undo();
        QCOMPARE(spin("tp")->value(), 8);
        const auto back = settled();
        QVERIFY(back && back->ok);
        QCOMPARE(back->stepTime, m_first->stepTime);
        QVERIFY(!hasCode(runner()->findings(), "tp-spans-scale-out"));
        QVERIFY(!listed(*m_w->findings(), "tp-spans-scale-out"));
    }

    // A workload over HBM is simulated anyway, as the CLI does: the result says the memory does
    // not fit and the Memory chart has a stage over the line (the charts said "Not simulated
    // yet" and F5 did nothing; fresh-user report, session 32). The finding stays listed.
    void overHbmIsStillSimulated()
    {
        typeInto(spin("microBatch"), QStringLiteral("64"));
        QCOMPARE(doc()->design().workload->config.microBatch, 64);
        const auto big = settled();
        QVERIFY(big && big->ok);
        QVERIFY(!big->memoryFits);
        QVERIFY(big->peakMemoryPerGpu > big->memoryCapacityPerGpu);
        QVERIFY(hasCode(runner()->findings(), "memory-over-capacity"));
        QVERIFY(listed(*m_w->findings(), "memory-over-capacity"));
        QVERIFY2(m_w->simStatus()->text().contains(QStringLiteral("memory over HBM")),
                 qPrintable(m_w->simStatus()->text()));
    }

    void stageDraggedOntoAnotherDomainMovesItsRanks()
    {
        const Design &d = doc()->design();
        const GroupId target = domains(d)[0]; // holds stage 0 (ranks 0-7)
        const std::vector<NodeId> targetAcc = acceleratorsOf(d, target);
        ParallelGroupTree *tree = m_w->partitions()->groupTree();
        QTreeWidgetItem *stage1 = tree->entry({RankGroupKind::Stage, 1});
        QVERIFY(stage1);
        const QModelIndex index = tree->model()->index(
            stage1->parent()->indexOfChild(stage1), 0,
            tree->model()->index(tree->indexOfTopLevelItem(stage1->parent()), 0));
        std::unique_ptr<QMimeData> mime(tree->model()->mimeData({index}));
        QVERIFY(mime);
        const int stage1First = 32; // TP 8 x DP 4 ranks per stage in Megatron order
        QVERIFY(resultNode(*m_first, stage1First) != targetAcc[0]);
        const QPointF at
            = m_w->view()->topologyScene()->groupItem(target)->sceneBoundingRect().center();
        QVERIFY(drop(*m_w->view(), mime.get(), at));
        QVERIFY(m_presenter->errors.isEmpty());
        const auto moved = settled();
        QVERIFY(moved && moved->ok);
        QCOMPARE(resultNode(*moved, stage1First), targetAcc[0]); // the result follows
        for (const AcceleratorResult &a : moved->accelerators)
            if (a.node == targetAcc[3])
                QCOMPARE(a.stage, 1);

        doc()->undoStack()->undo();
        const auto back = settled();
        QVERIFY(back && back->ok);
        QCOMPARE(resultNode(*back, stage1First), resultNode(*m_first, stage1First));
        QCOMPARE(back->stepTime, m_first->stepTime);
    }

    void swappedAcceleratorsSwapInTheResult()
    {
        const Design &d = doc()->design();
        const GroupId dom = domains(d)[0];
        doc()->setCollapsed(dom, false);
        const std::vector<NodeId> acc = acceleratorsOf(d, dom);
        const QPointF a(d.node(acc[1])->x, d.node(acc[1])->y);
        const QPointF b(d.node(acc[4])->x, d.node(acc[4])->y);
        m_w->view()->setZoom(1.0); // accelerators big enough to grab
        m_w->view()->centerOn(a);
        const int steps = doc()->undoStack()->count();
        drag(*m_w->view(), a, b);
        QCOMPARE(doc()->undoStack()->count(), steps + 1); // the swap, and no move
        QCOMPARE(mapOf(d)[1], acc[4]);
        const auto swapped = settled();
        QVERIFY(swapped && swapped->ok);
        QCOMPARE(resultNode(*swapped, 1), acc[4]);
        QCOMPARE(resultNode(*swapped, 4), acc[1]);
        doc()->undoStack()->undo();
        const auto back = settled();
        QVERIFY(back);
        QCOMPARE(resultNode(*back, 1), acc[1]);
    }

    void screenshotOfTheColouredFabric()
    {
        const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set WEFT_SCREENSHOT_DIR to write the screenshots");
        typeInto(spin("tp"), QStringLiteral("16"));
        QVERIFY(settled());
        m_w->view()->fitAll();
        QTest::qWait(400);
        m_w->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/example-tp16.png"));
        doc()->undoStack()->undo();
        QVERIFY(settled());
        QTest::qWait(400);
        m_w->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/example-tp8.png"));
    }
};

QTEST_MAIN(TestLiveSimulation)
#include "tst_livesimulation.moc"
