// DP traffic of sharded and expert-parallel training on real (flow-level) fabrics: ZeRO-3
// all-gathers every layer's parameters before its forward and its backward (Rajbhandari et al.
// 2020 sec. 5.3 and 7.2.2: 1.5x the traffic of DP with all-reduce), and expert gradients reduce
// over the expert-data-parallel group (DP / EP ranks), dense gradients over the whole DP group.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "netfabrics.h"
#include "sim/protocol.h"
#include "sim/simplan.h"
#include "sim/simulator.h"
#include "simchecks.h"
#include "testcluster.h"

#include <algorithm>

using namespace weft;

namespace {

// n A100s in one domain joined in a ring of direct links of `rate` bytes/s (efficiency 1,
// `alpha` per step): the ring closed forms hold exactly.
Design a100Ring(int n, double rate, double alpha)
{
    Design d = test::uniformRing(n, rate, alpha, "a100-80gb");
    d.hardware.accelerators = builtinCatalog().hardware.accelerators;
    return d;
}

// A small GPT, one micro-batch per step on each of `dp` replicas (no gradient accumulation, so
// ZeRO-3 gathers the parameters exactly twice per step).
Workload tinyGpt(int dp, int zero)
{
    Workload w;
    TransformerSpec &m = w.model;
    m.name = "tiny";
    m.layers = 4;
    m.hidden = 512;
    m.heads = m.kvHeads = 8;
    m.ffn = 2048;
    m.vocab = 4096;
    m.seq = 256;
    w.config.dp = dp;
    w.config.globalBatch = dp;
    w.config.zeroStage = zero;
    return w;
}

// A small MoE (every layer: 8 experts, top-2) for EP tests.
Workload tinyMoe(int tp, int dp, int ep)
{
    Workload w = tinyGpt(dp, 0);
    w.model.experts = 8;
    w.model.topK = 2;
    w.model.expertFfn = 1024;
    w.config.tp = tp;
    w.config.ep = ep;
    w.config.sequenceParallel = tp > 1; // Megatron-Core refuses MoE with TP > 1 without SP
    return w;
}

double linkBytes(const SimResult &r)
{
    double sum = 0;
    for (const LinkResult &l : r.links)
        sum += l.dir[0].bytes + l.dir[1].bytes;
    return sum;
}

bool near(double a, double b, double rel = 1e-6)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace

class TestDpSharding : public QObject
{
    Q_OBJECT
private slots:
    // ZeRO-3 with one micro-batch: the forward and the backward each all-gather the parameters
    // (one all-gather per layer) and the updated parameters are not gathered after the
    // optimizer, so against ZeRO-2 the step carries exactly one more all-gather of the bf16
    // parameters and, without overlap, its exposed DP time grows by 2 T_AG(L calls) - T_AG(1).
    void zero3AddsExactlyTheParameterAllGathers()
    {
        const int n = 4;
        const double B = 50e9, alpha = 3e-6;
        auto run = [&](int zero) {
            Design d = a100Ring(n, B, alpha);
            Workload w = tinyGpt(n, zero);
            w.config.overlapDpGrad = false;
            d.workload = w;
            return simulate(d);
        };
        const SimResult z2 = run(2);
        const SimResult z3 = run(3);
        QVERIFY2(z2.ok && z3.ok, test::warningCodes(z3).constData());
        const TransformerSpec m = tinyGpt(n, 3).model;
        const double params = m.totalParams();
        const double S = 2 * params; // bf16 parameters per GPU (TP = PP = 1)
        // Ring all-gather (Thakur et al. 2005) with NCCL's latency model (issue 15, protocol.h):
        // per call the protocol's base latency + (n-1) ring hops (NCCL's NVLink figure, which
        // includes the link technology's own latency) + (n-1)/n S/B x the protocol's wire factor,
        // where B is both directions of the ring's links (NCCL runs the ring and its reverse as
        // two channels: 2 x the link rate). The per-layer calls (S / layers) are in the Simple
        // regime: checked below.
        auto callLatency = [&](Protocol p) {
            const auto i = static_cast<std::size_t>(p);
            return baseLatency(LatencyFamily::Ring)[i]
                + (n - 1) * hopLatency(LatencyFamily::Ring, HopClass::NVLink, false)[i];
        };
        const double both = 2 * B;
        for (Protocol p : {Protocol::LL, Protocol::LL128})
            QVERIFY(callLatency(p) + wireFactor(p) * (n - 1.0) / n * S / m.layers / both
                    > callLatency(Protocol::Simple) + (n - 1.0) / n * S / m.layers / both);
        auto allGather = [&](double bytes, int calls) {
            return calls * callLatency(Protocol::Simple) + (n - 1.0) / n * bytes / both;
        };
        const double expected = 2 * allGather(S, m.layers) - allGather(S, 1);
        const double grown = z3.breakdown.dpExposed - z2.breakdown.dpExposed;
        qInfo("zero-3 - zero-2 exposed DP %.6g s (closed form %.6g s)", grown, expected);
        QVERIFY2(near(grown, expected),
                 qPrintable(QStringLiteral("%1 vs %2").arg(grown).arg(expected)));
        QVERIFY(near(z3.stepTime - z2.stepTime, expected));
        // Volume: one more ring all-gather moves (n-1)/n S from each of the n GPUs, one hop.
        QVERIFY2(
            near(linkBytes(z3) - linkBytes(z2), (n - 1) * S),
            qPrintable(
                QStringLiteral("%1 vs %2").arg(linkBytes(z3) - linkBytes(z2)).arg((n - 1) * S)));
        // Memory stays sharded: weights 2 bytes / parameter over the DP group, plus the two
        // gathered units (the computing and the prefetched layer or embedding).
        const TrainingConfig c3 = tinyGpt(n, 3).config;
        QVERIFY(zero3GatherBytes(m, c3, 0) > 0);
        QVERIFY(near(z3.accelerators.front().memory.weights, S / n + zero3GatherBytes(m, c3, 0)));
        QVERIFY(near(z2.accelerators.front().memory.weights, S));
        QVERIFY(std::abs(z3.breakdown.sum() - z3.stepTime) < 1e-9 * z3.stepTime);
    }
    // With prefetch (overlap on) the gathers hide behind compute except the first; without it
    // each one waits in front of its operation.
    void zero3ExposedDpGrowsWithoutOverlap()
    {
        auto run = [](bool overlap, int zero) {
            Design d = test::makeCluster("dgx-a100", 2).design;
            Workload w = tinyGpt(16, zero);
            w.model.layers = 8;
            w.model.hidden = 2048;
            w.model.heads = w.model.kvHeads = 16;
            w.model.ffn = 8192;
            w.config.globalBatch = 64; // 4 micro-batches: the parameters are gathered 8 times
            w.config.overlapDpGrad = overlap;
            d.workload = w;
            return simulate(d);
        };
        const SimResult on = run(true, 3), off = run(false, 3), z1 = run(false, 1);
        QVERIFY2(on.ok && off.ok && z1.ok, test::warningCodes(off).constData());
        qInfo("dp exposed: zero-3 prefetch %.4f s, zero-3 no overlap %.4f s, zero-1 %.4f s",
              on.breakdown.dpExposed, off.breakdown.dpExposed, z1.breakdown.dpExposed);
        QVERIFY2(off.breakdown.dpExposed > on.breakdown.dpExposed,
                 qPrintable(QStringLiteral("%1 vs %2")
                                .arg(off.breakdown.dpExposed)
                                .arg(on.breakdown.dpExposed)));
        QVERIFY(off.breakdown.dpExposed > z1.breakdown.dpExposed);
        QVERIFY(off.stepTime > on.stepTime);
        for (const SimResult *r : {&on, &off})
            QVERIFY(std::abs(r->breakdown.sum() - r->stepTime) < 1e-9 * r->stepTime);
    }
    // The expert-DP group of EP index e holds the dp / ep ranks with DP index e + ep * u.
    void expertDpGroupHasDpOverEpMembers()
    {
        Design d = test::makeCluster("dgx-a100", 1).design; // 8 GPUs
        const Workload w = tinyMoe(1, 8, 2);
        std::vector<Finding> findings;
        const RankMap rk(d, w.config, Placement {}, findings);
        QVERIFY(rk.valid());
        for (int dp = 0; dp < 8; ++dp) {
            const std::vector<NodeId> g = rk.expertDpGroup({0, 0, dp, 0});
            QCOMPARE(int(g.size()), 4);
            std::vector<NodeId> expected;
            for (int u = 0; u < 4; ++u)
                expected.push_back(rk.node(RankCoord {0, 0, dp % 2 + 2 * u, 0}));
            QVERIFY(g == expected);
        }
        const Workload dense = tinyGpt(8, 0);
        const RankMap rk1(d, dense.config, Placement {}, findings);
        QVERIFY(rk1.expertDpGroup({0, 0, 3, 0}) == rk1.dpGroup({0, 0, 3, 0}));
    }
    // Gradient bytes split by parameter counts: the expert share of each chunk is reduced over
    // the expert-DP groups, the rest over the DP groups.
    void expertGradientsReduceOverExpertDp()
    {
        Design d = test::makeCluster("dgx-a100", 1).design; // 8 GPUs
        const Workload w = tinyMoe(2, 4, 2);
        const SimPlan plan = buildPlan(d, w, false);
        QVERIFY(!hasError(plan.findings));
        const ScheduleSpec &s = plan.schedule;
        QCOMPARE(int(s.expertDpGroups.size()), 1);
        QCOMPARE(int(s.expertDpGroups[0].size()), 2 * 2); // tp x ep groups
        for (const CommGroup &g : s.expertDpGroups[0])
            QCOMPARE(int(g.members.size()), 4 / 2);
        QCOMPARE(int(s.dpGroups[0].size()), 2);
        for (const CommGroup &g : s.dpGroups[0])
            QCOMPARE(int(g.members.size()), 4);
        double expert = 0, dense = 0;
        for (int i = 0; i < w.model.layers; ++i) {
            expert += w.model.layerExpertParams(i) / (2.0 * 2);
            dense += (w.model.layerParams(i) - w.model.layerExpertParams(i)) / 2;
        }
        dense += 2 * w.model.embeddingParams() / 2; // untied input and output layers
        const double bytesPerParam = w.config.gradReduceFp32 ? 4 : 2;
        QVERIFY(near(s.chunks[0].expertGradBytes, expert * bytesPerParam));
        QVERIFY(near(s.chunks[0].gradBytes - s.chunks[0].expertGradBytes, dense * bytesPerParam));
        QVERIFY(std::any_of(plan.groups.begin(), plan.groups.end(),
                            [](const GroupMeta &g) { return g.kind == "expert-dp"; }));
        // The step simulates with both kinds of groups.
        d.workload = w;
        const SimResult r = simulate(d);
        QVERIFY2(r.ok, test::warningCodes(r).constData());
    }
};

QTEST_GUILESS_MAIN(TestDpSharding)
#include "tst_dpsharding.moc"
