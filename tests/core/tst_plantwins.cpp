// Tests of the planner's twin deduplication (issue 16, plantwins.h): candidates whose
// simulation is identical are simulated once, and the plan is the same as simulating each.
#include "plan/planner.h"
#include "plan/plantwins.h"
#include "plandesigns.h"

#include <QtTest>

using namespace weft;

namespace {

PlanOptions exhaustive(bool dedupe)
{
    PlanOptions o = test::exhaustiveOptions(5);
    o.deduplicate = dedupe;
    return o;
}

bool sameRow(const PlanRow &a, const PlanRow &b)
{
    const Breakdown &x = a.breakdown, &y = b.breakdown;
    return a.index == b.index && a.config.effectiveZero() == b.config.effectiveZero()
        && a.order == b.order && a.stepTime == b.stepTime && a.tokensPerSecond == b.tokensPerSecond
        && a.mfu == b.mfu && a.peakMemoryPerGpu == b.peakMemoryPerGpu
        && a.memoryCapacityPerGpu == b.memoryCapacityPerGpu && a.fits == b.fits
        && a.lowerBound == b.lowerBound && x.compute == y.compute && x.tpExposed == y.tpExposed
        && x.cpExposed == y.cpExposed && x.epExposed == y.epExposed && x.ppExposed == y.ppExposed
        && x.bubble == y.bubble && x.dpExposed == y.dpExposed && x.optimizer == y.optimizer;
}

} // namespace

class TestPlanTwins : public QObject
{
    Q_OBJECT
private slots:
    void twinClasses()
    {
        TrainingConfig c;
        c.tp = 2;
        c.dp = 4;
        c.zeroStage = 2;
        QCOMPARE(simulationTwin(c).zeroStage, 1);
        c.zeroStage = 0;
        c.distributedOptimizer = true; // Megatron's distributed optimizer is ZeRO-1
        QCOMPARE(simulationTwin(c).effectiveZero(), 1);
        c.distributedOptimizer = false;
        QCOMPARE(simulationTwin(c).zeroStage, 0);
        c.zeroStage = 3;
        QCOMPARE(simulationTwin(c).zeroStage, 3);
        // One rank per DP x CP group: nothing to shard, ZeRO 0-2 alike.
        c.dp = 1;
        c.zeroStage = 2;
        QCOMPARE(simulationTwin(c).zeroStage, 0);
        QCOMPARE(simulationKey(c, "tp-pp"), simulationKey(simulationTwin(c), "tp-pp"));
        QVERIFY(simulationKey(c, "tp-pp") != simulationKey(c, "pp-tp"));
        const std::string zero2 = simulationKey(c, "tp-pp");
        c.zeroStage = 3; // ZeRO-3 gathers parameters per operation even then
        QVERIFY(simulationKey(c, "tp-pp") != zero2);
    }

    // Deduplicated, the plan equals simulating every twin: same rows (step time, breakdown,
    // memory, fit), same counts but for simulated / deduplicated, same ranking.
    void deduplicatedEqualsSimulatingBoth_data()
    {
        QTest::addColumn<bool>("moe");
        QTest::newRow("dense") << false;
        QTest::newRow("moe") << true;
    }
    void deduplicatedEqualsSimulatingBoth()
    {
        QFETCH(bool, moe);
        Design d = test::withModel(test::planFabric("dgx-h100", 2),
                                   moe ? test::smallMoe() : test::smallDense(), 16);
        d.workload->config.sequenceParallel = moe;
        PlanSpace s = test::smallSpace(d, moe ? std::vector<int> {1, 2} : std::vector<int> {1});
        fixKnobs(s, "cp=1,vpp=1,schedule=1f1b,micro_batch=1");
        s.values[static_cast<std::size_t>(planKnobIndex("zero_stage"))] = {0, 1, 2, 3};
        const TrainingPlan plain = runPlan(d, s, exhaustive(false));
        const TrainingPlan twins = runPlan(d, s, exhaustive(true));
        QCOMPARE(plain.counts.deduplicated, 0LL);
        QVERIFY2(twins.counts.deduplicated > 0, "no twin was deduplicated");
        QCOMPARE(twins.counts.simulated + twins.counts.deduplicated, plain.counts.simulated);
        QCOMPARE(twins.counts.infeasible, plain.counts.infeasible);
        QCOMPARE(twins.counts.failed, plain.counts.failed);
        QCOMPARE(twins.simulated.size(), plain.simulated.size());
        bool zero2 = false, zero0 = false;
        for (std::size_t i = 0; i < plain.simulated.size(); ++i) {
            QVERIFY2(sameRow(twins.simulated[i], plain.simulated[i]),
                     qPrintable(QString::fromStdString(
                         describeCandidate(plain.simulated[i].config, plain.simulated[i].order))));
            zero2 = zero2 || plain.simulated[i].config.zeroStage == 2;
            zero0 = zero0
                || (plain.simulated[i].config.zeroStage == 0 && plain.simulated[i].config.dp == 1);
        }
        QVERIFY(zero2 && zero0); // both twin classes were compared
        QCOMPARE(twins.ranked.size(), plain.ranked.size());
        for (std::size_t i = 0; i < plain.ranked.size(); ++i)
            QVERIFY(sameRow(twins.ranked[i], plain.ranked[i]));
        // With the bound on, the same ranking.
        PlanOptions bounded = exhaustive(true);
        bounded.useBound = true;
        const TrainingPlan pruned = runPlan(d, s, bounded);
        QCOMPARE(pruned.ranked.size(), plain.ranked.size());
        for (std::size_t i = 0; i < plain.ranked.size(); ++i)
            QVERIFY(sameRow(pruned.ranked[i], plain.ranked[i]));
    }

    // Twins tie on step time; the one with less memory per GPU (ZeRO-2's sharded gradients
    // against ZeRO-1's) ranks first, so a top K keeps the one with more room to spare.
    void tiesRankByMemory()
    {
        Design d = test::withModel(test::planFabric("dgx-h100", 2), test::smallDense(), 16);
        PlanSpace s = test::smallSpace(d);
        fixKnobs(s, "cp=1,vpp=1,schedule=1f1b,micro_batch=1");
        s.values[static_cast<std::size_t>(planKnobIndex("zero_stage"))] = {1, 2};
        const TrainingPlan r = runPlan(d, s, exhaustive(true));
        int ties = 0;
        for (std::size_t i = 0; i + 1 < r.ranked.size(); ++i) {
            const PlanRow &a = r.ranked[i], &b = r.ranked[i + 1];
            if (a.stepTime != b.stepTime)
                continue;
            QVERIFY2(a.peakMemoryPerGpu <= b.peakMemoryPerGpu,
                     qPrintable(QString::fromStdString(describeCandidate(a.config, a.order))));
            ties += a.peakMemoryPerGpu < b.peakMemoryPerGpu ? 1 : 0;
        }
        QVERIFY2(ties > 0, "no tie of different memory to order");
    }
};

QTEST_GUILESS_MAIN(TestPlanTwins)
#include "tst_plantwins.moc"
