// Collectives on a switchless full mesh (8 AMD MI300X, one Infinity Fabric link per pair): the
// direct (all-pairs) algorithm drives every link at once, so an all-reduce reaches a busbw of
// (n-1) x the link bandwidth instead of the single ring's 1 x; switch-based domains and
// partial meshes keep their rings.
#include "collectivetesting.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "netfabrics.h"
#include "sim/collectives.h"
#include "testcluster.h"

#include <QtTest>
#include <cmath>

using namespace weft;
using namespace weft::test;

namespace {

Design mi300x(int domains, FabricKind fabric)
{
    FabricParams p;
    p.scaleUpPreset = "mi300x-8";
    p.domains = domains;
    p.fabric = fabric;
    p.nicRate = 0; // the preset's NIC
    GenerateResult r = generateFabric(p, builtinCatalog());
    if (!r.ok())
        qFatal("generation failed: %s", r.errors.empty() ? "?" : r.errors.front().c_str());
    return std::move(*r.design);
}

bool near(double a, double b, double rel)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

bool hasDirect(const std::vector<CollectiveAlgorithm> &c)
{
    return std::find(c.begin(), c.end(), CollectiveAlgorithm::Direct) != c.end();
}

// Achievable rate of one Infinity Fabric link direction (64 GB/s x efficiency) and NCCL's Simple
// latency figures (protocol.h): the ring base and one scale-up hop.
struct MeshLink
{
    double rate = 0;
    double base = baseLatency(LatencyFamily::Ring)[std::size_t(Protocol::Simple)];
    double hop
        = hopLatency(LatencyFamily::Ring, HopClass::NVLink, false)[std::size_t(Protocol::Simple)];
};

MeshLink meshLink(const Design &d, const Router &r)
{
    const auto acc = accelerators(d);
    const Route &route = r.route(acc[0], acc[1]);
    MeshLink m;
    m.rate = r.capacity(route.entries.front().linkDir);
    return m;
}

// A DGX-1 (V100) hybrid cube-mesh: two quads of 4 GPUs, each GPU with 6 NVLink2 links of 25 GB/s
// per direction (NVIDIA DGX-1 with Tesla V100 system architecture whitepaper, 2017, fig. 2):
// inside a quad one neighbour over 2 links and two over 1, and 2 links to its peer in the other
// quad. NVLink2's efficiency is assumed equal to NVLink3's (0.78, the catalog's A100 figure).
Design dgx1()
{
    Design d;
    addTestTech(d, "nvlink2", 0.78, 1e-6);
    Group g;
    g.name = "dgx1";
    const GroupId gid = d.addGroup(g);
    std::vector<NodeId> gpu;
    for (int i = 0; i < 8; ++i)
        gpu.push_back(addTestNode(d, NodeKind::Accelerator, "v100-" + std::to_string(i), gid,
                                  SwitchRole::Leaf, i));
    const int quad[6][3] = {{0, 1, 1}, {0, 2, 1}, {0, 3, 2}, {1, 2, 2}, {1, 3, 1}, {2, 3, 1}};
    for (int q = 0; q < 2; ++q)
        for (const auto &e : quad)
            addTestLink(d, gpu[std::size_t(4 * q + e[0])], gpu[std::size_t(4 * q + e[1])],
                        "nvlink2", 25e9, e[2], 1e-6);
    for (int i = 0; i < 4; ++i)
        addTestLink(d, gpu[std::size_t(i)], gpu[std::size_t(i + 4)], "nvlink2", 25e9, 2, 1e-6);
    return d;
}

} // namespace

