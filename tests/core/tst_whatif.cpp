// Tests of the what-if scenarios, trials and resilience numbers (issue 19), against closed forms
// on small graphs: a 2:1 loss of spine capacity halves a spine-bound ring all-reduce's bus
// bandwidth, and the bisection of two leaves under two spines.
#include "../support/netfabrics.h"
#include "../support/workloadfixtures.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "model/validate.h"
#include "sim/collectivesweep.h"
#include "sim/simulator.h"
#include "whatif/resilience.h"
#include "whatif/scenario.h"
#include "whatif/trials.h"

#include <QtTest>
#include <set>

using namespace weft;
using namespace weft::test;

namespace {

constexpr double kNic = 50e9; // bytes/s
constexpr double kUplink = 25e9; // bytes/s per leaf-spine link

/// Two leaves L1, L2 under two spines S1, S2 (one kUplink link from each leaf to each spine);
/// a0, a1 on L1 and b0, b1 on L2 with kNic NICs, each accelerator its own scale-up domain.
/// A ring a0 -> b0 -> a1 -> b1 puts two flows each way across the spines: spine-bound.
struct TwoLeaves
{
    Design d;
    std::vector<NodeId> ring;
};

TwoLeaves twoLeaves()
{
    TwoLeaves t;
    Design &d = t.d;
    addTestTech(d, "ib", 1.0, 0, Technology::InfiniBand);
    const NodeId l1 = addTestNode(d, NodeKind::Switch, "L1");
    const NodeId l2 = addTestNode(d, NodeKind::Switch, "L2");
    const NodeId s1 = addTestNode(d, NodeKind::Switch, "S1", {}, SwitchRole::Spine);
    const NodeId s2 = addTestNode(d, NodeKind::Switch, "S2", {}, SwitchRole::Spine);
    for (const NodeId l : {l1, l2})
        for (const NodeId s : {s1, s2})
            addTestLink(d, l, s, "ib", kUplink);
    std::vector<NodeId> acc;
    for (const char *name : {"a0", "a1", "b0", "b1"}) {
        Group g;
        g.name = std::string("dom-") + name;
        const GroupId gid = d.addGroup(g);
        const NodeId id = addTestNode(d, NodeKind::Accelerator, name, gid, SwitchRole::Leaf, 0);
        d.group(gid)->members.push_back(id);
        addTestLink(d, id, name[0] == 'a' ? l1 : l2, "ib", kNic);
        acc.push_back(id);
    }
    t.ring = {acc[0], acc[2], acc[1], acc[3]};
    return t;
}

double ringBusBandwidth(const Design &d, const std::vector<NodeId> &members)
{
    const auto rows = sweepCollective(d, CollectiveKind::AllReduce, members, {double(1 << 30)},
                                      CollectiveAlgorithm::Ring);
    return rows.front().busbw;
}

Design cluster(int domains)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.tiers = 2;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok())
        qFatal("generate failed");
    return std::move(*g.design);
}

/// 8 DGX H100 training Llama 3 8B with TP 8, DP 8: DP traffic crosses the leaves.
Design smallJob()
{
    Design d = cluster(8);
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.config.tp = 8;
    w.config.dp = 8;
    w.config.globalBatch = 64;
    d.workload = w;
    return d;
}

Scenario parse(const std::string &s)
{
    std::string error;
    const auto sc = parseScenario(s, error);
    if (!sc)
        qFatal("%s", error.c_str());
    return *sc;
}

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT

