// Tests of the bill of materials: counts against hand-computed values for generated designs,
// and counting of hand-made graphs (which the generator did not produce).
#include "fabrictesting.h"
#include "generate/bom.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"

#include <QtTest>

using namespace weft;

namespace {

Design dgxH100(int domains, int tiers)
{
    return test::generate(test::dgxH100(domains, tiers));
}

Node makeNode(NodeKind kind, SwitchRole role, const char *spec)
{
    Node n;
    n.kind = kind;
    n.role = role;
    n.spec = spec;
    return n;
}

} // namespace

class TestBom : public QObject
{
    Q_OBJECT
private slots:
    void referenceScalableUnit()
    {
        const BillOfMaterials bom = computeBom(dgxH100(32, 2));
        // 32 DGX H100 = 256 H100 and 32 x 4 = 128 NVSwitch chips.
        QCOMPARE(bom.totalAccelerators, std::int64_t(256));
        QCOMPARE(bom.accelerators.size(), std::size_t(1));
        QCOMPARE(bom.switchCount(SwitchRole::ScaleUp, "nvswitch-gen3"), std::int64_t(128));
        // 8 rail leaves and 4 spines (derivation in tst_generate referenceScalableUnit).
        QCOMPARE(bom.switchCount(SwitchRole::Leaf, "qm9700"), std::int64_t(8));
        QCOMPARE(bom.switchCount(SwitchRole::Spine), std::int64_t(4));
        QCOMPARE(bom.switchCount(SwitchRole::Core), std::int64_t(0));
        QCOMPARE(bom.totalSwitches, std::int64_t(140));
        // Scale-up: 256 GPUs x 4 chips = 1024 links, 256 x 18 = 4608 lanes: board traces of
        // the HGX baseboard, no cable, no transceiver.
        const BomLinkLine up = bom.tier(BomTier::ScaleUp);
        QCOMPARE(up.links, std::int64_t(1024));
        QCOMPARE(up.lanes, std::int64_t(4608));
        QCOMPARE(up.medium, BomMedium::BoardTrace);
        QCOMPARE(up.cables, std::int64_t(0));
        QVERIFY(!up.optical);
        QCOMPARE(up.transceivers, std::int64_t(0));
        // NICs: 256 optical cables; a single-port OSFP at each GPU (256), the leaves' 8 x 32
        // ends in twin-port cages (8 x 16 = 128).
        const BomLinkLine nic = bom.tier(BomTier::AcceleratorLeaf);
        QCOMPARE(nic.links, std::int64_t(256));
        QCOMPARE(nic.cables, std::int64_t(256));
        QCOMPARE(nic.transceivers, std::int64_t(256 + 128));
        // Leaf-spine: 8 leaves x 4 spines = 32 bundles of 8 = 256 cables; 8 leaves x 32 ends
        // and 4 spines x 64 ends, two per module: 128 + 128.
        const BomLinkLine ls = bom.tier(BomTier::LeafSpine);
        QCOMPARE(ls.links, std::int64_t(32));
        QCOMPARE(ls.cables, std::int64_t(256));
        QCOMPARE(ls.transceivers, std::int64_t(256));
        QCOMPARE(bom.tier(BomTier::SpineCore).links, std::int64_t(0));
        QCOMPARE(bom.totalBoardTraces, std::int64_t(4608));
        QCOMPARE(bom.totalCables, std::int64_t(256 + 256));
        QCOMPARE(bom.totalOpticalCables, std::int64_t(512));
        QCOMPARE(bom.totalCopperCables, std::int64_t(0));
        QCOMPARE(bom.totalTransceivers, std::int64_t(640));
        QCOMPARE(bom.transceiverCount("OSFP 400G"), std::int64_t(256));
        QCOMPARE(bom.transceiverCount("twin-port OSFP 2 x 400G"), std::int64_t(384));
    }

