// Tests of the Slurm topology.conf (tree plugin) and topology.yaml import and export (issue 19).
// The example topology.conf follows the layout of Slurm's topology.conf documentation (SwitchName=
// Nodes= for leaves, Switches= above them, host lists with ranges).
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "io/slurmtopology.h"
#include "model/validate.h"

#include <QtTest>
#include <algorithm>

using namespace weft;

namespace {

const char *kTree = "# two leaves under one spine\n"
                    "SwitchName=s0 Nodes=dgx[001-004]\n"
                    "SwitchName=s1 Nodes=dgx[005-008] LinkSpeed=400\n"
                    "switchname=top Switches=s[0-1]   # lower-case keys are accepted\n";

// kTree as Slurm 23.11+'s topology.yaml (layout of Slurm's topology.yaml documentation), with a
// block topology first and the tree as the cluster default, a host list given as a YAML list.
const char *kYaml = "---\n"
                    "- topology: blocks\n"
                    "  cluster_default: false\n"
                    "  block:\n"
                    "    block_sizes: [4, 8]\n"
                    "    blocks:\n"
                    "      - block: b1\n"
                    "        nodes: dgx[001-004]\n"
                    "- topology: fabric # the tree Slurm uses by default\n"
                    "  cluster_default: true\n"
                    "  tree:\n"
                    "    switches:\n"
                    "      - switch: s0\n"
                    "        nodes: dgx[001-004]\n"
                    "      - switch: s1\n"
                    "        nodes: [\"dgx[005-006]\", \"dgx[007-008]\"]\n"
                    "        link_speed: 400\n"
                    "      - switch: top\n"
                    "        children: s[0-1]\n"
                    "- topology: flat\n"
                    "  flat: true\n";

int countRole(const Design &d, SwitchRole role)
{
    return static_cast<int>(std::count_if(d.nodes().begin(), d.nodes().end(), [&](const Node &n) {
        return n.isSwitch() && n.role == role;
    }));
}

QStringList toList(const std::vector<std::string> &v)
{
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

} // namespace

class TestSlurmTopology : public QObject
{
    Q_OBJECT

