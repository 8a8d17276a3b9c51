// Tests of the fabric generators: scale-up domains, rail-optimized and plain fat-trees, tiers,
// oversubscription, planes, positions, validity. Expected counts are derived by
// hand in the comment above each check (QM9700: 64 ports of 400G; DGX H100: 8 GPUs, 4 NVSwitch
// chips, 18 NVLink4 lanes per GPU, one 400G NIC per GPU).
#include "fabrictesting.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "model/validate.h"

#include <QtTest>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestGenerate : public QObject
{
    Q_OBJECT
private slots:
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

    // A fabric beyond what a design file holds is refused before it is built (generate and
    // New Cluster made a 1.2 M-node design that Weft then refused to open): 100,000 DGX H100 are
    // 800,000 accelerators and 400,000 NVSwitch chips, over io/designfile.h's 1,048,576 nodes.
    void beyondADesignFileIsRefused()
    {
        FabricParams p;
        p.scaleUpPreset = "dgx-h100";
        p.domains = 100000;
        p.fabric = FabricKind::None;
        const GenerateResult r = generateFabric(p, builtinCatalog());
        QVERIFY(!r.design);
        QCOMPARE(r.errors.size(), std::size_t(1));
        QVERIFY2(r.errors.front().find("more than the 1048576 a design file holds")
                     != std::string::npos,
                 r.errors.front().c_str());
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

    // Eight GB200 NVL72 racks stood in rows of 5 and 3: the leaves' cables to the second row
    // ran across the first row's racks (they looked cabled to each other) and a band as tall
    // as an expanded rack separated the rows. A unit of up to 8 domains is one row now, and no
    // leaf-to-domain cable passes over a domain it does not reach.
    void smallUnitsInOneRow_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("domains");
        QTest::newRow("8 x NVL72") << u"gb200-nvl72"_s << 8;
        QTest::newRow("4 x DGX H100") << u"dgx-h100"_s << 4;
    }
    void smallUnitsInOneRow()
    {
        QFETCH(QString, preset);
        QFETCH(int, domains);
        FabricParams p = dgxH100(domains);
        p.scaleUpPreset = preset.toStdString();
        p.fabric = FabricKind::FatTree;
        const Design d = generate(p);
        QVERIFY(!d.nodes().empty());
        std::map<GroupId, QRectF> box; // each domain's members, bounding box
        for (const Node &n : d.nodes())
            if (n.isAccelerator() || n.role == SwitchRole::ScaleUp) {
                QRectF &r = box[n.group];
                r = r.isNull() ? QRectF(n.x, n.y, 1, 1) : r.united(QRectF(n.x, n.y, 1, 1));
            }
        QCOMPARE(int(box.size()), domains);
        std::set<double> tops;
        for (const auto &[g, r] : box)
            tops.insert(r.top());
        QCOMPARE(tops.size(), std::size_t(1)); // one row
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (b->role != SwitchRole::Leaf)
                std::swap(a, b);
            if (b->role != SwitchRole::Leaf || a->group == GroupId())
                continue;
            // Drawn from where it leaves its domain (the top of the box) up to the leaf.
            const QLineF cable(a->x, box[a->group].top(), b->x, b->y);
            for (const auto &[g, r] : box) {
                if (g == a->group)
                    continue;
                const QRectF area = r.adjusted(-20, -20, 20, 20);
                const QLineF edges[] = {{area.topLeft(), area.topRight()},
                                        {area.topRight(), area.bottomRight()},
                                        {area.bottomRight(), area.bottomLeft()},
                                        {area.bottomLeft(), area.topLeft()}};
                for (const QLineF &e : edges)
                    QVERIFY2(cable.intersects(e, nullptr) != QLineF::BoundedIntersection,
                             qPrintable(QString::fromStdString(a->name + " - " + b->name)
                                        + u" crosses another domain"_s));
            }
        }
    }

    // Sixteen NVL72 racks in one unit stood 7 + 7 + 2, each row as far below the last as an
    // expanded rack is tall (600 units: an empty band at Fit), and an expanded rack's GPU
    // labels were half covered by the next GPU row (40 units apart, 34-unit boxes). Now the
    // rows are balanced (4 x 4), as far apart as the collapsed boxes (an expanded rack is drawn
    // over the boxes below it), and GPU rows 52 units apart. DGX H100 rows are unchanged.
    void nvl72RacksInCompactRows()
    {
        FabricParams p = dgxH100(16);
        p.scaleUpPreset = "gb200-nvl72";
        p.fabric = FabricKind::FatTree;
        p.suSize = 16;
        const Design d = generate(p);
        QVERIFY(!d.nodes().empty());
        std::map<GroupId, QRectF> box; // each rack's members, bounding box of the centres
        std::map<GroupId, std::set<double>> gpuRows;
        for (const Node &n : d.nodes())
            if (n.isAccelerator() || n.role == SwitchRole::ScaleUp) {
                QRectF &r = box[n.group];
                r = r.isNull() ? QRectF(n.x, n.y, 1, 1) : r.united(QRectF(n.x, n.y, 1, 1));
                if (n.isAccelerator())
                    gpuRows[n.group].insert(n.y);
            }
        QCOMPARE(int(box.size()), 16);
        std::set<double> lefts, tops;
        for (const auto &[g, r] : box) {
            lefts.insert(r.left());
            tops.insert(r.top());
        }
        QCOMPARE(lefts.size(), std::size_t(4));
        QCOMPARE(tops.size(), std::size_t(4));
        const std::vector<double> rowTops(tops.begin(), tops.end());
        for (std::size_t i = 1; i < rowTops.size(); ++i)
            QCOMPARE(rowTops[i] - rowTops[i - 1], 142.0); // a collapsed box (62) + 80
        for (const auto &[g, rows] : gpuRows) {
            QCOMPARE(rows.size(), std::size_t(9)); // 72 GPUs, 8 a row
            const std::vector<double> ys(rows.begin(), rows.end());
            for (std::size_t i = 1; i < ys.size(); ++i)
                QCOMPARE(ys[i] - ys[i - 1], 52.0);
        }

        // DGX H100 servers (one GPU row, a short frame) keep rows as tall as the frame.
        FabricParams q = dgxH100(32);
        q.suSize = 32;
        std::set<double> dgxTops;
        const Design dgx = generate(q);
        for (const Node &n : dgx.nodes())
            if (n.isAccelerator())
                dgxTops.insert(n.y);
        const std::vector<double> dys(dgxTops.begin(), dgxTops.end());
        QCOMPARE(dys.size(), std::size_t(6)); // 6 rows of up to 6 servers
        QCOMPARE(dys[1] - dys[0], 200.0);
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
        // Inside each domain the NVSwitch chips sit above the accelerators; the domains of a
        // scalable unit wrap into rows (the block about twice as wide as tall).
        std::map<GroupId, std::pair<double, double>> domain; // lowest chip, highest accelerator
        for (const Node &n : d.nodes()) {
            auto [it, fresh] = domain.try_emplace(n.group, -1e300, 1e300);
            if (n.isAccelerator())
                it->second.second = std::min(it->second.second, n.y);
            else if (n.role == SwitchRole::ScaleUp)
                it->second.first = std::max(it->second.first, n.y);
        }
        for (const auto &[g, ys] : domain)
            if (d.group(g) && d.group(g)->kind == GroupKind::ScaleUpDomain)
                QVERIFY(ys.first < ys.second);
        QVERIFY(yRange[kAcc].second > yRange[kUp].first); // more than one row of domains
        const double width = yRange.empty() ? 0 : [&] {
            double lo = 1e300, hi = -1e300;
            for (const Node &n : d.nodes())
                if (n.isAccelerator()) {
                    lo = std::min(lo, n.x);
                    hi = std::max(hi, n.x);
                }
            return hi - lo;
        }();
        const double height = yRange[kAcc].second - yRange[kUp].first;
        QVERIFY2(width > height && width < 6 * height,
                 qPrintable(QStringLiteral("%1 x %2").arg(width).arg(height)));
        // No two accelerators share a position.
        std::set<std::pair<double, double>> seen;
        for (const Node &n : d.nodes())
            if (n.isAccelerator())
                QVERIFY(seen.insert({n.x, n.y}).second);
    }

    // 64 scalable units used to sit side by side (157,000 x 1,800 units: a one-pixel strip at
    // Fit); they form a grid of pods now, each unit's leaves and spines above its domains and
    // the cores above the grid, apart from each other.
    void largeFabricIsAGridOfPods()
    {
        const Design d = generate(dgxH100(2048, 3));
        QRectF all;
        for (const Node &n : d.nodes())
            all |= QRectF(n.x, n.y, 1, 1);
        QVERIFY2(all.width() < 3 * all.height() && all.height() < all.width(),
                 qPrintable(QStringLiteral("%1 x %2").arg(all.width()).arg(all.height())));
        // Per unit: its spines above its leaves above its domains' NVSwitch chips.
        std::map<std::string, std::map<int, std::pair<double, double>>> perSu;
        const auto suOf = [&d](const Node &n) {
            const Group *g = d.group(n.group);
            if (g && g->kind == GroupKind::ScaleUpDomain)
                g = d.group(g->parent);
            return g ? g->name : std::string();
        };
        for (const Node &n : d.nodes()) {
            if (n.role == SwitchRole::Core)
                continue;
            auto &range = perSu[suOf(n)];
            auto [it, fresh] = range.try_emplace(level(n), n.y, n.y);
            it->second.first = std::min(it->second.first, n.y);
            it->second.second = std::max(it->second.second, n.y);
        }
        QCOMPARE(perSu.size(), std::size_t(64));
        for (auto &[su, range] : perSu) {
            QVERIFY2(range[kSpine].second < range[kLeaf].first, su.c_str());
            QVERIFY2(range[kLeaf].second < range[kUp].first, su.c_str());
        }
        // Cores above every pod, at least a switch width apart.
        double lowestCore = -1e300, topOfPods = 1e300;
        std::vector<std::pair<double, double>> cores;
        for (const Node &n : d.nodes()) {
            if (n.role == SwitchRole::Core) {
                lowestCore = std::max(lowestCore, n.y);
                cores.emplace_back(n.y, n.x);
            } else {
                topOfPods = std::min(topOfPods, n.y);
            }
        }
        QVERIFY(lowestCore < topOfPods);
        std::sort(cores.begin(), cores.end());
        for (std::size_t i = 1; i < cores.size(); ++i)
            if (cores[i].first == cores[i - 1].first)
                QVERIFY(cores[i].second - cores[i - 1].second >= 44);
        std::set<std::pair<double, double>> seen;
        for (const Node &n : d.nodes())
            QVERIFY(seen.insert({n.x, n.y}).second);
        // Full rows of pods: 64 pods in 9 columns left one pod alone in an eighth row; now
        // 8 x 8.
        std::map<std::string, std::pair<double, double>> podCorner; // top left of the domains
        for (const Node &n : d.nodes())
            if (n.isAccelerator()) {
                auto [it, fresh] = podCorner.try_emplace(suOf(n), n.x, n.y);
                it->second = {std::min(it->second.first, n.x), std::min(it->second.second, n.y)};
            }
        std::map<double, int> podsPerRow;
        for (const auto &[su, corner] : podCorner)
            ++podsPerRow[corner.second];
        QCOMPARE(podsPerRow.size(), std::size_t(8));
        for (const auto &[y, pods] : podsPerRow)
            QCOMPARE(pods, 8);
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

    void generatedDesignsValidate_data()
    {
        QTest::addColumn<int>("domains");
        QTest::addColumn<int>("tiers");
        QTest::addColumn<int>("planes");
        QTest::addColumn<QString>("preset");
        QTest::newRow("su") << 32 << 2 << 1 << u"dgx-h100"_s;
        QTest::newRow("3 tiers, 2 planes") << 80 << 3 << 2 << u"dgx-h100"_s;
        QTest::newRow("mesh") << 3 << 2 << 1 << u"mi300x-8"_s;
        QTest::newRow("nvl72") << 2 << 3 << 1 << u"gb200-nvl72"_s;
    }
    void generatedDesignsValidate()
    {
        // The model validator (port budgets, links, connectivity, groups) finds nothing.
        QFETCH(int, domains);
        QFETCH(int, tiers);
        QFETCH(int, planes);
        QFETCH(QString, preset);
        FabricParams p = dgxH100(domains, tiers);
        p.planes = planes;
        p.scaleUpPreset = preset.toStdString();
        p.nicRate = 0;
        const GenerateResult r = generateFabric(p, builtinCatalog());
        QVERIFY(r.ok());
        const std::vector<Finding> found = validateDesign(*r.design);
        for (const Finding &f : found)
            qWarning("%s: %s", f.code.c_str(), f.message.c_str());
        QVERIFY(found.empty());
    }

    // Rail-optimized GB200 NVL72 racks: NIC r of every compute tray (GPU i of a rack is on
    // tray i / 4, NIC i % 4) is on a leaf of rail r, every leaf holds one rail only, and the
    // unit's leaves are 4 rails x 3 (72 trays over leaves of 24 NICs), each port within radix.
    void nvl72RailsAreTrayNics()
    {
        FabricParams p = dgxH100(4);
        p.scaleUpPreset = "gb200-nvl72";
        p.nicRate = 400e9 / 8; // one ConnectX-7 per GPU
        const Design d = generate(p);
        QVERIFY(!d.nodes().empty());
        QCOMPARE(countRole(d, SwitchRole::Leaf), std::size_t(12));
        std::map<NodeId, std::set<int>> railsOfLeaf;
        std::map<NodeId, int> nicsOfLeaf;
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (b->isAccelerator())
                std::swap(a, b);
            if (!a->isAccelerator() || b->role != SwitchRole::Leaf)
                continue;
            railsOfLeaf[b->id].insert(a->rail % 4);
            ++nicsOfLeaf[b->id];
        }
        QCOMPARE(railsOfLeaf.size(), std::size_t(12));
        for (const auto &[leaf, rails] : railsOfLeaf) {
            QCOMPARE(rails.size(), std::size_t(1));
            QCOMPARE(nicsOfLeaf[leaf], 24);
        }
        QVERIFY(withinRadix(d));
        QVERIFY(validateDesign(d).empty());
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
