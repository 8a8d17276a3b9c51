// Tests that the planner's simulations (planSimOptions(): no per-link statistics, the cost of a
// third of a 16k-GPU simulation) give the step of a full simulate: the same step time,
// breakdown and memory for every candidate of small dense and MoE plans (issue 16).
#include "plan/planlosers.h"
#include "plan/planner.h"
#include "plandesigns.h"
#include "sim/simulator.h"

#include <QtTest>

using namespace weft;

class TestPlanSim : public QObject
{
    Q_OBJECT
private slots:
    void noLinkStatistics()
    {
        const SimOptions o = planSimOptions(nullptr);
        QVERIFY(!o.network.recordStats);
        QCOMPARE(o.network.seriesBuckets, 0);
    }

    void sameStepAsFullSimulate_data()
    {
        QTest::addColumn<int>("domains");
        QTest::addColumn<bool>("moe");
        QTest::newRow("dense, 2 domains") << 2 << false;
        QTest::newRow("moe, 4 domains") << 4 << true;
    }
    void sameStepAsFullSimulate()
    {
        QFETCH(int, domains);
        QFETCH(bool, moe);
        Design d = test::withModel(test::planFabric("dgx-h100", domains),
                                   moe ? test::smallMoe() : test::smallDense(), 32);
        d.workload->config.sequenceParallel = moe;
        PlanSpace s = test::smallSpace(d, moe ? std::vector<int> {1, 4} : std::vector<int> {1});
        fixKnobs(s, "micro_batch=1,recompute=none");
        PlanOptions o = test::exhaustiveOptions(3);
        o.deduplicate = false;
        const TrainingPlan plan = runPlan(d, s, o);
        QVERIFY(plan.simulated.size() > 10);
        Design scratch = d;
        int crossing = 0;
        for (const PlanRow &row : plan.simulated) {
            scratch.workload = candidateWorkload(*d.workload, row.config, row.order);
            const SimResult full = simulate(scratch);
            QVERIFY(full.ok);
            QVERIFY(!full.links.empty());
            const QString what = QString::fromStdString(describeCandidate(row.config, row.order));
            QVERIFY2(full.stepTime == row.stepTime, qPrintable(what));
            QVERIFY2(full.breakdown.compute == row.breakdown.compute
                         && full.breakdown.tpExposed == row.breakdown.tpExposed
                         && full.breakdown.cpExposed == row.breakdown.cpExposed
                         && full.breakdown.epExposed == row.breakdown.epExposed
                         && full.breakdown.ppExposed == row.breakdown.ppExposed
                         && full.breakdown.bubble == row.breakdown.bubble
                         && full.breakdown.dpExposed == row.breakdown.dpExposed
                         && full.breakdown.optimizer == row.breakdown.optimizer,
                     qPrintable(what));
            QCOMPARE(full.peakMemoryPerGpu, row.peakMemoryPerGpu);
            crossing += row.config.dp * row.config.cp > 8 / row.config.tp ? 1 : 0;
        }
        QVERIFY(crossing > 0); // some traffic crossed the scale-out fabric
    }
};

QTEST_GUILESS_MAIN(TestPlanSim)
#include "tst_plansim.moc"
