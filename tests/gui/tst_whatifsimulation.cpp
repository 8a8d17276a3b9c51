// What-if in the GUI's simulation (issue 19): with a spine marked down the main window
// simulates the faulted copy, slower than the healthy design, and the status bar and Results
// dock name the slowdown against the healthy step time; every leaf down (no path between the
// servers) is a clear message, not a crash. Simulation > What-if Trials... runs 3 trials on the
// same small design on a worker and fills the chart, the statistics and the cables table.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "document/faultedit.h"
#include "generate/fabricgenerator.h"
#include "gui/actions/analysisactions.h"
#include "gui/charts/whatifchart.h"
#include "gui/dialogs/whatifdialog.h"
#include "gui/docks/resultsdock.h"
#include "gui/mainwindow.h"
#include "gui/simulation/simstatus.h"
#include "gui/simulation/simulationrunner.h"
#include "gui/simulation/whatifrunner.h"
#include "io/catalogfile.h"
#include "storage/designstorage.h"
#include "windowdriver.h"
#include "workload/model.h"

#include <QAction>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace weft;
using namespace weft::test;

namespace {

/// 32 DGX H100 on a two-tier fat tree of QM9700 at 3:1 (8 leaves, 2 spines), Llama 3 8B with
/// TP 8 inside each server and DP 32 across them, the DP all-reduce not overlapped: it crosses
/// the spines, and one spine down leaves too few uplinks (weft-cli: +6.8%).
Design spineBoundDesign()
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = 32;
    p.fabric = FabricKind::FatTree;
    p.tiers = 2;
    p.oversubscription = 3;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok())
        qFatal("generate failed: %s", g.errors.front().c_str());
    Design d = std::move(*g.design);
    d.name = "whatif-test";
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.config.tp = 8;
    w.config.dp = 32;
    w.config.globalBatch = 32;
    w.config.overlapDpGrad = false;
    d.workload = w;
    return d;
}

std::vector<NodeId> switchesOf(const Design &d, SwitchRole role)
{
    std::vector<NodeId> out;
    for (const Node &n : d.nodes())
        if (n.isSwitch() && n.role == role)
            out.push_back(n.id);
    return out;
}

} // namespace

class TestWhatIfSimulation : public QObject
{
    Q_OBJECT

    std::unique_ptr<RecordingPresenter> m_presenter;
    std::unique_ptr<MainWindow> m_w;
    QTemporaryDir m_dir;

    DesignDocument *doc() const { return m_w->document(); }
    SimulationRunner *runner() const { return m_w->simulation(); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QVERIFY(!saveDesignFile(spineBoundDesign(), m_dir.filePath(QStringLiteral("d.weft"))));
    }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = shownWindow({1400, 900});
        QVERIFY(m_w);
        QVERIFY(openSimulated(*m_w, m_dir.filePath(QStringLiteral("d.weft"))));
    }

    void cleanup()
    {
        doc()->undoStack()->setClean();
        m_w.reset();
        m_presenter.reset();
    }

    void spineDownIsSlowerAndNamesTheSlowdown()
    {
        const auto healthy = settledResult(*runner());
        QVERIFY(healthy && healthy->ok);
        QCOMPARE(runner()->resultFaults(), 0);
        const std::vector<NodeId> spines = switchesOf(doc()->design(), SwitchRole::Spine);
        QVERIFY(spines.size() >= 2);
        QVERIFY(
            doc()->setFault({Fault::Kind::SwitchDown, faultTarget(spines.front()), 1}, nullptr));
        QVERIFY(QTest::qWaitFor([this] { return runner()->resultFaults() == 1; }, 120000));
        const auto faulted = settledResult(*runner());
        QVERIFY(faulted && faulted->ok);
        QVERIFY2(faulted->stepTime > healthy->stepTime * 1.001,
                 qPrintable(QStringLiteral("faulted %1 s, healthy %2 s")
                                .arg(faulted->stepTime)
                                .arg(healthy->stepTime)));
        // The healthy step time was reused, not simulated again: same figure.
        QVERIFY(runner()->healthyStepTime());
        QCOMPARE(*runner()->healthyStepTime(), healthy->stepTime);
        const QString status = m_w->simStatus()->text();
        QVERIFY2(status.startsWith(QStringLiteral("What if (1 fault): slowdown ×")),
                 qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("slowdown ×")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("against healthy")), qPrintable(status));
        QVERIFY(m_w->results()->summary().contains(QStringLiteral("slowdown ×")));
        // Undo: the healthy design again, no what-if in the summary.
        doc()->undoStack()->undo();
        QVERIFY(QTest::qWaitFor([this] { return runner()->resultFaults() == 0; }, 120000));
        QVERIFY(settledResult(*runner()));
        QVERIFY(!m_w->simStatus()->text().contains(QStringLiteral("What if")));
    }

    void unroutableIsAMessage()
    {
        std::vector<Fault> faults;
        for (const NodeId leaf : switchesOf(doc()->design(), SwitchRole::Leaf))
            faults.push_back({Fault::Kind::SwitchDown, faultTarget(leaf), 1});
        QVERIFY(doc()->setFaults(faults, nullptr));
        QVERIFY(QTest::qWaitFor(
            [this] {
                return !runner()->isRunning()
                    && m_w->simStatus()->text().startsWith(QStringLiteral("Cannot simulate"));
            },
            120000));
    }

    void trialsDialogFillsTheChart()
    {
        QAction *open = m_w->analysisActions()->whatIf;
        QVERIFY(open);
        open->trigger();
        WhatIfDialog *dialog = m_w->analysisActions()->whatIfDialog();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->chart()->showsHint());
        dialog->setTrials(2, 3, 7, 2);
        QSignalSpy done(dialog->runner(), &WhatIfRunner::finished);
        dialog->run();
        QVERIFY(dialog->runner()->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 180000);
        QVERIFY2(dialog->runner()->result().ok, dialog->runner()->result().problem.c_str());
        QCOMPARE(dialog->runner()->result().trials.size(), 3u);
        QVERIFY(dialog->chart()->hasData());
        QVERIFY(!dialog->chart()->showsHint());
        QCOMPARE(dialog->chart()->data().stepTimes.size(), 3u);
        QCOMPARE(dialog->chart()->xAxis->label(), QStringLiteral("step time (ms)"));
        QVERIFY(dialog->chart()->graph(0)->name().startsWith(QStringLiteral("3 trials: median")));
        QVERIFY2(dialog->message().contains(QStringLiteral("median")),
                 qPrintable(dialog->message()));
        QVERIFY(dialog->message().contains(QStringLiteral("p95")));
        QVERIFY(dialog->message().contains(QStringLiteral("worst")));
        auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("hurtTable"));
        QVERIFY(table);
        QVERIFY(table->rowCount() > 0);
        QVERIFY(table->item(0, 0)->text().startsWith(QStringLiteral("cable of link")));
        QCOMPARE(dialog->chart()->table().rows.size(), 3u);
    }
};

QTEST_MAIN(TestWhatIfSimulation)
#include "tst_whatifsimulation.moc"
