// Symmetry classes of all-to-all flows (flowclasses.h): the aggregated network gives the same
// completion times and link loads as the flow-by-flow one on generated fabrics (rail-optimized,
// 2:1 oversubscribed, NVL72 racks), on fabrics whose symmetry is broken (a failed link, a
// slower link, an uneven group) and with other traffic sharing the links; far fewer units than
// flows on a symmetric fabric; single-flow classes exactly where the symmetry is broken.
#include "../support/testcluster.h"
#include "sim/collectives.h"
#include "sim/flowclasses.h"
#include "sim/network.h"

#include <QtTest>
#include <cmath>
#include <functional>

using namespace weft;
using namespace weft::test;

namespace {

std::vector<NodeId> flat(const Cluster &c)
{
    std::vector<NodeId> out;
    for (const auto &d : c.acc)
        out.insert(out.end(), d.begin(), d.end());
    return out;
}

/// The accelerator of rail `k` of every domain.
std::vector<NodeId> railOf(const Cluster &c, std::size_t k)
{
    std::vector<NodeId> out;
    for (const auto &d : c.acc)
        out.push_back(d[k]);
    return out;
}

std::vector<Phase> allToAll(const Router &r, std::vector<NodeId> members, double bytes)
{
    CollectiveSpec s;
    s.kind = CollectiveKind::AllToAll;
    s.members = std::move(members);
    s.bytes = bytes;
    return CollectivePlanner(r).plan(s).phases;
}

std::vector<Phase> ring(const Router &r, std::vector<NodeId> members, double bytes)
{
    CollectiveSpec s;
    s.kind = CollectiveKind::AllReduce;
    s.members = std::move(members);
    s.bytes = bytes;
    s.algorithm = CollectiveAlgorithm::Ring;
    return CollectivePlanner(r).plan(s).phases;
}

/// Jobs submitted at given times: what both networks run.
struct Job
{
    std::vector<Phase> phases;
    double start = 0;
};

struct Outcome
{
    std::vector<double> finish;
    std::vector<double> bytes; ///< per link direction
    std::vector<double> peak;
    AggregationStats stats;
    std::uint64_t events = 0;
};

Outcome run(const Design &d, const std::vector<Job> &jobs, bool aggregate, bool recordStats = true)
{
    NetworkOptions o;
    o.aggregate = aggregate;
    o.recordStats = recordStats;
    FlowNetwork net(d, o);
    std::vector<JobId> ids;
    for (const Job &j : jobs)
        ids.push_back(net.submit(j.phases, j.start));
    const double end = net.runUntilIdle();
    net.finish(end);
    Outcome out;
    for (JobId id : ids)
        out.finish.push_back(net.jobFinishTime(id));
    for (std::size_t i = 0; i < d.links().size(); ++i)
        for (int dir = 0; dir < 2; ++dir) {
            out.bytes.push_back(net.linkStats(i, dir).bytes);
            out.peak.push_back(net.linkStats(i, dir).peakUtilization);
        }
    out.stats = net.aggregation();
    out.events = net.eventCount();
    return out;
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({std::abs(a), std::abs(b), 1e-30});
}

/// Aggregated == flow by flow: every job's finish, every direction's bytes and peak.
void compareWithPerFlow(const Design &d, const std::vector<Job> &jobs, Outcome *aggregatedOut)
{
    const Outcome a = run(d, jobs, true);
    const Outcome p = run(d, jobs, false);
    QCOMPARE(p.stats.phases, std::uint64_t(0));
    QCOMPARE(a.finish.size(), p.finish.size());
    for (std::size_t j = 0; j < a.finish.size(); ++j) {
        if (!near(a.finish[j], p.finish[j]))
            qWarning("job %zu: aggregated %.12g s, per flow %.12g s", j, a.finish[j], p.finish[j]);
        QVERIFY(near(a.finish[j], p.finish[j]));
    }
    for (std::size_t k = 0; k < a.bytes.size(); ++k) {
        QVERIFY2(near(a.bytes[k], p.bytes[k], 1e-8), qPrintable(QString::number(k)));
        QVERIFY2(near(a.peak[k], p.peak[k], 1e-8),
                 qPrintable(QStringLiteral("direction %1: peak %2 aggregated, %3 per flow")
                                .arg(k)
                                .arg(a.peak[k], 0, 'g', 12)
                                .arg(p.peak[k], 0, 'g', 12)));
    }
    if (aggregatedOut)
        *aggregatedOut = a;
}

Cluster h100(int domains, double oversubscription = 1)
{
    FabricParams p = clusterParams("dgx-h100", domains);
    p.suSize = 4; // two scalable units: cross-spine traffic
    p.oversubscription = oversubscription;
    return generateCluster(p);
}

Cluster nvl72(int racks)
{
    FabricParams p = clusterParams("gb200-nvl72", racks);
    if (racks > 1)
        p.fabric = FabricKind::FatTree;
    return generateCluster(p);
}

/// The link between two nodes (first one found), or an invalid id.
LinkId linkBetween(const Design &d, NodeId a, NodeId b)
{
    for (const Link &l : d.links())
        if ((l.a == a && l.b == b) || (l.a == b && l.b == a))
            return l.id;
    return LinkId {};
}

} // namespace

