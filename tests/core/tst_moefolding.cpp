// MoE as Megatron-Core trains it (issue 14): parallel folding of the expert groups over the
// attention's TP x CP x DP ranks, Megatron's layout rules, the MoE model features (MLA, sliding
// windows, head dimensions, presets), the dispatch/combine traffic the schedule submits, and the
// EP overlap of the combined 1F1B schedule with the dispatcher's SM share.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "fakecomm.h"
#include "megatronstack.h"
#include "sim/schedule.h"
#include "sim/simplan.h"
#include "sim/simulator.h"
#include "testcluster.h"
#include "workload/costmodel.h"
#include "workload/kernels.h"
#include "workload/model.h"
#include "workload/placement.h"

#include <algorithm>

using namespace weft;

namespace {

bool hasCode(const std::vector<Finding> &f, const std::string &code)
{
    return std::any_of(f.begin(), f.end(), [&](const Finding &x) { return x.code == code; });
}

// One simulated pipeline of `p` stages whose only groups are an EP pair per stage (nodes
// 2s + 1 and 2s + 2, tag s): the schedule tests' EP overlap cases.
ScheduleSpec epPairSpec(int p)
{
    ScheduleSpec s;
    s.p = p;
    PipelineGroups g;
    g.tp.resize(p);
    g.cp.resize(p);
    g.etp.resize(p);
    for (int i = 0; i < p; ++i) {
        g.ep.push_back({CommGroup {
            {NodeId {std::uint32_t(1 + 2 * i)}, NodeId {std::uint32_t(2 + 2 * i)}}, i}});
        g.ppPairs.push_back(CommGroup {});
    }
    s.pipelines.push_back(g);
    s.dpGroups.resize(p);
    s.expertDpGroups.resize(p);
    return s;
}

// Qwen3-235B-A22B with TP 2, PP 8, EP 32 on 256 H100 (Megatron-Bridge and the ModelZoo).
Workload qwenXep()
{
    Workload w;
    w.model = *modelPreset("qwen3-235b-a22b");
    TrainingConfig &c = w.config;
    c.tp = 2;
    c.pp = 8;
    c.dp = 16;
    c.ep = 32;
    c.etp = 1;
    c.vpp = 4;
    c.schedule = PipelineSchedule::Interleaved;
    c.sequenceParallel = true;
    c.distributedOptimizer = true;
    c.microBatch = 1;
    c.globalBatch = 256;
    return w;
}

const AcceleratorSpec &h100Sxm()
{
    return builtinCatalog().hardware.accelerators.at("h100-sxm");
}

// EP 8 over DP 8 (one server's worth of experts).
TrainingConfig ep8()
{
    TrainingConfig c;
    c.ep = 8;
    c.dp = 8;
    return c;
}

std::vector<int> ranksOf(const RankMap &rk, const std::vector<NodeId> &nodes)
{
    std::vector<int> out;
    for (NodeId n : nodes)
        for (int r = 0; r < rk.worldSize(); ++r)
            if (rk.node(r) == n)
                out.push_back(r);
    return out;
}

} // namespace

class TestMoeFolding : public QObject
{
    Q_OBJECT
private slots:
    // Megatron-Core: --expert-tensor-parallel-size unset means TP; expert-DP = world / (etp ep pp).
    void expertDegrees()
    {
        TrainingConfig c;
        c.tp = 4;
        c.cp = 2;
        c.dp = 4;
        c.ep = 8;
        QCOMPARE(c.expertTp(), 4);
        QCOMPARE(c.expertDp(), 1); // 32 / (4 x 8)
        c.etp = 1;
        QCOMPARE(c.expertDp(), 4);
        c.ep = 3;
        QCOMPARE(c.expertDp(), 0); // 32 is not divisible by 3
    }