    // The current row's text is refused with an error containing its message, and no findings.
    static void refusedNaming()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const FabricImportResult r
            = importSlurmTopology(text.toStdString(), builtinCatalog(), FabricImportOptions());
        QVERIFY(!r.ok());
        QVERIFY2(r.error.find(message.toStdString()) != std::string::npos, r.error.c_str());
        QVERIFY(r.findings.empty());
    }

private slots:
    void expand_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("hosts"); // space-separated
        QTest::newRow("range") << "dgx[001-003]"
                               << "dgx001 dgx002 dgx003";
        QTest::newRow("mixed") << "n[1-2,7],login"
                               << "n1 n2 n7 login";
        QTest::newRow("two groups") << "r[1-2]n[1-2]"
                                    << "r1n1 r1n2 r2n1 r2n2";
        QTest::newRow("plain") << "a,b"
                               << "a b";
        QTest::newRow("padding") << "x[09-11]"
                                 << "x09 x10 x11";
    }
    void expand()
    {
        QFETCH(QString, list);
        QFETCH(QString, hosts);
        const std::vector<std::string> got = expandHostList(list.toStdString());
        QCOMPARE(toList(got).join(QLatin1Char(' ')), hosts);
        // compress() gives a list that expands to the same set.
        std::vector<std::string> again = expandHostList(compressHostList(got));
        std::vector<std::string> want = got;
        std::sort(again.begin(), again.end());
        std::sort(want.begin(), want.end());
        QCOMPARE(toList(again), toList(want));
    }

    void compress_data()
    {
        QTest::addColumn<QString>("hosts"); // space-separated
        QTest::addColumn<QString>("list");
        QTest::newRow("padded") << "dgx003 dgx001 dgx002 dgx007 login"
                                << "dgx[001-003,007],login";
        QTest::newRow("one") << "su0"
                             << "su0";
        // Unpadded numbers of one and two digits are one range (was
        // dgx-h100-[0-9],dgx-h100-[10-31]).
        QTest::newRow("unpadded across digit counts")
            << toList(expandHostList("dgx-h100-[0-31]")).join(QLatin1Char(' '))
            << "dgx-h100-[0-31]";
        QTest::newRow("padded up to 100") << "node098 node099 node100 node101"
                                          << "node[098-101]";
        QTest::newRow("padded beside unpadded") << "n1 n2 n01 n02 n3"
                                                << "n[1-3,01-02]";
        QTest::newRow("padding breaks a run") << "n8 n9 n010 n011"
                                              << "n[8-9,010-011]";
    }
    void compress()
    {
        QFETCH(QString, hosts);
        QFETCH(QString, list);
        std::vector<std::string> names;
        for (const QString &h : hosts.split(QLatin1Char(' ')))
            names.push_back(h.toStdString());
        QCOMPARE(QString::fromStdString(compressHostList(names)), list);
        std::vector<std::string> again = expandHostList(list.toStdString());
        std::sort(again.begin(), again.end());
        std::sort(names.begin(), names.end());
        QCOMPARE(toList(again), toList(names));
    }

    void badLists()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandHostList("dgx[1-"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, expandHostList("dgx[5-2]"));
    }

    void importTree()
    {
        FabricImportOptions o;
        const FabricImportResult r = importSlurmTopology(kTree, builtinCatalog(), o);
        QVERIFY2(r.ok(), r.error.c_str());
        const Design &d = *r.design;
        QCOMPARE(static_cast<int>(d.acceleratorCount()), 64);
        QCOMPARE(countRole(d, SwitchRole::Leaf), 2);
        QCOMPARE(countRole(d, SwitchRole::Spine), 1);
        // Non-blocking uplinks: each leaf has 32 NIC cables down and 32 up.
        for (const Link &l : d.links())
            if (d.node(l.a)->isSwitch() && d.node(l.b)->isSwitch()
                && d.node(l.a)->role != SwitchRole::ScaleUp)
                QCOMPARE(l.lanes, 32);
        QVERIFY(!hasError(validateDesign(d)));
        QVERIFY(
            !toList(r.findings).join(QLatin1Char('\n')).contains(QLatin1String("switches only")));
        // Slurm knows the ports used, not the model: the smallest catalog switch of the NIC's
        // technology and rate with enough ports (each leaf uses 64 of a 64-port QM9700; the
        // spine 64), where it invented "slurm-64p-ib-ndr"-like models that are no product.
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp)
                QVERIFY2(builtinCatalog().hardware.switches.count(n.spec), n.spec.c_str());
        // Two servers a leaf: 16 NIC cables down and 16 up use 32 of a QM9700's 64 ports.
        const FabricImportResult small
            = importSlurmTopology("SwitchName=s0 Nodes=gpu[01-02]\nSwitchName=s1 Nodes=gpu[03-04]\n"
                                  "SwitchName=top Switches=s[0-1]\n",
                                  builtinCatalog(), o);
        QVERIFY2(small.ok(), small.error.c_str());
        for (const Node &n : small.design->nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp)
                QCOMPARE(n.spec, std::string("qm9700"));
    }
    // A tree of switches that lists no hosts (SchedMD's test150.7 layout) imports, and says so.
    void importTreeWithoutServers()
    {
        const FabricImportResult r
            = importSlurmTopology("SwitchName=s0\nSwitchName=s1\nSwitchName=top Switches=s[0-1]\n",
                                  builtinCatalog(), FabricImportOptions {});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(static_cast<int>(r.design->acceleratorCount()), 0);
        QVERIFY2(toList(r.findings)
                     .join(QLatin1Char('\n'))
                     .contains(
                         QLatin1String("no switch lists any Nodes=: the design has switches only")),
                 qPrintable(toList(r.findings).join(QLatin1Char('\n'))));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << "SwitchName=a Nodes=n1\nSwitchName=b Foo=1\n"
                                     << "line 2: unknown key \"Foo\"";
        QTest::newRow("no name") << "Nodes=n1\n"
                                 << "line 1: a line without SwitchName=";
        QTest::newRow("twice") << "SwitchName=a Nodes=n1\nSwitchName=a Nodes=n2\n"
                               << "line 2: switch \"a\" is defined twice";
        QTest::newRow("unknown child") << "SwitchName=a Switches=b\n"
                                       << "line 1: switch \"a\" lists unknown switch \"b\"";
        QTest::newRow("cycle") << "SwitchName=a Switches=b\nSwitchName=b Switches=a\n"
                               << "is its own ancestor";
        QTest::newRow("bad list") << "SwitchName=a Nodes=n[1-\n"
                                  << "line 1: unbalanced brackets";
        QTest::newRow("block plugin") << "BlockName=b1 Nodes=n1\n"
                                      << "not a tree topology";
        QTest::newRow("empty") << "# nothing\n"
                               << "no SwitchName= line";
    }
    void errors() { refusedNaming(); }

    // topology.yaml: the cluster-default tree is imported (the same design as topology.conf),
    // the other topologies are named in the findings.
    void importYaml()
    {
        const FabricImportResult conf = importSlurmTopology(kTree, builtinCatalog(), {});
        const FabricImportResult yaml = importSlurmTopology(kYaml, builtinCatalog(), {});
        QVERIFY2(yaml.ok(), yaml.error.c_str());
        QCOMPARE(exportSlurmTopology(*yaml.design), exportSlurmTopology(*conf.design));
        QCOMPARE(yaml.design->links().size(), conf.design->links().size());
        QVERIFY(std::any_of(yaml.findings.begin(), yaml.findings.end(), [](const std::string &f) {
            return f == "imported tree topology \"fabric\"; left out: blocks (block), flat (flat)";
        }));
        QVERIFY(std::any_of(yaml.findings.begin(), yaml.findings.end(), [](const std::string &f) {
            return f.rfind("topology.yaml gives no cable counts", 0) == 0;
        }));
    }

    void yamlErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