class TestFlowClasses : public QObject
{
    Q_OBJECT
private slots:
    void sameAsPerFlow_data()
    {
        QTest::addColumn<QString>("fabricName");
        QTest::addColumn<bool>("symmetric");
        QTest::newRow("rail-optimized 8 x DGX H100") << QStringLiteral("rail") << true;
        QTest::newRow("2:1 oversubscribed") << QStringLiteral("oversubscribed") << true;
        QTest::newRow("NVL72 rack") << QStringLiteral("nvl72") << true;
        QTest::newRow("2 NVL72 racks, fat tree") << QStringLiteral("nvl72x2") << true;
        QTest::newRow("a failed leaf-spine link") << QStringLiteral("failed") << false;
        QTest::newRow("a NIC link at half rate") << QStringLiteral("slow") << false;
        QTest::newRow("uneven group (37 ranks)") << QStringLiteral("uneven") << false;
    }
    void sameAsPerFlow()
    {
        QFETCH(QString, fabricName);
        QFETCH(bool, symmetric);
        const std::string fabric = fabricName.toStdString();
        auto make = [&fabric] {
            return fabric == "oversubscribed" ? h100(8, 2)
                : fabric == "nvl72"           ? nvl72(1)
                : fabric == "nvl72x2"         ? nvl72(2)
                                              : h100(8);
        };
        Cluster c = make();
        QVERIFY(c.errors.empty());
        const std::size_t intactClasses
            = symmetricFlowClasses(Router(c.design),
                                   allToAll(Router(c.design), flat(c), 256e6).front().flows)
                  .classes.size();
        std::vector<NodeId> members = flat(c);
        if (fabric == "failed") {
            const LinkId l = linkBetween(c.design, c.leaves.front(), c.spines.front());
            QVERIFY(l.valid());
            QVERIFY(c.design.removeLink(l));
        } else if (fabric == "slow") {
            const LinkId l = linkBetween(c.design, c.acc[1][3], c.leaves[3]);
            QVERIFY(l.valid());
            c.design.link(l)->rate /= 2;
        } else if (fabric == "uneven") {
            members.resize(37);
        }
        const Router r(c.design);
        Outcome a;
        compareWithPerFlow(c.design, {{allToAll(r, members, 256e6), 0.0}}, &a);
        const std::uint64_t n = members.size();
        QCOMPARE(a.stats.flows, n * (n - 1));
        QCOMPARE(a.stats.phases, std::uint64_t(1));
        if (symmetric) {
            // A handful of kinds of flow, not n(n-1) of them, and no single-flow class.
            QVERIFY2(
                a.stats.units * 100 < a.stats.flows,
                qPrintable(
                    QStringLiteral("%1 units for %2 flows").arg(a.stats.units).arg(a.stats.flows)));
            QCOMPARE(a.stats.asymmetricFlows, std::uint64_t(0));
        } else {
            // The classes the broken symmetry touches split (down to single flows), the
            // others stay aggregated.
            QVERIFY2(
                a.stats.units > intactClasses,
                qPrintable(
                    QStringLiteral("%1 classes, %2 intact").arg(a.stats.units).arg(intactClasses)));
            QVERIFY(a.stats.units < a.stats.flows / 4);
        }
        QCOMPARE(a.stats.splitPhases, std::uint64_t(0));
        QVERIFY(a.events < a.stats.flows);
    }

