// Max-min fair rates on small textbook graphs (hand-computed), and the flow network's event
// loop: completion times, rate recomputation when flows start and end, statistics, bounds.
#include "netfabrics.h"
#include "seededdraws.h"
#include "sim/flowsolver.h"
#include "sim/network.h"
#include "solverunits.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace weft;
using namespace weft::test;

namespace {

std::vector<double> solveRates(MaxMinSolver &s, const std::vector<MaxMinSolver::UnitId> &ids)
{
    std::vector<MaxMinSolver::UnitId> units;
    std::vector<LinkDir> links;
    s.solve(units, links);
    std::vector<double> r;
    for (auto id : ids)
        r.push_back(s.rate(id));
    return r;
}

// A line a - b - c of two links with the given capacities (bytes/s), technology efficiency 1.
Design line(double cap1, double cap2)
{
    Design d;
    addTestTech(d, "t", 1.0, 0.0, Technology::InfiniBand);
    const NodeId a = addTestNode(d, NodeKind::Accelerator, "a");
    const NodeId b = addTestNode(d, NodeKind::Switch, "b");
    const NodeId c = addTestNode(d, NodeKind::Accelerator, "c");
    addTestLink(d, a, b, "t", cap1);
    addTestLink(d, b, c, "t", cap2);
    return d;
}

} // namespace

