// Tests of the fabric generators: scale-up domains, rail-optimized and plain fat-trees, tiers,
// oversubscription, planes, positions and port-budget errors. Expected counts are derived by
// hand in the comment above each check (QM9700: 64 ports of 400G; DGX H100: 8 GPUs, 4 NVSwitch
// chips, 18 NVLink4 lanes per GPU, one 400G NIC per GPU).
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "testcatalog.h"

#include <QtTest>
#include <map>
#include <numeric>
#include <set>

using namespace weft;
using namespace Qt::StringLiterals;

namespace {

FabricParams dgxH100(int domains, int tiers = 2, double ratio = 1.0)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.fabric = FabricKind::RailOptimized;
    p.tiers = tiers;
    p.switchModel = "qm9700";
    p.nicRate = 400e9 / 8;
    p.oversubscription = ratio;
    p.planes = 1;
    p.suSize = 32;
    return p;
}

Design generate(const FabricParams &p)
{
    GenerateResult r = generateFabric(p, test::testCatalog());
    if (!r.ok())
        qWarning("generation failed: %s", r.errors.empty() ? "?" : r.errors.front().c_str());
    return r.ok() ? std::move(*r.design) : Design();
}

std::size_t countRole(const Design &d, SwitchRole role)
{
    std::size_t c = 0;
    for (const Node &n : d.nodes())
        c += n.isSwitch() && n.role == role;
    return c;
}

/// Ports (lanes) used at every switch, and the lanes of every link between two roles.
struct Usage
{
    std::map<NodeId, int> ports;
    std::map<std::pair<int, int>, std::multiset<int>> lanesBetween; ///< by (lower, upper) level
};

int level(const Node &n)
{
    return n.isAccelerator() ? -1 : static_cast<int>(n.role);
}

Usage usage(const Design &d)
{
    Usage u;
    for (const Link &l : d.links()) {
        const Node *a = d.node(l.a);
        const Node *b = d.node(l.b);
        if (a->isSwitch())
            u.ports[a->id] += l.lanes;
        if (b->isSwitch())
            u.ports[b->id] += l.lanes;
        const int la = level(*a), lb = level(*b);
        u.lanesBetween[{std::min(la, lb), std::max(la, lb)}].insert(l.lanes);
    }
    return u;
}

constexpr int kAcc = -1, kUp = 0, kLeaf = 1, kSpine = 2, kCore = 3;

/// Every switch uses at most its radix (the port budget the generator promised).
bool withinRadix(const Design &d)
{
    for (const auto &[id, ports] : usage(d).ports) {
        const Node *n = d.node(id);
        if (ports > d.switchSpec(*n)->radix) {
            qWarning("%s uses %d ports", n->name.c_str(), ports);
            return false;
        }
    }
    return true;
}

const Node *byName(const Design &d, const std::string &name)
{
    for (const Node &n : d.nodes())
        if (n.name == name)
            return &n;
    return nullptr;
}

bool anyErrorContains(const std::vector<std::string> &errors, const QStringList &parts)
{
    for (const std::string &e : errors) {
        const QString s = QString::fromStdString(e);
        bool all = true;
        for (const QString &p : parts)
            all = all && s.contains(p);
        if (all)
            return true;
    }
    return false;
}

} // namespace

class TestGenerate : public QObject
{
    Q_OBJECT
private slots:
    void spreadLanes_data()
    {
        QTest::addColumn<int>("lanes");
        QTest::addColumn<int>("chips");
        QTest::addColumn<QList<int>>("expected");
        // DGX H100: 18 NVLink4 lanes over 4 NVSwitch chips as 5,4,4,5 (DGX H100 user guide).
        QTest::newRow("dgx-h100") << 18 << 4 << QList<int> {5, 4, 4, 5};
        QTest::newRow("dgx-a100") << 12 << 6 << QList<int> {2, 2, 2, 2, 2, 2};
        QTest::newRow("three-extra") << 7 << 4 << QList<int> {2, 2, 1, 2};
    }
    void spreadLanes()
    {
        QFETCH(int, lanes);
        QFETCH(int, chips);
        QFETCH(QList<int>, expected);
        const std::vector<int> got = weft::spreadLanes(lanes, chips);
        QCOMPARE(QList<int>(got.begin(), got.end()), expected);
    }