    // Other traffic on the same saturable links (a DP ring on one rail, a second all-to-all
    // starting later) breaks the symmetry the classes relied on: the classes are refined
    // against that traffic when it arrives (not split into single flows) and the answers are
    // still the per-flow ones.
    void refinedWhenOtherTrafficShares()
    {
        Cluster c = h100(8);
        const Router r(c.design);
        const std::vector<NodeId> rail = railOf(c, 2);
        const std::vector<NodeId> all = flat(c);
        const std::vector<NodeId> half(all.begin(), all.begin() + 32);
        Outcome a;
        compareWithPerFlow(c.design,
                           {{allToAll(r, all, 512e6), 0.0},
                            {ring(r, rail, 64e6), 2e-3},
                            {allToAll(r, half, 128e6), 4e-3}},
                           &a);
        QVERIFY(a.stats.refinedPhases >= 1);
        QCOMPARE(a.stats.splitPhases, std::uint64_t(0));
        QCOMPARE(a.stats.splitFlows, std::uint64_t(0));
    }

    // The DeepSeek-V3 pattern on 2 NVL72 racks: EP groups of 64 straddling a rack boundary,
    // overlapping all-to-alls of two groups, pipeline sends from a few GPUs and a DP ring
    // starting and ending in the middle. Every refinement is exact (per-flow answers), and the
    // flows stay far fewer units than flows.
    void rackCrossingGroupsWithPipelineSends()
    {
        Cluster c = nvl72(2);
        QVERIFY(c.errors.empty());
        const Router r(c.design);
        const std::vector<NodeId> all = flat(c);
        const std::vector<NodeId> g0(all.begin(), all.begin() + 64);
        const std::vector<NodeId> g1(all.begin() + 64, all.begin() + 128);
        std::vector<Job> jobs {{allToAll(r, g1, 64e6), 0.0}, {allToAll(r, g0, 32e6), 1e-4}};
        for (int i = 0; i < 8; ++i) {
            Phase p;
            p.flows.push_back({all[i], all[64 + i], 16e6});
            jobs.push_back({{p}, 2e-4 + 1e-5 * i});
        }
        jobs.push_back({ring(r, g0, 128e6), 3e-4});
        jobs.push_back({allToAll(r, g1, 8e6), 5e-4});
        Outcome a;
        compareWithPerFlow(c.design, jobs, &a);
        QVERIFY(a.stats.refinedPhases >= 1);
        QVERIFY2(a.stats.splitFlows * 10 < a.stats.flows,
                 qPrintable(QStringLiteral("%1 single flows of %2")
                                .arg(a.stats.splitFlows)
                                .arg(a.stats.flows)));
    }

    // Without link statistics the solver keeps no loads of the directions that cannot
    // saturate (MaxMinSolver::setTrackLoads, what the planner's simulations run with): every
    // job ends at exactly the same time, through refinements and certificates of aggregates
    // that cross such directions (a DP ring and all-to-alls over the spines, a failed link).
    void sameTimesWithoutStatistics()
    {
        for (const bool failed : {false, true}) {
            Cluster c = h100(8);
            if (failed)
                QVERIFY(
                    c.design.removeLink(linkBetween(c.design, c.leaves.front(), c.spines.front())));
            const Router r(c.design);
            const std::vector<NodeId> all = flat(c);
            const std::vector<NodeId> half(all.begin(), all.begin() + 32);
            std::vector<Job> jobs {{allToAll(r, all, 512e6), 0.0},
                                   {ring(r, railOf(c, 2), 64e6), 2e-3},
                                   {allToAll(r, half, 128e6), 4e-3}};
            for (int i = 0; i < 8; ++i) {
                Phase p;
                p.flows.push_back({all[static_cast<std::size_t>(i)],
                                   all[static_cast<std::size_t>(40 + i)], 16e6});
                jobs.push_back({{p}, 1e-3 + 1e-4 * i});
            }
            const Outcome with = run(c.design, jobs, true, true);
            const Outcome without = run(c.design, jobs, true, false);
            QCOMPARE(without.finish, with.finish);
            QCOMPARE(without.events, with.events);
            QVERIFY(with.stats.refinedPhases >= 1);
        }
    }