private slots:
    void parseGood()
    {
        const Scenario s = parse("link:12,cable:3,switch:spine3,link:7@0.5,gpu:d0.gpu1@0.8");
        QCOMPARE(s.faults.size(), std::size_t(5));
        QCOMPARE(s.faults[0].kind, Fault::Kind::LinkDown);
        QCOMPARE(s.faults[1].kind, Fault::Kind::CableDown);
        QCOMPARE(s.faults[2].kind, Fault::Kind::SwitchDown);
        QCOMPARE(s.faults[3].kind, Fault::Kind::LinkRate);
        QCOMPARE(s.faults[3].factor, 0.5);
        QCOMPARE(s.faults[4].kind, Fault::Kind::AcceleratorClock);
        QCOMPARE(s.label(),
                 std::string("link:12,cable:3,switch:spine3,link:7@0.5,gpu:d0.gpu1@0.8"));
    }

    void parseBad_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no kind") << "12";
        QTest::newRow("unknown kind") << "port:1";
        QTest::newRow("factor 0") << "link:1@0";
        QTest::newRow("factor above 1") << "link:1@1.5";
        QTest::newRow("switch factor") << "switch:s@0.5";
        QTest::newRow("gpu without factor") << "gpu:x";
        QTest::newRow("no target") << "link:";
    }
    void parseBad()
    {
        QFETCH(QString, text);
        std::string error;
        QVERIFY(!parseScenario(text.toStdString(), error));
        QVERIFY(!error.empty());
    }

    void apply()
    {
        TwoLeaves t = twoLeaves();
        const Design &d = t.d;
        std::string error;
        const LinkId first = d.links().front().id;
        auto f = applyScenario(d, parse("link:" + std::to_string(first.value)), error);
        QVERIFY(f);
        QCOMPARE(f->design.links().size(), d.links().size() - 1);
        QVERIFY(!f->design.link(first));
        f = applyScenario(d, parse("switch:S2"), error);
        QVERIFY(f);
        QCOMPARE(f->design.nodes().size(), d.nodes().size() - 1);
        QCOMPARE(f->design.links().size(), d.links().size() - 2);
        f = applyScenario(d, parse("link:" + std::to_string(first.value) + "@0.5"), error);
        QVERIFY(f);
        QCOMPARE(f->design.link(first)->rate, kUplink / 2);
        QVERIFY(f->exploitSymmetry); // between switches: replica mirroring still exact
        QVERIFY(!applyScenario(d, parse("switch:nope"), error));
        QVERIFY(error.find("nope") != std::string::npos);
        QVERIFY(!applyScenario(d, parse("link:999"), error));
        QVERIFY(!applyScenario(d, parse("switch:a0"), error)); // an accelerator, not a switch
        // A name two nodes share is refused, naming the count (it took the first one).
        Design twins = d;
        const NodeId s1
            = std::find_if(twins.nodes().begin(), twins.nodes().end(), [](const Node &n) {
                  return n.name == "S1";
              })->id;
        twins.node(s1)->name = "S2";
        QVERIFY(!applyScenario(twins, parse("switch:S2"), error));
        QVERIFY2(error.find("2 nodes are named \"S2\"") != std::string::npos, error.c_str());
        const auto found = validateDesign(twins);
        QVERIFY(std::any_of(found.begin(), found.end(), [](const Finding &x) {
            return x.code == "duplicate-node-name" && x.severity == Severity::Warning
                && x.nodes.size() == 2;
        }));
        const auto clean = validateDesign(d);
        QVERIFY(!std::any_of(clean.begin(), clean.end(),
                             [](const Finding &x) { return x.code == "duplicate-node-name"; }));
    }

    void straggler()
    {
        Design d = fixtures::cluster256();
        const SimResult healthy = simulate(d);
        QVERIFY(healthy.ok);
        std::string error;
        const auto f = applyScenario(d, parse("gpu:d3.gpu5@0.8"), error);
        QVERIFY2(f, error.c_str());
        const Node *n = nullptr;
        for (const Node &x : f->design.nodes())
            if (x.name == "d3.gpu5")
                n = &x;
        QVERIFY(n);
        QCOMPARE(n->spec, std::string("h100-sxm@0.8"));
        QCOMPARE(f->design.acceleratorSpec(*n)->peakFlopsBf16,
                 0.8 * d.hardware.accelerators.at("h100-sxm").peakFlopsBf16);
        const SimResult slow = simulate(f->design);
        QVERIFY(slow.ok);
        // The synchronous step runs at the straggler's pace: compute grows by at most 1 / 0.8.
        const double ratio = slow.breakdown.compute / healthy.breakdown.compute;
        QVERIFY2(ratio > 1.05 && ratio <= 1.25 + 1e-9, std::to_string(ratio).c_str());
        QVERIFY(slow.stepTime > healthy.stepTime);
    }

    // Closed form: with one of two spines down, the spine capacity each way halves (2 x 25 GB/s
    // -> 25 GB/s for two flows), so the ring's bus bandwidth halves: 25 -> 12.5 GB/s.
    void spineLossHalvesAllReduce()
    {
        TwoLeaves t = twoLeaves();
        const double healthy = ringBusBandwidth(t.d, t.ring);
        QVERIFY2(std::abs(healthy - kUplink) < 0.01 * kUplink, std::to_string(healthy).c_str());
        std::string error;
        const auto f = applyScenario(t.d, parse("switch:S2"), error);
        QVERIFY(f);
        const double failed = ringBusBandwidth(f->design, t.ring);
        QVERIFY2(std::abs(failed / healthy - 0.5) < 0.01, std::to_string(failed).c_str());
        // A half-rate uplink pair on L1 is the same loss of capacity.
        std::string half;
        for (const Link &l : t.d.links())
            if (t.d.node(l.a)->name == "L1")
                half += (half.empty() ? "" : ",") + ("link:" + std::to_string(l.id.value) + "@0.5");
        const auto h = applyScenario(t.d, parse(half), error);
        QVERIFY(h);
        QVERIFY(std::abs(ringBusBandwidth(h->design, t.ring) / healthy - 0.5) < 0.01);
    }

    // Closed form: halves {a0, a1} | {b0, b1}; the cut is L1's two uplinks (50 GB/s, below the
    // 100 GB/s of NICs); a spine down leaves 25 GB/s, a leaf down 0 (its accelerators are cut off).
    void bisection()
    {
        TwoLeaves t = twoLeaves();
        QCOMPARE(bisectionBandwidth(t.d), 2 * kUplink);
        const ResilienceReport r = fabricResilience(t.d);
        QVERIFY(r.ok);
        QCOMPARE(r.bisection, 2 * kUplink);
        QCOMPARE(r.switchesTried, 4);
        QCOMPARE(r.worstSwitchBisection, 0.0);
        QCOMPARE(r.worstSwitch, std::string("L1"));
        QCOMPARE(r.costliestLinks.size(), std::size_t(2));
        for (const LinkLoss &l : r.costliestLinks) {
            QCOMPARE(l.loss, kUplink);
            // Failing a cut link costs exactly its capacity.
            std::string error;
            const auto f = applyScenario(t.d, parse("link:" + std::to_string(l.link.value)), error);
            QCOMPARE(bisectionBandwidth(f->design), 2 * kUplink - l.loss);
        }
        std::string error;
        QCOMPARE(bisectionBandwidth(applyScenario(t.d, parse("switch:S1"), error)->design),
                 kUplink);
        // A non-blocking rail-optimized unit: half the GPUs' NICs, 16 x 8 x 400 Gb/s.
        QCOMPARE(bisectionBandwidth(cluster(32)), 16 * 8 * 50e9);
    }

    void randomFailures()
    {
        const Design d = cluster(8);
        const Scenario a = randomCableFailures(d, 5, 42);
        QCOMPARE(a.faults.size(), std::size_t(5));
        QCOMPARE(randomCableFailures(d, 5, 42).label(), a.label());
        QVERIFY(randomCableFailures(d, 5, 43).label() != a.label());
        for (const Fault &f : a.faults) {
            QCOMPARE(f.kind, Fault::Kind::CableDown);
            const Link *l = d.link(LinkId(static_cast<std::uint32_t>(std::stoul(f.target))));
            QVERIFY(l);
            const bool scaleOut
                = (d.node(l->a)->isSwitch() && d.node(l->a)->role != SwitchRole::ScaleUp)
                || (d.node(l->b)->isSwitch() && d.node(l->b)->role != SwitchRole::ScaleUp);
            QVERIFY(scaleOut);
        }
        QVERIFY(randomCableFailures(d, 0, 1).empty());
    }

    // Shards and threads do not change the trials: shard 0/2 + 1/2 = one run on 2 jobs.
    void trialsAndShards()
    {
        const Design d = smallJob();
        WhatIfOptions o;
        o.failures = 3;
        o.trials = 4;
        o.jobs = 2;
        o.seed = 7;
        const WhatIfResult all = runWhatIf(d, o);
        QVERIFY2(all.ok, all.problem.c_str());
        QCOMPARE(all.trials.size(), std::size_t(4));
        o.jobs = 1;
        o.shardCount = 2;
        std::map<int, TrialResult> merged;
        for (int s = 0; s < 2; ++s) {
            o.shardIndex = s;
            for (const TrialResult &t : runWhatIf(d, o).trials)
                merged[t.index] = t;
        }
        QCOMPARE(merged.size(), std::size_t(4));
        for (const TrialResult &t : all.trials) {
            QVERIFY(t.ok);
            QCOMPARE(merged[t.index].scenario.label(), t.scenario.label());
            QCOMPARE(merged[t.index].stepTime, t.stepTime);
            QVERIFY(t.slowdown >= 1 - 1e-9);
        }
    }

    // Every leaf down: no scale-out path between the servers. The trial reports it, no crash.
    void unroutableIsAFinding()
    {
        const Design d = smallJob();
        std::string leaves;
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role == SwitchRole::Leaf)
                leaves += (leaves.empty() ? "" : ",") + ("switch:" + n.name);
        const TrialResult t = simulateScenario(d, parse(leaves));
        QVERIFY(!t.ok);
        QVERIFY(!t.problem.empty());
    }

    void stats()
    {
        std::vector<TrialResult> trials;
        for (int i = 1; i <= 20; ++i) {
            TrialResult t;
            t.index = i;
            t.ok = true;
            t.stepTime = i;
            t.slowdown = i;
            t.scenario = parse("cable:" + std::to_string(i % 2));
            trials.push_back(t);
        }
        trials.push_back(TrialResult {}); // one that could not run
        const WhatIfStats s = whatIfStats(trials);
        QCOMPARE(s.ran, 20);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.median, 10.0);
        QCOMPARE(s.p95, 19.0);
        QCOMPARE(s.worst, 20.0);
        QCOMPARE(s.hurtMost.front().first, std::string("cable:0")); // even step times: mean 11
        QCOMPARE(s.hurtMost.front().second, 11.0);
    }
};

QTEST_APPLESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