    void dealUplinksIsBalanced()
    {
        // 3 members x 5 uplinks over 4 targets: the stream 0..14 mod 4 gives 4,4,4,3.
        std::vector<int> total(4, 0);
        for (int m = 0; m < 3; ++m) {
            const std::vector<int> d = dealUplinks(m, 5, 4);
            QCOMPARE(std::accumulate(d.begin(), d.end(), 0), 5);
            for (int t = 0; t < 4; ++t)
                total[t] += d[t];
        }
        QCOMPARE(total, (std::vector<int> {4, 4, 4, 3}));
    }

    void scaleUpDomains_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("accelerators");
        QTest::addColumn<int>("chips");
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("lanes");
        // DGX H100: 8 GPUs x 4 chips = 32 links, 8 x 18 = 144 lanes.
        QTest::newRow("dgx-h100") << "dgx-h100" << 8 << 4 << 32 << 144;
        // DGX A100: 8 x 6 = 48 links of 2 lanes, 96 lanes.
        QTest::newRow("dgx-a100") << "dgx-a100" << 8 << 6 << 48 << 96;
        // NVL72: 72 GPUs x 18 chips = 1296 links of 1 lane.
        QTest::newRow("gb200-nvl72") << "gb200-nvl72" << 72 << 18 << 1296 << 1296;
        // MI300X: no switch, full mesh of 8 = 8*7/2 = 28 links of 1 lane (7 per GPU).
        QTest::newRow("mi300x-8") << "mi300x-8" << 8 << 0 << 28 << 28;
    }
    void scaleUpDomains()
    {
        QFETCH(QString, preset);
        QFETCH(int, accelerators);
        QFETCH(int, chips);
        QFETCH(int, links);
        QFETCH(int, lanes);
        FabricParams p;
        p.scaleUpPreset = preset.toStdString();
        p.domains = 1;
        p.fabric = FabricKind::None;
        const Design d = generate(p);
        QCOMPARE(d.acceleratorCount(), std::size_t(accelerators));
        QCOMPARE(countRole(d, SwitchRole::ScaleUp), std::size_t(chips));
        QCOMPARE(d.links().size(), std::size_t(links));
        int total = 0;
        std::map<NodeId, int> perAccel;
        for (const Link &l : d.links()) {
            total += l.lanes;
            for (NodeId e : {l.a, l.b})
                if (d.node(e)->isAccelerator())
                    perAccel[e] += l.lanes;
        }
        QCOMPARE(total, lanes);
        const int expectedPerAccel
            = test::testCatalog().scaleUpPresets.at(p.scaleUpPreset).lanesPerAccelerator;
        for (const auto &[id, n] : perAccel)
            QCOMPARE(n, expectedPerAccel);
        QCOMPARE(d.groups().size(), std::size_t(1));
        const Group &g = d.groups().front();
        QCOMPARE(g.kind, GroupKind::ScaleUpDomain);
        QCOMPARE(QString::fromStdString(g.preset), preset);
        QCOMPARE(g.members.size(), std::size_t(accelerators + chips));
        for (const Node &n : d.nodes())
            if (n.isAccelerator())
                QVERIFY(n.rail >= 0 && n.rail < accelerators);
        QVERIFY(withinRadix(d));
    }

    void dgxH100ChipLanes()
    {
        FabricParams p = dgxH100(1);
        p.fabric = FabricKind::None;
        const Design d = generate(p);
        // Every GPU sends 5,4,4,5 lanes to nvs0..nvs3; each chip takes 8 x its share.
        const Usage u = usage(d);
        QCOMPARE(u.ports.at(byName(d, "d0.nvs0")->id), 40);
        QCOMPARE(u.ports.at(byName(d, "d0.nvs1")->id), 32);
        QCOMPARE(u.ports.at(byName(d, "d0.nvs3")->id), 40);
    }

    void referenceScalableUnit()
    {
        const Design d = generate(dgxH100(32));
        QCOMPARE(d.acceleratorCount(), std::size_t(256));
        // Leaves: rail i of the 32 servers on leaf i -> 8 leaves with 32 x 400G downlinks;
        // 1:1 means 32 x 400G uplinks; 32 + 32 = 64 ports = QM9700 radix.
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(8));
        // Spines: 8 leaves x 32 uplinks = 256 cables / 64 ports = 4 spines, each leaf 32/4 = 8
        // cables to every spine -> 8 x 4 = 32 Links of 8 lanes.
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(4));
        QCOMPARE(countRole(d, SwitchRole::Core), std::size_t(0));
        QCOMPARE(countRole(d, SwitchRole::ScaleUp), std::size_t(128));
        const Usage u = usage(d);
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}),
                 (std::multiset<int> {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
                                      8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8}));
        QCOMPARE(u.lanesBetween.at({kAcc, kLeaf}).size(), std::size_t(256));
        QCOMPARE(u.lanesBetween.at({kAcc, kLeaf}).count(1), std::size_t(256));
        // Every leaf and spine is exactly full: 64 ports.
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp)
                QCOMPARE(u.ports.at(n.id), 64);
        // Rail alignment: the NIC of GPU i of every server lands on su0.leaf<i>.
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (a->isAccelerator() && b->isSwitch() && b->role == SwitchRole::Leaf)
                QCOMPARE(b->name, "su0.leaf" + std::to_string(a->rail));
        }
        QVERIFY(d.generator.has_value());
        QCOMPARE(d.generator->domains, 32);
        QCOMPARE(d.generator->switchModel, std::string("qm9700"));
        QVERIFY(d.hardware.switches.count("qm9700"));
        QVERIFY(d.hardware.accelerators.count("h100"));
        QVERIFY(d.hardware.linkTechs.count("ib-ndr"));
        // One scalable-unit group holding the 8 leaves, parent of the 32 domains.
        std::size_t su = 0, domains = 0;
        for (const Group &g : d.groups()) {
            su += g.kind == GroupKind::ScalableUnit;
            domains += g.kind == GroupKind::ScaleUpDomain && d.group(g.parent)
                && d.group(g.parent)->kind == GroupKind::ScalableUnit;
        }
        QCOMPARE(su, std::size_t(1));
        QCOMPARE(domains, std::size_t(32));
    }

    void oversubscriptionHalvesUplinks()
    {
        const Design d = generate(dgxH100(32, 2, 2.0));
        // 2:1: 32 x 400G down / (2 x 400G) = 16 uplinks per leaf; 8 x 16 = 128 cables / 64 =
        // 2 spines; each leaf 16 / 2 = 8 cables to each spine.
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(8));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(2));
        const Usage u = usage(d);
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).size(), std::size_t(16));
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).count(8), std::size_t(16));
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role == SwitchRole::Leaf)
                QCOMPARE(u.ports.at(n.id), 32 + 16);
    }

    void twoScalableUnits()
    {
        const Design d = generate(dgxH100(64));
        // 2 SUs x 8 rails = 16 leaves; 16 x 32 = 512 uplinks / 64 = 8 spines; each leaf
        // 32 / 8 = 4 cables to each of the 8 spines; a spine takes 16 x 4 = 64 ports.
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(16));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(8));
        const Usage u = usage(d);
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).size(), std::size_t(16 * 8));
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).count(4), std::size_t(16 * 8));
        // Server 40 (second SU) rail 3 lands on su1.leaf3.
        const Node *gpu = byName(d, "d40.gpu3");
        QVERIFY(gpu);
        bool found = false;
        for (const Link &l : d.links())
            if (l.a == gpu->id && d.node(l.b)->role == SwitchRole::Leaf)
                found = d.node(l.b)->name == "su1.leaf3";
        QVERIFY(found);
        QVERIFY(withinRadix(d));
    }

    void partialScalableUnit()
    {
        const Design d = generate(dgxH100(40));
        // SU0 has 32 servers, SU1 8: 16 leaves (SU1's with 8 downlinks), all with 32 uplinks so
        // every leaf reaches every spine: 512 / 64 = 8 spines.
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(16));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(8));
        QCOMPARE(usage(d).ports.at(byName(d, "su1.leaf0")->id), 8 + 32);
        QVERIFY(withinRadix(d));
    }

    void threeTiers16k()
    {
        const Design d = generate(dgxH100(2048, 3));
        QCOMPARE(d.acceleratorCount(), std::size_t(16384));
        // 2048 / 32 = 64 SUs x 8 leaves = 512 leaves (32 down, 32 up each).
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(512));
        // Spines have 32 down + 32 up: an SU's 256 uplinks need 8 spines; 64 x 8 = 512.
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(512));
        // Spine j of each of the 64 SUs -> core group j: 64 x 32 uplinks / 64 ports = 32
        // cores, 8 groups -> 256 cores, one cable from every spine to each core of its group.
        QCOMPARE(countRole(d, SwitchRole::Core), std::size_t(256));
        const Usage u = usage(d);
        // Each leaf sends 32 / 8 = 4 cables to each spine of its SU: 512 x 8 Links.
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).size(), std::size_t(4096));
        QCOMPARE(u.lanesBetween.at({kLeaf, kSpine}).count(4), std::size_t(4096));
        QCOMPARE(u.lanesBetween.at({kSpine, kCore}).size(), std::size_t(512 * 32));
        QCOMPARE(u.lanesBetween.at({kSpine, kCore}).count(1), std::size_t(512 * 32));
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp)
                QCOMPARE(u.ports.at(n.id), 64);
    }

    void planes()
    {
        FabricParams p = dgxH100(32);
        p.planes = 2;
        p.nicRate = 800e9 / 8; // 400G per plane: each plane is the reference SU
        const Design d = generate(p);
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(16));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(8));
        std::map<NodeId, std::set<int>> planesOfGpu;
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (a->isAccelerator() && b->role == SwitchRole::Leaf) {
                planesOfGpu[a->id].insert(b->plane);
                QCOMPARE(l.rate, 50e9);
            }
            if (a->isSwitch() && b->isSwitch() && a->role != SwitchRole::ScaleUp)
                QCOMPARE(a->plane, b->plane); // planes never cross
        }
        QCOMPARE(planesOfGpu.size(), std::size_t(256));
        for (const auto &[id, set] : planesOfGpu)
            QCOMPARE(set, (std::set<int> {0, 1}));
        QVERIFY(byName(d, "p1.su0.leaf7"));
        QVERIFY(withinRadix(d));
    }

    void plainFatTree()
    {
        FabricParams p = dgxH100(32);
        p.fabric = FabricKind::FatTree;
        const Design d = generate(p);
        // 256 NICs, 32 per leaf -> 8 leaves; consecutive NICs: servers 4k..4k+3 on leaf k.
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(8));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(4));
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (a->isAccelerator() && b->role == SwitchRole::Leaf) {
                const int server = std::stoi(a->name.substr(1, a->name.find('.') - 1));
                QCOMPARE(b->name, "su0.leaf" + std::to_string(server / 4));
            }
        }
        QVERIFY(withinRadix(d));
    }

    void meshPresetWithFabric()
    {
        FabricParams p = dgxH100(4);
        p.scaleUpPreset = "mi300x-8";
        const Design d = generate(p);
        // 4 nodes: 8 rail leaves with 4 NICs and 4 uplinks; 32 uplinks -> 1 spine.
        QCOMPARE(countRole(d, SwitchRole::ScaleUp), std::size_t(0));
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(8));
        QCOMPARE(countRole(d, SwitchRole::Spine), std::size_t(1));
        QCOMPARE(usage(d).lanesBetween.at({kAcc, kAcc}).size(), std::size_t(4 * 28));
    }

    void nicFasterThanPortUsesTwoPorts()
    {
        FabricParams p = dgxH100(8);
        p.nicRate = 800e9 / 8; // 800G NIC on 400G ports: 2 lanes of 400G per NIC link
        const Design d = generate(p);
        for (const Link &l : d.links())
            if (d.node(l.a)->isAccelerator() && d.node(l.b)->role == SwitchRole::Leaf) {
                QCOMPARE(l.lanes, 2);
                QCOMPARE(l.rate, 50e9);
            }
        QVERIFY(withinRadix(d));
    }

    void positionsInTiers()
    {
        const Design d = generate(dgxH100(64, 3));
        std::map<int, std::pair<double, double>> yRange; // level -> min, max y
        for (const Node &n : d.nodes()) {
            const int lv = level(n);
            auto [it, fresh] = yRange.try_emplace(lv, n.y, n.y);
            it->second.first = std::min(it->second.first, n.y);
            it->second.second = std::max(it->second.second, n.y);
        }
        // Core above spine above leaf above NVSwitch above accelerators (y grows downwards).
        QVERIFY(yRange[kCore].second < yRange[kSpine].first);
        QVERIFY(yRange[kSpine].second < yRange[kLeaf].first);
        QVERIFY(yRange[kLeaf].second < yRange[kUp].first);
        QVERIFY(yRange[kUp].second < yRange[kAcc].first);
        // Domains side by side: no two accelerators share a position.
        std::set<std::pair<double, double>> seen;
        for (const Node &n : d.nodes())
            if (n.isAccelerator())
                QVERIFY(seen.insert({n.x, n.y}).second);
    }

    void deterministic()
    {
        const Design a = generate(dgxH100(64, 3));
        const Design b = generate(dgxH100(64, 3));
        QCOMPARE(a.nodes().size(), b.nodes().size());
        QCOMPARE(a.links().size(), b.links().size());
        for (std::size_t i = 0; i < a.links().size(); ++i) {
            QCOMPARE(a.links()[i].a, b.links()[i].a);
            QCOMPARE(a.links()[i].b, b.links()[i].b);
            QCOMPARE(a.links()[i].lanes, b.links()[i].lanes);
        }
        for (std::size_t i = 0; i < a.nodes().size(); ++i) {
            QCOMPARE(a.nodes()[i].name, b.nodes()[i].name);
            QCOMPARE(a.nodes()[i].x, b.nodes()[i].x);
        }
    }

    void errors_data()
    {
        QTest::addColumn<int>("domains");
        QTest::addColumn<int>("tiers");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<int>("suSize");
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("switchModel");
        QTest::addColumn<QStringList>("mustContain");
        // 2 tiers: at most 64 leaves of 32 NICs = 2048 NICs; 2048 servers = 16384 NICs.
        QTest::newRow("2 tiers too small")
            << 2048 << 2 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s
            << QStringList {u"2 tiers"_s, u"radix 64"_s, u"2048 NICs per plane at 1:1"_s,
                            u"16384"_s, u"--tiers 3"_s};
        // 3 tiers: a core group of 32 cores takes at most 64 SUs; 65 SUs of 32 servers.
        QTest::newRow("3 tiers too small")
            << 65 * 32 << 3 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s
            << QStringList {u"3 tiers"_s, u"64 scalable units"_s, u"65 requested"_s};
        // SU of 200 servers: 7 leaves per rail x 8 = 56 leaves with 29 uplinks; 56 x 29 / 32
        // = 51 spines > 29: a spine cannot reach every leaf. 128 servers (32 leaves) fit.
        QTest::newRow("su too large")
            << 400 << 3 << 1.0 << 200 << u"dgx-h100"_s << u"qm9700"_s
            << QStringList {u"scalable unit of 200"_s, u"--su-size 128"_s};
        QTest::newRow("unknown preset")
            << 1 << 2 << 1.0 << 32 << u"dgx-z9"_s << u"qm9700"_s
            << QStringList {u"unknown scale-up preset 'dgx-z9'"_s, u"dgx-h100"_s};
        QTest::newRow("unknown switch") << 1 << 2 << 1.0 << 32 << u"dgx-h100"_s << u"qm0"_s
                                        << QStringList {u"unknown switch model 'qm0'"_s};
        QTest::newRow("tiers") << 1 << 4 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s
                               << QStringList {u"tiers must be 2 or 3"_s};
        QTest::newRow("ratio") << 1 << 2 << 0.5 << 32 << u"dgx-h100"_s << u"qm9700"_s
                               << QStringList {u"oversubscription"_s, u">= 1"_s};
        QTest::newRow("no domains")
            << 0 << 2 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s << QStringList {u"at least 1"_s};
        QTest::newRow("absurd") << 200'000'000 << 3 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s
                                << QStringList {u"1600000000 accelerators"_s, u"at most 1048576"_s};
    }
    void errors()
    {
        QFETCH(int, domains);
        QFETCH(int, tiers);
        QFETCH(double, ratio);
        QFETCH(int, suSize);
        QFETCH(QString, preset);
        QFETCH(QString, switchModel);
        QFETCH(QStringList, mustContain);
        FabricParams p = dgxH100(domains, tiers, ratio);
        p.suSize = suSize;
        p.scaleUpPreset = preset.toStdString();
        p.switchModel = switchModel.toStdString();
        const GenerateResult r = generateFabric(p, test::testCatalog());
        QVERIFY(!r.ok());
        if (!anyErrorContains(r.errors, mustContain)) {
            for (const std::string &e : r.errors)
                qWarning("error: %s", e.c_str());
            QFAIL("no error says what does not fit");
        }
    }

    void leafTooSmallAndChipOverflow()
    {
        Catalog c = test::testCatalog();
        c.hardware.switches["tiny"] = test::makeSwitch("tiny", Technology::InfiniBand, 2, 400);
        FabricParams p = dgxH100(1);
        p.switchModel = "tiny";
        p.nicRate = 800e9 / 8; // two ports per NIC link + an uplink > radix 2
        GenerateResult r = generateFabric(p, c);
        QVERIFY(!r.ok());
        QVERIFY(anyErrorContains(r.errors, {u"cannot take even one"_s}));

        c.scaleUpPresets["dgx-h100"].lanesPerAccelerator = 40; // 10 lanes x 8 GPUs > 64
        p = dgxH100(1);
        r = generateFabric(p, c);
        QVERIFY(!r.ok());
        QVERIFY(anyErrorContains(r.errors, {u"80 ports"_s, u"nvswitch-gen3"_s}));
    }

    void builtinPresets_data()
    {
        QTest::addColumn<QString>("preset");
        for (const auto &[key, preset] : builtinCatalog().scaleUpPresets)
            QTest::newRow(key.c_str()) << QString::fromStdString(key);
    }
    void builtinPresets()
    {
        // Every shipped preset builds on every shipped scale-out switch within its port budgets.
        QFETCH(QString, preset);
        const Catalog &catalog = builtinCatalog();
        const ScaleUpPreset &ps = catalog.scaleUpPresets.at(preset.toStdString());
        for (const auto &[sw, spec] : catalog.hardware.switches) {
            if (spec.technology == Technology::NVLink)
                continue;
            FabricParams p = dgxH100(4);
            p.scaleUpPreset = ps.key;
            p.switchModel = sw;
            p.nicRate = 0; // the preset's NIC rate
            GenerateResult r = generateFabric(p, catalog);
            if (!r.ok()) {
                // 72 800G NICs on radix-40 200G switches (4 ports each) need 3 tiers.
                QVERIFY(anyErrorContains(r.errors, {u"--tiers 3"_s}));
                p.tiers = 3;
                r = generateFabric(p, catalog);
            }
            if (!r.ok()) {
                // ... and with 72 rails each needing its own leaf, a spine of 20 downlinks
                // cannot reach a unit's leaves: only the plain fat-tree fits.
                QVERIFY(anyErrorContains(r.errors, {u"--fabric fat-tree"_s}));
                p.fabric = FabricKind::FatTree;
                p.suSize = 1;
                r = generateFabric(p, catalog);
            }
            QVERIFY2(r.ok(), (ps.key + " on " + sw).c_str());
            QCOMPARE(r.design->acceleratorCount(), std::size_t(4 * ps.accelerators));
            QCOMPARE(r.design->generator->nicRate, ps.nicRate * ps.nicsPerAccelerator);
            QVERIFY(withinRadix(*r.design));
            for (const Link &l : r.design->links())
                QVERIFY(r.design->linkTech(l)); // every tech copied into the design
            for (const Node &n : r.design->nodes())
                QVERIFY(n.isAccelerator() ? bool(r.design->acceleratorSpec(n))
                                          : bool(r.design->switchSpec(n)));
        }
    }

    void fabricNone()
    {
        FabricParams p = dgxH100(4);
        p.fabric = FabricKind::None;
        p.tiers = 7; // ignored without a fabric
        const Design d = generate(p);
        QCOMPARE(d.acceleratorCount(), std::size_t(32));
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(0));
        QCOMPARE(d.groups().size(), std::size_t(4));
    }
};

QTEST_GUILESS_MAIN(TestGenerate)
#include "tst_generate.moc"