    // "EP must divide DP" is gone: EP may span TP and DP ranks; Megatron's own rules refuse.
    void megatronLayoutRules()
    {
        const Workload w = qwenXep();
        QVERIFY(!hasError(validate(w.model, w.config, 256)));
        TrainingConfig c = w.config;
        c.etp = 2; // 2 x 32 = 64 does not divide tp x cp x dp = 32
        QVERIFY(hasCode(validate(w.model, c, 256), "expert-parallel-not-divisible"));
        // Expert TP left at "as TP" (2): the message says so, and that expert TP 1 divides.
        c.etp = 0;
        QCOMPARE(c.expertTp(), 2);
        bool said = false;
        for (const Finding &x : validate(w.model, c, 256))
            if (x.code == "expert-parallel-not-divisible") {
                QVERIFY2(x.message.find("ETP x EP = 2 x 32 = 64") != std::string::npos,
                         x.message.c_str());
                QVERIFY2(x.message.find("expert TP is TP unless set: with expert TP 1 it "
                                        "divides")
                             != std::string::npos,
                         x.message.c_str());
                said = true;
            }
        QVERIFY(said);
        c = w.config;
        c.ep = 48; // 128 experts are not divisible by 48
        QVERIFY(hasCode(validate(w.model, c, 256), "experts-not-divisible-by-ep"));
        c = w.config;
        c.sequenceParallel = false; // Megatron refuses MoE with TP > 1 without SP
        QVERIFY(hasCode(validate(w.model, c, 256), "moe-tp-needs-sequence-parallel"));
        // The EP A2A overlap needs virtual stages with PP > 1 and no full recomputation
        // (Megatron-Core transformer_config.py): warnings, the step is still simulated.
        c = w.config;
        c.overlapEp = true;
        QVERIFY(c.pp > 1 && c.schedule == PipelineSchedule::Interleaved);
        QVERIFY(!hasCode(validate(w.model, c, 256), "ep-overlap-needs-interleaving"));
        c.schedule = PipelineSchedule::OneFOneB;
        const auto f = validate(w.model, c, 256);
        QVERIFY(hasCode(f, "ep-overlap-needs-interleaving") && !hasError(f));
        c.recompute = Recompute::Full;
        QVERIFY(hasCode(validate(w.model, c, 256), "ep-overlap-full-recompute"));
        c.schedule = PipelineSchedule::GPipe;
        QVERIFY(hasCode(validate(w.model, c, 256), "ep-overlap-without-pairs"));
    }

    // With the EP A2A overlap every stage runs one more warm-up forward (Megatron-LM
    // schedules.py: "one extra micro-batch forward step before the 1f1b stages"; with PP = 1
    // F(i+1) pairs with B(i)); a pair runs layer by layer, its forward's activations growing as
    // its backward's are freed, so the stage holds no more than 1F1B's one micro-batch more
    // at the end of the warm-up and max(0, F - B) on top during a pair.
    void epOverlapWarmup()
    {
        const auto order = stageOrder(PipelineSchedule::OneFOneB, 1, 4, 1, 0, true);
        QCOMPARE(int(order.size()), 8);
        const char *expected[] = {"F0", "F1", "B0", "F2", "B1", "F3", "B2", "B3"};
        for (int i = 0; i < 8; ++i)
            QCOMPARE(QStringLiteral("%1%2")
                         .arg(order[i].forward ? QLatin1Char('F') : QLatin1Char('B'))
                         .arg(order[i].microBatch),
                     QString::fromLatin1(expected[i]));
        QCOMPARE(peakActivationBytes(order, {1.0}), 2.0); // one by one
        QCOMPARE(peakActivationBytes(order, {1.0}, 1), 1.0); // paired from index 1
        QCOMPARE(peakActivationBytes(stageOrder(PipelineSchedule::OneFOneB, 1, 4, 1, 0), {1.0}),
                 1.0);
        // Interleaved p = 2, v = 2, m = 4, stage 1 (chunk 0 holding 1, chunk 1 holding 3):
        // warm-up F(0, c0) F(1, c0) F(0, c1) holds 5, then the pairs [F(1, c1), B(0, c1)],
        // [F(2, c0), B(1, c1)], [F(3, c0), B(0, c0)], [F(2, c1), B(1, c0)] stay within 5; one by
        // one the first pair's forward would reach 8.
        const auto il = stageOrder(PipelineSchedule::Interleaved, 2, 4, 2, 1, true);
        const int w = warmupForwards(PipelineSchedule::Interleaved, 2, 4, 2, 1, true);
        QCOMPARE(w, 3);
        QCOMPARE(peakActivationBytes(il, {1.0, 3.0}, w), 5.0);
        QCOMPARE(peakActivationBytes(il, {1.0, 3.0}), 8.0);
        // Interleaved: Megatron's warm-up (p - s - 1) * 2 + (v - 1) * p, plus one.
        QCOMPARE(warmupForwards(PipelineSchedule::Interleaved, 4, 8, 2, 1, false), 8);
        QCOMPARE(warmupForwards(PipelineSchedule::Interleaved, 4, 8, 2, 1, true), 9);
        QCOMPARE(warmupForwards(PipelineSchedule::Interleaved, 4, 4, 2, 1, true), 8); // all
        QCOMPARE(warmupForwards(PipelineSchedule::GPipe, 4, 8, 1, 0, true), 8);
        // The memory the Partitions dock and the plan show follows the pairs: with PP = 1 what
        // 1F1B holds.
        Workload q = qwenXep();
        q.config.pp = 1;
        q.config.vpp = 1;
        q.config.schedule = PipelineSchedule::OneFOneB;
        q.config.dp *= 8;
        const AcceleratorSpec &acc = h100Sxm();
        const double before = stageMemories(q.model, q.config, acc).front().activations;
        q.config.overlapEp = true;
        const double after = stageMemories(q.model, q.config, acc).front().activations;
        QCOMPARE(after, before);
    }

