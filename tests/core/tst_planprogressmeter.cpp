// Tests of the plan's terminal progress (issue 16): at most one line per interval, with the
// counts, the rate and the time left, and always the last line once.
#include "plan/planprogressmeter.h"

#include <QtTest>

using namespace weft;

namespace {

// A plan of 15,000 feasible candidates, `done` of them through, `simulated` simulated and
// `toSimulate` still able to beat the K-th best.
PlanProgress largePlan(long long done, long long simulated, long long toSimulate)
{
    PlanProgress p;
    p.total = 15000;
    p.done = done;
    p.simulated = simulated;
    p.toSimulate = toSimulate;
    return p;
}

} // namespace

class TestPlanProgressMeter : public QObject
{
    Q_OBJECT
private slots:
    void atMostOneLinePerInterval()
    {
        PlanProgressMeter meter(10);
        PlanProgress p;
        p.total = 1000;
        int lines = 0;
        std::string last;
        // A candidate every 0.1 s for 60 s: 600 updates, one line every 10 s.
        for (int i = 1; i <= 600; ++i) {
            p.done = i;
            p.simulated = i / 2;
            p.pruned = i - i / 2;
            if (const std::string l = meter.update(p, i * 0.1); !l.empty()) {
                ++lines;
                last = l;
            }
        }
        QCOMPARE(lines, 6);
        QVERIFY2(last.find("600/1000 feasible candidates (60%): 300 simulated, 0 deduplicated, 300 "
                           "pruned by the bound, 0 stopped past the K-th best; 5.00 simulated/s; "
                           "1 min 0 s elapsed, about 40 s left")
                     != std::string::npos,
                 last.c_str());
        // The last candidate always gets its line, once; no time left then.
        p.done = 1000;
        const std::string end = meter.update(p, 60.5);
        QVERIFY(end.find("1000/1000") != std::string::npos);
        QVERIFY(end.find("left") == std::string::npos);
        QVERIFY(meter.update(p, 80).empty());
    }

    // Once the K-th best prunes most of what is left, the time left goes by the simulations
    // that can still beat it, not by the candidates.
    void timeLeftBySimulationsThatCanStillRank()
    {
        PlanProgress p = largePlan(20, 6, 30);
        p.stopped = 4;
        p.pruned = 10;
        const std::string l = PlanProgressMeter(10).update(p, 20);
        QVERIFY2(l.find("about 1 min 0 s left (30 candidates can still beat the K-th best)")
                     != std::string::npos,
                 l.c_str());
    }

    // Before the top K are ranked every candidate may still be simulated: no time left is
    // given (it said "about 50 h 34 min left" for a plan done 12 s later).
    void noTimeLeftBeforeTheTopAreRanked()
    {
        PlanProgress p = largePlan(3, 2, 14997);
        p.beforeKth = true;
        const std::string l = PlanProgressMeter(10).update(p, 10);
        QVERIFY2(l.find("the time left is estimated once the top candidates are ranked")
                     != std::string::npos,
                 l.c_str());
        QVERIFY2(l.find("about") == std::string::npos, l.c_str());
    }

    // The preparation before the first simulation (every candidate's memory and bound) took a
    // minute on Qwen3-235B over 288 GB200 without a line: it now gets its lines, at the same
    // interval, and the simulations' lines follow.
    void preparationHasItsLines()
    {
        PlanProgressMeter meter(10);
        PlanProgress prep;
        prep.preparing = true;
        prep.toPrepare = 800000;
        prep.prepared = 4096;
        QVERIFY(meter.update(prep, 5).empty());
        prep.prepared = 200000;
        const std::string l = meter.update(prep, 12);
        QVERIFY2(l
                     == "preparing: memory and lower bounds of 200000/800000 configurations (25%); "
                        "12 s elapsed",
                 l.c_str());
        prep.placements = true;
        prep.toPrepare = 4000;
        prep.prepared = 1000;
        const std::string pl = meter.update(prep, 30);
        QVERIFY2(pl == "preparing: lower bounds of 1000/4000 placements (25%); 30 s elapsed",
                 pl.c_str());
        QVERIFY(meter.update(largePlan(1, 1, -1), 35).empty()); // within the interval
        QVERIFY(meter.update(largePlan(2, 2, -1), 41).find("2/15000") != std::string::npos);
    }

    void durations()
    {
        QCOMPARE(formatDuration(44.6), std::string("45 s"));
        QCOMPARE(formatDuration(750), std::string("12 min 30 s"));
        QCOMPARE(formatDuration(7500), std::string("2 h 05 min"));
    }
};

QTEST_GUILESS_MAIN(TestPlanProgressMeter)
#include "tst_planprogressmeter.moc"