    // The 16k example used to report 344,064 cables, 294,912 of them the GPU-to-NVSwitch
    // board traces of the DGX H100s; its real cables are the 3 x 16,384 optical ones.
    void threeTiers16k()
    {
        const BillOfMaterials bom = computeBom(dgxH100(2048, 3));
        // 512 leaves, 512 spines, 256 cores (tst_generate threeTiers16k); cables: 16384 NIC,
        // 512 leaves x 32 up = 16384 leaf-spine, 512 spines x 32 up = 16384 spine-core.
        QCOMPARE(bom.switchCount(SwitchRole::Leaf), std::int64_t(512));
        QCOMPARE(bom.switchCount(SwitchRole::Spine), std::int64_t(512));
        QCOMPARE(bom.switchCount(SwitchRole::Core), std::int64_t(256));
        QCOMPARE(bom.tier(BomTier::AcceleratorLeaf).cables, std::int64_t(16384));
        QCOMPARE(bom.tier(BomTier::LeafSpine).cables, std::int64_t(16384));
        QCOMPARE(bom.tier(BomTier::SpineCore).cables, std::int64_t(16384));
        QCOMPARE(bom.tier(BomTier::SpineCore).links, std::int64_t(16384));
        QCOMPARE(bom.totalBoardTraces, std::int64_t(16384 * 18));
        QCOMPARE(bom.totalCables, std::int64_t(49152));
        // 16384 NIC modules; every switch end (5 x 16384) in twin-port cages: 40960.
        QCOMPARE(bom.transceiverCount("OSFP 400G"), std::int64_t(16384));
        QCOMPARE(bom.transceiverCount("twin-port OSFP 2 x 400G"), std::int64_t(40960));
        QCOMPARE(bom.totalTransceivers, std::int64_t(16384 + 40960));
    }

    // GB200 NVL72: the GPUs reach the NVLink switch trays over the copper NVLink spine.
    void nvl72ScaleUpIsCopper()
    {
        FabricParams p;
        p.scaleUpPreset = "gb200-nvl72";
        p.domains = 1;
        p.fabric = FabricKind::None;
        const BillOfMaterials bom = computeBom(test::generate(p));
        const BomLinkLine copper = bom.line(BomTier::ScaleUp, BomMedium::Copper);
        QVERIFY(copper.links > 0);
        QCOMPARE(copper.cables, copper.lanes);
        QCOMPARE(bom.line(BomTier::ScaleUp, BomMedium::BoardTrace).links, std::int64_t(0));
        QCOMPARE(bom.totalCopperCables, copper.lanes);
        QCOMPARE(bom.totalTransceivers, std::int64_t(0));
    }

    // Single-port cages (HDR QM8700, QSFP56): one module per switch port.
    void singlePortCages()
    {
        FabricParams p = test::dgxH100(32, 2);
        p.switchModel = "qm8700";
        p.nicRate = 200e9 / 8;
        const GenerateResult r = generateFabric(p, builtinCatalog());
        QVERIFY(r.design);
        const BillOfMaterials bom = computeBom(*r.design);
        const BomLinkLine nic = bom.tier(BomTier::AcceleratorLeaf);
        QCOMPARE(nic.transceivers, 2 * nic.cables);
        QCOMPARE(bom.transceiverCount("QSFP 200G"), bom.totalTransceivers);
        QCOMPARE(bom.totalTransceivers, 2 * bom.totalOpticalCables);
    }

    void handMadeGraph()
    {
        // Two GPUs in a mesh, one on a leaf, one wired straight to a spine, and a dangling link.
        Design d;
        d.hardware.switches["sw"] = test::makeSwitch("sw", Technology::Ethernet, 32, 400);
        const NodeId g0 = d.addNode(makeNode(NodeKind::Accelerator, SwitchRole::ScaleUp, "h100"));
        const NodeId g1 = d.addNode(makeNode(NodeKind::Accelerator, SwitchRole::ScaleUp, "h100"));
        const NodeId leaf = d.addNode(makeNode(NodeKind::Switch, SwitchRole::Leaf, "sw"));
        const NodeId spine = d.addNode(makeNode(NodeKind::Switch, SwitchRole::Spine, "sw"));
        const NodeId other = d.addNode(makeNode(NodeKind::Switch, SwitchRole::Spine, "unknown"));
        auto link = [&](NodeId a, NodeId b, int lanes) {
            Link l;
            l.a = a;
            l.b = b;
            l.lanes = lanes;
            l.rate = 1;
            d.addLink(l);
        };
        link(g0, g1, 3);
        link(g0, leaf, 1);
        link(leaf, spine, 4);
        link(g1, spine, 1); // accelerator to spine: other
        link(spine, NodeId(999), 2); // dangling: other
        link(leaf, other, 2); // leaf-spine even with an unknown spec
        const BillOfMaterials bom = computeBom(d);
        QCOMPARE(bom.totalAccelerators, std::int64_t(2));
        QCOMPARE(bom.accelerators.front().name, std::string("h100")); // no spec: key as name
        QCOMPARE(bom.switchCount(SwitchRole::Spine), std::int64_t(2));
        QCOMPARE(bom.switchCount(SwitchRole::Spine, "sw"), std::int64_t(1));
        QCOMPARE(bom.tier(BomTier::ScaleUp).cables, std::int64_t(3)); // no domain: copper
        QCOMPARE(bom.tier(BomTier::AcceleratorLeaf).links, std::int64_t(1));
        QCOMPARE(bom.tier(BomTier::LeafSpine).links, std::int64_t(2));
        QCOMPARE(bom.tier(BomTier::LeafSpine).cables, std::int64_t(6));
        QCOMPARE(bom.tier(BomTier::Other).links, std::int64_t(2));
        QCOMPARE(bom.tier(BomTier::Other).cables, std::int64_t(3));
        QCOMPARE(bom.totalTransceivers, std::int64_t(2 * (1 + 6 + 3)));
        // An edit shows up: removing the spine drops its 3 links.
        QVERIFY(d.removeNode(spine));
        QCOMPARE(computeBom(d).tier(BomTier::Other).links, std::int64_t(0));
    }

