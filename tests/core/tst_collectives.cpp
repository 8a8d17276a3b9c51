// Collective algorithms: closed forms on a uniform ring, channel/rail structure across
// domains, tree for small messages, NVLS, all-to-all, contention with other traffic.
#include "collectivetesting.h"
#include "netfabrics.h"
#include "sim/collectives.h"
#include "sim/collectivesmoe.h"
#include "sim/doubletree.h"
#include "sim/netcomm.h"
#include "testcluster.h"

#include <QtTest>
#include <array>
#include <cmath>
#include <map>
#include <set>

using namespace weft;
using namespace weft::test;

namespace {

std::vector<NodeId> allOf(const Cluster &c)
{
    std::vector<NodeId> v;
    for (const auto &d : c.acc)
        v.insert(v.end(), d.begin(), d.end());
    return v;
}

// A cluster of `domains` DGX H100 with its router and planner.
struct Setup
{
    Cluster c;
    Router r;
    CollectivePlanner planner;
    explicit Setup(int domains)
        : c(makeCluster("dgx-h100", domains))
        , r(c.design)
        , planner(r)
    {
    }
    [[nodiscard]] CollectivePlan plan(CollectiveAlgorithm a) const
    {
        return planner.plan(spec(CollectiveKind::AllReduce, allOf(c), 1e9, a));
    }
};

// Whether planning an in-network all-reduce over every accelerator of `s` is refused.
bool refusesInNetwork(const FabricParams &p)
{
    const Cluster c = generateCluster(p);
    const Router r(c.design);
    try {
        CollectivePlanner(r).plan(
            spec(CollectiveKind::AllReduce, allOf(c), 1e6, CollectiveAlgorithm::InNetwork));
    } catch (const std::invalid_argument &) {
        return true;
    }
    return false;
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace

class TestCollectives : public QObject
{
    Q_OBJECT
private slots:
    // Thakur et al. 2005: ring all-reduce = 2(n-1) hops + 2(n-1)/n S/B; reduce-scatter and
    // all-gather = (n-1) hops + (n-1)/n S/B; here the ring runs both ways (two channels, S/2
    // each), plus NCCL's base latency, with the protocol of the smallest time (protocol.h).
    void ringClosedForm_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("bytes");
        for (int n : {3, 4, 8, 16})
            for (double s : {1e3, 1e9}) {
                QTest::addRow("ar n=%d S=%g", n, s) << n << int(CollectiveKind::AllReduce) << s;
                QTest::addRow("ag n=%d S=%g", n, s) << n << int(CollectiveKind::AllGather) << s;
                QTest::addRow("rs n=%d S=%g", n, s) << n << int(CollectiveKind::ReduceScatter) << s;
            }
    }
    void ringClosedForm()
    {
        QFETCH(int, n);
        QFETCH(int, kind);
        QFETCH(double, bytes);
        const double B = 10e9;
        const Design d = uniformRing(n, B, 2e-6);
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto k = static_cast<CollectiveKind>(kind);
        const CollectivePlan plan
            = planner.plan(spec(k, accelerators(d), bytes, CollectiveAlgorithm::Ring));
        QCOMPARE(plan.channels, 2);
        const double t = planner.isolatedTime(plan);
        const double steps = k == CollectiveKind::AllReduce ? 2.0 * (n - 1) : n - 1.0;
        double expected = 1e300;
        Protocol best = Protocol::Simple;
        for (Protocol p : {Protocol::LL, Protocol::LL128, Protocol::Simple}) {
            const auto i = static_cast<std::size_t>(p);
            const double e = baseLatency(LatencyFamily::Ring)[i]
                + steps * hopLatency(LatencyFamily::Ring, HopClass::NVLink, false)[i]
                + steps / n * bytes / (2 * B) * wireFactor(p);
            if (e < expected) {
                expected = e;
                best = p;
            }
        }
        QCOMPARE(int(plan.protocol), int(best));
        QVERIFY2(near(t, expected), qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(expected)));
    }
    // At 1 byte a ring's time is the protocol's base plus the hop latencies along the path of
    // its steps: one slow link (5 us of cable beyond its technology's figure) is charged each
    // time the data crosses it, not at every step.
    void oneByteRingIsBasePlusHopSum()
    {
        Design d = uniformRing(4, 10e9, 0);
        Link slow = d.links().front();
        d.removeLink(slow.id);
        addTestLink(d, slow.a, slow.b, slow.tech, slow.rate, 1, 5e-6);
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto acc = accelerators(d);
        const auto ll = static_cast<std::size_t>(Protocol::LL);
        const double base = baseLatency(LatencyFamily::Ring)[ll];
        const double hop = hopLatency(LatencyFamily::Ring, HopClass::NVLink, false)[ll];
        // all-gather: 3 steps of the 4 edges; the worst window holds the slow edge
        const CollectivePlan ag
            = planner.plan(spec(CollectiveKind::AllGather, acc, 1, CollectiveAlgorithm::Ring));
        QCOMPARE(int(ag.protocol), int(Protocol::LL));
        QVERIFY(near(planner.isolatedTime(ag), base + 3 * hop + 5e-6, 1e-3));
        // all-reduce: 6 steps over 4 edges, one turn and a window of 2: the worst piece of data
        // crosses the slow edge twice
        const CollectivePlan ar
            = planner.plan(spec(CollectiveKind::AllReduce, acc, 1, CollectiveAlgorithm::Ring));
        QVERIFY(near(planner.isolatedTime(ar), base + 6 * hop + 10e-6, 1e-3));
    }
    // 1 KiB all-reduce over 16 H100 on 2 servers: nccl-tests shows ~25-35 us (the step latency
    // charged at the slowest path gave 450 us).
    void smallAllReduceAcrossTwoServers()
    {
        const Setup st(2);
        const CollectivePlan plan
            = st.planner.plan(spec(CollectiveKind::AllReduce, allOf(st.c), 1024));
        const double t = st.planner.isolatedTime(plan);
        QVERIFY2(t > 20e-6 && t < 40e-6, qPrintable(QString::number(t * 1e6)));
        QCOMPARE(int(plan.protocol), int(Protocol::LL));
    }
    // Protocols by message size on one DGX H100: LL for small messages, Simple (ring or NVLS)
    // for large ones.
    void protocolBySize()
    {
        const Setup st(1);
        const auto members = allOf(st.c);
        QCOMPARE(int(st.planner.plan(spec(CollectiveKind::AllReduce, members, 1024)).protocol),
                 int(Protocol::LL));
        QCOMPARE(int(st.planner.plan(spec(CollectiveKind::AllReduce, members, 8e9)).protocol),
                 int(Protocol::Simple));
        const CollectivePlan ring = st.planner.plan(
            spec(CollectiveKind::AllReduce, members, 8e9, CollectiveAlgorithm::Ring));
        QCOMPARE(int(ring.protocol), int(Protocol::Simple));
    }
    // NCCL's tree runs a channel per NIC: over 8 DGX H100 every rail carries tree traffic and the
    // busbw is far above one NIC's (46.9 GB/s with one NIC per tree).
    void treeUsesEveryNic()
    {
        const Setup st(8);
        const double S = double(1 << 30);
        const CollectivePlan plan = st.plan(CollectiveAlgorithm::Tree);
        std::set<int> rails;
        for (const Flow &f : plan.phases.front().flows)
            if (st.r.domainOf(st.r.nodeIndex(f.src)) != st.r.domainOf(st.r.nodeIndex(f.dst)))
                rails.insert(st.r.railOf(st.r.nodeIndex(f.src)));
        QCOMPARE(rails.size(), std::size_t(8));
        QCOMPARE(plan.channels, 16);
        const double t = st.planner.isolatedTime(
            spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::Tree));
        const double busbw = S / t * busBandwidthFactor(CollectiveKind::AllReduce, 64);
        QVERIFY2(busbw > 150e9, qPrintable(QString::number(busbw / 1e9)));
    }
    // NCCL's tree all-reduce reduces up and broadcasts down at once (src/device/all_reduce.h,
    // runTreeSplit). On three servers (trees 0 <- 2 <- 1 and 1 <- 0 <- 2), k = 4 GPUs and NICs of
    // each DGX H100, a node's NIC carries 1.5 S/k per direction at once, so the bandwidth time is
    // 1.5 S / (k x NIC rate x 0.92); reduce then broadcast took 2 S / (...) (GB200 partitions
    // over InfiniBand, nccl issue 1801: tree busbw 485.7 GB/s measured, 338 before). Four
    // servers (inner nodes with two children) stay at 2 S / (...). Four GPUs of each server keep
    // the chains' NVLink traffic (2 S per GPU) off the critical path.
    void treeReducesAndBroadcastsAtOnce()
    {
        for (const int servers : {3, 4}) {
            const Setup st(servers);
            const double nic = 50e9 * st.c.design.hardware.linkTechs.at("ib-ndr").efficiency;
            const double S = 8.0 * (1 << 30);
            std::vector<NodeId> members;
            for (const auto &dom : st.c.acc)
                members.insert(members.end(), dom.begin(), dom.begin() + 4);
            CollectiveSpec s
                = spec(CollectiveKind::AllReduce, members, S, CollectiveAlgorithm::Tree);
            const CollectivePlan plan = st.planner.plan(s);
            QCOMPARE(int(plan.protocol), int(Protocol::Simple));
            double latency = 0;
            for (const Phase &ph : plan.phases)
                latency += ph.latency;
            const double bandwidth = st.planner.isolatedTime(plan) - latency;
            const double expected = (servers == 3 ? 1.5 : 2.0) * S
                / (4 * nic * treeBandwidthFactor(Protocol::Simple, S));
            QVERIFY2(near(bandwidth, expected, 0.01),
                     qPrintable(QStringLiteral("%1 servers: %2 vs %3 s")
                                    .arg(servers)
                                    .arg(bandwidth)
                                    .arg(expected)));
        }
    }
    // Groups of the same shape on other hardware never share a decision: two DGX H100, the
    // second's NVLinks at half rate (same ranks per domain, rails and GPU model). Its TP
    // all-reduce must take as long after the first server's as alone; the auto cache gave it
    // the first's bandwidth time for the NVLS fill (a replica with slower links came out 2.7%
    // short in a training step: issue 15, replica symmetry across different hardware).
    void slowerLinksGetTheirOwnDecision()
    {
        Cluster c = makeCluster("dgx-h100", 2);
        Design &d = c.design;
        const std::set<NodeId> second(c.acc[1].begin(), c.acc[1].end());
        std::vector<Link> slower;
        for (const Link &l : d.links())
            if (l.tech == "nvlink4" && (second.count(l.a) || second.count(l.b)))
                slower.push_back(l);
        QVERIFY(!slower.empty());
        for (Link l : slower) {
            d.removeLink(l.id);
            l.rate /= 2;
            d.addLink(l);
        }
        const Router r(d);
        for (const double bytes : {1e6, 16e6, 256e6}) {
            CollectiveSpec first = spec(CollectiveKind::AllReduce, c.acc[0], bytes);
            CollectiveSpec other = spec(CollectiveKind::AllReduce, c.acc[1], bytes);
            first.ncclTuner = other.ncclTuner = true;
            const CollectivePlanner shared(r), fresh(r);
            shared.plan(first);
            const double after = shared.isolatedTime(shared.plan(other));
            const double alone = fresh.isolatedTime(fresh.plan(other));
            QVERIFY2(
                near(after, alone, 1e-9),
                qPrintable(
                    QStringLiteral("%1 B: %2 vs %3 s alone").arg(bytes).arg(after).arg(alone)));
        }
    }
    // Labels that do not lie: algorithms an operation does not have are refused with a message,
    // and so is a collective of one rank.
    void honestAlgorithmErrors()
    {
        const Setup st(1);
        const auto members = allOf(st.c);
        auto refused = [&](CollectiveKind k, std::vector<NodeId> m, CollectiveAlgorithm a) {
            try {
                st.planner.plan(spec(k, std::move(m), 1e6, a));
            } catch (const std::invalid_argument &e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(refused(CollectiveKind::AllToAll, members, CollectiveAlgorithm::Tree)
                    .contains(QStringLiteral("no tree algorithm")));
        QVERIFY(refused(CollectiveKind::SendRecv, members, CollectiveAlgorithm::InNetwork)
                    .contains(QStringLiteral("send_recv has no")));
        QVERIFY(refused(CollectiveKind::AllReduce, {members[0]}, CollectiveAlgorithm::Auto)
                    .contains(QStringLiteral("2 or more ranks")));
        QCOMPARE(name(st.planner.plan(spec(CollectiveKind::AllToAll, members, 1e6)).algorithm),
                 name(CollectiveAlgorithm::Direct));
    }
    // Across domains: one ring per rail position, each crossing rail-matched; every NIC
    // carries one channel, so busbw is the NIC bandwidth x NICs per domain.
    void ringsAcrossDomainsUseEveryRail()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const double bytes = 1e10; // the per-step latencies are under 1% of the time
        const Router r(c.design);
        const CollectivePlanner planner(r);
        const auto plan = planner.plan(
            spec(CollectiveKind::AllReduce, allOf(c), bytes, CollectiveAlgorithm::Ring));
        QCOMPARE(plan.channels, 8);
        QCOMPARE(plan.phases.size(), std::size_t(1));
        // 8 x 16 ring edges; channels crossing the same pair of GPUs share one merged flow
        QVERIFY(plan.phases[0].flows.size() <= std::size_t(8 * 16));
        FlowNetwork net(c.design);
        net.submit(plan.phases, 0);
        const double t = net.runUntilIdle();
        net.finish(t);
        for (std::size_t i = 0; i < c.design.links().size(); ++i) {
            const Link &l = c.design.links()[i];
            if (l.tech != "ib-ndr"
                || !(c.design.node(l.a)->isAccelerator() || c.design.node(l.b)->isAccelerator()))
                continue; // NIC links only (the idle leaf-spine trunks are NDR too)
            // each NIC direction carries one channel's 2(n-1)/n S/8 (no spine, no PXN needed)
            QVERIFY(near(net.linkStats(i, 0).bytes, 2 * 15.0 / 16 * bytes / 8, 1e-6));
        }
        const double nic = 50e9 * c.design.hardware.linkTechs.at("ib-ndr").efficiency;
        const double busbw = bytes / t * busBandwidthFactor(CollectiveKind::AllReduce, 16);
        QVERIFY2(busbw > 0.97 * 8 * nic && busbw <= 8 * nic * 1.0000001,
                 qPrintable(QString::number(busbw)));
    }
    // Hierarchical all-reduce, pipelined chunk by chunk: the reduce-scatter inside the domains,
    // the all-reduce of S/8 across the 4 domains rail by rail (2(3)/4 S/8 per edge) and the
    // all-gather run as one coupled phase; the reduce-scatter and all-gather share the
    // scale-up edges (2 x 7/8 S each).
    void hierarchicalPhases()
    {
        const Setup st(4);
        const Router &r = st.r;
        const auto plan = st.plan(CollectiveAlgorithm::Hierarchical);
        QCOMPARE(plan.phases.size(), std::size_t(1));
        int inter = 0, intra = 0;
        for (const Flow &f : plan.phases[0].flows) {
            if (r.domainOf(r.nodeIndex(f.src)) != r.domainOf(r.nodeIndex(f.dst))) {
                ++inter;
                QCOMPARE(r.railOf(r.nodeIndex(f.src)), r.railOf(r.nodeIndex(f.dst)));
                QVERIFY(near(f.bytes, 1.5 * 1e9 / 8));
            } else {
                ++intra;
                QVERIFY(near(f.bytes, 2 * 7.0 / 8 * 1e9));
            }
        }
        QCOMPARE(inter, 32);
        QCOMPARE(intra, 32);
        // pipelined: faster than the three stages one after the other
        const double tIntra = 7.0 / 8 * 1e9 / r.scaleUpEgress(r.nodeIndex(st.c.acc[0][0]));
        const double tInter = 1.5 * 1e9 / 8 / r.scaleOutEgress(r.nodeIndex(st.c.acc[0][0]));
        const double t = st.planner.isolatedTime(
            spec(CollectiveKind::AllReduce, allOf(st.c), 1e9, CollectiveAlgorithm::Hierarchical));
        QVERIFY2(t < 0.9 * (2 * tIntra + tInter), qPrintable(QString::number(t)));
        QVERIFY(t > std::max(2 * tIntra, tInter));
    }
    // NVLS-Tree across two DGX H100 (NCCL_ALGO_NVLS_TREE): per member the NVLS volume
    // S(1 + 1/8) each way to its switch chips, and per rail the reduced shard S/8 over two
    // complementary trees (S/16 each way per tree); latency = NCCL's NVLink NVLS-Tree hop (25 us)
    // + 2 log2(2) network NVLS-Tree hops (20.9 us); a payload of K loops (8 heads x 16 channels x
    // 128 KiB) pays the first loop's trip through the stages beyond the bottleneck's: the NVLS
    // scatter, reduce, multicast and gather (the bottleneck on two servers, two loops together)
    // and a network hop up and one down, each faster: between 1 and 3 loops.
    void nvlsTreeAcrossTwoServers()
    {
        const Setup st(2);
        const Router &r = st.r;
        const double S = 1 << 30;
        const CollectivePlan plan = st.planner.plan(
            spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::NvlsTree));
        QCOMPARE(plan.algorithm, CollectiveAlgorithm::NvlsTree);
        QCOMPARE(plan.protocol, Protocol::Simple);
        QCOMPARE(plan.phases.size(), std::size_t(1));
        double nvls = 0, net = 0;
        for (const Flow &f : plan.phases[0].flows) {
            const bool cross = r.domainOf(r.nodeIndex(f.src)) >= 0
                && r.domainOf(r.nodeIndex(f.dst)) >= 0
                && r.domainOf(r.nodeIndex(f.src)) != r.domainOf(r.nodeIndex(f.dst));
            (cross ? net : nvls) += f.bytes;
            if (cross)
                QCOMPARE(r.railOf(r.nodeIndex(f.src)), r.railOf(r.nodeIndex(f.dst)));
        }
        QVERIFY(near(nvls, 16 * 2 * S * (1 + 1.0 / 8)));
        QVERIFY(near(net, 8 * 2 * 2 * S / 16)); // 8 rails, 2 trees, up and down, S/16
        const double lat = (25 + 2 * 20.9) * 1e-6;
        const double loops = std::ceil(S / (8 * 16 * 128 * 1024.0));
        QVERIFY2(plan.fill * loops > 1 && plan.fill * loops < 3,
                 qPrintable(QString::number(plan.fill * loops)));
        const double at1 = st.planner.isolatedTime(
            spec(CollectiveKind::AllReduce, allOf(st.c), 1, CollectiveAlgorithm::NvlsTree));
        QVERIFY2(std::abs(at1 - lat) < 1e-8, qPrintable(QString::number(at1)));
        // what NCCL runs across NVLS servers from tens of MiB up: picked by auto at 1 GiB
        const CollectivePlan autoPlan
            = st.planner.plan(spec(CollectiveKind::AllReduce, allOf(st.c), S));
        QCOMPARE(autoPlan.algorithm, CollectiveAlgorithm::NvlsTree);
        // refused inside one domain and on servers without NVLS (DGX A100)
        const Setup one(1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 one.planner.plan(spec(CollectiveKind::AllReduce, allOf(one.c), S,
                                                       CollectiveAlgorithm::NvlsTree)));
        const Cluster a100 = makeCluster("dgx-a100", 2);
        const Router ra(a100.design);
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            CollectivePlanner(ra).plan(
                spec(CollectiveKind::AllReduce, allOf(a100), S, CollectiveAlgorithm::NvlsTree)));
    }
    // NCCL's NVLS-Tree runs no faster than its heads x NCCL's measured per-channel busBw ceiling
    // (perChMaxNVLSTreeBws, NCCL 2.28.3: Hopper 57.7 GB/s on two nodes, 45.5 on more), however
    // fast the links: on two DGX H100 the links alone allow ~507 GB/s busbw at 8 GiB.
    void nvlsTreePacedByHeads()
    {
        const double S = 8.0 * (1 << 30);
        for (const auto &[servers, perHead] : {std::pair {2, 57.7}, std::pair {4, 45.5}}) {
            const Setup st(servers);
            const double n = 8.0 * servers;
            const double t = st.planner.isolatedTime(
                spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::NvlsTree));
            const double busbw = S / t * 2 * (n - 1) / n / 1e9;
            QVERIFY2(busbw <= 8 * perHead * (1 + 1e-9) && busbw > 0.97 * 8 * perHead,
                     qPrintable(QStringLiteral("%1 servers: %2 GB/s").arg(servers).arg(busbw)));
        }
    }
    // NCCL's tree LL128 across nodes shrinks its chunks to keep ~10-20 per channel
    // (calcCollChunking) and a channel's network hop passes one per hop latency (8.5 us): on 8
    // DGX H100 a 4 MiB all-reduce takes its latency (75.3 us as NCCL's model) + 16 chunks x 8.5
    // us, not latency + S/B (~30 us at the links' rate); measured 204 us (nccl-tests issue 309).
    void treeLl128ChunksPaceTheNetwork()
    {
        QCOMPARE(treeLl128ChunkBytes(4 << 20, 16, 8, 8), 17280.0);
        QCOMPARE(treeLl128ChunkBytes(1 << 30, 16, 8, 8), 576000.0);
        const Setup st(8);
        CollectiveSpec s
            = spec(CollectiveKind::AllReduce, allOf(st.c), 4 << 20, CollectiveAlgorithm::Tree);
        s.ncclTuner = true; // LL128 is NCCL's choice there (its model knows no pacing)
        const CollectivePlan plan = st.planner.plan(s);
        QCOMPARE(plan.protocol, Protocol::LL128);
        QCOMPARE(plan.channels, 16);
        const double t = st.planner.isolatedTime(s);
        const double expected = (6.8 + 2 * (7 * 1.25 + 3 * 8.5) + 16 * 8.5) * 1e-6;
        QVERIFY2(std::abs(t - expected) < 0.05 * expected, qPrintable(QString::number(t * 1e6)));
    }
    // NCCL's double binary tree (trees.cc): each tree has one root and at most two children per
    // node, reaches the root from every node, and no node is interior in both trees; tree 0 of
    // 4 nodes is 0 - 2 - {1, 3}, its mirror 3 - 1 - {0, 2}; 5 nodes shift by one.
    void doubleBinaryTreeIsNcclsOwn()
    {
        QCOMPARE(doubleTreeParent(4, 0, 0), -1);
        QCOMPARE(doubleTreeParent(4, 2, 0), 0);
        QCOMPARE(doubleTreeParent(4, 1, 0), 2);
        QCOMPARE(doubleTreeParent(4, 3, 0), 2);
        QCOMPARE(doubleTreeParent(4, 3, 1), -1);
        QCOMPARE(doubleTreeParent(4, 1, 1), 3);
        QCOMPARE(doubleTreeParent(4, 0, 1), 1);
        QCOMPARE(doubleTreeParent(5, 1, 1), -1); // shifted: rank 1 is tree 1's root
        QCOMPARE(doubleTreeParent(4, 4, 0), -1);
        QCOMPARE(doubleTreeParent(4, 1, 2), -1);
        for (int n = 2; n <= 64; ++n) {
            std::vector<std::array<int, 2>> children(static_cast<std::size_t>(n), {0, 0});
            for (int t = 0; t < 2; ++t) {
                int roots = 0;
                for (int r = 0; r < n; ++r) {
                    const int p = doubleTreeParent(n, r, t);
                    roots += p < 0;
                    if (p >= 0)
                        ++children[static_cast<std::size_t>(p)][static_cast<std::size_t>(t)];
                    int hops = 0;
                    for (int x = r; x >= 0 && hops <= n; x = doubleTreeParent(n, x, t))
                        ++hops;
                    QVERIFY2(hops <= n, qPrintable(QStringLiteral("cycle, %1 nodes").arg(n)));
                }
                QCOMPARE(roots, 1);
            }
            for (int r = 0; r < n; ++r) {
                const auto &c = children[static_cast<std::size_t>(r)];
                QVERIFY(c[0] <= 2 && c[1] <= 2);
                if (n % 2 == 0) // NCCL mirrors even counts: interior in one tree at most
                    QVERIFY2(c[0] == 0 || c[1] == 0,
                             qPrintable(QStringLiteral("%1/%2").arg(r).arg(n)));
            }
        }
    }
    // Beyond two servers an interior node of one tree carries, on its NIC per direction, its
    // two children's and its parent's S/2m of that tree and its leaf S/2m of the other: 2 S/m,
    // twice the two-server load (NCCL's tuning model: bwInter / 2 above two nodes). The tree
    // before NCCL's construction (heap order with a mirror) gave 1.5 S/m on 4 servers.
    void nvlsTreeNicLoadOnFourServers()
    {
        for (const int servers : {2, 4, 8}) {
            const Setup st(servers);
            const Router &r = st.r;
            const double S = 1 << 30;
            const CollectivePlan plan = st.planner.plan(
                spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::NvlsTree));
            std::map<NodeId, double> in;
            for (const Flow &f : plan.phases[0].flows)
                if (r.domainOf(r.nodeIndex(f.src)) != r.domainOf(r.nodeIndex(f.dst))
                    && r.domainOf(r.nodeIndex(f.dst)) >= 0)
                    in[f.dst] += f.bytes;
            double most = 0;
            for (const auto &[node, bytes] : in)
                most = std::max(most, bytes);
            QVERIFY2(
                near(most, (servers == 2 ? 1.0 : 2.0) * S / 8),
                qPrintable(QStringLiteral("%1 servers: %2 S/m").arg(servers).arg(most / (S / 8))));
        }
    }
    // NCCL's NVLS-Tree chunk (enqueue.cc calcCollChunking): 128 KiB, at most 64 KiB from four
    // nodes on, 64 KiB below 4 x 128 concurrent chunks and 32 KiB below 1 x 128 (8 heads x 16
    // channels); the loop is 16 x heads chunks.
    void nvlsTreeChunkIsNccls()
    {
        const double KiB = 1024, MiB = 1 << 20;
        QCOMPARE(nvlsTreeChunkBytes(1 << 30, 8, 2), 128 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(64 * MiB, 8, 2), 128 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(32 * MiB, 8, 2), 64 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(8 * MiB, 8, 2), 64 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(4 * MiB, 8, 2), 32 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(1 << 30, 8, 4), 64 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(8 * MiB, 8, 8), 64 * KiB);
        QCOMPARE(nvlsTreeChunkBytes(4 * MiB, 8, 8), 32 * KiB);
        QCOMPARE(nvlsTreeLoopBytes(1 << 30, 8, 8), 8 * MiB);
        // Blackwell runs 32 NVLS channels (NVLS_NCHANNELS_SM100): twice the chunks in flight
        QCOMPARE(nvlsChannels(true), 32);
        QCOMPARE(nvlsTreeChunkBytes(32 * MiB, 8, 2, 32), 64 * KiB); // < 4 x 256 x 128 KiB
        QCOMPARE(nvlsTreeLoopBytes(1 << 30, 8, 2, 32), 32 * MiB);
    }
    // NVLS inside one domain takes NCCL's chunk (calcCollChunking: 128 KiB shrunk to 64/32/16 KiB
    // below 64/8/2 x channels x heads chunks; heads at most 32) and pays two loops of fill (a loop
    // crosses scatter, reduce + multicast and gather): a 1 MiB all-reduce on a DGX H100 takes
    // 25 us + 3 x its bandwidth time (chunk 16 KiB, loop 2 MiB > 1 MiB); it took 25 us + 17 x
    // (a 16 MiB loop) before, ~90 us where NCCL 2.18.5 measured 42 us (Azure ND H100 v5).
    void nvlsChunkAndFillAreNccls()
    {
        const double KiB = 1024, MiB = 1 << 20;
        QCOMPARE(nvlsChunkBytes(1 << 30, 8, 16), 128 * KiB);
        QCOMPARE(nvlsChunkBytes(128 * MiB, 8, 16), 64 * KiB);
        QCOMPARE(nvlsChunkBytes(64 * MiB, 8, 16), 64 * KiB);
        QCOMPARE(nvlsChunkBytes(16 * MiB, 8, 16), 32 * KiB);
        QCOMPARE(nvlsChunkBytes(8 * MiB, 8, 16), 32 * KiB);
        QCOMPARE(nvlsChunkBytes(1 * MiB, 8, 16), 16 * KiB);
        QCOMPARE(nvlsHeads(72), 32.0);
        QCOMPARE(nvlsLoopBytes(16 * MiB, 8, 16), 4 * MiB);
        QCOMPARE(nvlsLoopBytes(2.0 * (1 << 30), 72, 32), 64 * MiB); // 32 x 32 heads x 64 KiB
        QCOMPARE(nvlsFill(16 * MiB, 8, 16), 0.5);
        QCOMPARE(nvlsFill(1 * MiB, 8, 16), 2.0);

        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const CollectivePlanner planner(r);
        const auto s
            = spec(CollectiveKind::AllReduce, allOf(c), MiB, CollectiveAlgorithm::InNetwork);
        const double perGpu = 18 * c.design.hardware.switches.at("nvswitch-gen3").reductionRate;
        const double bw = MiB * (1 + 1.0 / 8) / perGpu;
        const double t = planner.isolatedTime(s);
        QVERIFY2(near(t, 25e-6 + 3 * bw, 1e-3),
                 qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(25e-6 + 3 * bw)));
        QVERIFY(t < 45e-6);
    }
    // Beyond two servers the network is NVLS-Tree's bottleneck and every hop of the trees up and
    // down is a store-and-forward stage of a loop, each at half the bottleneck's loop time (a hop
    // moves a loop's share one way; the NIC carries both ways of both trees): the fill is depth
    // loops (2 on 4 servers, 3 on 8) plus the four NVLS stages' share (scatter, reduce,
    // multicast, gather: between 0 and 2 loops) minus the bottleneck's own loop; it was one loop
    // before. On 8 servers a 64 MiB all-reduce
    // (8 loops of 8 MiB) is over 20% slower than its latency and bandwidth time alone.
    void nvlsTreeFillGrowsWithDepth()
    {
        for (const int servers : {4, 8}) {
            const Setup st(servers);
            const double S = 64 << 20;
            const CollectivePlan plan = st.planner.plan(
                spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::NvlsTree));
            const double loops = S / nvlsTreeLoopBytes(S, 8, servers);
            const double depth = servers == 4 ? 2 : 3;
            QVERIFY2(
                plan.fill * loops > depth - 0.5 && plan.fill * loops < depth + 1,
                qPrintable(
                    QStringLiteral("%1 servers: %2 loops").arg(servers).arg(plan.fill * loops)));
            if (servers == 8) {
                const double t = st.planner.isolatedTime(plan);
                const double lat = plan.latency.front()[static_cast<std::size_t>(Protocol::Simple)];
                const double bw = (t - lat) / (1 + plan.fill);
                QVERIFY2(t > 1.2 * (lat + bw), qPrintable(QString::number(t / (lat + bw))));
            }
        }
    }
    // Auto chooses among NCCL's algorithms: hierarchical (not one of NCCL's) only when asked.
    void autoNeverPicksHierarchical()
    {
        const Setup st(4);
        const CollectiveSpec s = spec(CollectiveKind::AllReduce, allOf(st.c), 1e6);
        const auto c = st.planner.candidates(s);
        QVERIFY(std::find(c.begin(), c.end(), CollectiveAlgorithm::Hierarchical) == c.end());
        QVERIFY(std::find(c.begin(), c.end(), CollectiveAlgorithm::NvlsTree) != c.end());
        for (double bytes : {1e3, 1e6, 32e6, 1e9})
            QVERIFY(st.planner.plan(spec(CollectiveKind::AllReduce, allOf(st.c), bytes)).algorithm
                    != CollectiveAlgorithm::Hierarchical);
    }
    // NCCL's tree all-reduce bandwidth: x 0.92, and its medium-size correction table
    // (tuning.cc treeCorrectionFactor): the tree's bandwidth time is divided by it.
    void treeBandwidthFactorIsNcclsTable()
    {
        QVERIFY(near(treeBandwidthFactor(Protocol::Simple, 32.0 * (1 << 20)), 0.92 * 0.7));
        QVERIFY(near(treeBandwidthFactor(Protocol::Simple, 1 << 20), 0.92 * 0.5));
        QVERIFY(near(treeBandwidthFactor(Protocol::LL128, 8.0 * (1 << 20)), 0.92 * 0.9));
        QVERIFY(near(treeBandwidthFactor(Protocol::Simple, 1e12), 0.92));
        // Two DGX H100: the reduction up carries every chain edge (2 domains x 7, S/16 on each of
        // the 16 trees: 14 S) and the tree edges between the domains (S), the broadcast down as
        // much again, at once (one phase); its flows carry that x the protocol's wire factor /
        // the tree factor.
        const Setup st(2);
        const double S = 32.0 * (1 << 20);
        const CollectivePlan tree = st.planner.plan(
            spec(CollectiveKind::AllReduce, allOf(st.c), S, CollectiveAlgorithm::Tree));
        double carried = 0;
        for (const Flow &f : tree.phases[0].flows)
            carried += f.bytes;
        QCOMPARE(tree.phases.size(), std::size_t(1));
        const double expected
            = 2 * 15 * S * wireFactor(tree.protocol) / treeBandwidthFactor(tree.protocol, S);
        QVERIFY2(near(carried, expected, 1e-6),
                 qPrintable(QStringLiteral("%1 vs %2").arg(carried).arg(expected)));
    }
    // Uniform top-k routing: a token reaches a rank holding E/n of the E experts with
    // 1 - C(E - E/n, k)/C(E, k); node-limited to M of D domains, M/D x (1 - miss among the
    // E M/D experts of its domains); with E = 0 the k experts are drawn independently.
    void moeRoutingProbabilities()
    {
        const Cluster one = makeCluster("dgx-h100", 1);
        const Router r1(one.design);
        MoeRouting rt;
        rt.topK = 8;
        rt.experts = 256;
        auto comb = [](double n, int k) {
            double c = 1;
            for (int i = 0; i < k; ++i)
                c *= (n - i) / (k - i);
            return c;
        };
        const MoeTraffic t1 = moeTraffic(r1, allOf(one), rt);
        QCOMPARE(t1.domains, 1);
        QVERIFY(near(t1.rankHit, 1 - comb(224, 8) / comb(256, 8)));
        QVERIFY(near(t1.domainHit, 1));
        const Cluster eight = makeCluster("dgx-h100", 8);
        const Router r8(eight.design);
        rt.maxNodes = 4;
        const MoeTraffic t8 = moeTraffic(r8, allOf(eight), rt);
        QCOMPARE(t8.domains, 8);
        QVERIFY(near(t8.domainHit, 0.5 * (1 - comb(96, 8) / comb(128, 8))));
        QVERIFY(near(t8.rankHit, 0.5 * (1 - comb(124, 8) / comb(128, 8))));
        rt.experts = 0;
        rt.maxNodes = 0;
        QVERIFY(near(moeTraffic(r8, allOf(eight), rt).rankHit, 1 - std::pow(1 - 1.0 / 64, 8)));
        rt.topK = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, moeTraffic(r8, allOf(eight), rt));
    }
    // DeepEP's hierarchy on two DGX H100, top-2 of many experts: each rank sends its tokens X
    // once to the same-rail GPU of the other server (X P_dom), which forwards them to each GPU
    // of its server holding an expert (2 X P_rank per forwarder and destination: the rail's
    // ranks of both servers), over NVLink at the kernels' forwarding rate across servers
    // (kHierarchicalForwardRate, 140 GB/s received per rank, of which 7/8 cross a link: the
    // volumes scaled by the NVLink egress over that); the combine reverses every flow. NetComm
    // carries MoeDispatch with the DeepEP dispatcher this way, with AllToAll as an all-to-all.
    void deepEpDispatchFlows()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const Router r(c.design);
        MoeRouting rt;
        rt.dispatcher = MoeDispatcher::DeepEP;
        rt.topK = 2;
        const double bytes = 64e6, x = bytes / 2;
        const MoeTraffic t = moeTraffic(r, allOf(c), rt);
        QVERIFY(near(t.domainHit, 1 - 0.25)); // 1 - (1/2)^2
        QVERIFY(near(t.rankHit, 1 - std::pow(15.0 / 16, 2)));
        for (const bool back : {false, true}) {
            const auto phases = planMoeHierarchical(r, allOf(c), bytes, rt, back);
            QCOMPARE(phases.size(), std::size_t(1));
            int rdma = 0, nvl = 0;
            for (const Flow &f : phases[0].flows) {
                const int a = r.nodeIndex(f.src), b = r.nodeIndex(f.dst);
                if (r.domainOf(a) != r.domainOf(b)) {
                    ++rdma;
                    QCOMPARE(r.railOf(a), r.railOf(b));
                    QVERIFY(near(f.bytes, x * t.domainHit));
                } else {
                    ++nvl;
                    const double egress = r.scaleUpEgress(a);
                    QVERIFY(
                        near(f.bytes,
                             2 * x * t.rankHit * egress / (kHierarchicalForwardRate * 7.0 / 8.0)));
                }
            }
            QCOMPARE(rdma, 16);
            QCOMPARE(nvl, 2 * 8 * 7);
        }
        NetworkOptions o;
        NetComm net(c.design, o);
        CommRequest req;
        req.members = allOf(c);
        CollectiveCall call;
        call.op = CollectiveOp::MoeDispatch;
        call.bytes = bytes;
        call.moe = rt;
        req.calls = {call};
        // the time at which the request submitted at `t0` completes
        auto finish = [&](double t0) {
            const CommId id = net.submit(req, t0);
            for (;;) {
                const double t = net.nextCompletionTime();
                const std::vector<CommId> done = net.advanceTo(t);
                if (std::find(done.begin(), done.end(), id) != done.end())
                    return t;
            }
        };
        const double deepep = finish(0);
        const double alone = benchmarkMoe(r, allOf(c), bytes, rt, false).seconds;
        QVERIFY2(near(deepep, alone, 1e-6),
                 qPrintable(QStringLiteral("%1 vs %2").arg(deepep).arg(alone)));
        call.moe.dispatcher = MoeDispatcher::AllToAll;
        req.calls = {call};
        const double a2a = finish(deepep) - deepep;
        CollectiveSpec s = spec(CollectiveKind::AllToAll, allOf(c), bytes);
        QVERIFY(near(a2a, CollectivePlanner(r).isolatedTime(s), 1e-6));
        QVERIFY(std::abs(a2a - deepep) > 1e-3 * a2a);
    }
    // DeepEP with more than 8 ranks in one NVLink domain (EP32 in a GB200 NVL72) runs its
    // multi-node NVLink kernels at the rates the Megatron-LM GB200 guide measures (sec. 2.2.1:
    // ~400 GB/s dispatch, ~190 GB/s combine per rank), whatever the NVLink carries; HybridEP
    // reaches the links; with 8 ranks DeepEP keeps its 0.83 of HybridEP's rate.
    void deepEpLargeNvlinkDomain()
    {
        const Cluster c = makeCluster("gb200-nvl72", 1);
        const Router r(c.design);
        const std::vector<NodeId> all = allOf(c);
        QVERIFY(all.size() >= 32);
        const std::vector<NodeId> ep32(all.begin(), all.begin() + 32);
        const std::vector<NodeId> ep8(all.begin(), all.begin() + 8);
        MoeRouting rt;
        rt.topK = 8;
        rt.experts = 256;
        const double bytes = 4096.0 * 8 * 7168 * 2; // DeepSeek-V3 tokens of one micro-batch
        auto bw = [&](const std::vector<NodeId> &m, MoeDispatcher d, bool combine) {
            rt.dispatcher = d;
            return benchmarkMoe(r, m, bytes, rt, combine).nvlinkBandwidth;
        };
        const double dispatch = bw(ep32, MoeDispatcher::DeepEP, false);
        const double combine = bw(ep32, MoeDispatcher::DeepEP, true);
        const double hybrid = bw(ep32, MoeDispatcher::HybridEP, false);
        QVERIFY2(dispatch > 0.85 * kDeepEpMnnvlDispatchRate
                     && dispatch < 1.05 * kDeepEpMnnvlDispatchRate,
                 qPrintable(QString::number(dispatch / 1e9)));
        QVERIFY2(combine > 0.85 * kDeepEpMnnvlCombineRate
                     && combine < 1.05 * kDeepEpMnnvlCombineRate,
                 qPrintable(QString::number(combine / 1e9)));
        QVERIFY2(hybrid > 1.5 * dispatch, qPrintable(QString::number(hybrid / 1e9)));
        const double ratio8
            = bw(ep8, MoeDispatcher::DeepEP, false) / bw(ep8, MoeDispatcher::HybridEP, false);
        QVERIFY2(std::abs(ratio8 - kDeepEpNvlinkEfficiency) < 0.02,
                 qPrintable(QString::number(ratio8)));
    }
    // DeepEP's internode kernels and HybridEP forward over NVLink at ~140 GB/s per rank across
    // servers, whatever the NVLink (kHierarchicalForwardRate): on two HGX H200 with DeepEP's
    // benchmark shape (4,096 tokens x 7,168 hidden, top-8 of 256 experts in 2 node groups, BF16)
    // the NVLink figure is DeepEP issue 493's (dispatch 133.8, combine 145.2 GB/s) within 6% and
    // the RDMA one too (40.9 and 44.4 GB/s), for both dispatchers; inside one server DeepEP's
    // intranode kernels still reach 0.83 of the NVLink (over 250 GB/s on H200).
    void hierarchicalForwardingAcrossServers()
    {
        const Cluster c = makeCluster("hgx-h200", 2);
        const Router r(c.design);
        const std::vector<NodeId> all = allOf(c);
        MoeRouting rt;
        rt.topK = 8;
        rt.experts = 256;
        rt.maxNodes = 2;
        const double bytes = 4096.0 * 8 * 7168 * 2;
        for (const MoeDispatcher d : {MoeDispatcher::DeepEP, MoeDispatcher::HybridEP}) {
            rt.dispatcher = d;
            for (const bool combine : {false, true}) {
                const MoeBenchmark b = benchmarkMoe(r, all, bytes, rt, combine);
                const double nvl = combine ? 145.2e9 : 133.8e9, rdma = combine ? 44.4e9 : 40.9e9;
                QVERIFY2(std::abs(b.nvlinkBandwidth / nvl - 1) < 0.06,
                         qPrintable(QString::number(b.nvlinkBandwidth / 1e9)));
                QVERIFY2(std::abs(b.rdmaBandwidth / rdma - 1) < 0.06,
                         qPrintable(QString::number(b.rdmaBandwidth / 1e9)));
            }
        }
        rt.dispatcher = MoeDispatcher::DeepEP;
        const std::vector<NodeId> one(all.begin(), all.begin() + 8);
        const double intranode = benchmarkMoe(r, one, bytes, rt, false).nvlinkBandwidth;
        QVERIFY2(intranode > 250e9, qPrintable(QString::number(intranode / 1e9)));
    }
    // Small messages: the tree's log-depth latency beats the ring's 2(n-1) steps (NCCL picks
    // tree); at 1 GB on one DGX A100 (no NVLS) the ring wins.
    void autoPicksTreeForSmallMessages()
    {
        FabricParams p = clusterParams("dgx-h100", 16);
        p.switchModel = "sn5600"; // no SHARP
        const Cluster c = generateCluster(p);
        std::vector<NodeId> two; // 2 accelerators of each domain
        for (const auto &dom : c.acc)
            two.insert(two.end(), dom.begin(), dom.begin() + 2);
        const Router r(c.design);
        const CollectivePlanner planner(r);
        QCOMPARE(name(planner.plan(spec(CollectiveKind::AllReduce, two, 1024)).algorithm),
                 name(CollectiveAlgorithm::Tree));
        const double tTree = planner.isolatedTime(
            spec(CollectiveKind::AllReduce, two, 1024, CollectiveAlgorithm::Tree));
        const double tRing = planner.isolatedTime(
            spec(CollectiveKind::AllReduce, two, 1024, CollectiveAlgorithm::Ring));
        QVERIFY(tTree < tRing / 2);

        const Cluster ca = makeCluster("dgx-a100", 1);
        const Router ra(ca.design);
        QCOMPARE(name(CollectivePlanner(ra)
                          .plan(spec(CollectiveKind::AllReduce, allOf(ca), 1e9))
                          .algorithm),
                 name(CollectiveAlgorithm::Ring));
    }
    // NVLS on a DGX H100: picked automatically for large all-reduces, bounded by the switch's
    // reduction rate (not the NVLink line rate); refused where the switch cannot reduce.
    void nvlsBoundedByReductionRate()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const CollectivePlanner planner(r);
        const auto members = allOf(c);
        QCOMPARE(name(planner.plan(spec(CollectiveKind::AllReduce, members, 8e9)).algorithm),
                 name(CollectiveAlgorithm::InNetwork));
        const double t = planner.isolatedTime(
            spec(CollectiveKind::AllReduce, members, 8e9, CollectiveAlgorithm::InNetwork));
        const double perGpu = 18 * c.design.hardware.switches.at("nvswitch-gen3").reductionRate;
        // NVLS: NCCL's 25 us hop, the bandwidth time, and two loops (16 x 8 x 128 KiB) of fill
        const double bw = 8e9 * (1 + 1.0 / 8) / perGpu;
        const double expected = 25e-6 + bw * (1 + 2 * (16 * 8 * 131072.0) / 8e9);
        QVERIFY2(near(t, expected, 1e-3),
                 qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(expected)));

        QVERIFY(refusesInNetwork(clusterParams("dgx-a100", 1))); // NVSwitch gen 2: no NVLS
    }
    // SHARP across domains: shards reduced in the rail leaf, each member sending and receiving
    // its shard once; with 8 domains that moves 1/(2(d-1)/d) = 4/7 of the ring's bytes.
    void sharpAcrossDomains()
    {
        const Setup st(8);
        const Cluster &c = st.c;
        const Router &r = st.r;
        const CollectivePlanner &planner = st.planner;
        const auto plan = st.plan(CollectiveAlgorithm::InNetwork);
        QCOMPARE(plan.phases.size(), std::size_t(1)); // pipelined stages
        // Every flow to or from a switch runs between an accelerator and the leaf of that
        // accelerator's rail (the switch end has no rail, so look the rail up on the
        // accelerator end only).
        const auto railLeaf = [&](NodeId acc) {
            const int rail = r.railOf(r.nodeIndex(acc));
            return rail < 0 ? NodeId() : c.leaves[static_cast<std::size_t>(rail)];
        };
        int toSwitch = 0;
        for (const Flow &f : plan.phases[0].flows) {
            if (r.isAccelerator(r.nodeIndex(f.src)) && r.isAccelerator(r.nodeIndex(f.dst)))
                continue;
            ++toSwitch;
            QVERIFY(f.src == railLeaf(f.dst) || f.dst == railLeaf(f.src));
        }
        QCOMPARE(toSwitch, 2 * 64);
        const double sharp = planner.isolatedTime(
            spec(CollectiveKind::AllReduce, allOf(c), 1e9, CollectiveAlgorithm::InNetwork));
        const double hier = planner.isolatedTime(
            spec(CollectiveKind::AllReduce, allOf(c), 1e9, CollectiveAlgorithm::Hierarchical));
        QVERIFY(sharp < hier);
        FabricParams e = clusterParams("dgx-h100", 8);
        e.switchModel = "sn5600"; // Ethernet switch without SHARP
        QVERIFY(refusesInNetwork(e));
    }
    void allToAllFlows()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const auto plan = CollectivePlanner(r).plan(spec(CollectiveKind::AllToAll, allOf(c), 8e6));
        QCOMPARE(plan.phases.size(), std::size_t(1));
        QCOMPARE(plan.phases[0].flows.size(), std::size_t(56));
        QCOMPARE(plan.phases[0].flows[0].bytes, 1e6);
        QVERIFY(!plan.phases[0].coupled);
    }
    void pointToPointIsOneFlow()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const Router r(c.design);
        const auto plan = CollectivePlanner(r).plan(
            spec(CollectiveKind::PointToPoint, {c.acc[0][2], c.acc[1][2]}, 1e6));
        QCOMPARE(plan.phases.size(), std::size_t(1));
        QCOMPARE(plan.phases[0].flows.size(), std::size_t(1));
    }
    // Another flow on a ring link slows the ring: contention is visible.
    void contentionSlowsRing()
    {
        const Design d = uniformRing(4, 10e9, 0);
        const Router r(d);
        const auto acc = accelerators(d);
        const auto plan = CollectivePlanner(r).plan(
            spec(CollectiveKind::AllReduce, acc, 1e9, CollectiveAlgorithm::Ring));
        FlowNetwork alone(d);
        alone.submit(plan.phases, 0);
        const double t0 = alone.runUntilIdle();
        FlowNetwork busy(d);
        const JobId ring = busy.submit(plan.phases, 0);
        busy.submit({Phase {{Flow {acc[0], acc[1], 10e9}}, 0, false}}, 0);
        busy.runUntilIdle();
        QVERIFY(near(busy.jobFinishTime(ring), 2 * t0, 1e-3)); // half of link 0->1 for the ring
    }
    // A 2:1 oversubscribed spine slows an all-reduce whose rings cross it. Rings laid out unit
    // by unit cross the spine on half of their hops only; with the group ordered across units
    // (domains 0, 2, 1, 3) every hop crosses it and the oversubscription halves the bandwidth.
    void oversubscribedSpineSlowsAllReduce()
    {
        auto run = [](double ratio, bool interleaved) {
            // scalable units of 2 domains: each leaf has 2 NIC links and 2 / ratio uplinks
            FabricParams p = clusterParams("dgx-h100", 4);
            p.suSize = 2;
            p.oversubscription = ratio;
            const Cluster c = generateCluster(p);
            std::vector<NodeId> members;
            for (int d :
                 interleaved ? std::vector<int> {0, 2, 1, 3} : std::vector<int> {0, 1, 2, 3})
                members.insert(members.end(), c.acc[static_cast<std::size_t>(d)].begin(),
                               c.acc[static_cast<std::size_t>(d)].end());
            const Router r(c.design);
            return CollectivePlanner(r).isolatedTime(
                spec(CollectiveKind::AllReduce, members, 1e10, CollectiveAlgorithm::Ring));
        }; // 10 GB: the per-step latencies (the same either way) are ~2% of the time
        const double full = run(1, true), half = run(2, true);
        QVERIFY2(near(half, 2 * full, 0.05),
                 qPrintable(QStringLiteral("%1 vs %2").arg(half).arg(full)));
        QVERIFY(near(run(2, false), full, 1e-6)); // a unit-ordered ring does not feel it
    }
    void badSpecsRefused()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const Router r(c.design);
        const CollectivePlanner p(r);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 p.plan(spec(CollectiveKind::AllReduce, {}, 1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 p.plan(spec(CollectiveKind::AllReduce, allOf(c), -1)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 p.plan(spec(CollectiveKind::AllReduce, {c.leaves[0]}, 1)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            p.plan(spec(CollectiveKind::AllGather, allOf(c), 1, CollectiveAlgorithm::Tree)));
        // one member: refused (nothing to move), not a 0 us collective
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 p.plan(spec(CollectiveKind::AllReduce, {c.acc[0][0]}, 1e6)));
    }
    void names()
    {
        CollectiveKind k;
        QVERIFY(fromString("reduce_scatter", k) && k == CollectiveKind::ReduceScatter);
        CollectiveAlgorithm a;
        QVERIFY(fromString("nvls", a) && a == CollectiveAlgorithm::InNetwork);
        QVERIFY(!fromString("bogus", a));
        QCOMPARE(busBandwidthFactor(CollectiveKind::AllReduce, 8), 1.75);
        QCOMPARE(busBandwidthFactor(CollectiveKind::AllGather, 8), 0.875);
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
