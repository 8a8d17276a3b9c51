// The simulation in the GUI: the runner re-simulates after edits on a worker thread (small
// designs) or on request (large ones) and can be cancelled; the canvas colours links by
// utilization with a legend and highlights a parallel group's links; the findings dock selects
// a finding's subjects; the status bar and the Results dock summarise the step.
#include "document/designdocument.h"
#include "generate/fabricgenerator.h"
#include "gui/canvas/heatlegend.h"
#include "gui/canvas/linkheat.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/docks/findingsdock.h"
#include "gui/docks/parallelgrouptree.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/propertiesdock.h"
#include "gui/docks/resultsdock.h"
#include "gui/mainwindow.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simstatus.h"
#include "gui/simulation/simulationrunner.h"
#include "io/catalogfile.h"
#include "workload/model.h"
#include "workloadfixtures.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace weft;

namespace {

/// `domains` DGX H100 servers on a rail-optimized 2-tier InfiniBand fabric.
Design cluster(int domains)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.tiers = 2;
    p.switchModel = "qm9700";
    p.suSize = std::min(domains, 32);
    GenerateResult r = generateFabric(p, builtinCatalog());
    Q_ASSERT(r.ok());
    return std::move(*r.design);
}

using fixtures::llama8b;

bool hasCode(const std::vector<Finding> &fs, const char *code)
{
    return std::any_of(fs.begin(), fs.end(), [&](const Finding &f) { return f.code == code; });
}

} // namespace

