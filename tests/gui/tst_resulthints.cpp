// What the Results dock's empty charts say. "Give the design a workload" was shown for a design
// that has one and only waits for Simulate; the Collectives tab stayed blank after a simulation
// without saying why (no group of two or more GPUs, or a group that cannot be routed, which an
// earlier wording called "no all-reduce group").
#include "document/designdocument.h"
#include "generate/fabricgenerator.h"
#include "gui/charts/chartspanel.h"
#include "gui/charts/collectivechart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/reportchartdata.h"
#include "gui/docks/resultsdock.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simulationrunner.h"
#include "io/catalogfile.h"
#include "workload/model.h"
#include "workloadfixtures.h"

#include <QStandardPaths>
#include <QtTest> // first: moc cannot parse <compare> on its own

using namespace weft;

namespace {

/// `domains` DGX H100 servers, on a 2-tier fabric or none.
Design servers(int domains, FabricKind fabric)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.fabric = fabric;
    p.tiers = 2;
    p.switchModel = "qm9700";
    GenerateResult r = generateFabric(p, builtinCatalog());
    Q_ASSERT(r.ok());
    return std::move(*r.design);
}

} // namespace

class TestResultHints : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void hintFollowsTheDesignsState()
    {
        QVERIFY(resultChartHint(false, false, nullptr).contains(QStringLiteral("empty")));
        const QString noWorkload = resultChartHint(true, false, nullptr);
        QVERIFY2(noWorkload.contains(QStringLiteral("workload")), qPrintable(noWorkload));
        // A workload and no result: what is left is to simulate, not to add a workload.
        const QString waiting = resultChartHint(true, true, nullptr);
        QVERIFY2(waiting.contains(QStringLiteral("Simulate (F5)")), qPrintable(waiting));
        QVERIFY2(!waiting.contains(QStringLiteral("workload in")), qPrintable(waiting));
        SimResult failed;
        failed.warnings.push_back({Severity::Error, "x", "heads do not divide", {}});
        QVERIFY(
            resultChartHint(true, true, &failed).contains(QStringLiteral("heads do not divide")));
    }

    void dockHintsAndCollectivesSayWhy()
    {
        DesignDocument doc(builtinCatalog());
        SimulationRunner runner(&doc);
        runner.setAutoSimulate(false);
        Comparison comparison;
        ResultsDock dock(&doc, &runner, &comparison);
        ChartsPanel *charts = dock.charts();
        QVERIFY(charts->collectiveChart()->showsHint());
        QVERIFY2(charts->collectiveChart()->emptyHint().contains(QStringLiteral("empty")),
                 qPrintable(charts->collectiveChart()->emptyHint()));

        Design d = servers(1, FabricKind::None);
        doc.resetDesign(Design(d));
        QVERIFY(charts->memoryChart()->emptyHint().contains(QStringLiteral("workload")));

        // Pipeline parallel only: no TP or DP group of two GPUs to sweep.
        d.workload = fixtures::llama8b(1, 8, 1, 8);
        doc.resetDesign(std::move(d));
        const QString waiting = charts->memoryChart()->emptyHint();
        QVERIFY2(waiting.contains(QStringLiteral("Simulate (F5)")), qPrintable(waiting));
        QVERIFY2(!waiting.contains(QStringLiteral("workload in")), qPrintable(waiting));
        QCOMPARE(charts->collectiveChart()->emptyHint(), waiting);

        runner.simulate();
        QTRY_VERIFY_WITH_TIMEOUT(runner.result() != nullptr, 60000);
        QVERIFY(runner.result()->ok);
        QVERIFY(!charts->memoryChart()->showsHint());
        QVERIFY(charts->collectiveChart()->showsHint());
        const QString why = charts->collectiveChart()->emptyHint();
        QVERIFY2(why.contains(QStringLiteral("no TP, DP or EP group")), qPrintable(why));
    }

    // Two servers without a fabric and a TP group across them: the note names the group and
    // the route that is missing.
    void unroutableGroupSaysWhatIsUnroutable()
    {
        const Design d = servers(2, FabricKind::None);
        std::vector<NodeId> firsts;
        for (const Node &n : d.nodes())
            if (n.isAccelerator() && n.rail == 0)
                firsts.push_back(n.id);
        QCOMPARE(firsts.size(), std::size_t(2));
        SimResult r;
        r.ok = true;
        r.groups.push_back({"tp", 0, firsts, {}});
        const ReportChartData data = reportChartData(r, d, true);
        QVERIFY(!data.collective);
        QVERIFY2(data.collectiveNote.contains(QStringLiteral("TP group 0 (2 GPUs)")),
                 qPrintable(data.collectiveNote));
        QVERIFY2(data.collectiveNote.contains(QStringLiteral("cannot be routed")),
                 qPrintable(data.collectiveNote));
        QVERIFY2(data.collectiveNote.contains(QStringLiteral("no route from")),
                 qPrintable(data.collectiveNote));
        QVERIFY(!data.collectiveNote.contains(QStringLiteral("no TP, DP or EP group")));
    }
};

QTEST_MAIN(TestResultHints)
#include "tst_resulthints.moc"