class TestFlowSolver : public QObject
{
    Q_OBJECT
private slots:
    // Bertsekas & Gallager example shape: a long flow over three unit links, one short flow on
    // each link: every link is shared by two flows, so everyone gets 1/2.
    void parkingLot()
    {
        MaxMinSolver s({1, 1, 1});
        std::vector<MaxMinSolver::UnitId> ids {s.add(on({0, 1, 2})), s.add(on({0})), s.add(on({1})),
                                               s.add(on({2}))};
        for (double r : solveRates(s, ids))
            QCOMPARE(r, 0.5);
    }
    // Link A (10) carries flows 1 and 2; link B (4) carries flows 2 and 3. B saturates first at
    // 2 each; flow 1 takes the rest of A: 8.
    void twoBottlenecks()
    {
        MaxMinSolver s({10, 4});
        std::vector<MaxMinSolver::UnitId> ids {s.add(on({0})), s.add(on({0, 1})), s.add(on({1}))};
        const auto r = solveRates(s, ids);
        QCOMPARE(r[0], 8.0);
        QCOMPARE(r[1], 2.0);
        QCOMPARE(r[2], 2.0);
        QCOMPARE(s.load(0), 10.0);
        QCOMPARE(s.load(1), 4.0);
    }
    // A flow split half/half over two unit links (ECMP) and a flow on the second link: the
    // second link saturates when 0.5 r + r = 1, so both get 2/3; the first link carries 1/3.
    void weightedSplit()
    {
        MaxMinSolver s({1, 1});
        std::vector<RouteEntry> split {{0, 0.5}, {1, 0.5}};
        std::vector<MaxMinSolver::UnitId> ids {s.add(split), s.add(on({1}))};
        const auto r = solveRates(s, ids);
        QVERIFY(std::abs(r[0] - 2.0 / 3) < 1e-12);
        QVERIFY(std::abs(r[1] - 2.0 / 3) < 1e-12);
        QVERIFY(std::abs(s.load(0) - 1.0 / 3) < 1e-12);
    }
    // A capped unit (in-switch reduction bound) leaves the rest of the link to the other.
    void rateCap()
    {
        MaxMinSolver s({10});
        std::vector<MaxMinSolver::UnitId> ids {s.add(on({0}), 1.0), s.add(on({0}))};
        const auto r = solveRates(s, ids);
        QCOMPARE(r[0], 1.0);
        QCOMPARE(r[1], 9.0);
    }
    // Removing a unit re-solves its component only; an unrelated component keeps its rate.
    void incrementalRemove()
    {
        MaxMinSolver s({4, 6});
        const auto a = s.add(on({0})), b = s.add(on({0})), c = s.add(on({1}));
        std::vector<MaxMinSolver::UnitId> units;
        std::vector<LinkDir> links;
        s.solve(units, links);
        QCOMPARE(s.rate(a), 2.0);
        QCOMPARE(s.rate(c), 6.0);
        s.remove(b);
        s.solve(units, links);
        QCOMPARE(s.rate(a), 4.0);
        QCOMPARE(units.size(), std::size_t(1)); // only a's component was recomputed
        QCOMPARE(links, std::vector<LinkDir> {0});
    }
    // Identical units (the buckets of one DP ring in flight together) are solved as one class
    // with the same rate; a different unit on the same link still gets its own share. Link 0
    // (8) carries three identical units and one that link 1 (1) caps at 1: they share the rest.
    void identicalUnitsShareOneClass()
    {
        MaxMinSolver s({8, 1});
        const auto a = s.add(on({0})), b = s.add(on({0})), c = s.add(on({0}));
        const auto d = s.add(on({0, 1}));
        auto r = solveRates(s, {a, b, c, d});
        QCOMPARE(s.liveClasses(), std::size_t(2));
        QCOMPARE(r[3], 1.0);
        for (int i = 0; i < 3; ++i)
            QVERIFY(std::abs(r[static_cast<std::size_t>(i)] - 7.0 / 3) < 1e-12);
        s.remove(b);
        r = solveRates(s, {a, c, d});
        QCOMPARE(s.liveClasses(), std::size_t(2));
        QVERIFY(std::abs(r[0] - 3.5) < 1e-12 && std::abs(r[1] - 3.5) < 1e-12);
        QCOMPARE(r[2], 1.0);
        QVERIFY(std::abs(s.load(0) - 8.0) < 1e-12);
        // A caller's class key joins units without comparing their entries.
        MaxMinSolver k({4});
        const auto x = k.add(on({0}), std::numeric_limits<double>::infinity(), 7);
        const auto y = k.add(on({0}), std::numeric_limits<double>::infinity(), 7);
        QCOMPARE(k.liveClasses(), std::size_t(1));
        QCOMPARE(solveRates(k, {x, y}), (std::vector<double> {2.0, 2.0}));
    }
    // An aggregate unit (a group) makes a class of its own, even under a key used before; its
    // content, hashed when first asked for, is that of an identical unit found by content; its
    // link classes may be any numbers (only which entries share one counts), and a slot reused
    // after it holds the new class's entries only.
    void aggregateClassesAreTheirOwn()
    {
        MaxMinSolver s({2, 2, 2});
        const auto plain = s.add(on({0, 1}));
        const std::vector<std::uint32_t> cells {900000, 3};
        const auto a = s.add(on({0, 1}), std::numeric_limits<double>::infinity(), 5, 1, cells);
        const auto b = s.add(on({0, 1}), std::numeric_limits<double>::infinity(), 5, 2, cells);
        QCOMPARE(s.liveClasses(), std::size_t(3));
        QVERIFY(s.classOf(a) != s.classOf(b));
        std::vector<MaxMinSolver::ClassOnLink> classes;
        s.classesOn(0, classes);
        QCOMPARE(classes.size(), std::size_t(3));
        for (const auto &x : classes)
            QCOMPARE(x.content, classes.front().content);
        std::vector<MaxMinSolver::UnitId> units;
        std::vector<LinkDir> links;
        std::vector<std::uint32_t> mixed;
        s.solve(units, links, mixed); // three equal units on two saturated links: certified
        QVERIFY(mixed.empty());
        for (auto u : {plain, a, b})
            QVERIFY(std::abs(s.rate(u) - 2.0 / 3) < 1e-12);
        s.remove(a);
        s.remove(plain);
        const auto c = s.add(on({2}), std::numeric_limits<double>::infinity(), 6, 3,
                             std::vector<std::uint32_t> {7});
        s.solve(units, links, mixed);
        QVERIFY(mixed.empty());
        QCOMPARE(s.entries(c).size(), std::size_t(1));
        QCOMPARE(s.rate(c), 2.0);
        QCOMPARE(s.rate(b), 2.0);
    }
    // A link that cannot saturate (its units' rates alone sum below its capacity, like the
    // spine links of a non-blocking fat tree) does not couple the units crossing it: a new unit
    // on one unit's NIC re-solves that unit only, and the shared link's load is still the sum.
    void nonBindingLinkDoesNotCouple()
    {
        MaxMinSolver s({1, 1, 100}); // NIC a, NIC b, wide shared link
        const auto a = s.add(on({0, 2})), b = s.add(on({1, 2}));
        std::vector<MaxMinSolver::UnitId> units;
        std::vector<LinkDir> links;
        s.solve(units, links);
        QVERIFY(!s.critical(2));
        QCOMPARE(s.load(2), 2.0);
        const auto a2 = s.add(on({0}));
        s.solve(units, links);
        std::sort(units.begin(), units.end());
        QCOMPARE(units, (std::vector<MaxMinSolver::UnitId> {a, a2}));
        QCOMPARE(s.rate(a), 0.5);
        QCOMPARE(s.rate(b), 1.0);
        QCOMPARE(s.load(2), 1.5);
        s.remove(a2);
        s.solve(units, links);
        QCOMPARE(s.rate(a), 1.0);
        QCOMPARE(s.load(2), 2.0);
    }
    // Loads kept or not (setTrackLoads) give bit-identical rates on random instances with
    // units added and removed (critical and non-critical directions, rate caps, identical
    // units), and the same loads on the directions that can saturate.
    void sameRatesWithoutLoads()
    {
        test::SeededDraws next(12345);
        for (int round = 0; round < 50; ++round) {
            std::vector<double> cap;
            for (int i = 0; i < 12; ++i)
                cap.push_back(1 + next(20) * (next(3) == 0 ? 10 : 1));
            MaxMinSolver kept(cap), lean(cap);
            lean.setTrackLoads(false);
            std::vector<std::pair<MaxMinSolver::UnitId, MaxMinSolver::UnitId>> live;
            for (int step = 0; step < 40; ++step) {
                if (!live.empty() && next(3) == 0) {
                    const std::size_t k
                        = static_cast<std::size_t>(next(static_cast<int>(live.size())));
                    kept.remove(live[k].first);
                    lean.remove(live[k].second);
                    live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
                } else {
                    std::vector<RouteEntry> e;
                    for (LinkDir ld = 0; ld < 12; ++ld)
                        if (next(4) == 0)
                            e.push_back({ld, 0.25 * (1 + next(4))});
                    const double rateCap = next(4) == 0 || e.empty()
                        ? 0.5 + next(8)
                        : std::numeric_limits<double>::infinity();
                    live.emplace_back(kept.add(e, rateCap), lean.add(e, rateCap));
                }
                std::vector<MaxMinSolver::UnitId> u1, u2;
                std::vector<LinkDir> l1, l2;
                kept.solve(u1, l1);
                lean.solve(u2, l2);
                for (const auto &[a, b] : live)
                    QCOMPARE(lean.rate(b), kept.rate(a));
                for (LinkDir ld = 0; ld < 12; ++ld)
                    if (kept.critical(ld))
                        QCOMPARE(lean.load(ld), kept.load(ld));
            }
        }
    }
    void zeroCapacityRefused()
    {
        MaxMinSolver s({0, 1});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.add(on({0})));
    }

    // --- the event loop ---

    // Two flows of 1 and 3 bytes on one link of 2 B/s: both at 1 B/s until the first ends at
    // t=1, then the second alone at 2 B/s: 2 bytes left take 1 s, end at t=2.
    void ratesRecomputedWhenFlowEnds()
    {
        const Design d = line(2, 100);
        FlowNetwork net(d);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        const JobId j1 = net.submit({Phase {{Flow {a, c, 1.0}}, 0, false}}, 0);
        const JobId j2 = net.submit({Phase {{Flow {a, c, 3.0}}, 0, false}}, 0);
        QCOMPARE(net.nextCompletionTime(), 0.0); // phase starts
        net.advanceTo(0);
        QCOMPARE(net.nextCompletionTime(), 1.0);
        QCOMPARE(net.advanceTo(1.0), std::vector<JobId> {j1});
        QCOMPARE(net.advanceTo(5.0), std::vector<JobId> {j2});
        QCOMPARE(net.jobFinishTime(j2), 2.0);
        QCOMPARE(net.now(), 5.0);
        net.finish(4.0 > net.now() ? 4.0 : net.now());
        const LinkDirStats &st = net.linkStats(0, 0);
        QCOMPARE(st.bytes, 4.0);
        QCOMPARE(st.busyTime, 2.0);
        QCOMPARE(st.peakUtilization, 1.0);
        QCOMPARE(net.linkStats(0, 1).bytes, 0.0); // the other direction is idle
    }
    // A flow starting later takes its share from then on: 4 bytes alone at 2 B/s for 1 s, then
    // shared at 1 B/s each.
    void lateArrivalSharesBandwidth()
    {
        const Design d = line(2, 100);
        FlowNetwork net(d);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        const JobId j1 = net.submit({Phase {{Flow {a, c, 4.0}}, 0, false}}, 0);
        net.advanceTo(1.0);
        const JobId j2 = net.submit({Phase {{Flow {a, c, 1.0}}, 0, false}}, 1.0);
        net.runUntilIdle();
        QCOMPARE(net.jobFinishTime(j2), 2.0);
        QCOMPARE(net.jobFinishTime(j1), 2.5);
    }
    // Phases run one after the other, each after its latency.
    void phasesAndLatency()
    {
        const Design d = line(1, 1);
        FlowNetwork net(d);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        const JobId j = net.submit(
            {Phase {{Flow {a, c, 1.0}}, 0.5, false}, Phase {{Flow {c, a, 2.0}}, 0.25, false}}, 1.0);
        net.runUntilIdle();
        QCOMPARE(net.jobFinishTime(j), 1.0 + 0.5 + 1.0 + 0.25 + 2.0);
        const JobId empty = net.submit({Phase {{}, 0.125, false}}, net.now());
        net.runUntilIdle();
        QCOMPARE(net.jobFinishTime(empty), 4.75 + 0.125);
    }
    // A coupled phase advances at the pace of its slowest member.
    void coupledPhaseMovesAtSlowestPace()
    {
        const Design d = line(1, 4);
        FlowNetwork net(d);
        const NodeId a = d.nodes()[0].id, b = d.nodes()[1].id, c = d.nodes()[2].id;
        Phase p {{Flow {a, b, 2.0}, Flow {b, c, 2.0}}, 0, true};
        const JobId j = net.submit({p}, 0);
        net.runUntilIdle();
        QCOMPARE(net.jobFinishTime(j), 2.0);
        net.finish(2.0);
        QCOMPARE(net.linkStats(1, 0).averageUtilization, 0.25);
    }
    void tagsCollectLinks()
    {
        const Design d = line(1, 1);
        FlowNetwork net(d);
        net.submit({Phase {{Flow {d.nodes()[0].id, d.nodes()[1].id, 1.0}}, 0, false}}, 0, 7);
        net.runUntilIdle();
        QCOMPARE(net.linksOfTag(7), std::vector<std::uint32_t> {0});
        QVERIFY(net.linksOfTag(8).empty());
        net.reset();
        QCOMPARE(net.now(), 0.0);
        QVERIFY(net.linksOfTag(7).empty());
    }
    void eventBoundIsReported()
    {
        const Design d = line(1, 1);
        NetworkOptions o;
        o.maxEvents = 5;
        FlowNetwork net(d, o);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        for (int i = 0; i < 10; ++i)
            net.submit({Phase {{Flow {a, c, 1.0 + i}}, 0, false}}, 0);
        QVERIFY_THROWS_EXCEPTION(EventLimitError, net.runUntilIdle());
    }
    void badSubmissionsRefused()
    {
        const Design d = line(1, 1);
        FlowNetwork net(d);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        net.advanceTo(2.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 net.submit({Phase {{Flow {a, c, 1}}, 0, false}}, 1.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 net.submit({Phase {{Flow {a, c, -1}}, 0, false}}, 2.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, net.advanceTo(1.0));
    }
    void utilizationSeries()
    {
        const Design d = line(1, 1);
        NetworkOptions o;
        o.seriesBuckets = 4;
        FlowNetwork net(d, o);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        net.submit({Phase {{Flow {a, c, 1.0}}, 0, false}}, 1.0); // busy over [1, 2]
        net.runUntilIdle();
        net.finish(4.0);
        const LinkDirStats &st = net.linkStats(0, 0);
        QCOMPARE(st.series.size(), std::size_t(4));
        QCOMPARE(st.series[0], 0.0f);
        QVERIFY(std::abs(st.series[1] - 1.0f) < 1e-5f);
        QCOMPARE(st.series[2], 0.0f);
        QCOMPARE(st.averageUtilization, 0.25);
        QCOMPARE(net.seriesBucketSeconds(), 1.0);
    }
    // A link's utilization series depends on its own traffic only: an unrelated flow that
    // shares no bottleneck with it (here: only a wide link) changes none of its buckets. Flow X
    // keeps link A busy over [0, 2] of a 4 s window; flow Y crosses link B over [0.3, 0.55].
    void seriesIndependentOfUnrelatedFlows()
    {
        Design d;
        addTestTech(d, "t", 1.0, 0.0, Technology::InfiniBand);
        const NodeId a = addTestNode(d, NodeKind::Accelerator, "a");
        const NodeId b = addTestNode(d, NodeKind::Accelerator, "b");
        const NodeId sw = addTestNode(d, NodeKind::Switch, "s");
        const NodeId c = addTestNode(d, NodeKind::Accelerator, "c");
        addTestLink(d, a, sw, "t", 1); // A
        addTestLink(d, b, sw, "t", 1); // B
        addTestLink(d, sw, c, "t", 100); // wide
        NetworkOptions o;
        o.seriesBuckets = 4;
        auto seriesOfA = [&](bool withY) {
            FlowNetwork net(d, o);
            net.submit({Phase {{Flow {a, c, 2.0}}, 0, false}}, 0);
            if (withY) {
                net.advanceTo(0.3);
                net.submit({Phase {{Flow {b, c, 0.25}}, 0, false}}, 0.3);
            }
            net.runUntilIdle();
            net.finish(4.0);
            return net.linkStats(0, 0).series;
        };
        const std::vector<float> alone = seriesOfA(false);
        QCOMPARE(seriesOfA(true), alone);
        QCOMPARE(alone, (std::vector<float> {1, 1, 0, 0}));
    }
    // The series keeps every byte inside the step: sum of series x bucket width x capacity =
    // bytes, also when the last internal bucket reaches past the step's end (here the buckets
    // are 1 s wide, the step ends at 3.5 s and the link is busy until then).
    void seriesKeepsTheBytes()
    {
        const Design d = line(1, 1);
        NetworkOptions o;
        o.seriesBuckets = 4;
        FlowNetwork net(d, o);
        const NodeId a = d.nodes()[0].id, c = d.nodes()[2].id;
        net.submit({Phase {{Flow {a, c, 2.0}}, 0, false}}, 0); // [0, 2]
        net.submit({Phase {{Flow {a, c, 1.0}}, 0, false}}, 2.5); // [2.5, 3.5]
        net.runUntilIdle();
        net.finish(3.5);
        const LinkDirStats &st = net.linkStats(0, 0);
        double sum = 0;
        for (float v : st.series)
            sum += v;
        QCOMPARE(st.bytes, 3.0);
        QVERIFY(std::abs(sum * net.seriesBucketSeconds() - 3.0) < 1e-5);
    }
};

QTEST_GUILESS_MAIN(TestFlowSolver)
#include "tst_flowsolver.moc"