#define WEFT_TREE_HEAD "---\n- topology: t\n  tree:\n    switches:\n"
        QTest::newRow("malformed") << WEFT_TREE_HEAD "      - switch: a\n        nodes: [n1\n"
                                   << "line 7: end of sequence flow not found";
        QTest::newRow("no tree") << "---\n- topology: b\n  block:\n    blocks: []\n"
                                 << "line 1: no tree topology in the file (only a tree has "
                                    "switches to import; the file has b (block))";
        QTest::newRow("two kinds")
            << "---\n- topology: x\n  flat: true\n  tree:\n    switches: []\n"
            << "line 2: topology \"x\" is both tree and flat";
        QTest::newRow("no kind") << "---\n- topology: x\n  cluster_default: true\n"
                                 << "line 2: topology \"x\" gives no kind";
        QTest::newRow("empty tree") << "---\n- topology: t\n  tree:\n    switches: []\n"
                                    << "line 4: the tree topology lists no switches";
        QTest::newRow("not a list") << "---\ntopology: t\n"
                                    << "line 1: a topology.yaml is a list of topologies";
        QTest::newRow("no topology key") << "---\n- tree: {}\n"
                                         << "line 2: an entry without \"topology:\"";
        QTest::newRow("no switches") << "---\n- topology: t\n  tree: {}\n"
                                     << "line 3: a tree topology needs a \"switches:\" list";
        QTest::newRow("unknown key") << WEFT_TREE_HEAD "      - switch: a\n        node: n1\n"
                                     << "line 6: unknown key \"node\"";
        QTest::newRow("no switch name") << WEFT_TREE_HEAD "      - nodes: n1\n"
                                        << "line 5: a switch entry without \"switch:\"";
        QTest::newRow("twice") << WEFT_TREE_HEAD "      - switch: a\n        nodes: n1\n"
                                                 "      - switch: a\n        nodes: n2\n"
                               << "line 7: switch \"a\" is defined twice";
        QTest::newRow("unknown child") << WEFT_TREE_HEAD "      - switch: a\n        children: b\n"
                                       << "line 5: switch \"a\" lists unknown switch \"b\"";
        QTest::newRow("bad host list") << WEFT_TREE_HEAD "      - switch: a\n        nodes: n[1-\n"
                                       << "line 6: unbalanced brackets";
        QTest::newRow("list in a list")
            << WEFT_TREE_HEAD "      - switch: a\n        nodes: [[n1]]\n"
            << "line 6: a host list must be a string";
