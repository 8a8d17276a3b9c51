// NCCL's tuning decision (sim/collectivestuning.h, NCCL v2.26.2 src/graph/tuning.cc): closed-form
// latencies at 1 byte, the protocol refinements of the bandwidth, the choice by message size
// (small messages LL, large Simple), CollNet only when enabled, and the planner deciding by it
// when a request asks for NCCL's tuner.
#include "sim/collectives.h"
#include "sim/collectivestuning.h"
#include "testcluster.h"

#include <QtTest>
#include <cmath>

using namespace weft;
using namespace weft::test;

namespace {

constexpr double kGB = 1e9;

double us(double s)
{
    return s * 1e6;
}

std::size_t at(Protocol p)
{
    return static_cast<std::size_t>(p);
}

TunerTopology hopper(int ranks, int nodes)
{
    TunerTopology t;
    t.ranks = ranks;
    t.nodes = nodes;
    t.generation = GpuGeneration::Hopper;
    return t;
}

TunerOption option(NcclAlgorithm a, double algbw, unsigned protocols = 0b111)
{
    TunerOption o;
    o.algorithm = a;
    o.simpleAlgbw = algbw;
    o.protocols = protocols;
    return o;
}

constexpr unsigned kSimple = 1u << static_cast<unsigned>(Protocol::Simple);

} // namespace