    // The expert groups as parallel_state.py forms them, order tp-cp-ep-dp-pp: with ETP 1 the
    // EP group of rank 0 is ranks 0..31 of stage 0 (16 DP replicas of TP 2), expert-DP 1.
    void foldedGroups()
    {
        test::Cluster cl = test::makeCluster("dgx-h100", 32);
        QVERIFY(!cl.acc.empty());
        const Workload w = qwenXep();
        std::vector<Finding> f;
        const RankMap rk(cl.design, w.config, w.placement, f);
        QVERIFY(rk.valid());
        std::vector<int> ep = ranksOf(rk, rk.epGroup(rk.coord(0)));
        QCOMPARE(int(ep.size()), 32);
        for (int i = 0; i < 32; ++i)
            QCOMPARE(ep[std::size_t(i)], i);
        QCOMPARE(int(rk.expertDpGroup(rk.coord(0)).size()), 1);
        QCOMPARE(rk.replicasPerUnit(), 16);
        QCOMPARE(rk.coord(32).pp, 1);
        QCOMPARE(rk.expertCoord(32).pp, 1);
        // ETP = TP (the default) with EP 4 on TP 2 DP 16: EP strides over DP replicas as before.
        Workload m;
        m.model = *modelPreset("mixtral-8x7b");
        m.config.tp = 2;
        m.config.dp = 16;
        m.config.ep = 4;
        m.config.sequenceParallel = true;
        m.config.globalBatch = 64;
        const RankMap rm(cl.design, m.config, m.placement, f);
        QVERIFY(rm.valid());
        QCOMPARE(ranksOf(rm, rm.epGroup(rm.coord(0))), (std::vector<int> {0, 2, 4, 6}));
        QCOMPARE(ranksOf(rm, rm.expertDpGroup(rm.coord(1))), (std::vector<int> {1, 9, 17, 25}));
        QCOMPARE(rm.replicasPerUnit(), 4);
    }

    // The published layout simulates, and its EP traffic is MoeDispatch / MoeCombine calls of
    // the rank's tokens x top-k x hidden: FP8 dispatch only with FP8 linears on DeepEP.
    void dispatchCalls()
    {
        test::Cluster cl = test::makeCluster("dgx-h100", 32);
        Workload w = qwenXep();
        w.config.dtype = DataType::FP8;
        w.config.dispatcher = TokenDispatcher::DeepEP;
        SimPlan plan = buildPlan(cl.design, w, true);
        QVERIFY(!hasError(plan.findings));
        const ChunkWork &cw = plan.schedule.chunks.front();
        QCOMPARE(int(cw.epForward.size()), 2);
        QCOMPARE(cw.epForward[0].op, CollectiveOp::MoeDispatch);
        QCOMPARE(cw.epForward[1].op, CollectiveOp::MoeCombine);
        QCOMPARE(cw.epForward[0].moe.dispatcher, MoeDispatcher::DeepEP);
        QCOMPARE(cw.epForward[0].moe.topK, 8);
        const double tokens = 4096.0 / 2 * 8; // sequence-parallel shard x top-k
        QCOMPARE(cw.epForward[0].bytes, tokens * 4096 * (1 + 4.0 / 128));
        QCOMPARE(cw.epForward[1].bytes, tokens * 4096 * 2);
        QCOMPARE(cw.epBackward[0].bytes, tokens * 4096 * 2); // gradients in BF16
        QCOMPARE(cw.epForward[0].repeat, cw.layers);
        QVERIFY(plan.schedule.epSmFraction > 0.15 && plan.schedule.epSmFraction < 0.2);
        w.config.dispatcher = TokenDispatcher::AllToAll; // NCCL all-to-all carries BF16
        plan = buildPlan(cl.design, w, true);
        QCOMPARE(plan.schedule.chunks.front().epForward[0].bytes, tokens * 4096 * 2);
        // NCCL's all-to-all holds one SM per p2p channel while it overlaps compute (16 of an
        // H100's 132: simplan.h kNcclP2pChannels); it was 0, so its overlap came for free.
        QCOMPARE(plan.schedule.epSmFraction, kNcclP2pChannels / 132);
        QCOMPARE(kNcclP2pChannels, 16.0);
        // Node-limited routing reaches the call (DeepSeek-V3: 4 groups).
        QCOMPARE(modelPreset("deepseek-v3")->routerGroupTopK, 4);
        // One simulated unit of 16 replicas; every EP group of a stage is one request group.
        QCOMPARE(int(plan.schedule.pipelines.size()), 1);
        QCOMPARE(int(plan.schedule.pipelines[0].ep[0].size()), 1);
        const SimResult r = [&] {
            Design d = cl.design;
            d.workload = qwenXep();
            return simulate(d);
        }();
        QVERIFY2(r.ok, r.warnings.empty() ? "" : r.warnings.front().message.c_str());
        QVERIFY(r.breakdown.epExposed > 0);
    }

