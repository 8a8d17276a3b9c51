// Routing: ECMP fractions, scale-up inside a domain, rails and PXN between domains, spines,
// unroutable pairs and zero-capacity links.
#include "netfabrics.h"
#include "sim/network.h"
#include "sim/routing.h"
#include "testcluster.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace weft;
using namespace weft::test;

namespace {

double sumOver(const Router &r, const Route &route, bool scaleUp)
{
    double s = 0;
    for (const RouteEntry &e : route.entries)
        if (r.isScaleUp(e.linkDir / 2) == scaleUp)
            s += e.fraction;
    return s;
}

bool crossesNode(const Design &d, const Route &route, NodeId n)
{
    for (const RouteEntry &e : route.entries) {
        const Link &l = d.links()[e.linkDir / 2];
        if (l.a == n || l.b == n)
            return true;
    }
    return false;
}

// The route's entries as (link direction, fraction bits), sorted: a multiset to compare exactly.
std::vector<std::pair<LinkDir, double>> entrySet(const std::vector<RouteEntry> &entries)
{
    std::vector<std::pair<LinkDir, double>> out;
    for (const RouteEntry &e : entries)
        out.emplace_back(e.linkDir, e.fraction);
    std::sort(out.begin(), out.end());
    return out;
}

// Router::routeParts expanded (own entries, then each piece's) for every ordered pair of
// `nodes` equals route() bit for bit; returns the pairs that held a shared piece.
int checkPartsAreRoutes(const Router &r, const std::vector<NodeId> &nodes)
{
    int withPieces = 0;
    RouteParts parts;
    for (NodeId a : nodes)
        for (NodeId b : nodes) {
            r.routeParts(a, b, parts);
            std::vector<RouteEntry> all = parts.own;
            for (int k = 0; k < parts.pieceCount; ++k) {
                const std::vector<RouteEntry> &p = r.pieceEntries(parts.pieces[k]);
                all.insert(all.end(), p.begin(), p.end());
            }
            withPieces += parts.pieceCount > 0;
            const auto want = entrySet(r.route(a, b).entries);
            if (entrySet(all) != want) {
                qWarning("parts differ from the route %u -> %u", a.value, b.value);
                return -1;
            }
        }
    return withPieces;
}

} // namespace

