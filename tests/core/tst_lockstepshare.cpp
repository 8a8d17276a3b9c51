// The lockstep share of merged replicas' pipeline sends (sim/lockstepshare.h) in closed form,
// and the router's shared walk between two leaves that it relies on for speed.
#include "sim/lockstepshare.h"
#include "sim/routing.h"
#include "testcluster.h"

#include <QtTest>
#include <cmath>
#include <map>

using namespace weft;
using namespace weft::test;

namespace {

// Removes one link between `leaf` and a spine; returns its id.
LinkId removeOneUplink(Design &d, NodeId leaf, const std::vector<NodeId> &spines)
{
    for (const Link &l : d.links())
        for (NodeId s : spines)
            if ((l.a == leaf && l.b == s) || (l.b == leaf && l.a == s)) {
                const LinkId id = l.id;
                d.removeLink(id);
                return id;
            }
    return {};
}

double uplinkCapacity(const Router &r, const Design &d, NodeId leaf,
                      const std::vector<NodeId> &spines)
{
    double sum = 0;
    for (std::size_t i = 0; i < d.links().size(); ++i) {
        const Link &l = d.links()[i];
        for (NodeId s : spines)
            if ((l.a == leaf && l.b == s) || (l.b == leaf && l.a == s))
                sum += r.capacity(static_cast<LinkDir>(2 * i));
    }
    return sum;
}

} // namespace

class TestLockstepShare : public QObject
{
    Q_OBJECT
private slots:
    // 32 DGX H100 under 8 rail leaves and 4 spines; without PXN a rail-0 -> rail-5 send crosses
    // the spines. All 32 servers (one replica each) send at once: healthy, every leaf has the
    // uplinks for its 32 NICs and no send is capped; with one leaf-0 uplink gone, the 32 sends
    // leaving leaf 0 share its remaining uplinks: each gets bound x uplinks / demand, and the
    // sends from other leaves are not capped.
    void lostUplinkSharesInProportion()
    {
        Cluster c = makeCluster("dgx-h100", 32);
        QCOMPARE(c.spines.size(), std::size_t(4));
        std::vector<PipelineHop> hops;
        for (int s = 0; s < 32; ++s)
            hops.push_back({c.acc[s][0], c.acc[(s + 1) % 32][5], s}); // leaf 0 -> leaf 5
        for (int s = 0; s < 32; ++s)
            hops.push_back({c.acc[s][1], c.acc[(s + 1) % 32][6], s}); // leaf 1 -> leaf 6
        {
            const Router r(c.design, false);
            const LockstepShares healthy = lockstepShares(r, hops);
            QVERIFY(healthy.overDemanded.empty());
            for (double cap : healthy.cap)
                QVERIFY(std::isinf(cap));
        }
        QVERIFY(removeOneUplink(c.design, c.leaves[0], c.spines).valid());
        const Router r(c.design, false);
        const LockstepShares s = lockstepShares(r, hops);
        QVERIFY(!s.overDemanded.empty());
        const double nic = r.capacity(r.route(hops[0].src, hops[0].dst).entries.front().linkDir);
        const double share = uplinkCapacity(r, c.design, c.leaves[0], c.spines) / (32 * nic);
        // each leaf has one (multi-lane) link to each spine: three of four are left
        QVERIFY2(std::abs(share - 0.75) < 1e-12, qPrintable(QString::number(share)));
        for (int h = 0; h < 32; ++h)
            QVERIFY2(std::abs(s.cap[static_cast<std::size_t>(h)] - nic * share) < 1e-9 * nic,
                     qPrintable(QStringLiteral("hop %1: %2 vs %3")
                                    .arg(h)
                                    .arg(s.cap[static_cast<std::size_t>(h)])
                                    .arg(nic * share)));
        for (int h = 32; h < 64; ++h)
            QVERIFY(std::isinf(s.cap[static_cast<std::size_t>(h)]));
        for (double x : s.excess)
            QVERIFY(x > 1);
    }
    // Sends of one replica alone never get a cap: the simulated replica's own flows compete in
    // the solver, so only links that two or more replicas share are counted.
    void oneReplicaIsNotCapped()
    {
        Cluster c = makeCluster("dgx-h100", 32);
        removeOneUplink(c.design, c.leaves[0], c.spines);
        const Router r(c.design, false);
        std::vector<PipelineHop> hops;
        for (int s = 0; s < 32; ++s)
            hops.push_back({c.acc[s][0], c.acc[(s + 1) % 32][5], 7});
        const LockstepShares s = lockstepShares(r, hops);
        QVERIFY(s.overDemanded.empty());
        for (double cap : s.cap)
            QVERIFY(std::isinf(cap));
    }
    // Routes between single-NIC accelerators on two leaves share the walk between the leaves:
    // the same middle entries for every pair of those leaves, their own NIC links at the ends
    // (fraction 1 up, the arriving mass down), and every byte conserved at every switch, also
    // with a lost uplink (uneven ECMP).
    void leafPairsShareTheirWalk()
    {
        Cluster c = makeCluster("dgx-h100", 32);
        removeOneUplink(c.design, c.leaves[0], c.spines);
        const Router r(c.design, false);
        const Route a = r.route(c.acc[0][0], c.acc[1][5]);
        const Route b = r.route(c.acc[2][0], c.acc[3][5]);
        QCOMPARE(a.entries.size(), b.entries.size());
        QVERIFY(a.entries.size() > 4);
        QVERIFY(a.entries.front().linkDir != b.entries.front().linkDir);
        QVERIFY(a.entries.back().linkDir != b.entries.back().linkDir);
        QCOMPARE(a.entries.front().fraction, 1.0);
        QVERIFY(std::abs(a.entries.back().fraction - 1.0) < 1e-12);
        for (std::size_t i = 1; i + 1 < a.entries.size(); ++i) {
            QCOMPARE(a.entries[i].linkDir, b.entries[i].linkDir);
            QCOMPARE(a.entries[i].fraction, b.entries[i].fraction);
        }
        for (const Route *route : {&a, &b}) {
            std::map<NodeId, double> net; // out - in per node
            for (const RouteEntry &e : route->entries) {
                const Link &l = c.design.links()[e.linkDir / 2];
                const NodeId from = e.linkDir % 2 ? l.b : l.a;
                const NodeId to = e.linkDir % 2 ? l.a : l.b;
                net[from] += e.fraction;
                net[to] -= e.fraction;
            }
            for (const auto &[node, x] : net) {
                const Node *n = c.design.node(node);
                const double expected = n->id == c.acc[0][0] || n->id == c.acc[2][0] ? 1.0
                    : n->id == c.acc[1][5] || n->id == c.acc[3][5]                   ? -1.0
                                                                                     : 0.0;
                QVERIFY2(std::abs(x - expected) < 1e-12,
                         qPrintable(QString::fromStdString(n->name)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestLockstepShare)
#include "tst_lockstepshare.moc"