class TestMeshCollectives : public QObject
{
    Q_OBJECT
private slots:
    // Direct all-reduce (reduce-scatter + all-gather, each one all-pairs pass of S/n per
    // directed link): t = 2 alpha + 2 S / (n B), so busbw = S/t x 2(n-1)/n -> (n-1) B
    // = 7 x 64 GB/s x efficiency (336 GB/s at the catalog's 0.75) for large S.
    void allReduceUsesEveryLinkBothWays()
    {
        const Design d = mi300x(1, FabricKind::None);
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto acc = accelerators(d);
        QCOMPARE(acc.size(), std::size_t(8));
        QVERIFY(planner.fullMesh(acc));
        const double S = 8.0 * (1 << 30), n = 8;
        const CollectivePlan plan = planner.plan(spec(CollectiveKind::AllReduce, acc, S));
        QCOMPARE(name(plan.algorithm), name(CollectiveAlgorithm::Direct));
        QCOMPARE(plan.channels, 7);

        FlowNetwork net(d);
        net.submit(plan.phases, 0);
        const double t = net.runUntilIdle();
        net.finish(t);
        const MeshLink link = meshLink(d, r);
        const double eff = d.hardware.linkTechs.at("infinity-fabric3").efficiency;
        QVERIFY(near(link.rate, 64e9 * eff, 1e-9));
        QCOMPARE(int(plan.protocol), int(Protocol::Simple));
        const double expected = link.base + 2 * link.hop + 2 * S / (n * link.rate);
        QVERIFY2(near(t, expected, 1e-9),
                 qPrintable(QStringLiteral("%1 vs %2").arg(t).arg(expected)));
        const double busbw = S / t * busBandwidthFactor(CollectiveKind::AllReduce, 8);
        QVERIFY2(busbw > 0.999 * 7 * 64e9 * eff && busbw <= 7 * 64e9 * eff,
                 qPrintable(QString::number(busbw / 1e9)));

        QCOMPARE(d.links().size(), std::size_t(28));
        for (std::size_t i = 0; i < d.links().size(); ++i)
            for (int dir : {0, 1})
                QVERIFY(near(net.linkStats(i, dir).bytes, 2 * S / n, 1e-9));
    }
    // All-gather and reduce-scatter: one all-pairs pass, t = base + hop + S / (n B).
    void gatherAndScatterAreDirect_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("all_gather") << int(CollectiveKind::AllGather);
        QTest::newRow("reduce_scatter") << int(CollectiveKind::ReduceScatter);
    }
    void gatherAndScatterAreDirect()
    {
        QFETCH(int, kind);
        const Design d = mi300x(1, FabricKind::None);
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto k = static_cast<CollectiveKind>(kind);
        const double S = 1e9;
        const auto s = spec(k, accelerators(d), S);
        QCOMPARE(name(planner.plan(s).algorithm), name(CollectiveAlgorithm::Direct));
        const MeshLink link = meshLink(d, r);
        QVERIFY(near(planner.isolatedTime(s), link.base + link.hop + S / (8 * link.rate), 1e-9));
        // rings on request: NCCL channels over distinct links (3 edge-disjoint Hamiltonian
        // cycles of K8, each both ways), so 6 rings share the bytes
        auto ring = s;
        ring.algorithm = CollectiveAlgorithm::Ring;
        const CollectivePlan rp = planner.plan(ring);
        QCOMPARE(rp.channels, 6);
        QVERIFY(near(planner.isolatedTime(ring),
                     link.base + 7 * link.hop + 7.0 / 8 * S / (6 * link.rate), 1e-9));
    }
    // A mesh with one link missing is not a full mesh: no direct algorithm, rings as before.
    void partialMeshKeepsRings()
    {
        Design d = mi300x(1, FabricKind::None);
        const Link gone = d.links().front();
        d.removeLink(gone.id);
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto acc = accelerators(d);
        QVERIFY(!planner.fullMesh(acc));
        QVERIFY(!hasDirect(planner.candidates(spec(CollectiveKind::AllReduce, acc, 1e9))));
        QCOMPARE(name(planner.plan(spec(CollectiveKind::AllGather, acc, 1e9)).algorithm),
                 name(CollectiveAlgorithm::Ring));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            planner.plan(spec(CollectiveKind::AllReduce, acc, 1e9, CollectiveAlgorithm::Direct)));
        // a sub-group of the intact part is still a full mesh
        std::vector<NodeId> rest;
        for (NodeId id : acc)
            if (id != gone.a)
                rest.push_back(id);
        QVERIFY(planner.fullMesh(rest));
    }
    // GPUs behind NVSwitch chips are not a mesh: a DGX H100 keeps its ring, whose time is the
    // closed form base + 2(n-1) hop + 2(n-1)/n S / egress (one ring flow per GPU over all its
    // lanes; Simple at 1 GB).
    void switchBasedRingUnchanged()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const Router r(c.design);
        const CollectivePlanner planner(r);
        const auto acc = c.acc.front();
        QVERIFY(!planner.fullMesh(acc));
        QVERIFY(!hasDirect(planner.candidates(spec(CollectiveKind::AllReduce, acc, 1e9))));
        QVERIFY(!hasDirect(planner.candidates(spec(CollectiveKind::AllGather, acc, 1e9))));
        const double S = 1e9;
        const auto ring = spec(CollectiveKind::AllReduce, acc, S, CollectiveAlgorithm::Ring);
        const CollectivePlan plan = planner.plan(ring);
        QCOMPARE(plan.channels, 1);
        QCOMPARE(plan.phases.front().flows.size(), std::size_t(8));
        const MeshLink lat;
        const double egress = r.scaleUpEgress(r.nodeIndex(acc[0]));
        QCOMPARE(int(plan.protocol), int(Protocol::Simple));
        const double expected = lat.base + 14 * lat.hop + 14.0 / 8 * S / egress;
        QVERIFY2(
            near(planner.isolatedTime(ring), expected, 1e-6),
            qPrintable(QStringLiteral("%1 vs %2").arg(planner.isolatedTime(ring)).arg(expected)));
    }
    // Across MI300X nodes the hierarchical all-reduce reduce-scatters and all-gathers inside
    // each node directly over the mesh (S/m per directed link, one step) instead of a ring.
    void hierarchicalUsesMeshInsideDomains()
    {
        const Design d = mi300x(2, FabricKind::RailOptimized);
        const Router r(d);
        const CollectivePlanner planner(r);
        const double S = 1e9;
        const CollectivePlan plan = planner.plan(
            spec(CollectiveKind::AllReduce, accelerators(d), S, CollectiveAlgorithm::Hierarchical));
        QCOMPARE(plan.phases.size(), std::size_t(1)); // stages pipelined chunk by chunk
        std::size_t intra = 0;
        for (const Flow &f : plan.phases.front().flows)
            if (r.domainOf(r.nodeIndex(f.src)) == r.domainOf(r.nodeIndex(f.dst))) {
                ++intra;
                QCOMPARE(f.bytes, 2 * S / 8); // reduce-scatter + all-gather, S/8 each
            }
        QCOMPARE(intra, std::size_t(2 * 56));
        QVERIFY(!planner.fullMesh(accelerators(d))); // the whole group is not one mesh
    }
    // A switchless hybrid cube-mesh uses all its links: NCCL reaches ~130-140 GB/s busbw on a
    // DGX-1 V100 (6 NVLinks of 25 GB/s per GPU); one ring over one link per hop would give ~20.
    void dgx1CubeMeshUsesEveryLink()
    {
        const Design d = dgx1();
        const Router r(d);
        const CollectivePlanner planner(r);
        const auto acc = accelerators(d);
        QVERIFY(!planner.fullMesh(acc));
        const double S = double(1 << 30);
        for (CollectiveAlgorithm a : {CollectiveAlgorithm::Auto, CollectiveAlgorithm::Ring}) {
            const CollectivePlan plan = planner.plan(spec(CollectiveKind::AllReduce, acc, S, a));
            const double busbw = S / planner.isolatedTime(plan) * 14.0 / 8;
            QVERIFY2(busbw >= 100e9,
                     qPrintable(
                         QStringLiteral("%1: %2 GB/s").arg(name(plan.algorithm)).arg(busbw / 1e9)));
            QVERIFY(busbw <= 6 * 25e9 * 0.78 * 1.000001);
        }
        const CollectivePlan ring
            = planner.plan(spec(CollectiveKind::AllReduce, acc, S, CollectiveAlgorithm::Ring));
        QCOMPARE(ring.channels, 6); // 3 cycles over 6 lanes per GPU, each both ways
    }
    // 8 MI300X, explicit ring: several channels over the mesh, not one link per GPU (48 GB/s).
    void mi300xRingUsesTheMesh()
    {
        const Design d = mi300x(1, FabricKind::None);
        const Router r(d);
        const CollectivePlanner planner(r);
        const double S = double(1 << 30);
        const auto s
            = spec(CollectiveKind::AllReduce, accelerators(d), S, CollectiveAlgorithm::Ring);
        const double busbw = S / planner.isolatedTime(s) * 14.0 / 8;
        const double link = 64e9 * d.hardware.linkTechs.at("infinity-fabric3").efficiency;
        QVERIFY2(busbw > 5.5 * link, qPrintable(QString::number(busbw / 1e9)));
    }
    void directParses()
    {
        CollectiveAlgorithm a;
        QVERIFY(fromString("direct", a) && a == CollectiveAlgorithm::Direct);
        QCOMPARE(QString::fromLatin1(toString(CollectiveAlgorithm::Direct)),
                 QStringLiteral("direct"));
    }
};

QTEST_GUILESS_MAIN(TestMeshCollectives)
#include "tst_meshcollectives.moc"