class TestRouting : public QObject
{
    Q_OBJECT
private slots:
    // DGX H100: GPU -> 4 NVSwitch chips with 5,4,4,5 lanes; a GPU-to-GPU flow splits per lane.
    void ecmpSplitsPerLaneOverNvSwitchChips()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const Route &route = r.route(c.acc[0][0], c.acc[0][1]);
        QCOMPARE(route.entries.size(), std::size_t(8)); // 4 up, 4 down
        std::vector<double> fr;
        for (const RouteEntry &e : route.entries)
            fr.push_back(e.fraction);
        std::sort(fr.begin(), fr.end());
        QVERIFY(std::abs(fr.front() - 4.0 / 18) < 1e-12);
        QVERIFY(std::abs(fr.back() - 5.0 / 18) < 1e-12);
        QVERIFY(std::abs(sumOver(r, route, true) - 2.0) < 1e-12); // every byte goes up and down
        QCOMPARE(route.alpha, c.design.hardware.linkTechs.at("nvlink4").latency);
    }
    // Rail-matched traffic between domains goes NIC -> rail leaf -> NIC, no NVLink.
    void railMatchedUsesOwnNic()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const Router r(c.design);
        const Route &route = r.route(c.acc[0][3], c.acc[1][3]);
        QCOMPARE(route.entries.size(), std::size_t(2));
        QCOMPARE(sumOver(r, route, true), 0.0);
        QVERIFY(crossesNode(c.design, route, c.leaves[3]));
        QCOMPARE(route.alpha, c.design.hardware.linkTechs.at("ib-ndr").latency);
    }
    // PXN: rail 0 -> rail 5 of another domain hops over NVLink to the local rail-5 GPU and leaves
    // through its NIC; without PXN it leaves through its own NIC and crosses a spine.
    void pxnHopsToRailMatchedGpu()
    {
        const Cluster c = makeCluster("dgx-h100", 32); // one unit: each leaf reaches 4 spines
        QCOMPARE(c.spines.size(), std::size_t(4));
        {
            const Router r(c.design, true);
            const Route &route = r.route(c.acc[0][0], c.acc[1][5]);
            QVERIFY(std::abs(sumOver(r, route, true) - 2.0) < 1e-12);
            QVERIFY(crossesNode(c.design, route, c.acc[0][5]));
            QVERIFY(crossesNode(c.design, route, c.leaves[5]));
            QVERIFY(!crossesNode(c.design, route, c.spines[0]));
        }
        {
            const Router r(c.design, false);
            const Route &route = r.route(c.acc[0][0], c.acc[1][5]);
            QCOMPARE(sumOver(r, route, true), 0.0);
            QVERIFY(crossesNode(c.design, route, c.leaves[0]));
            // ECMP over the four spines (8 lanes each), a quarter each
            int spineLinks = 0;
            for (const RouteEntry &e : route.entries) {
                const Link &l = c.design.links()[e.linkDir / 2];
                if (l.a == c.leaves[0]
                    && std::find(c.spines.begin(), c.spines.end(), l.b) != c.spines.end()) {
                    ++spineLinks;
                    QVERIFY(std::abs(e.fraction - 0.25) < 1e-12);
                }
            }
            QCOMPARE(spineLinks, 4);
        }
    }
    // Inside a domain, scale-up links are used even when a PCIe/NIC path is as short.
    void intraDomainPrefersScaleUp()
    {
        // The generator gives every GPU its own NIC; GPUs 0 and 1 here also share a PCIe
        // switch, as in a DGX A100 (two GPUs and their NICs per PCIe switch): a two-hop path.
        Cluster c = makeCluster("dgx-a100", 2);
        const NodeId pcie
            = addTestNode(c.design, NodeKind::Switch, "pcie0", c.design.node(c.acc[0][0])->group);
        addTestLink(c.design, c.acc[0][0], pcie, "pcie5", 64e9);
        addTestLink(c.design, c.acc[0][1], pcie, "pcie5", 64e9);
        const Router r(c.design);
        const Route &route = r.route(c.acc[0][0], c.acc[0][1]);
        QVERIFY(std::abs(sumOver(r, route, true) - 2.0) < 1e-12);
        QCOMPARE(sumOver(r, route, false), 0.0);
        // between domains, each GPU leaves through its own rail's NIC, not its neighbour's
        const Route &out = r.route(c.acc[0][1], c.acc[1][1]);
        QVERIFY(crossesNode(c.design, out, c.leaves[1]));
        QVERIFY(!crossesNode(c.design, out, pcie));
    }
    // Without any NVLink, traffic inside a server goes through the network.
    void noScaleUpFallsBackToNetwork()
    {
        Design d;
        addTestTech(d, "eth", 1.0, 1e-6, Technology::Ethernet);
        Group g;
        const GroupId gid = d.addGroup(g);
        const NodeId a = addTestNode(d, NodeKind::Accelerator, "a", gid);
        const NodeId b = addTestNode(d, NodeKind::Accelerator, "b", gid);
        const NodeId sw = addTestNode(d, NodeKind::Switch, "tor");
        addTestLink(d, a, sw, "eth", 1e9);
        addTestLink(d, b, sw, "eth", 1e9);
        const Router r(d);
        QCOMPARE(r.route(a, b).entries.size(), std::size_t(2));
    }
    void unroutablePairNamesBothEnds()
    {
        Design d;
        const NodeId a = addTestNode(d, NodeKind::Accelerator, "alpha");
        const NodeId b = addTestNode(d, NodeKind::Accelerator, "beta");
        const Router r(d);
        try {
            r.route(a, b);
            QFAIL("expected UnroutableError");
        } catch (const UnroutableError &e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY(msg.contains(QLatin1String("alpha")) && msg.contains(QLatin1String("beta")));
            QCOMPARE(e.from(), a);
            QCOMPARE(e.to(), b);
        }
        // and the network refuses the job at submission, before running anything
        FlowNetwork net(d);
        QVERIFY_THROWS_EXCEPTION(UnroutableError,
                                 net.submit({Phase {{Flow {a, b, 1.0}}, 0, false}}, 0));
    }
    void zeroCapacityLinkIsNoPath()
    {
        Design d;
        addTestTech(d, "t", 1.0, 0);
        const NodeId a = addTestNode(d, NodeKind::Accelerator, "a");
        const NodeId b = addTestNode(d, NodeKind::Accelerator, "b");
        addTestLink(d, a, b, "t", 0.0);
        const Router r(d);
        QVERIFY_THROWS_EXCEPTION(UnroutableError, r.route(a, b));
    }
    // Capacity counts the technology's efficiency.
    void capacityIsLineRateTimesEfficiency()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const Link &l = c.design.links()[0];
        const LinkTechSpec &t = c.design.hardware.linkTechs.at(l.tech);
        QCOMPARE(r.capacity(0), l.rate * l.lanes * t.efficiency);
    }
    // Routes as parts (the classes' input, flowclasses.h) are the routes exactly: PXN and
    // rail-matched pairs across two scalable units of DGX H100 (pieces: the hop to the proxy,
    // the leaf-to-leaf walk), NVL72 racks on a fat tree, without PXN, to a switch (in-network
    // reduction), and a fabric with a spine cable removed (asymmetric ECMP).
    void partsAreTheRoutesExactly()
    {
        FabricParams p = clusterParams("dgx-h100", 40); // 2 scalable units of 32 and 8
        const Cluster c = generateCluster(p);
        QVERIFY(!c.acc.empty());
        std::vector<NodeId> nodes;
        for (int d : {0, 1, 33, 39})
            for (int g : {0, 3, 7})
                nodes.push_back(c.acc[static_cast<std::size_t>(d)][static_cast<std::size_t>(g)]);
        nodes.push_back(c.leaves.front());
        for (bool pxn : {true, false}) {
            const Router r(c.design, pxn);
            QVERIFY(checkPartsAreRoutes(r, nodes) > 0);
        }
        Design cut = c.design; // a leaf-to-spine cable gone: the ECMP fractions differ by leaf
        const auto it = std::find_if(cut.links().begin(), cut.links().end(), [&](const Link &l) {
            return (l.a == c.leaves.front() || l.b == c.leaves.front())
                && std::find(c.spines.begin(), c.spines.end(), l.a == c.leaves.front() ? l.b : l.a)
                != c.spines.end();
        });
        QVERIFY(it != cut.links().end());
        cut.removeLink(it->id);
        const Router rc(cut);
        QVERIFY(checkPartsAreRoutes(rc, nodes) > 0);

        FabricParams g = clusterParams("gb200-nvl72", 2);
        g.fabric = FabricKind::FatTree;
        const Cluster racks = generateCluster(g);
        QVERIFY(!racks.acc.empty());
        std::vector<NodeId> gpus {racks.acc[0][0], racks.acc[0][35], racks.acc[0][71],
                                  racks.acc[1][0], racks.acc[1][40]};
        const Router rg(racks.design);
        QVERIFY(checkPartsAreRoutes(rg, gpus) > 0);
    }
    // Routes are cached per pair and distances per destination class (its attachment switches).
    void routesAreCached()
    {
        const Cluster c = makeCluster("dgx-h100", 4);
        const Router r(c.design);
        const Route *first = &r.route(c.acc[0][0], c.acc[1][0]);
        QCOMPARE(&r.route(c.acc[0][0], c.acc[1][0]), first);
        QCOMPARE(r.cachedRoutes(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestRouting)
#include "tst_routing.moc"