class TestCollectiveTuning : public QObject
{
    Q_OBJECT
private slots:
    void ringTimeAtOneByteIsBasePlusHops()
    {
        // One node of 8: base + 2(n-1) NVLink ring hops, per protocol (tuning.cc l.298, 324).
        const TunerTopology t = hopper(8, 1);
        const TunerOption ring = option(NcclAlgorithm::Ring, 300 * kGB);
        for (Protocol p : {Protocol::LL, Protocol::LL128, Protocol::Simple}) {
            const double expected = baseLatency(LatencyFamily::Ring)[at(p)]
                + 14 * hopLatency(LatencyFamily::Ring, HopClass::NVLink, false)[at(p)];
            QVERIFY2(std::abs(ncclLatency(t, ring, p, 1) - expected) < 1e-12,
                     qPrintable(QString::number(us(ncclLatency(t, ring, p, 1)))));
            const double time = ncclAlgoTime(t, ring, p, 1);
            QVERIFY(time > expected && time < expected + 1e-9); // + 1 byte / bandwidth
        }
        // LL: 6.6 + 14 x 0.6 = 15.0 us.
        QVERIFY(std::abs(us(ncclLatency(t, ring, Protocol::LL, 1)) - 15.0) < 1e-9);
        // Two nodes of 8: 2(n-1) = 30 steps, 2 of them over the network (2.7 us LL), the other
        // 28 at max(0.6, the 1 us network post overhead).
        const TunerTopology two = hopper(16, 2);
        QVERIFY(std::abs(us(ncclLatency(two, ring, Protocol::LL, 1)) - (6.6 + 28 * 1.0 + 2 * 2.7))
                < 1e-9);
        // Simple over several nodes, once bytes / (channels x ranks) >= 64: x1.4 (l.539-542).
        const double simple1 = ncclLatency(two, ring, Protocol::Simple, 1);
        QVERIFY(std::abs(ncclLatency(two, ring, Protocol::Simple, 1 << 20) - 1.4 * simple1)
                < 1e-12);
    }
    void treeAndNvlsLatencies()
    {
        // Tree all-reduce on 2 x 8: base + 2 ((8-1) intra + log2(2) inter) (l.328).
        const TunerTopology two = hopper(16, 2);
        const TunerOption tree = option(NcclAlgorithm::Tree, 100 * kGB);
        QVERIFY(std::abs(us(ncclLatency(two, tree, Protocol::LL, 1)) - (6.8 + 2 * (7 * 0.6 + 5.0)))
                < 1e-9);
        // NVLS on one node: its NVLink hop only, no base (l.336).
        const TunerOption nvls = option(NcclAlgorithm::Nvls, 400 * kGB, kSimple);
        QVERIFY(std::abs(us(ncclLatency(hopper(8, 1), nvls, Protocol::Simple, 1)) - 25.0) < 1e-9);
        // NVLS-Tree on 4 nodes: intra + 2 log2(4) inter (l.340), inter NCCL 2.26's 14 us (l.141;
        // the simulated time's hop is 2.29's 20.9 us).
        const TunerOption nt = option(NcclAlgorithm::NvlsTree, 300 * kGB, kSimple);
        QVERIFY(std::abs(us(ncclLatency(hopper(32, 4), nt, Protocol::Simple, 1)) - (25 + 4 * 14.0))
                < 1e-9);
        QVERIFY(std::abs(us(hopLatency(LatencyFamily::NvlsTree, HopClass::Net,
                                       false)[at(Protocol::Simple)])
                         - 20.9)
                < 1e-9);
    }
    void protocolBandwidthRefinements()
    {
        // Ring on one Hopper node, Simple busBw 360 GB/s (algbw 360 x 8/14).
        const TunerTopology one = hopper(8, 1);
        const double algbw = 360 * kGB * 8 / 14;
        const TunerOption ring = option(NcclAlgorithm::Ring, algbw);
        QVERIFY(std::abs(ncclBandwidth(one, ring, Protocol::Simple) - algbw) < 1);
        // LL: min(llMaxBw 141, busBw / 2) = 141 GB/s busbw (l.256).
        QVERIFY(std::abs(ncclBandwidth(one, ring, Protocol::LL) - 141 * kGB * 8 / 14) < 1e3);
        // LL128: busBw x 0.92 (the per-channel cap of 36.7 GB/s x 10 channels does not bind).
        QVERIFY(std::abs(ncclBandwidth(one, ring, Protocol::LL128) - 0.92 * algbw) < 1e3);
        // Several nodes: LL capped by the CPU's figure, 39 GB/s on 2 nodes, 20.4 on more.
        const TunerOption ring16 = option(NcclAlgorithm::Ring, 360 * kGB * 16 / 30);
        QVERIFY(std::abs(ncclBandwidth(hopper(16, 2), ring16, Protocol::LL) - 39 * kGB * 16 / 30)
                < 1e3);
        const TunerOption ring32 = option(NcclAlgorithm::Ring, 360 * kGB * 32 / 62);
        QVERIFY(std::abs(ncclBandwidth(hopper(32, 4), ring32, Protocol::LL) - 20.4 * kGB * 32 / 62)
                < 1e3);
        // Tree LL: busBw x 0.92 / 3.8, LL128 x 0.92 x 120/128 across nodes (l.258-260).
        const TunerOption tree = option(NcclAlgorithm::Tree, 100 * kGB); // busBw 200 GB/s
        QVERIFY(std::abs(ncclBandwidth(hopper(16, 2), tree, Protocol::LL) - 0.5 * 39 * kGB)
                < 1e3); // 200 x .92 / 3.8 = 48.4 > llMaxBw 39
        QVERIFY(std::abs(ncclBandwidth(hopper(16, 2), tree, Protocol::LL128)
                         - 0.5 * 200 * 0.92 * 120 / 128 * kGB)
                < 1e3);
        // NVLS: Simple only.
        const TunerOption nvls = option(NcclAlgorithm::Nvls, 400 * kGB, kSimple);
        QCOMPARE(ncclBandwidth(one, nvls, Protocol::LL), 0.0);
        QVERIFY(std::isinf(ncclAlgoTime(one, nvls, Protocol::LL128, 1 << 20)));
        // LL128 needs NVLink inside the node.
        TunerTopology pci = one;
        pci.intra = HopClass::PCI;
        QCOMPARE(ncclBandwidth(pci, ring, Protocol::LL128), 0.0);
    }
    // NCCL's graphs across nodes: the tree runs one channel per NIC at the NIC's rate (8 on an
    // 8-NIC H100 server), and its per-channel caps count those 8, not the 12 its Simple busBw
    // would need at 36 GB/s each (tuning.cc l.258, 260: Hopper beyond two nodes 36 and 29 GB/s
    // per channel). NVLS-Tree: NCCL's busBw is heads x NIC rate / 2 beyond two nodes (192 GB/s on
    // eight 48 GB/s NICs), algbw x 5/6.
    // perChMaxNVLSTreeBws (NCCL 2.28.3 tuning.cc l.193-197), per head, bytes/s.
    void nvlsTreeHeadCeiling()
    {
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Hopper, 2), 57.7e9);
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Hopper, 4), 45.5e9);
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Blackwell, 2), 96e9);
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Blackwell, 64), 80e9);
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Hopper, 1), 0.0);
        QCOMPARE(nvlsTreeHeadBusBw(GpuGeneration::Ampere, 2), 0.0);
    }
    void graphChannelsAndNvlsTreeBusBw()
    {
        const TunerTopology four = hopper(32, 4);
        TunerOption tree = option(NcclAlgorithm::Tree, 200 * kGB); // busBw 400 GB/s
        tree.channels = 8;
        QCOMPARE(channelsNeeded(four, tree, 400), 12);
        // Weft's own count: Simple min(400 x .92, 12 x 36), LL128 min(x 120/128, 12 x 29)
        QVERIFY(std::abs(ncclBandwidth(four, tree, Protocol::LL128) - 0.5 * 345 * kGB) < 1e3);
        tree.graphChannels = true;
        QCOMPARE(channelsNeeded(four, tree, 400), 8);
        QVERIFY(std::abs(ncclBandwidth(four, tree, Protocol::Simple) - 0.5 * 8 * 36 * kGB) < 1e3);
        QVERIFY(std::abs(ncclBandwidth(four, tree, Protocol::LL128) - 0.5 * 8 * 29 * kGB) < 1e3);
        TunerOption nvlsTree = option(NcclAlgorithm::NvlsTree, 190 * kGB, kSimple);
        QVERIFY(std::abs(ncclBandwidth(four, nvlsTree, Protocol::Simple) - 190 * kGB) < 1e3);
        nvlsTree.ncclBusBw = 8 * 24 * kGB;
        QVERIFY(std::abs(ncclBandwidth(four, nvlsTree, Protocol::Simple) - 160 * kGB) < 1e3);
    }
    // NCCL's ring plateau effect (tuning.cc l.539-542): a Simple ring all-reduce across nodes
    // takes 1.4 x its latency figures (Volta 1.9 x) once each rank's share of a channel reaches
    // 64 bytes; the planner's ring time carries it as the tuner does (2 DGX H100, 8 rings).
    void ringPlateauAcrossNodes()
    {
        const auto ar = CollectiveKind::AllReduce;
        QCOMPARE(ringPlateauFactor(GpuGeneration::Hopper, ar, 2, 1 << 30, 8, 16), 1.4);
        QCOMPARE(ringPlateauFactor(GpuGeneration::Volta, ar, 4, 1 << 30, 8, 32), 1.9);
        QCOMPARE(ringPlateauFactor(GpuGeneration::Hopper, ar, 1, 1 << 30, 8, 8), 1.0);
        QCOMPARE(ringPlateauFactor(GpuGeneration::Hopper, ar, 2, 8 * 16 * 63, 8, 16), 1.0);
        QCOMPARE(
            ringPlateauFactor(GpuGeneration::Hopper, CollectiveKind::AllGather, 2, 1 << 30, 8, 16),
            1.0);
        const Cluster c = generateCluster(clusterParams("dgx-h100", 2));
        const Router router(c.design);
        const CollectivePlanner planner(router);
        CollectiveSpec s;
        for (const auto &dom : c.acc)
            s.members.insert(s.members.end(), dom.begin(), dom.end());
        s.algorithm = CollectiveAlgorithm::Ring;
        s.bytes = 1;
        const ProtocolTimes small = planner.plan(s).latency.front();
        s.bytes = 1 << 30;
        const ProtocolTimes large = planner.plan(s).latency.front();
        QVERIFY(std::abs(large[at(Protocol::Simple)] - 1.4 * small[at(Protocol::Simple)]) < 1e-12);
        QCOMPARE(large[at(Protocol::LL128)], small[at(Protocol::LL128)]);
    }
    void smallMessagesLowLatencyLargeSimple()
    {
        // One H100 node: ring (busbw 360) and NVLS (algbw 480 x 8/14 busbw 480).
        const TunerTopology one = hopper(8, 1);
        const std::vector<TunerOption> single {
            option(NcclAlgorithm::Ring, 360 * kGB * 8 / 14), option(NcclAlgorithm::Tree, 150 * kGB),
            option(NcclAlgorithm::Nvls, 480 * kGB * 8 / 14, kSimple)};
        TunerChoice c = chooseNccl(one, single, 1024);
        QCOMPARE(c.protocol, Protocol::LL);
        c = chooseNccl(one, single, 8.0 * (1 << 30));
        QCOMPARE(c.index, 2); // NVLS
        QCOMPARE(c.protocol, Protocol::Simple);
        // Two nodes: ring, tree, NVLS-Tree (busbw ~470 measured on 2 x 8 H100).
        const TunerTopology two = hopper(16, 2);
        const std::vector<TunerOption> multi {option(NcclAlgorithm::Ring, 370 * kGB * 16 / 30),
                                              option(NcclAlgorithm::Tree, 190 * kGB),
                                              option(NcclAlgorithm::NvlsTree, 250 * kGB, kSimple)};
        c = chooseNccl(two, multi, 1024);
        QVERIFY(c.protocol == Protocol::LL);
        QCOMPARE(c.index, 1); // tree: 2 log2(nodes) network hops instead of 2 (nodes-1) + 28 steps
        c = chooseNccl(two, multi, 8.0 * (1 << 30));
        QCOMPARE(c.index, 2);
        QCOMPARE(c.protocol, Protocol::Simple);
        // The model time at 1 byte of the choice: its latency (the closed form).
        c = chooseNccl(two, multi, 1);
        QVERIFY(std::abs(c.time - ncclLatency(two, multi[1], c.protocol, 1)) < 1e-9);
        // A large ring-only decision runs Simple.
        c = chooseNccl(two, {multi[0]}, 1 << 30);
        QCOMPARE(c.protocol, Protocol::Simple);
    }
    void collNetIsOptIn()
    {
        // SHARP across 4 nodes, the fastest on paper: taken only with CollNet enabled.
        TunerTopology four = hopper(32, 4);
        const std::vector<TunerOption> opts {
            option(NcclAlgorithm::Ring, 360 * kGB * 32 / 62),
            option(NcclAlgorithm::CollNetDirect, 400 * kGB, kSimple),
            option(NcclAlgorithm::Nvls, 400 * kGB, kSimple)};
        const double big = 1 << 30;
        QCOMPARE(chooseNccl(four, opts, big).index, 0);
        four.collNet = true;
        QVERIFY(chooseNccl(four, opts, big).index != 0);
        // NVLS-Tree needs several nodes (l.412).
        QCOMPARE(
            chooseNccl(hopper(8, 1), {option(NcclAlgorithm::NvlsTree, 400 * kGB, kSimple)}, big)
                .index,
            -1);
    }
    void generations()
    {
        QCOMPARE(gpuGeneration("a100-80gb"), GpuGeneration::Ampere);
        QCOMPARE(gpuGeneration("h100-sxm"), GpuGeneration::Hopper);
        QCOMPARE(gpuGeneration("h200-sxm"), GpuGeneration::Hopper);
        QCOMPARE(gpuGeneration("gb200"), GpuGeneration::Blackwell);
        QCOMPARE(gpuGeneration("b300"), GpuGeneration::Blackwell);
        QCOMPARE(gpuGeneration("v100"), GpuGeneration::Volta);
    }
    void plannerDecidesWithTheTuner()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        const Router router(c.design);
        const CollectivePlanner planner(router);
        CollectiveSpec spec;
        spec.members = c.acc[0];
        spec.members.insert(spec.members.end(), c.acc[1].begin(), c.acc[1].end());
        spec.ncclTuner = true;
        spec.collNet = false;
        spec.bytes = 1024;
        CollectivePlan small = planner.plan(spec);
        QCOMPARE(small.protocol, Protocol::LL);
        spec.bytes = 8.0 * (1 << 30);
        const CollectivePlan large = planner.plan(spec);
        QCOMPARE(large.protocol, Protocol::Simple);
        QVERIFY(large.algorithm != CollectiveAlgorithm::InNetwork);
        // One domain: NVLS at 8 GiB, a low-latency protocol at 4 KiB.
        spec.members = c.acc[0];
        QCOMPARE(planner.plan(spec).algorithm, CollectiveAlgorithm::InNetwork);
        spec.bytes = 4096;
        QVERIFY(planner.plan(spec).protocol != Protocol::Simple);
    }
};

QTEST_GUILESS_MAIN(TestCollectiveTuning)
#include "tst_collectivetuning.moc"
