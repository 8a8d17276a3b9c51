// The flow solver's dormant classes (flowsolver.h): a class of the caller's key, or an
// aggregate whose key names it, stays registered when its last unit leaves and is woken when
// the key comes back; the least recently retired are dropped past the limit; and the rates
// and loads are bit-identical with any limit, on random instances.
#include "seededdraws.h"
#include "sim/flowsolver.h"
#include "solverunits.h"

#include <QtTest>
#include <limits>

using namespace weft;
using namespace weft::test;

namespace {

constexpr double kNoCap = std::numeric_limits<double>::infinity();

} // namespace

class TestFlowSolverDormant : public QObject
{
    Q_OBJECT
private slots:
    // A keyed class without units is dormant: not live, on no link's list, no load; its key
    // wakes the same class, at the rate a fresh one gets.
    void keyedClassSleepsAndWakes()
    {
        MaxMinSolver s({4, 2});
        const auto a = s.add(on({0, 1}), kNoCap, 7);
        const auto other = s.add(on({0}));
        solve(s);
        const auto cls = s.classOf(a);
        s.remove(a);
        solve(s);
        QCOMPARE(s.liveClasses(), std::size_t(1));
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        QCOMPARE(s.dormantEntries(), std::size_t(2));
        std::vector<MaxMinSolver::ClassOnLink> classes;
        s.classesOn(1, classes);
        QVERIFY(classes.empty());
        QCOMPARE(s.load(1), 0.0);
        QCOMPARE(s.rate(other), 4.0);
        const auto b = s.add(on({0, 1}), kNoCap, 7);
        QCOMPARE(s.classOf(b), cls);
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        solve(s);
        QCOMPARE(s.rate(b), 2.0);
        QCOMPARE(s.rate(other), 2.0);
        QCOMPARE(s.load(0), 4.0);
    }
    // An aggregate's key wakes its dormant class only for the same entries and cap, and only
    // one dormant class is kept per key; a live aggregate is never joined.
    void aggregateWakesOnlyForItsEntries()
    {
        MaxMinSolver s({2, 2, 2});
        const auto a = s.add(on({0, 1}), kNoCap, 5, 1);
        const auto twin = s.add(on({0, 1}), kNoCap, 5, 1);
        QVERIFY(s.classOf(a) != s.classOf(twin));
        const auto cls = s.classOf(a);
        s.remove(a);
        s.remove(twin);
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        const auto other = s.add(on({2}), kNoCap, 5, 2); // same key, other entries: a new class
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        const auto b = s.add(on({0, 1}), kNoCap, 5, 3);
        QCOMPARE(s.classOf(b), cls);
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        solve(s);
        QCOMPARE(s.rate(b), 2.0);
        QCOMPARE(s.rate(other), 2.0);
        // Retiring `other` keeps it (its key has no dormant class now); a capped twin of the
        // same entries is not it.
        s.remove(other);
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        const auto capped = s.add(on({2}), 1.0, 5, 4);
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        solve(s);
        QCOMPARE(s.rate(capped), 1.0);
    }
    // Past the limit the least recently retired dormant classes are dropped; 0 keeps none,
    // and clear() forgets them all.
    void limitDropsTheOldest()
    {
        MaxMinSolver s({1, 1, 1, 1});
        s.setDormantLimit(3);
        const auto a = s.add(on({0, 1}), kNoCap, 1);
        const auto b = s.add(on({2, 3}), kNoCap, 2);
        s.remove(a);
        QCOMPARE(s.dormantEntries(), std::size_t(2));
        s.remove(b); // 4 entries: a, the oldest, goes
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        QCOMPARE(s.dormantEntries(), std::size_t(2));
        const auto b2 = s.add(on({2, 3}), kNoCap, 2);
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        const auto a2 = s.add(on({0, 1}), kNoCap, 1); // made afresh
        solve(s);
        QCOMPARE(s.rate(a2), 1.0);
        QCOMPARE(s.rate(b2), 1.0);
        s.remove(a2);
        QCOMPARE(s.dormantClasses(), std::size_t(1));
        s.setDormantLimit(0);
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        s.remove(b2);
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        s.setDormantLimit(100);
        s.add(on({0}), kNoCap, 9);
        s.clear();
        QCOMPARE(s.dormantClasses(), std::size_t(0));
        QCOMPARE(s.liveClasses(), std::size_t(0));
    }
    // Random add/remove sequences over a few keyed shapes, aggregates and plain units, solved
    // after some of the steps: every rate and every load is bit-identical with dormant classes
    // kept and without.
    void sameRatesWithAnyLimit()
    {
        test::SeededDraws next(2026);
        for (int round = 0; round < 40; ++round) {
            constexpr LinkDir kLinks = 10;
            // A few shapes, each named by a key: entries and cap.
            const RandomInstance r = drawInstance(next, kLinks, 6);
            MaxMinSolver keep(r.cap), none(r.cap);
            keep.setDormantLimit(round % 2 == 0 ? 1000 : 5); // roomy, or evicting
            none.setDormantLimit(0);
            TwinSteps steps;
            for (int step = 0; step < 60; ++step) {
                if (!steps.step(next, r, keep, none))
                    continue;
                solve(keep);
                solve(none);
                for (const auto &[a, b] : steps.live)
                    QCOMPARE(keep.rate(a), none.rate(b));
                for (LinkDir ld = 0; ld < kLinks; ++ld)
                    QCOMPARE(keep.load(ld), none.load(ld));
                QCOMPARE(keep.liveClasses(), none.liveClasses());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFlowSolverDormant)
#include "tst_flowsolverdormant.moc"
