// Tests that the planner and `simulate` agree on memory headroom (issue 16): a candidate above
// 90% of HBM, which simulate warns about (memory-headroom), is flagged in the plan, and left
// out (counted as "memory-headroom") with PlanOptions::keepHeadroom (`plan --headroom`).
#include "plan/planjson.h"
#include "plan/planner.h"
#include "plandesigns.h"
#include "sim/memoryheadroom.h"
#include "sim/simulator.h"

#include <QtTest>

using namespace weft;

namespace {

PlanOptions options(bool headroom)
{
    PlanOptions o = test::exhaustiveOptions(50);
    o.keepHeadroom = headroom;
    return o;
}

bool anyOver(const std::vector<PlanRow> &rows)
{
    return std::any_of(rows.begin(), rows.end(), [](const PlanRow &r) { return r.overHeadroom(); });
}

} // namespace

class TestPlanHeadroom : public QObject
{
    Q_OBJECT
private slots:
    void flagAgreesWithSimulate()
    {
        PlanRow r;
        r.memoryCapacityPerGpu = 80e9;
        r.peakMemoryPerGpu = 72.5e9;
        QVERIFY(r.overHeadroom());
        r.peakMemoryPerGpu = 72e9; // exactly 90%: simulate does not warn
        QVERIFY(!r.overHeadroom());
        SimResult s;
        s.memoryCapacityPerGpu = 80e9;
        s.peakMemoryPerGpu = 72e9;
        QVERIFY(memoryHeadroomFindings(s).empty());
        r.memoryCapacityPerGpu = 0;
        QVERIFY(!r.overHeadroom());
    }

    void flaggedOrLeftOut()
    {
        // Layers until some candidate lands between 90% and 100% of HBM.
        TrainingPlan plain;
        Design d;
        PlanSpace s;
        for (int layers = 8; layers <= 256 && !anyOver(plain.ranked); layers *= 2) {
            TransformerSpec m = test::smallDense();
            m.layers = layers;
            d = test::withModel(test::planFabric("dgx-h100", 1), m, 16);
            s = test::smallSpace(d);
            fixKnobs(s, "cp=1,schedule=1f1b,vpp=1,micro_batch=1");
            s.values[static_cast<std::size_t>(planKnobIndex("pp"))] = {1, 2, 4, 8};
            plain = runPlan(d, s, options(false));
        }
        QVERIFY2(anyOver(plain.ranked), "no candidate above the headroom");
        // simulate warns about exactly the flagged ones.
        Design scratch = d;
        for (const PlanRow &r : plain.ranked) {
            scratch.workload = candidateWorkload(*d.workload, r.config, r.order);
            const SimResult sim = simulate(scratch);
            QCOMPARE(!memoryHeadroomFindings(sim).empty(), r.overHeadroom());
        }
        QVERIFY(planToCsv(plain).find(",true\n") != std::string::npos); // over_headroom column
        const TrainingPlan kept = runPlan(d, s, options(true));
        QVERIFY(!anyOver(kept.simulated));
        QVERIFY(kept.counts.infeasible.count(kMemoryHeadroomCode));
        QCOMPARE(kept.counts.infeasible.at(kMemoryHeadroomCode),
                 static_cast<long long>(
                     std::count_if(plain.simulated.begin(), plain.simulated.end(),
                                   [](const PlanRow &r) { return r.overHeadroom(); })));
    }
};

QTEST_GUILESS_MAIN(TestPlanHeadroom)
#include "tst_planheadroom.moc"