    void classify_data()
    {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("tier");
        // -1 accelerator, else SwitchRole.
        QTest::newRow("gpu-gpu") << -1 << -1 << int(BomTier::ScaleUp);
        QTest::newRow("gpu-nvswitch") << -1 << 0 << int(BomTier::ScaleUp);
        QTest::newRow("leaf-gpu") << 1 << -1 << int(BomTier::AcceleratorLeaf);
        QTest::newRow("nvswitch-leaf") << 0 << 1 << int(BomTier::Other);
        QTest::newRow("spine-leaf") << 2 << 1 << int(BomTier::LeafSpine);
        QTest::newRow("core-spine") << 3 << 2 << int(BomTier::SpineCore);
        QTest::newRow("leaf-core") << 1 << 3 << int(BomTier::Other);
        QTest::newRow("leaf-leaf") << 1 << 1 << int(BomTier::Other);
    }
    void classify()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(int, tier);
        const auto make = [](int k) {
            return k < 0 ? makeNode(NodeKind::Accelerator, SwitchRole::ScaleUp, "x")
                         : makeNode(NodeKind::Switch, static_cast<SwitchRole>(k), "x");
        };
        const Node na = make(a), nb = make(b);
        QCOMPARE(int(classifyLink(&na, &nb)), tier);
        QCOMPARE(int(classifyLink(&nb, &na)), tier);
        QCOMPARE(classifyLink(&na, nullptr), BomTier::Other);
    }

    void formats()
    {
        const BillOfMaterials bom = computeBom(dgxH100(32, 2));
        const QString csv = QString::fromStdString(formatBomCsv(bom));
        const QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(),
                 QStringLiteral("category,tier,model,name,medium,count,links,cables,transceivers"));
        QVERIFY(lines.contains(QStringLiteral("switch,leaf,qm9700,qm9700,,8,,,")));
        QVERIFY(lines.contains(QStringLiteral("link,leaf-spine,,,optical,,32,256,256")));
        // Board traces: their lanes in the count column, no cable.
        QVERIFY(lines.contains(QStringLiteral("link,scale-up,,,board,4608,1024,0,0")));
        QVERIFY(
            lines.contains(QStringLiteral("transceiver,,,twin-port OSFP 2 x 400G,optical,384,,,")));
        QVERIFY(lines.contains(QStringLiteral("transceiver,,,OSFP 400G,optical,256,,,")));
        for (const QString &l : lines)
            QCOMPARE(l.count(u','), 8);
        const QString table = QString::fromStdString(formatBomTable(bom));
        QVERIFY(table.contains(QStringLiteral("leaf-spine")));
        QVERIFY(table.contains(QStringLiteral("a transceiver module at each end")));
        QVERIFY(table.contains(QStringLiteral("4608 board traces")));
        QVERIFY(table.contains(QStringLiteral("256 accelerators, 140 switches")));
    }
};

QTEST_GUILESS_MAIN(TestBom)
#include "tst_bom.moc"
