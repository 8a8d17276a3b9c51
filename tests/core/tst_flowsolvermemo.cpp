// The flow solver's memory of recurring components (flowsolver.h): a component whose classes
// (contents, unit counts, link classes) were solved before gets the rates it got then, without
// progressive filling; the rates and loads agree with a solver that fills every component, on
// random instances where the same shapes come and go; and the live classes of a direction come
// before its dormant ones whatever the order of waking and sleeping.
#include "seededdraws.h"
#include "sim/flowsolver.h"
#include "solverunits.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace weft;
using namespace weft::test;

namespace {

constexpr double kNoCap = std::numeric_limits<double>::infinity();

bool close(double a, double b, double rel)
{
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

} // namespace

class TestFlowSolverMemo : public QObject
{
    Q_OBJECT
private slots:
    // Two units on a shared link, one leaving and coming back: the second time the component
    // recurs and is answered from memory, with the same rates and loads.
    void recurringComponentIsRemembered()
    {
        MaxMinSolver s({4, 2});
        const auto a = s.add(on({0, 1}), kNoCap, 7);
        const auto b = s.add(on({0}));
        solve(s);
        QCOMPARE(s.memoHits(), std::size_t(0));
        QCOMPARE(s.rate(a), 2.0);
        s.remove(a);
        solve(s);
        QCOMPARE(s.rate(b), 4.0);
        const auto a2 = s.add(on({0, 1}), kNoCap, 7);
        solve(s);
        QCOMPARE(s.memoHits(), std::size_t(1));
        QCOMPARE(s.rate(a2), 2.0);
        QCOMPARE(s.rate(b), 2.0);
        QCOMPARE(s.load(0), 4.0);
        QCOMPARE(s.load(1), 2.0);
        // Two units of the same class are another component (the unit count is in the key).
        const auto a3 = s.add(on({0, 1}), kNoCap, 7);
        solve(s);
        QCOMPARE(s.memoHits(), std::size_t(1));
        QCOMPARE(s.rate(a3), 1.0); // link 1 saturates first
        QCOMPARE(s.rate(a2), 1.0);
        QCOMPARE(s.rate(b), 2.0);
    }
    // Without memory nothing is answered from it.
    void memoryCanBeTurnedOff()
    {
        MaxMinSolver s({4});
        s.setMemoLimit(0);
        for (int i = 0; i < 3; ++i) {
            const auto u = s.add(on({0}), kNoCap, 3);
            solve(s);
            QCOMPARE(s.rate(u), 4.0);
            s.remove(u);
            solve(s);
        }
        QCOMPARE(s.memoHits(), std::size_t(0));
        QVERIFY(s.solves() >= 3);
    }
    // Random add/remove sequences over a few recurring shapes (keyed, aggregate and plain
    // units), solved after some of the steps: the rates and loads of a solver with memory equal
    // those of one without, to rounding (the remembered fill may have met the classes in another
    // order), and the memory answers many of the solves. A tiny limit clears it as it goes.
    void sameRatesAsFillingEveryComponent()
    {
        test::SeededDraws next(2027);
        std::size_t hits = 0;
        for (int round = 0; round < 40; ++round) {
            constexpr LinkDir kLinks = 10;
            const RandomInstance r = drawInstance(next, kLinks, 5);
            MaxMinSolver memo(r.cap), fill(r.cap);
            memo.setMemoLimit(round % 3 == 0 ? 8 : MaxMinSolver::kMemoEntries);
            fill.setMemoLimit(0);
            TwinSteps steps;
            for (int step = 0; step < 80; ++step) {
                if (!steps.step(next, r, memo, fill))
                    continue;
                solve(memo);
                solve(fill);
                for (const auto &[a, b] : steps.live)
                    QVERIFY2(close(memo.rate(a), fill.rate(b), 1e-12),
                             qPrintable(QStringLiteral("round %1 step %2: %3 vs %4")
                                            .arg(round)
                                            .arg(step)
                                            .arg(memo.rate(a), 0, 'g', 17)
                                            .arg(fill.rate(b), 0, 'g', 17)));
                for (LinkDir ld = 0; ld < kLinks; ++ld)
                    QVERIFY(close(memo.load(ld), fill.load(ld), 1e-12));
            }
            hits += memo.memoHits();
            QCOMPARE(fill.memoHits(), std::size_t(0));
        }
        QVERIFY2(hits > 100, qPrintable(QStringLiteral("%1 solves from memory").arg(hits)));
    }
    // Classes put to sleep and woken in any order: each direction lists exactly its live
    // classes (classesOn reads only the live prefix of its uses).
    void liveClassesListedAfterSleepAndWake()
    {
        MaxMinSolver s({10, 10, 10});
        std::vector<MaxMinSolver::UnitId> units;
        for (std::uint64_t key = 1; key <= 6; ++key)
            units.push_back(s.add(on({0, LinkDir(key % 2 + 1)}), kNoCap, key));
        solve(s);
        for (std::size_t i : {1u, 4u, 2u})
            s.remove(units[i]);
        solve(s);
        units[4] = s.add(on({0, LinkDir(5 % 2 + 1)}), kNoCap, 5);
        solve(s);
        std::vector<MaxMinSolver::ClassOnLink> classes;
        s.classesOn(0, classes);
        QCOMPARE(classes.size(), std::size_t(4)); // keys 1, 4, 5, 6 live; 2, 3 asleep
        QCOMPARE(s.dormantClasses(), std::size_t(2));
        for (const auto &c : classes)
            QCOMPARE(c.units, 1u);
        QCOMPARE(s.load(0), 10.0);
    }
};

QTEST_GUILESS_MAIN(TestFlowSolverMemo)
#include "tst_flowsolvermemo.moc"
