// Tests of fabric planning: lane spreading, uplink dealing, port-budget errors that say what
// does not fit, the fixes they suggest (applied here to check they fit), and every built-in
// preset on every built-in scale-out switch.
#include "fabrictesting.h"
#include "generate/fabricplan.h"
#include "io/catalogfile.h"

#include <QtTest>
#include <numeric>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

class TestFabricPlan : public QObject
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
        // 3 tiers: a core group of 32 cores takes at most 64 SUs; 65 SUs of 32 servers. The
        // fix prefers a unit size that splits the 2080 domains evenly: 52 SUs of 40 (33 fit
        // too, as 63 full units and a partial one, but no one builds that).
        QTest::newRow("3 tiers too small")
            << 65 * 32 << 3 << 1.0 << 32 << u"dgx-h100"_s << u"qm9700"_s
            << QStringList {u"3 tiers"_s, u"64 scalable units"_s, u"65 requested"_s,
                            u"use --su-size 40"_s};
        // SU of 200 servers: 7 leaves per rail x 8 = 56 leaves with 29 uplinks; 56 x 29 / 32
        // = 51 spines > 29: a spine cannot reach every leaf. 4 units of 100 (the nearest even
        // split of the 400 servers) fit.
        QTest::newRow("su too large")
            << 400 << 3 << 1.0 << 200 << u"dgx-h100"_s << u"qm9700"_s
            << QStringList {u"scalable unit of 200"_s, u"--su-size 100"_s};
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
        // A suggested fix ("; use --tiers 3") is exact: applying it makes the fabric fit.
        if (applySuggestion(r.errors, p))
            QVERIFY(generateFabric(p, test::testCatalog()).ok());
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

    // A 72-GPU domain that is one server (no compute trays: 72 rails) with the default
    // rail-optimized fabric needs 72 leaves, more than two tiers of radix-64 switches reach: the
    // fix first says that one scale-up domain needs no scale-out fabric; either fix builds.
    void singleDomainSuggestsNoFabric()
    {
        Catalog catalog = builtinCatalog();
        catalog.scaleUpPresets.at("gb200-nvl72").acceleratorsPerTray = 0;
        FabricParams p = dgxH100(1);
        p.scaleUpPreset = "gb200-nvl72";
        p.nicRate = 0; // the preset's
        const GenerateResult r = generateFabric(p, catalog);
        QVERIFY(!r.ok());
        QVERIFY(anyErrorContains(r.errors,
                                 {u"72 leaves"_s,
                                  u"; use --fabric none (one scale-up domain needs no "
                                  u"scale-out fabric) or --fabric fat-tree"_s}));
        p.fabric = FabricKind::None;
        QVERIFY(generateFabric(p, catalog).ok());
        p.fabric = FabricKind::FatTree;
        QVERIFY(generateFabric(p, catalog).ok());
        p = dgxH100(2); // two racks: the fabric is needed, the fix is the fat-tree alone
        p.scaleUpPreset = "gb200-nvl72";
        p.nicRate = 0;
        const GenerateResult two = generateFabric(p, catalog);
        QVERIFY(!two.ok());
        QVERIFY(anyErrorContains(two.errors, {u"; use --fabric fat-tree"_s}));
        QVERIFY(!anyErrorContains(two.errors, {u"--fabric none"_s}));
    }

    // GB200 NVL72 is 18 compute trays of 4 GPUs, one NIC each: rail-optimized, its rails are
    // the 4 NIC positions of a tray (as the DGX GB200 SuperPOD cables it), not 72 rails of one
    // GPU each (72 leaves at 4 of 64 ports for 4 racks on a radix-144 switch, or "does not fit"
    // on QM9700, fresh-user report). 4 racks x 18 trays = 72 NICs per rail.
    void multiNodeDomainRailsPerTray_data()
    {
        QTest::addColumn<QString>("switchModel");
        QTest::addColumn<int>("leaves");
        QTest::addColumn<int>("nicsPerLeaf");
        // QM9700 (64 x 400G, 32 down at 1:1): 72 NICs per rail in 3 leaves of 24; 4 rails.
        QTest::newRow("qm9700") << u"qm9700"_s << 12 << 24;
        // Q3400 (144 x 800G): one 400G NIC a port, 72 NICs and 36 uplinks: 1 leaf per rail.
        QTest::newRow("q3400") << u"q3400"_s << 4 << 72;
    }
    void multiNodeDomainRailsPerTray()
    {
        QFETCH(QString, switchModel);
        QFETCH(int, leaves);
        QFETCH(int, nicsPerLeaf);
        FabricParams p = dgxH100(4);
        p.scaleUpPreset = "gb200-nvl72";
        p.switchModel = switchModel.toStdString();
        p.nicRate = 0;
        const PlanResult r = planFabric(p, builtinCatalog());
        QVERIFY2(r.ok(), r.errors.empty() ? "" : r.errors.front().c_str());
        QCOMPARE(r.plan.trays, 18);
        QCOMPARE(r.plan.rails, 4);
        QCOMPARE(r.plan.railsPerDomain, 72);
        QCOMPARE(r.plan.leaves, std::int64_t(leaves));
        QCOMPARE(r.plan.nicsPerLeaf, nicsPerLeaf);
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
                // e.g. 72 800G NICs on radix-40 200G switches: the suggested fix must fit.
                QVERIFY(applySuggestion(r.errors, p));
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
};

QTEST_GUILESS_MAIN(TestFabricPlan)
#include "tst_fabricplan.moc"