    // The Megatron-MoE ModelZoo's Qwen3-235B comparisons on 256 H100 with 8 x 400G per node
    // (DeepEP, BF16): cross-node EP 32 with TP 2 beats intra-node EP 8 with TP 4 (measured
    // 19.7 s vs 29.0 s per step at global batch 2048), and the 1F1B A2A overlap beats no overlap
    // (17.6 vs 19.7 s), at the measured global batch, every setting as the model zoo's recipe;
    // the ordering is what is checked, the figures are printed.
    void qwenLayoutComparisons()
    {
        test::Cluster cl = test::makeCluster("dgx-h100", 32);
        QVERIFY(!cl.acc.empty());
        Workload xep = qwenXep();
        xep.config.globalBatch = 2048;
        xep.config.dispatcher = TokenDispatcher::DeepEP;
        xep.config.recompute = Recompute::Selective;
        xep.config.recomputeModules = kRecomputeLayerNorm | kRecomputeAct | kRecomputeMoeAct;
        // The model zoo's recipe: no --tp-comm-overlap; Megatron-LM eager, the host time per
        // kernel launch of the Megatron stack (megatronstack.h).
        xep.config.overlapTp = false;
        xep.config.launchOverhead = test::kMegatronHostPerKernel;
        xep.config.routerFusion = false; // the recipe predates --moe-router-fusion
        Workload iep = xep;
        iep.config.tp = 4;
        iep.config.dp = 8;
        iep.config.ep = 8;
        iep.config.recompute = Recompute::None;
        iep.config.recomputeModules = 0;
        auto step = [&](Workload w, bool overlap) {
            Design d = cl.design;
            w.config.overlapEp = overlap;
            d.workload = w;
            const SimResult r = simulate(d);
            return r.ok ? r.stepTime : -1.0;
        };
        const double cross = step(xep, false), intra = step(iep, false);
        const double overlapped = step(xep, true);
        qInfo().noquote() << QStringLiteral(
                                 "Qwen3-235B, 256 H100, GBS 2048: EP32 TP2 %1 s, EP8 TP4 "
                                 "%2 s, EP32 with 1F1B A2A overlap %3 s (measured: "
                                 "19.7, 29.0, 17.6 s)")
                                 .arg(cross, 0, 'f', 2)
                                 .arg(intra, 0, 'f', 2)
                                 .arg(overlapped, 0, 'f', 2);
        QVERIFY(cross > 0 && intra > 0 && overlapped > 0);
        // Session 16, with the Megatron stack's host time per launch (24.5 us; before: none
        // here, 7.4 us in the validation) and the recipe's unfused router: EP8 TP4 launches
        // 16 local experts' GEMMs and casts per layer and micro-batch, twice the micro-batches
        // of EP32 TP2 (DP 8 against 16 at the same batch), and becomes host-bound: 17.38 s
        // against 21.51 s (measured 19.7 and 29.0; the two rows ran different code versions,
        // issue 14's notes). The A2A overlap wins by more than measured (21% against 11%: the
        // overlap's own costs beyond the dispatcher's SMs are not modelled).
        QVERIFY2(cross < intra, "cross-node EP32 must beat intra-node EP8 with TP4");
        QVERIFY2(overlapped < cross * 0.95, "the 1F1B A2A overlap must beat no overlap");
        // What the model reaches today (regression bounds around the printed figures).
        QVERIFY2(cross < 20 && intra < 25 && overlapped < 16, "Qwen3-235B step times regressed");
    }