    // The same situation twice (the next micro-batch meets the same traffic): the second
    // refinement comes from the cache, and the answers are still the per-flow ones.
    void repeatedSituationRefinedFromTheCache()
    {
        Cluster c = h100(8);
        const Router r(c.design);
        const std::vector<NodeId> rail = railOf(c, 2);
        const std::vector<NodeId> all = flat(c);
        std::vector<Job> jobs;
        for (double t0 : {0.0, 0.5}) { // each round long finished before the next
            jobs.push_back({allToAll(r, all, 64e6), t0});
            jobs.push_back({ring(r, rail, 16e6), t0 + 2e-4});
        }
        Outcome a;
        compareWithPerFlow(c.design, jobs, &a);
        QVERIFY(a.stats.refinedPhases >= 2);
        QVERIFY2(a.stats.cachedRefinements >= 1,
                 qPrintable(QStringLiteral("%1 refinements, %2 from the cache")
                                .arg(a.stats.refinedPhases)
                                .arg(a.stats.cachedRefinements)));
    }

    // A phase solved by classes is routed when it is submitted: an unroutable flow in it
    // throws then (naming its ends), not when the phase starts.
    void unroutableFlowOfAClassifiedPhaseThrowsAtSubmit()
    {
        Cluster c = h100(4);
        const std::vector<NodeId> all = flat(c);
        std::vector<Phase> phases = allToAll(Router(c.design), all, 64e6);
        const NodeId lonely = all.back();
        std::vector<LinkId> cut;
        for (const Link &l : c.design.links())
            if (l.a == lonely || l.b == lonely)
                cut.push_back(l.id);
        QVERIFY(!cut.empty());
        for (LinkId l : cut)
            QVERIFY(c.design.removeLink(l));
        FlowNetwork net(c.design);
        QVERIFY(phases.front().flows.size() >= net.options().aggregateMinFlows);
        bool threw = false;
        try {
            net.submit(phases, 0);
        } catch (const UnroutableError &e) {
            threw = e.from() == lonely || e.to() == lonely;
        }
        QVERIFY(threw);
        QCOMPARE(net.activeFlowUnits(), std::size_t(0));
    }

    // Two all-to-alls on disjoint servers and a ring inside one server: no saturable link is
    // shared, so nothing is split.
    void disjointTrafficStaysAggregated()
    {
        Cluster c = h100(8);
        const Router r(c.design);
        std::vector<NodeId> a0, a1;
        for (int d = 0; d < 4; ++d)
            a0.insert(a0.end(), c.acc[d].begin(), c.acc[d].end());
        for (int d = 4; d < 8; ++d)
            a1.insert(a1.end(), c.acc[d].begin(), c.acc[d].end());
        Outcome o;
        compareWithPerFlow(c.design, {{allToAll(r, a0, 256e6), 0.0}, {allToAll(r, a1, 64e6), 1e-4}},
                           &o);
        QCOMPARE(o.stats.phases, std::uint64_t(2));
        QCOMPARE(o.stats.splitPhases, std::uint64_t(0));
    }

    // Two all-to-alls of different sizes over the same ranks, overlapping (a dispatch and the
    // previous micro-batch's combine): one set of classes, one group, nothing split.
    void samePhaseShapeSharesAGroup()
    {
        Cluster c = h100(8);
        const Router r(c.design);
        const std::vector<NodeId> all = flat(c);
        Outcome o;
        compareWithPerFlow(c.design,
                           {{allToAll(r, all, 256e6), 0.0}, {allToAll(r, all, 96e6), 1e-3}}, &o);
        QCOMPARE(o.stats.phases, std::uint64_t(2));
        QCOMPARE(o.stats.splitPhases, std::uint64_t(0));
    }

    // The refinement itself: on a symmetric fabric every class has members of equal bytes and
    // the merged weights sum the members' fractions.
    void classesSumTheirMembers()
    {
        const Cluster c = h100(4);
        const Router r(c.design);
        const std::vector<Phase> p = allToAll(r, flat(c), 64e6);
        const FlowClasses fc = symmetricFlowClasses(r, p.front().flows);
        QCOMPARE(fc.flows, std::size_t(32 * 31));
        QVERIFY(fc.classes.size() >= 2 && fc.classes.size() <= 16);
        std::size_t members = 0;
        for (const FlowClass &k : fc.classes) {
            members += k.members.size();
            double total = 0, expected = 0;
            for (const RouteEntry &e : k.entries)
                total += e.fraction;
            for (std::uint32_t i : k.members)
                for (const RouteEntry &e :
                     r.route(p.front().flows[i].src, p.front().flows[i].dst).entries)
                    expected += e.fraction;
            QVERIFY(near(total, expected, 1e-12));
        }
        QCOMPARE(members, fc.flows);
    }
};

QTEST_GUILESS_MAIN(TestFlowClasses)
#include "tst_flowclasses.moc"