class TestSimulationView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void utilizationScaleAndWidths()
    {
        QCOMPARE(LinkHeat::colour(0).rgb(), QColor(0x440154).rgb());
        QCOMPARE(LinkHeat::colour(0.25).rgb(), QColor(0x21918c).rgb()); // sqrt scale: mid-way
        QCOMPARE(LinkHeat::scaleColour(0.5).rgb(), QColor(0x21918c).rgb());
        // 5% and 20% (a DP-only NIC and the same NIC under cross-server TP) differ visibly.
        QVERIFY(LinkHeat::scalePosition(0.20) - LinkHeat::scalePosition(0.05) > 0.2);
        QCOMPARE(LinkHeat::colour(1).rgb(), QColor(0xfde725).rgb());
        QCOMPARE(LinkHeat::colour(7).rgb(), LinkHeat::colour(1).rgb()); // clamped
        // Viridis gets brighter all the way (luma, ITU-R BT.709): the order reads in grey too.
        const auto luma = [](const QColor &c) {
            return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF();
        };
        for (int i = 0; i < 20; ++i)
            QVERIFY(luma(LinkHeat::colour((i + 1) / 20.0)) > luma(LinkHeat::colour(i / 20.0)));
        QCOMPARE(LinkHeat::width(25e9), 1.0);
        QCOMPARE(LinkHeat::width(50e9), 1.0);
        QCOMPARE(LinkHeat::width(100e9), 2.0);
        QCOMPARE(LinkHeat::width(900e9), 4.0);
    }

    void summaryNamesTheLargestOverhead()
    {
        Breakdown b;
        b.compute = 1.0;
        b.tpExposed = 0.02;
        b.dpExposed = 0.12;
        b.bubble = 0.05;
        QCOMPARE(largestExposed(b).first, QStringLiteral("exposed DP"));
        QCOMPARE(largestExposed(b).second, 0.12);
        QVERIFY(largestExposed(Breakdown {}).first.isEmpty());
        SimResult r;
        r.ok = true;
        r.stepTime = 1.19;
        r.tokensPerSecond = 45'100;
        r.mfu = 0.412;
        r.breakdown = b;
        QCOMPARE(summaryText(r),
                 QStringLiteral("Step 1.190 s · 45.1k tokens/s · MFU 41.2% · "
                                "largest overhead: exposed DP 120 ms"));
        // The GPU waiting for the host's kernel launches is said, as a part of compute.
        SimResult hostBound = r;
        hostBound.breakdown.hostBound = 0.3;
        QVERIFY(summaryText(hostBound).endsWith(QStringLiteral(" · host-bound 300 ms of compute")));
        QVERIFY(statusSummary(true, false, nullptr, false, {})
                    .startsWith(QStringLiteral("No workload")));
        // An empty design says so, as its empty charts do, not "add a workload".
        QVERIFY(statusSummary(false, false, nullptr, false, {})
                    .startsWith(QStringLiteral("The design is empty")));
        const std::vector<Finding> bad {{Severity::Error, "x", "heads do not divide", {}}};
        QCOMPARE(statusSummary(true, true, &r, true, bad),
                 QStringLiteral("Cannot simulate: heads do not divide"));
        QVERIFY(statusSummary(true, true, &r, false, bad).startsWith(QStringLiteral("Step ")));
        QVERIFY(statusSummary(true, true, &r, true, {}).contains(QStringLiteral("out of date")));
        QVERIFY(statusSummary(true, true, nullptr, false, {}).contains(QStringLiteral("F5")));
        SimResult failed;
        failed.warnings.push_back({Severity::Error, "x", "no route from a to b", {}});
        QVERIFY(summaryText(failed).contains(QStringLiteral("no route from a to b")));
    }

    void runnerResimulatesAfterEachEdit()
    {
        DesignDocument doc(builtinCatalog());
        Design d = cluster(4);
        d.workload = llama8b(8, 1, 4, 4);
        doc.resetDesign(std::move(d));
        SimulationRunner runner(&doc);
        runner.setDebounce(0);
        QSignalSpy results(&runner, &SimulationRunner::resultChanged);
        QTRY_VERIFY_WITH_TIMEOUT(runner.result() != nullptr, 60000);
        QVERIFY(runner.result()->ok);
        QVERIFY(!runner.isStale());
        const auto first = runner.result();
        QVERIFY(first->stepTime > 0);

        // Any undoable edit makes the result stale at once and brings a new one.
        const NodeId n = doc.design().nodes().front().id;
        doc.moveNodes({n}, QPointF(10, 0), doc.nextGesture());
        QVERIFY(runner.isStale());
        QTRY_VERIFY_WITH_TIMEOUT(runner.result() != first, 60000);
        QVERIFY(!runner.isStale());
        QCOMPARE(runner.result()->stepTime, first->stepTime); // moving changes no physics
        doc.undoStack()->undo();
        QVERIFY(runner.isStale());
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isStale(), 60000);
    }

    void largeDesignsSimulateOnRequest()
    {
        DesignDocument doc(builtinCatalog());
        Design d = cluster(130); // 1,040 accelerators: above the automatic limit
        QVERIFY(int(d.acceleratorCount()) > SimulationRunner::autoLimit());
        d.workload = llama8b(8, 1, 130, 1);
        doc.resetDesign(std::move(d));
        SimulationRunner runner(&doc);
        runner.setDebounce(0);
        QSignalSpy checked(&runner, &SimulationRunner::findingsChanged);
        QVERIFY(checked.wait(60000)); // the design was checked ...
        QTRY_VERIFY_WITH_TIMEOUT(!runner.isRunning(), 60000);
        QVERIFY(runner.result() == nullptr); // ... but not simulated
        runner.simulate();
        QVERIFY(runner.isSimulating());
        QTRY_VERIFY_WITH_TIMEOUT(runner.result() != nullptr, 120000);
        QVERIFY(runner.result()->ok);
    }

    void cancelStopsALongSimulation()
    {
        DesignDocument doc(builtinCatalog());
        Design d = cluster(128);
        d.workload = llama8b(8, 8, 16, 512); // 512 micro-batches on 8 stages: a long step
        doc.resetDesign(std::move(d));
        SimulationRunner runner(&doc);
        runner.setAutoSimulate(false);
        QSignalSpy progress(&runner, &SimulationRunner::progress);
        QSignalSpy finished(&runner, &SimulationRunner::finished);
        runner.simulate();
        QVERIFY(progress.wait(60000));
        runner.cancel();
        QVERIFY(finished.count() > 0 || finished.wait(60000));
        QVERIFY(!runner.isRunning());
        QVERIFY(runner.result() == nullptr); // a cancelled run shows nothing new
    }

    void findingsDockSelectsSubjects()
    {
        DesignDocument doc(builtinCatalog());
        Design d = cluster(8);
        Workload w = llama8b(8, 1, 8, 2);
        w.placement.order = "dp-tp-pp"; // each TP group takes one GPU of each server
        d.workload = w;
        doc.resetDesign(std::move(d));
        SimulationRunner runner(&doc);
        runner.setDebounce(0);
        FindingsDock dock(&doc, &runner);
        QTRY_VERIFY_WITH_TIMEOUT(hasCode(runner.findings(), "tp-spans-scale-out"), 60000);
        QTreeWidget *list = dock.list();
        int row = -1;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            if (list->topLevelItem(i)->text(1) == QStringLiteral("tp-spans-scale-out"))
                row = i;
        QVERIFY(row >= 0);
        QSignalSpy selected(&dock, &FindingsDock::subjectsSelected);
        dock.resize(600, 300);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        const QRect r = list->visualItemRect(list->topLevelItem(row));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(selected.count(), 1);
        QCOMPARE(doc.selection().nodes.size(), std::size_t(8)); // the TP group's 8 GPUs
        std::set<GroupId> domains;
        for (NodeId n : doc.selection().nodes)
            domains.insert(doc.design().node(n)->group);
        QCOMPARE(domains.size(), std::size_t(8));
    }

    void subjectsOfParsesIdsAndIgnoresTheRest()
    {
        const Design d = cluster(1);
        const NodeId n = d.nodes().front().id;
        Finding f {Severity::Warning,
                   "c",
                   "m",
                   {"node:" + std::to_string(n.value), "stage:3", "node:x", "node:999999"}};
        const IdSet ids = FindingsDock::subjectsOf(f, d);
        QCOMPARE(ids.nodes, std::set<NodeId> {n});
        QVERIFY(ids.links.empty());
    }

    void bundledExampleOpensSimulated()
    {
        // What `scripts/dev.sh run` opens: the scalable unit with GPT-3 175B placed on it.
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(w.openFile(QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-su.weft")) == &w);
        QVERIFY(w.document()->design().workload.has_value());
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 120000);
        const SimResult &r = *w.simulation()->result();
        QVERIFY(r.ok);
        QCOMPARE(int(r.accelerators.size()), 256);
        QVERIFY(r.mfu > 0.2 && r.mfu < 0.7);
        QVERIFY(!hasError(w.simulation()->findings()));
        QVERIFY(w.view()->topologyScene()->linkHeat().active());
        QVERIFY(w.simStatus()->text().startsWith(QStringLiteral("Step ")));
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(500);
            w.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/example-su.png"));
        }
    }

    void propertiesOfALinkShowItsEndsCapacityAndTraffic()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        w.document()->resetDesign(cluster(4)); // no workload yet: no traffic
        const Design &d = w.document()->design();
        const auto nicLink = std::find_if(d.links().begin(), d.links().end(), [&](const Link &l) {
            return d.node(l.a)->isAccelerator() != d.node(l.b)->isAccelerator()
                && l.capacity() == 50e9; // a 400 Gb/s NIC
        });
        QVERIFY(nicLink != d.links().end());
        const LinkId id = nicLink->id;
        const NodeId end = nicLink->a; // resetDesign below frees the links nicLink points into
        const QString a = QString::fromStdString(d.node(nicLink->a)->name);
        const QString b = QString::fromStdString(d.node(nicLink->b)->name);
        IdSet sel;
        sel.links.insert(id);
        w.document()->setSelection(sel);
        PropertiesDock *props = w.properties();
        QCOMPARE(props->summary(), QStringLiteral("<b>Link %1 ↔ %2</b>").arg(a, b));
        auto *capacity = qobject_cast<QLabel *>(props->field(QStringLiteral("Capacity")));
        QVERIFY(capacity);
        QCOMPARE(capacity->text(), QStringLiteral("50.0 GB/s (400 Gb/s) per direction"));
        QVERIFY(props->field(QStringLiteral("Technology")));
        QVERIFY(props->field(QStringLiteral("Lanes")));
        QVERIFY(props->field(QStringLiteral("Latency")));
        auto *traffic = qobject_cast<QLabel *>(props->field(QStringLiteral("Traffic")));
        QVERIFY(traffic);
        QVERIFY(traffic->isHidden());

        Design withWork = d;
        withWork.workload = llama8b(8, 1, 4, 4);
        w.document()->resetDesign(std::move(withWork));
        w.simulation()->setDebounce(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 60000);
        w.document()->setSelection(sel);
        traffic = qobject_cast<QLabel *>(props->field(QStringLiteral("Traffic")));
        QVERIFY(traffic);
        QVERIFY(!traffic->isHidden());
        QVERIFY(traffic->text().contains(QStringLiteral("%1 → %2").arg(a, b)));
        QVERIFY(traffic->text().contains(QStringLiteral("%1 → %2").arg(b, a)));
        QVERIFY(traffic->text().contains(QStringLiteral("utilization average")));
        QVERIFY(traffic->text().contains(QStringLiteral("peak")));
        QVERIFY(!traffic->text().contains(QStringLiteral("changed after")));
        // The DP all-reduce of Llama 3 8B over 4 servers moves bytes on every NIC.
        const LinkResult *lr = w.view()->topologyScene()->linkHeat().link(id);
        QVERIFY(lr && lr->dir[0].bytes > 0);
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(200);
            w.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/link-properties.png"));
        }

        // An edit marks the figures out of date.
        w.document()->moveNodes({end}, QPointF(5, 5), w.document()->nextGesture());
        QVERIFY(traffic->text().contains(QStringLiteral("changed after")));
    }

    void expertDpGroupIsListedAndHighlightsItsLinks()
    {
        // Mixtral 8x7B, TP 2, EP 4, DP 16 on 4 servers: an expert-DP group holds the same
        // experts on 4 servers and reduces their gradients over the NICs.
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        Design d = cluster(4);
        d.workload = fixtures::mixtralTp2Ep4Dp16();
        w.document()->resetDesign(std::move(d));
        w.simulation()->setDebounce(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 120000);
        QVERIFY(w.simulation()->result()->ok);

        ParallelGroupTree *tree = w.partitions()->groupTree();
        QTreeWidgetItem *entry = tree->entry({RankGroupKind::ExpertDp, 0});
        QVERIFY(entry);
        QCOMPARE(entry->parent()->text(0), QStringLiteral("Expert-DP groups (MoE layers)"));
        QCOMPARE(entry->parent()->childCount(), 8); // TP 2 x EP 4
        QCOMPARE(entry->text(1), QStringLiteral("0, 8, 16, 24"));
        tree->setCurrentItem(entry);
        QCOMPARE(w.document()->selection().nodes.size(), 4u);

        const LinkHeat &heat = w.view()->topologyScene()->linkHeat();
        QVERIFY(heat.hasHighlight());
        QCOMPARE(heat.highlightedGroup()->kind, std::string("expert-dp"));
        QVERIFY(!heat.highlightedGroup()->links.empty());
        const SimResult &r = *heat.result();
        QVERIFY(std::any_of(r.links.begin(), r.links.end(), [&](const LinkResult &l) {
            return l.tier == "nic" && heat.highlighted(l.id);
        }));
        QVERIFY(w.view()
                    ->heatLegend()
                    ->notes()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("expert-DP group")));
    }

    void canvasShowsUtilizationAndHighlightsAGroup()
    {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        Design d = cluster(4);
        d.workload = llama8b(8, 1, 4, 4);
        w.document()->resetDesign(std::move(d));
        w.simulation()->setDebounce(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.simulation()->result() != nullptr, 60000);
        TopologyScene *scene = w.view()->topologyScene();
        const LinkHeat &heat = scene->linkHeat();
        QVERIFY(heat.active());
        QVERIFY(w.view()->heatLegend()->isVisible());
        QVERIFY(w.simStatus()->text().startsWith(QStringLiteral("Step ")));
        QVERIFY(w.simStatus()->text().contains(QStringLiteral("MFU")));
        QVERIFY(w.results()->summary().startsWith(QStringLiteral("Step ")));

        // The DP all-reduce crosses the NICs: some NIC link is busy, and its tooltip says so.
        const SimResult &r = *heat.result();
        const auto nic = std::find_if(r.links.begin(), r.links.end(), [](const LinkResult &l) {
            return l.tier == "nic" && l.dir[0].bytes > 0;
        });
        QVERIFY(nic != r.links.end());
        QVERIFY(heat.utilization(nic->id) > 0);
        const QString tip = heat.toolTip(w.document()->design(), {nic->id});
        QVERIFY(tip.contains(QStringLiteral("GB/s")));
        QVERIFY(tip.contains(QStringLiteral("utilization average")));

        // Selecting a TP group's accelerators highlights the links its traffic crossed.
        const auto tp = std::find_if(r.groups.begin(), r.groups.end(),
                                     [](const GroupTraffic &g) { return g.kind == "tp"; });
        QVERIFY(tp != r.groups.end());
        QVERIFY(!tp->links.empty());
        IdSet sel;
        sel.nodes.insert(tp->members.begin(), tp->members.end());
        w.document()->setSelection(sel);
        QVERIFY(heat.hasHighlight());
        QVERIFY(heat.highlighted(tp->links.front()));
        QVERIFY(!heat.highlighted(nic->id)); // the TP group stays inside its server
        QVERIFY(w.view()
                    ->heatLegend()
                    ->notes()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("TP group")));
        w.document()->setSelection({});
        QVERIFY(!heat.hasHighlight());

        // An edit marks the colours out of date until the next result arrives.
        w.document()->moveNodes({r.links.front().from}, QPointF(5, 5), w.document()->nextGesture());
        QVERIFY(heat.stale());
        QTRY_VERIFY_WITH_TIMEOUT(!heat.stale(), 60000);

        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            w.view()->fitAll();
            QTest::qWait(300);
            w.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/simulation-view.png"));
        }
    }
};

QTEST_MAIN(TestSimulationView)
#include "tst_simulationview.moc"