#undef WEFT_TREE_HEAD
    }
    void yamlErrors()
    {
        refusedNaming();
    }

    // A rail-optimized design: each unit's rail leaves become one Slurm switch named after the
    // unit; the spines list the units. Importing it back gives the same servers under the same
    // switches.
    void exportRailOptimized()
    {
        FabricParams p;
        p.scaleUpPreset = "dgx-h100";
        p.domains = 8;
        p.suSize = 4;
        p.tiers = 2;
        GenerateResult g = generateFabric(p, builtinCatalog());
        QVERIFY(g.ok());
        const std::string conf = exportSlurmTopology(*g.design);
        QVERIFY2(conf.find("SwitchName=su0 Nodes=dgx-h100-[0-3]\n") != std::string::npos,
                 conf.c_str());
        QVERIFY2(conf.find("SwitchName=su1 Nodes=dgx-h100-[4-7]\n") != std::string::npos,
                 conf.c_str());
        QVERIFY2(conf.find("Switches=su[0-1]\n") != std::string::npos, conf.c_str());
        const std::string yaml = exportSlurmTopologyYaml(*g.design);
        QVERIFY2(yaml.find("  tree:\n    switches:\n      - switch: su0\n        nodes: "
                           "dgx-h100-[0-3]\n")
                     != std::string::npos,
                 yaml.c_str());
        QVERIFY2(yaml.find("        children: su[0-1]\n") != std::string::npos, yaml.c_str());
        const FabricImportResult r = importSlurmTopology(conf, builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.design->acceleratorCount(), g.design->acceleratorCount());
        // The exported topology.yaml imports as the same switches and servers.
        const FabricImportResult fromYaml = importSlurmTopology(yaml, builtinCatalog(), {});
        QVERIFY2(fromYaml.ok(), fromYaml.error.c_str());
        QCOMPARE(exportSlurmTopology(*fromYaml.design), exportSlurmTopology(*r.design));
        QCOMPARE(countRole(*r.design, SwitchRole::Leaf), 2);
        const std::string again = exportSlurmTopology(*r.design);
        QCOMPARE(again.substr(again.find('\n')), conf.substr(conf.find('\n'))); // after the header
    }

    // A 32-server unit is one range of servers 0 to 31, as `weft-cli export --to slurm` writes it
    // (it wrote Nodes=dgx-h100-[0-9],dgx-h100-[10-31]).
    void exportOneRangeAcrossDigitCounts()
    {
        FabricParams p;
        p.scaleUpPreset = "dgx-h100";
        p.domains = 32;
        p.tiers = 2;
        GenerateResult g = generateFabric(p, builtinCatalog());
        QVERIFY(g.ok());
        const std::string conf = exportSlurmTopology(*g.design);
        QVERIFY2(conf.find(" Nodes=dgx-h100-[0-31]\n") != std::string::npos, conf.c_str());
    }
};

QTEST_APPLESS_MAIN(TestSlurmTopology)
#include "tst_slurmtopology.moc"