    // Public sizes: DeepSeek-V3 671B (report sec. 4.2, MLA's 187M attention weights per
    // layer), Qwen3-235B-A22B, GPT-OSS-120B 117B (model card), Kimi K2 1.04T, Mixtral 8x22B 141B.
    void presetParameters_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("params");
        QTest::newRow("deepseek-v3") << "deepseek-v3" << 671e9;
        QTest::newRow("kimi-k2") << "kimi-k2" << 1.04e12;
        QTest::newRow("qwen3-235b") << "qwen3-235b-a22b" << 235e9;
        QTest::newRow("qwen3-30b") << "qwen3-30b-a3b" << 30.5e9;
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 117e9;
        QTest::newRow("mixtral-8x22b") << "mixtral-8x22b" << 141e9;
    }
    void presetParameters()
    {
        QFETCH(QString, preset);
        QFETCH(double, params);
        const auto m = modelPreset(preset.toStdString());
        QVERIFY(m);
        const double total = m->totalParams();
        QVERIFY2(std::abs(total / params - 1) < 0.02,
                 qPrintable(QStringLiteral("%1: %2 B").arg(preset).arg(total / 1e9)));
    }

    // MLA (DeepSeek-V2 sec. 2.1.2): the projections' weights per layer and the core's head
    // dimensions (q/k 192, v 128).
    void mlaShapes()
    {
        const TransformerSpec m = *modelPreset("deepseek-v3");
        QVERIFY(m.isMla());
        QCOMPARE(m.attentionParams(), 187107328.0);
        QCOMPARE(m.qkHeadDim(), 192.0);
        QCOMPARE(m.vHeadDimOf(), 128.0);
        // Core FLOPs 2 b s^2 a (d_qk + d_v), not MHA's 4 b s^2 h.
        QCOMPARE(attentionCoreFlops(m, 1), 2.0 * 4096 * 4096 * 128 * 320);
        // The K and V all-gathered under CP are the up-projected per-head tensors.
        TrainingConfig c;
        c.cp = 2;
        QCOMPARE(commVolumes(m, c).cpBytes, 2.0 * 4096 * 128 * (192 + 128));
    }

    // GPT-OSS: a causal window of 128 keys on even layers; halving by causality (Megatron's
    // convention) gives the exact window count.
    void slidingWindowFlops()
    {
        const TransformerSpec m = *modelPreset("gpt-oss-120b");
        QVERIFY(m.isWindowLayer(0));
        QVERIFY(!m.isWindowLayer(1));
        const double s = 4096, w = 128;
        const double exactPairs = w * s - w * (w - 1) / 2;
        QCOMPARE(attentionCoreFlops(m, 0, 1) / 2, 2.0 * exactPairs * 64 * (64 + 64));
        QCOMPARE(attentionCoreFlops(m, 1, 1), 2.0 * s * s * 64 * 128);
        // The kernel visits the window's blocks only: a window layer is far cheaper.
        const AcceleratorSpec &acc = builtinCatalog().hardware.accelerators.at("b200");
        TrainingConfig c;
        const double windowed = chunkCost(m, c, acc, 0, 1, false, false).forwardTime;
        const double full = chunkCost(m, c, acc, 1, 1, false, false).forwardTime;
        QVERIFY(windowed < full);
    }

    // Load imbalance: the busiest expert rank sets the pace of the experts' GEMMs and of the
    // dispatch.
    void imbalanceSlowsExperts()
    {
        const TransformerSpec m = *modelPreset("qwen3-30b-a3b");
        const AcceleratorSpec &acc = h100Sxm();
        TrainingConfig c = ep8();
        const double balanced = chunkCost(m, c, acc, 0, 4, false, false).forwardTime;
        const double bytes = commVolumes(m, c).epDispatchBytes;
        c.moeImbalance = 1.5;
        QVERIFY(chunkCost(m, c, acc, 0, 4, false, false).forwardTime > balanced * 1.1);
        QCOMPARE(commVolumes(m, c).epDispatchBytes, bytes * 1.5);
        c.moeImbalance = 0.5;
        QVERIFY(hasCode(validate(m, c, 8), "moe-imbalance-invalid"));
    }

    // Megatron-Core's element-wise passes of a MoE layer (costmodel.cpp), forward bytes at HBM
    // bandwidth: the all-to-all dispatcher's local sort after the dispatch and before the
    // combine (not with one expert per rank, not with DeepEP), the clamped GLU's clamps and
    // concatenation (16 bytes per intermediate element), the experts' second bias added expert
    // by expert (12 bytes per output element).
    void megatronMoeElementwisePasses()
    {
        const TransformerSpec m = *modelPreset("qwen3-30b-a3b");
        const AcceleratorSpec &acc = h100Sxm();
        const KernelModel k(acc);
        auto mem = [&](const TransformerSpec &mm, const TrainingConfig &cc) {
            return chunkCost(mm, cc, acc, 0, 1, false, false).memoryBoundTime;
        };
        auto close = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); };
        TrainingConfig c = ep8(); // 16 experts per rank
        const double T = double(c.microBatch) * m.seq;
        const double routed = T * m.topK * m.hidden; // elements dispatched per rank
        c.dispatcher = TokenDispatcher::DeepEP;
        const double deepep = mem(m, c);
        c.dispatcher = TokenDispatcher::AllToAll;
        QVERIFY(close(mem(m, c) - deepep, k.elementwise(2 * 4 * routed)));
        TrainingConfig one = c; // one expert per rank: nothing to sort
        one.ep = one.dp = m.experts;
        TrainingConfig oneDeep = one;
        oneDeep.dispatcher = TokenDispatcher::DeepEP;
        QVERIFY(close(mem(m, one), mem(m, oneDeep)));
        TransformerSpec clamped = m;
        clamped.activationClamp = 7;
        QVERIFY(close(mem(clamped, c) - mem(m, c), k.elementwise(16 * T * m.topK * m.expertFfn)));
        TransformerSpec biased = m;
        biased.linearBias = true;
        QVERIFY(close(mem(biased, c) - mem(m, c), k.elementwise(12 * routed)));
        QVERIFY(modelPreset("gpt-oss-120b")->activationClamp == 7.0);
        QVERIFY(modelPreset("gpt-oss-120b")->linearBias);
    }
    // Combined 1F1B: the steady phase's EP traffic hides behind compute; DeepEP's SMs slow the
    // compute they overlap; without overlap the SM share changes nothing. Interleaved, as
    // Megatron-Core requires with PP > 1.
    void epOverlap()
    {
        ScheduleSpec s = epPairSpec(2);
        s.m = 16;
        s.v = 2;
        s.schedule = PipelineSchedule::Interleaved;
        ChunkWork w;
        w.forwardTime = 1e-3;
        w.backwardTime = 2e-3;
        w.layers = 1;
        w.epForward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
        w.epBackward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
        s.chunks = {w, w, w, w};
        auto run = [&](bool overlap, double sm) {
            ScheduleSpec x = s;
            x.overlapEp = overlap;
            x.epSmFraction = sm;
            test::FakeComm comm(0, 1e9); // 1 ms per request
            const ScheduleOutcome o = runSchedule(x, comm);
            return o.ok ? o.stepTime : -1;
        };
        const double exposed = run(false, 0);
        const double hidden = run(true, 0);
        QVERIFY(exposed > 0 && hidden > 0);
        QVERIFY(hidden < exposed * 0.8);
        QCOMPARE(run(false, 0.2), exposed);
        const double deepep = run(true, 0.2);
        QVERIFY(deepep > hidden && deepep < exposed);
        // Slot by slot (EpSlots): with no partner compute beside either exchange the overlap
        // hides nothing; with room for half of the first exchange only, part of it.
        auto slotted = [&](double hideFirst, double hideSecond) {
            ScheduleSpec x = s;
            x.overlapEp = true;
            for (ChunkWork &c : x.chunks)
                c.epSlotsForward = c.epSlotsBackward = EpSlots {0.5, hideFirst, hideSecond};
            test::FakeComm comm(0, 1e9);
            const ScheduleOutcome o = runSchedule(x, comm);
            return o.ok ? o.stepTime : -1;
        };
        QVERIFY(qAbs(slotted(0, 0) - exposed) < 1e-12);
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(qAbs(slotted(inf, inf) - hidden) < 1e-12);
        const double partly = slotted(0.25e-3, inf);
        QVERIFY2(partly > hidden + 1e-4 && partly < exposed,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(hidden).arg(partly).arg(exposed)));
    }
    // More compute never makes a step shorter, with the 1F1B EP overlap too. Until session 33
    // an overlapped operation waited for its own exchange (it ran beside the operation's own
    // compute) while the partner's slots counted the same compute as hiding the partner's
    // exchange (EpSlots), so forward compute that grew under the forward's own exchange
    // (host-bound time, for instance) shrank the backward's exposure and the step: `weft-cli
    // simulate` of Qwen3-30B-A3B, 2 x dgx-h100, EP 16, --overlap dp,ep gave 25.12 s at
    // --launch-overhead-us 15 and 23.36 s at 21.8. A steady pair now runs as one operation.
    // Here: forward 0.6 ms, backward 1.2 ms, 1 ms exchanges; the forward grown to 0.9 ms. With
    // one stage the step is the slot model's exactly: the warm-up forward and the cool-down
    // backward expose their exchanges, each of the m - 1 pairs lasts F + B + the backward's
    // exposure beside the forward's halves, 2 x max(0, 0.5 - F / 2) ms.
    void epOverlapNeverRewardsMoreCompute_data()
    {
        QTest::addColumn<int>("P");
        QTest::newRow("one stage") << 1;
        QTest::newRow("two stages") << 2;
    }
    void epOverlapNeverRewardsMoreCompute()
    {
        QFETCH(int, P);
        ScheduleSpec s = epPairSpec(P);
        s.m = 8;
        s.overlapEp = true;
        auto run = [&](double forward) {
            ChunkWork w;
            const double backward = 1.2e-3;
            w.forwardTime = forward;
            w.backwardTime = backward;
            w.layers = 1;
            w.epForward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
            w.epBackward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
            // Each exchange beside the partner's halves, as buildPlan assigns them.
            w.epSlotsForward = EpSlots {0.5, backward / 2, backward / 2};
            w.epSlotsBackward = EpSlots {0.5, forward / 2, forward / 2};
            ScheduleSpec x = s;
            x.chunks.assign(P, w);
            test::FakeComm comm(0, 1e9); // 1 MB per request: 1 ms
            const ScheduleOutcome o = runSchedule(x, comm);
            return o.ok ? o.stepTime : -1;
        };
        const double lean = run(0.6e-3), heavy = run(0.9e-3);
        QVERIFY(lean > 0 && heavy > 0);
        if (P == 1)
            for (const double f : {0.6e-3, 0.9e-3}) {
                const double pair = f + 1.2e-3 + 2 * std::max(0.0, 0.5e-3 - f / 2);
                const double model = (f + 1e-3) + 7 * pair + (1.2e-3 + 1e-3);
                QVERIFY2(qAbs(run(f) - model) < 1e-12,
                         qPrintable(QStringLiteral("%1 s, slots %2 s").arg(run(f)).arg(model)));
            }
        QVERIFY2(heavy >= lean - 1e-12,
                 qPrintable(QStringLiteral("%1 s with more compute, %2 s").arg(heavy).arg(lean)));
    }
    // A pair of two chunks where only the backward's chunk exchanges tokens (a dense chunk
    // beside a MoE one under interleaving): the pair lasts F + B plus that exchange's exposure
    // beside the forward chunk's halves. p = 1, v = 2: warm-up (v - 1) p + 1 = 2 forwards,
    // then pairs such as [F(1, c0), B(0, c1)]: chunk 0 dense (no exchange, hides nothing),
    // chunk 1 with a 1 ms exchange, so that pair lasts 0.1 + 0.2 + 1 ms. Until session 33's
    // review the backward's exchange time was lost when the forward had none (1.0 ms).
    void pairWithOneSidedExchange()
    {
        ScheduleSpec s = epPairSpec(1);
        s.v = 2;
        s.m = 4;
        s.schedule = PipelineSchedule::Interleaved;
        s.overlapEp = true;
        ChunkWork dense;
        dense.forwardTime = 0.1e-3;
        dense.backwardTime = 0.1e-3;
        dense.layers = 1;
        dense.epSlotsForward = dense.epSlotsBackward = EpSlots {0.5, 0, 0};
        ChunkWork moe = dense;
        moe.forwardTime = 0.2e-3;
        moe.backwardTime = 0.2e-3;
        moe.epForward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
        moe.epBackward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
        s.chunks = {dense, moe};
        test::FakeComm comm(0, 1e9); // 1 MB per request: 1 ms
        const ScheduleOutcome o = runSchedule(s, comm);
        QVERIFY2(o.ok, o.error.c_str());
        const auto &ops = o.ops.at(0).at(0);
        bool found = false;
        for (std::size_t i = 0; i + 1 < ops.size(); ++i) {
            const OpRecord &f = ops[i], &b = ops[i + 1];
            if (!f.op.forward || b.op.forward || f.op.chunk != 0 || b.op.chunk != 1)
                continue;
            if (b.start != f.end) // one by one (warm-up or cool-down), not a pair
                continue;
            found = true;
            QVERIFY2(qAbs((b.end - f.start) - 1.3e-3) < 1e-12,
                     qPrintable(QStringLiteral("pair of %1 s").arg(b.end - f.start)));
        }
        QVERIFY(found);
    }
    // EpSlots::exposure is max(0, f x - hide1) + max(0, (1 - f) x - hide2) (combined 1F1B
    // schedule_layer_1f1b: each slot takes the longer of its compute and its exchange).
    void epSlotExposure()
    {
        const EpSlots slot {0.25, 1.0, 2.0};
        QCOMPARE(slot.exposure(0), 0.0);
        QCOMPARE(slot.exposure(2), 0.0); // 0.5 beside 1, 1.5 beside 2
        QCOMPARE(slot.exposure(4), 1.0); // 1 beside 1, 3 beside 2
        QCOMPARE(slot.exposure(8), 1.0 + 4.0); // 2 beside 1, 6 beside 2
        QCOMPARE(EpSlots().exposure(1e9), 0.0); // the default hides any exchange
    }
    // The cost model splits the MoE layers where the combined 1F1B does (attention and router
    // | MLP side), and the plan gives each chunk's exchanges the partner's slots.
    void epSlotsFromTheCostModel()
    {
        const TransformerSpec m = *modelPreset("qwen3-235b-a22b");
        TrainingConfig c = qwenXep().config;
        const AcceleratorSpec &acc = h100Sxm();
        const ChunkCost cost = chunkCost(m, c, acc, 2, 3, false, false);
        QVERIFY(cost.moeAttentionForward > 0 && cost.moeMlpForward > 0);
        QVERIFY(cost.moeAttentionBackward > 0 && cost.moeMlpBackward > 0);
        // Every layer of this chunk is a MoE layer: the two sides are the whole chunk.
        QVERIFY(qAbs(cost.moeAttentionForward + cost.moeMlpForward - cost.forwardTime)
                < 1e-9 * cost.forwardTime);
        QVERIFY(qAbs(cost.moeAttentionBackward + cost.moeMlpBackward - cost.backwardTime)
                < 1e-9 * cost.backwardTime);
        TransformerSpec dense = *modelPreset("llama3-8b");
        QCOMPARE(chunkCost(dense, TrainingConfig {}, acc, 0, 2, false, false).moeMlpForward, 0.0);

        test::Cluster cl = test::makeCluster("dgx-h100", 32);
        Workload w0 = qwenXep();
        w0.config.overlapEp = true;
        const SimPlan plan = buildPlan(cl.design, w0, true);
        QVERIFY(plan.schedule.chunks.size() > 1);
        const ChunkWork &w = plan.schedule.chunks.at(1);
        const std::vector<int> split = splitLayers(m, w0.config);
        const ChunkCost c1
            = chunkCost(m, w0.config, plan.accelerator, split.at(0), split.at(1), false, false);
        QCOMPARE(w.epSlotsForward.hideFirst, c1.moeMlpBackward);
        QCOMPARE(w.epSlotsForward.hideSecond, c1.moeAttentionBackward);
        QCOMPARE(w.epSlotsBackward.hideFirst, c1.moeAttentionForward);
        QCOMPARE(w.epSlotsBackward.hideSecond, c1.moeMlpForward);
        QVERIFY(w.epSlotsForward.firstShare > 0 && w.epSlotsForward.firstShare < 1);
    }

    // --moe-shared-expert-overlap: the shared experts' GEMMs leave the layer's critical path
    // (the cost model keeps them apart, same total) and run beside the exposed dispatch and
    // combine.
    void sharedExpertOverlap()
    {
        const TransformerSpec m = *modelPreset("deepseek-v3");
        const AcceleratorSpec &acc = h100Sxm();
        TrainingConfig c = ep8();
        const int first = m.firstDenseLayers;
        const ChunkCost plain = chunkCost(m, c, acc, first, 2, false, false);
        QCOMPARE(plain.sharedExpertForward, 0.0);
        c.overlapSharedExperts = true;
        const ChunkCost apart = chunkCost(m, c, acc, first, 2, false, false);
        QVERIFY(apart.sharedExpertForward > 0 && apart.sharedExpertBackward > 0);
        QVERIFY(apart.forwardTime < plain.forwardTime);
        QVERIFY(qAbs(apart.forwardTime + apart.sharedExpertForward - plain.forwardTime)
                < 1e-9 * plain.forwardTime);
        QVERIFY(qAbs(apart.backwardTime + apart.sharedExpertBackward - plain.backwardTime)
                < 1e-9 * plain.backwardTime);
        QCOMPARE(apart.forwardFlops, plain.forwardFlops);

        ScheduleSpec s;
        s.p = 2;
        s.m = 8;
        PipelineGroups g;
        g.tp.resize(2);
        g.cp.resize(2);
        g.etp.resize(2);
        g.ep = {{CommGroup {{NodeId {1}, NodeId {2}}, 0}},
                {CommGroup {{NodeId {3}, NodeId {4}}, 1}}};
        g.ppPairs = {CommGroup {}, CommGroup {}};
        s.pipelines.push_back(g);
        s.dpGroups.resize(2);
        s.expertDpGroups.resize(2);
        auto run = [&](double side, bool overlapEp, double rate = 1e9) {
            ChunkWork w;
            w.forwardTime = 1e-3 - side;
            w.backwardTime = 2e-3 - 2 * side;
            w.sideForward = side;
            w.sideBackward = 2 * side;
            w.layers = 1;
            w.epForward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
            w.epBackward = {{CollectiveOp::MoeDispatch, 1e6, 1}};
            ScheduleSpec x = s;
            x.chunks = {w, w};
            x.overlapEp = overlapEp;
            test::FakeComm comm(0, rate); // 1 MB per request: 1 ms at 1e9 B/s
            const ScheduleOutcome o = runSchedule(x, comm);
            return o.ok ? o.stepTime : -1;
        };
        // An exchange too short to hide anything: the shared experts cost what they cost.
        QVERIFY(qAbs(run(0.4e-3, false, 1e15) - run(0, false, 1e15)) < 1e-7); // 1 ns exchanges
        const double serial = run(0, false), beside = run(0.4e-3, false);
        QVERIFY(serial > 0 && beside > 0);
        // 16 forward (0.4 ms) and 16 backward (0.8 ms) operations per stage, each hiding its
        // shared experts behind the 1 ms exchange; two stages' critical path at least one's.
        QVERIFY2(beside < serial - 8 * 1.2e-3,
                 qPrintable(QStringLiteral("%1 vs %2 s").arg(beside).arg(serial)));
        // With 1F1B A2A overlap only the warm-up and cool-down exchanges are exposed: the
        // shared experts hide behind those, and follow the compute in the steady phase.
        const double hidden = run(0, true), hiddenBeside = run(0.4e-3, true);
        QVERIFY(hiddenBeside <= hidden && hiddenBeside > beside - serial + hidden);
    }
};

QTEST_GUILESS_MAIN(TestMoeFolding)
#include "tst_moefolding.moc"
