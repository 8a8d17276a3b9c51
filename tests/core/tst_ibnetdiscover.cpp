// Tests of the ibnetdiscover import and export (issue 19). The inputs in tests/data/import/ were
// made by the real tools (scripts/make-import-testdata.sh: Weft's ibsim net export or a described
// net file, served by Debian's ibsim 0.10, discovered by infiniband-diags 44 ibnetdiscover).
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "io/designfile.h"
#include "io/fabricimport.h"
#include "io/ibnetdiscover.h"
#include "io/ibnetdiscoverexport.h"
#include "io/ibnetdiscoverimport.h"
#include "model/validate.h"

#include <QFile>
#include <QtTest>
#include <algorithm>
#include <tuple>

using namespace weft;

namespace {

std::string readData(const char *name)
{
    QFile f(QStringLiteral(WEFT_TEST_DATA_DIR "/import/") + QString::fromLatin1(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read test data %s", name);
    return f.readAll().toStdString();
}

Design importFile(const char *name, const std::string &preset, bool dropUnknown = false,
                  IbImportSummary *summary = nullptr)
{
    const IbParseResult parsed = parseIbnetdiscover(readData(name));
    if (!parsed.ok())
        qFatal("%s: %s", name, parsed.error.c_str());
    IbImportOptions o;
    o.scaleUpPreset = preset;
    o.dropUnknown = dropUnknown;
    IbImportResult r = importIbFabric(*parsed.fabric, builtinCatalog(), o);
    if (!r.ok())
        qFatal("%s: %s", name, r.error.c_str());
    if (summary)
        *summary = r.summary;
    return std::move(*r.design);
}

/// A node as the fabric sees it: a switch by name, an accelerator as "<domain>/<rail>".
std::string endLabel(const Design &d, NodeId id)
{
    const Node *n = d.node(id);
    if (n->isSwitch())
        return n->name;
    const Group *g = n->group.valid() ? d.group(n->group) : nullptr;
    return (g ? g->name : n->name) + "/" + std::to_string(n->rail);
}

/// The scale-out fabric as a sorted list of (end, end, rate, lanes): what a round trip keeps.
std::vector<std::tuple<std::string, std::string, double, int>> scaleOut(const Design &d)
{
    std::vector<std::tuple<std::string, std::string, double, int>> out;
    for (const Link &l : d.links()) {
        const Node *a = d.node(l.a), *b = d.node(l.b);
        if ((a->isSwitch() && a->role == SwitchRole::ScaleUp)
            || (b->isSwitch() && b->role == SwitchRole::ScaleUp)
            || (a->isAccelerator() && b->isAccelerator()))
            continue;
        std::string x = endLabel(d, l.a), y = endLabel(d, l.b);
        if (y < x)
            std::swap(x, y);
        out.emplace_back(x, y, l.rate, l.lanes);
    }
    std::sort(out.begin(), out.end());
    return out;
}

int countRole(const Design &d, SwitchRole role)
{
    return static_cast<int>(std::count_if(d.nodes().begin(), d.nodes().end(), [&](const Node &n) {
        return n.isSwitch() && n.role == role;
    }));
}

Design generated(const std::string &preset, int domains, FabricKind kind)
{
    FabricParams p;
    p.scaleUpPreset = preset;
    p.domains = domains;
    p.fabric = kind;
    p.tiers = 2;
    p.switchModel = "qm8700";
    p.nicRate = 0;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok())
        qFatal("generate failed");
    return std::move(*g.design);
}

bool anyFinding(const IbImportSummary &s, const char *needle)
{
    return std::any_of(s.findings.begin(), s.findings.end(),
                       [&](const std::string &f) { return f.find(needle) != std::string::npos; });
}

} // namespace

class TestIbnetdiscover : public QObject
{
    Q_OBJECT

private slots:
    void laneRates_data()
    {
        QTest::addColumn<QString>("speed");
        QTest::addColumn<double>("gbps4x");
        QTest::newRow("SDR") << "SDR" << 10.0;
        QTest::newRow("QDR") << "QDR" << 40.0;
        QTest::newRow("FDR") << "FDR" << 56.0;
        QTest::newRow("EDR") << "EDR" << 100.0;
        QTest::newRow("HDR") << "HDR" << 200.0;
        QTest::newRow("NDR") << "NDR" << 400.0;
        QTest::newRow("XDR") << "XDR" << 800.0;
        QTest::newRow("unknown") << "GDR" << 0.0;
    }
    void laneRates()
    {
        QFETCH(QString, speed);
        QFETCH(double, gbps4x);
        QCOMPARE(4 * ibLaneRate(speed.toStdString()) * 8 / 1e9, gbps4x);
        if (gbps4x > 0 && speed != QLatin1String("FDR10"))
            QCOMPARE(QString::fromStdString(ibSpeedForRate(gbps4x * 1e9 / 8)), speed);
    }

    void hostAndIndex()
    {
        QCOMPARE(hcaHostAndIndex("dgx-001 mlx5_3"), std::make_pair(std::string("dgx-001"), 3));
        QCOMPARE(hcaHostAndIndex("node7 HCA-1"), std::make_pair(std::string("node7"), 1));
        QCOMPARE(hcaHostAndIndex("MT4123 ConnectX6 Mellanox Technologies").second, -1);
        QCOMPARE(hcaHostAndIndex("Hca1").second, -1);
    }

    // The committed ibsim outputs import with the expected counts and rates.
    void importRailOptimized()
    {
        IbImportSummary s;
        const Design d = importFile("a100-su4.ibnetdiscover", "dgx-a100", false, &s);
        QCOMPARE(s.switches, 9);
        QCOMPARE(s.cas, 32);
        QCOMPARE(s.cables, 64);
        QCOMPARE(s.servers, 4);
        QCOMPARE(static_cast<int>(d.acceleratorCount()), 32);
        QCOMPARE(countRole(d, SwitchRole::Leaf), 8);
        QCOMPARE(countRole(d, SwitchRole::Spine), 1);
        QCOMPARE(s.cableRates.at("4xHDR"), 64);
        QCOMPARE(s.switchModels.at("qm8700 (40 ports, 4xHDR)"), 9);
        QVERIFY2(s.findings.empty(), s.findings.empty() ? "" : s.findings.front().c_str());
        for (const Link &l : d.links())
            if (l.tech == "ib-hdr")
                QCOMPARE(l.rate, 25e9); // 4 x 50 Gb/s = 200 Gb/s
        QVERIFY(!hasError(validateDesign(d)));
    }

    void importFatTree()
    {
        IbImportSummary s;
        const Design d = importFile("a100-ft16.ibnetdiscover", "dgx-a100", false, &s);
        QCOMPARE(s.servers, 16);
        QCOMPARE(static_cast<int>(d.acceleratorCount()), 128);
        const Design g = generated("dgx-a100", 16, FabricKind::FatTree);
        QCOMPARE(countRole(d, SwitchRole::Leaf), countRole(g, SwitchRole::Leaf));
        QCOMPARE(countRole(d, SwitchRole::Spine), countRole(g, SwitchRole::Spine));
        QVERIFY(scaleOut(d) == scaleOut(g));
    }

    // A given rail order (the server's NCCL pairing) cables HCA mlx5_d to GPU railOfHca[d]: with
    // the order reversed, GPU g sits where GPU 7-g sat in device order.
    void railOrderGiven()
    {
        const IbParseResult parsed = parseIbnetdiscover(readData("a100-su4.ibnetdiscover"));
        QVERIFY(parsed.ok());
        IbImportOptions o;
        o.scaleUpPreset = "dgx-a100";
        const IbImportResult plain = importIbFabric(*parsed.fabric, builtinCatalog(), o);
        for (int d = 0; d < 8; ++d)
            o.railOfHca[d] = 7 - d;
        const IbImportResult reversed = importIbFabric(*parsed.fabric, builtinCatalog(), o);
        QVERIFY(plain.ok() && reversed.ok());
        const auto leafOf = [](const Design &d, const std::string &gpu) {
            for (const Link &l : d.links())
                for (const NodeId id : {l.a, l.b})
                    if (d.node(id)->name == gpu && d.node(l.other(id))->isSwitch())
                        return d.node(l.other(id))->name;
            return std::string();
        };
        for (int g = 0; g < 8; ++g) {
            const std::string mirrored
                = leafOf(*plain.design, "dgx-a100-1.gpu" + std::to_string(7 - g));
            QVERIFY(!mirrored.empty());
            QCOMPARE(leafOf(*reversed.design, "dgx-a100-1.gpu" + std::to_string(g)), mirrored);
        }
        QVERIFY(reversed.summary.findings.empty());
    }

    // ibnetdiscover's other layouts of the same fabric, made by the real tools: the ports report
    // (-p; HCA ports keyed by port GUID) and the chassis grouping (-g) import as the same
    // scale-out fabric.
    void portsReportAndChassisLayouts()
    {
        const Design plain = importFile("a100-su4.ibnetdiscover", "dgx-a100");
        QVERIFY(isIbPortsReport(readData("a100-su4.ports")));
        QVERIFY(!isIbPortsReport(readData("a100-su4.ibnetdiscover")));
        IbImportSummary s;
        const Design ports = importFile("a100-su4.ports", "dgx-a100", false, &s);
        QCOMPARE(s.switches, 9);
        QCOMPARE(s.cas, 32);
        QCOMPARE(s.cables, 64);
        QVERIFY2(s.findings.empty(), s.findings.empty() ? "" : s.findings.front().c_str());
        QVERIFY(scaleOut(ports) == scaleOut(plain));
        const Design chassis = importFile("a100-su4-chassis.ibnetdiscover", "dgx-a100");
        QVERIFY(scaleOut(chassis) == scaleOut(plain));
    }

    // What real captures carry around the output: a byte-order mark and the shell prompt, a
    // tool's warning on stderr, ibnetdiscover -v's "DR path" progress lines. Skipped before the
    // first record, with a note; the same lines inside the records stay errors.
    void captureNoiseBeforeTheRecords()
    {
        const std::string text = readData("a100-su4.ibnetdiscover");
        const std::string noise
            = "\xEF\xBB\xBF[root@ufm-01 ~]# ibnetdiscover\n"
              "src/query_smp.c:195; umad (DR path slid 0; dlid 0; 0,1,1,31) bad "
              "status 110; Connection timed out\n";
        IbParseResult p = parseIbnetdiscover(noise + text);
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(int(p.notes.size()), 1);
        QVERIFY2(p.notes[0].find("skipped 2 line(s) before the first record that are not "
                                 "ibnetdiscover output (line 1: \"[root@ufm-01 ~]# ibnetdiscover")
                     != std::string::npos,
                 p.notes[0].c_str());
        QCOMPARE(p.fabric->nodes.size(), parseIbnetdiscover(text).fabric->nodes.size());
        const std::size_t second = text.find("\nSwitch", text.find("Switch") + 1);
        const std::string inside
            = text.substr(0, second) + "\nsrc/query_smp.c:195; umad\n" + text.substr(second);
        p = parseIbnetdiscover(inside);
        QVERIFY(!p.ok());
        QVERIFY2(p.error.find("unrecognised line \"src/query_smp.c") != std::string::npos,
                 p.error.c_str());
        const FabricImportResult all
            = importFabric(ImportFormat::Ibnetdiscover, "hello\nworld\n", builtinCatalog(), {});
        QVERIFY(!all.ok());
        QVERIFY2(all.error.find("no Switch or Ca record found (2 line(s) skipped, the first line "
                                "1: \"hello\")")
                     != std::string::npos,
                 all.error.c_str());

        const std::string ports = readData("a100-su4.ports");
        std::string progress;
        for (int i = 0; i < 100; ++i)
            progress += "DR path slid 0; dlid 0; 0," + std::to_string(i)
                + " -> new Channel Adapter {0000000000100000} portnum 1 lid 0-0 \"\"\n";
        const FabricImportResult r
            = importFabric(ImportFormat::Ibnetdiscover, progress + ports, builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(std::find(r.findings.begin(), r.findings.end(),
                          "skipped 100 \"DR path\" progress line(s) of ibnetdiscover -v")
                != r.findings.end());
    }

    // Quantum switches carry a SHARP aggregation node (a virtual CA on a switch port, as in
    // ibnetdiscover of a SHARP-enabled fabric): not a host, left out with a note.
    void sharpAggregationNodesLeftOut()
    {
        const std::string text = readData("a100-su4.ibnetdiscover");
        const std::size_t at = text.find("# \"su0.leaf0\" base port");
        QVERIFY(at != std::string::npos);
        const std::size_t idStart = text.rfind("\"S-", at) + 1;
        const std::string leaf = text.substr(idStart, text.find('"', idStart) - idStart);
        const std::string an = "\nCa\t1 \"H-00000000deadbeef\"\t\t# \"Mellanox Technologies "
                               "Aggregation Node\"\n[1](deadbeef) \t\""
            + leaf + "\"[40]\t\t# lid 99 lmc 0 \"su0.leaf0\" lid 9 4xHDR\n";
        const FabricImportResult plain
            = importFabric(ImportFormat::Ibnetdiscover, text, builtinCatalog(), {});
        const FabricImportResult r
            = importFabric(ImportFormat::Ibnetdiscover, text + an, builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(r.design->acceleratorCount(), plain.design->acceleratorCount());
        QVERIFY(scaleOut(*r.design) == scaleOut(*plain.design));
        QVERIFY(std::any_of(r.findings.begin(), r.findings.end(), [](const std::string &f) {
            return f.rfind("1 SHARP aggregation node(s)", 0) == 0;
        }));
    }

    // What the fresh-eyes tryout on real captures found: a loopback cable (two ports of one
    // switch, NVIDIA's SwitchIB capture) became a self-link the model refuses; a switch seen
    // only as a peer had no rate (port_gbps 0); a capture cut mid-line imported silently; hosts
    // with one HCA were taken for 8-rail servers with "missing" rails. Each is now handled or
    // said, and the design validates.
    void realCaptureQuirks()
    {
        std::string text = readData("a100-su4.ibnetdiscover");
        const std::size_t at = text.find("# \"su0.leaf0\" base port");
        const std::size_t idStart = text.rfind("\"S-", at) + 1;
        const std::string leaf = text.substr(idStart, text.find('"', idStart) - idStart);
        const std::size_t next = text.find("\n\n", at);
        text.insert(next,
                    "\n[39]\t\"" + leaf + "\"[40]\t\t# \"su0.leaf0\" lid 2 4xHDR\n[40]\t\"" + leaf
                        + "\"[39]\t\t# \"su0.leaf0\" lid 2 4xHDR");
        FabricImportResult r
            = importFabric(ImportFormat::Ibnetdiscover, text, builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(!hasError(validateDesign(*r.design)));
        const auto has = [&r](const char *part) {
            return std::any_of(r.findings.begin(), r.findings.end(), [part](const std::string &f) {
                return f.find(part) != std::string::npos;
            });
        };
        QVERIFY(has("1 loopback cable(s) join two ports of one switch (left out"));
        QVERIFY(has("su0.leaf0 ports 39-40"));
        // A switch known only from its record, without a cable: the file's usual rate.
        r = importFabric(ImportFormat::Ibnetdiscover,
                         text
                             + "\nSwitch\t40 \"S-00000000000abcde\"\t\t# \"lonely\" base port 0 "
                               "lid 99 lmc 0\n",
                         builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(has("1 switch(es) have no cabled port in the file (a partial capture?); their "
                    "model is matched at the file's usual 4xHDR: lonely"));
        for (const auto &[key, sw] : r.design->hardware.switches)
            QVERIFY2(sw.portRate > 0, key.c_str());
        // Cut in the middle of a line.
        // Cut in a port line's comment ("... lid 17 4xH"): still parseable, said.
        r = importFabric(ImportFormat::Ibnetdiscover,
                         text.substr(0, text.find("4xHDR", text.size() * 3 / 5) + 3),
                         builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(has("(no final newline): is the capture truncated?"));
        // One HCA per host on an 8-rail preset.
        r = importFabric(ImportFormat::Ibnetdiscover, readData("a100-su4.ibnetdiscover"),
                         builtinCatalog(), {});
        QVERIFY(!has("most hosts have"));
        // Keep mlx5_0 only: drop the other HCAs' records and the switch ports to them.
        std::string single;
        bool dropRecord = false;
        for (std::size_t pos = 0; pos < text.size();) {
            std::size_t end = text.find('\n', pos);
            const std::string line = text.substr(pos, end - pos);
            pos = end == std::string::npos ? text.size() : end + 1;
            const bool other = line.find("mlx5_") != std::string::npos
                && line.find("mlx5_0") == std::string::npos;
            if (line.empty())
                dropRecord = false;
            else if (line.rfind("Ca", 0) == 0)
                dropRecord = other;
            if (!dropRecord && !(other && line.front() == '['))
                single += line + "\n";
        }
        r = importFabric(ImportFormat::Ibnetdiscover, single, builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(has("most hosts have 1 HCA(s) where a dgx-h100 server has 8 rails"));
    }

    // The ports report's own checks and unknown rates ("4x ???": the file's usual rate).
    void portsReportErrors()
    {
        const char *head = "SW     9  1 0x0000000000200008 4x HDR - CA    17  1 0x000000000010000f "
                           "( 'leaf' - 'dgx-0 mlx5_0' )\n";
        IbParseResult p = parseIbPortsReport(std::string(head)
                                             + "SW 9 2 0x0000000000200008 4x "
                                               "HDR - XX 1 1 0x1 ( 'a' - 'b' )\n");
        QVERIFY(!p.ok());
        QVERIFY2(p.error == "line 2: malformed remote port after \"-\"", p.error.c_str());
        p = parseIbPortsReport(std::string(head) + head);
        QVERIFY(!p.ok());
        QVERIFY2(p.error.find("line 2: port 1 of \"S-0000000000200008\" is listed twice")
                     != std::string::npos,
                 p.error.c_str());
        p = parseIbPortsReport(std::string(head) + "garbage here\n");
        QVERIFY(!p.ok());
        QVERIFY2(p.error.find("line 2: not a ports-report line") != std::string::npos,
                 p.error.c_str());
        p = parseIbPortsReport(std::string(head)
                               + "SW     9  2 0x0000000000200008 4x ???                    "
                                 "                'leaf'\n"
                                 "CA    17  1 0x000000000010000f 4x ??? - SW     9  1 "
                                 "0x0000000000200008 ( 'dgx-0 mlx5_0' - 'leaf' )\n");
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(int(p.fabric->nodes.size()), 2);
        QCOMPARE(p.fabric->nodes[0].ports, 2); // the unconnected port counts
        QCOMPARE(p.fabric->nodes[0].description, std::string("leaf"));
        QCOMPARE(p.fabric->nodes[1].links[0].speed, std::string()); // ??? = unknown
        QCOMPARE(p.fabric->nodes[1].links[0].width, 4);
    }

    // An ibsim net file without widths and speeds comes up at ibsim's 4x SDR.
    void netFileWithoutRates()
    {
        const FabricImportResult r = importFabric(
            ImportFormat::Ibnetdiscover,
            "Switch 8 \"sw\"\n[1] \"dgx-0 mlx5_0\"[1]\n\nHca 1 \"dgx-0 mlx5_0\"\n[1] \"sw\"[1]\n",
            builtinCatalog(), {});
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(std::any_of(r.findings.begin(), r.findings.end(), [](const std::string &f) {
            return f.find("taken at ibsim's default 4xSDR") != std::string::npos;
        }));
        QVERIFY(std::any_of(r.summary.begin(), r.summary.end(), [](const std::string &f) {
            return f.find("4xSDR") != std::string::npos;
        }));
    }

    // Generated design -> ibsim net file -> ibsim -> ibnetdiscover -> import: the same fabric.
    void roundTripThroughIbsim()
    {
        const Design original = generated("dgx-a100", 4, FabricKind::RailOptimized);
        const Design imported = importFile("a100-su4.ibnetdiscover", "dgx-a100");
        QCOMPARE(imported.nodes().size(), original.nodes().size());
        QCOMPARE(imported.links().size(), original.links().size());
        QVERIFY(scaleOut(imported) == scaleOut(original));
        // The committed net file is what the exporter writes today.
        QCOMPARE(writeIbnetdiscover(exportIbFabric(original).fabric, IbTextStyle::IbsimNet),
                 readData("a100-su4.net"));
    }

    // Writer and parser agree in both styles, in memory.
    void writeParseRoundTrip()
    {
        const Design original = generated("dgx-h100", 4, FabricKind::RailOptimized);
        for (const IbTextStyle style : {IbTextStyle::Ibnetdiscover, IbTextStyle::IbsimNet}) {
            const IbParseResult p
                = parseIbnetdiscover(writeIbnetdiscover(exportIbFabric(original).fabric, style));
            QVERIFY2(p.ok(), p.error.c_str());
            IbImportOptions o;
            IbImportResult r = importIbFabric(*p.fabric, builtinCatalog(), o);
            QVERIFY(r.ok());
            QVERIFY(scaleOut(*r.design) == scaleOut(original));
            for (const Link &l : r.design->links())
                if (l.tech == "ib-ndr")
                    QCOMPARE(l.rate, 50e9);
        }
    }

    // The described messy fabric: DGX H100 device names, a storage host, an uncabled rail, a 2x
    // cable and a missing uplink are all reported.
    void messyFabric()
    {
        IbImportSummary s;
        const Design d = importFile("h100-messy.ibnetdiscover", "dgx-h100", false, &s);
        QCOMPARE(s.servers, 4);
        QCOMPARE(s.unknownHcas, 1);
        QVERIFY(anyFinding(s, "dgx-h003 rail 5"));
        QVERIFY(anyFinding(s, "stor-01 mlx5_0"));
        QVERIFY(anyFinding(s, "dgx-h002.gpu1 - h-leaf-01 at 100 Gb/s"));
        QVERIFY(anyFinding(s, "h-leaf-07 has 7"));
        // Switch names from "MF0;h-leaf-00:MQM8700/U1"; mlx5_10 of dgx-h003 is rail 6 (learned
        // from the complete servers), so its gpu6 is cabled and gpu5 is not.
        int gpu5 = 0, gpu6 = 0;
        for (const Link &l : d.links())
            for (const NodeId id : {l.a, l.b}) {
                const std::string &name = d.node(id)->name;
                const Node *other = d.node(l.other(id));
                if (other->isSwitch() && other->role == SwitchRole::Leaf) {
                    gpu5 += name == "dgx-h003.gpu5";
                    gpu6 += name == "dgx-h003.gpu6" && other->name == "h-leaf-06";
                }
            }
        QCOMPARE(gpu5, 0);
        QCOMPARE(gpu6, 1);
        QCOMPARE(static_cast<int>(d.acceleratorCount()), 33); // 32 GPUs + the storage endpoint
        // The design with its endpoint is a valid file: it reads back.
        const ParseResult back = parseDesign(serializeDesign(d), "messy.weft");
        QVERIFY2(back.ok(), back.error.toString().c_str());
        QVERIFY(!hasError(validateDesign(d)));
        const Design dropped = importFile("h100-messy.ibnetdiscover", "dgx-h100", true);
        QCOMPARE(static_cast<int>(dropped.acceleratorCount()), 32);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("port before header") << "# c\n[1]\t\"S-1\"[1]\n"
                                            << 2 << "outside a node record";
        QTest::newRow("no port count") << "Switch \"S-1\"\n" << 1 << "port count";
        QTest::newRow("no id") << "\nSwitch 8 S-1\n" << 2 << "quoted node id";
        QTest::newRow("port too high") << "Switch 8 \"S-1\"\n[9]\t\"H-1\"[1]\n"
                                       << 2 << "outside 1..8";
        QTest::newRow("port twice") << "Switch 8 \"S-1\"\n[1]\t\"H-1\"[1]\n[1]\t\"H-2\"[1]\n"
                                    << 3 << "listed twice";
        QTest::newRow("duplicate node") << "Ca 1 \"H-1\"\n\nCa 1 \"H-1\"\n"
                                        << 3 << "described twice";
        QTest::newRow("garbage") << "Switch 8 \"S-1\"\nhello world\n" << 2 << "unrecognised line";
        QTest::newRow("bad remote port") << "Switch 8 \"S-1\"\n[1]\t\"H-1\"[x]\n"
                                         << 2 << "malformed remote port";
        QTest::newRow("empty") << "# nothing\n" << 1 << "no Switch or Ca record";
    }
    void malformed()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        const IbParseResult r = parseIbnetdiscover(text.toStdString());
        QVERIFY(!r.ok());
        QCOMPARE(r.errorLine, line);
        QVERIFY2(r.error.find(message.toStdString()) != std::string::npos, r.error.c_str());
        if (message != QLatin1String("no Switch or Ca record"))
            QVERIFY(r.error.rfind("line " + std::to_string(line) + ": ", 0) == 0);
    }

    // The facade names the problem of a file without cables and an unknown preset.
    void importErrors()
    {
        FabricImportOptions o;
        FabricImportResult r
            = importFabric(ImportFormat::Ibnetdiscover, "Switch 8 \"sw\"\n\nHca 1 \"Hca1\"\n",
                           builtinCatalog(), o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error == "the file describes no connected port", r.error.c_str());
        o.scaleUpPreset = "no-such-preset";
        r = importFabric(ImportFormat::Ibnetdiscover, readData("a100-su4.ibnetdiscover"),
                         builtinCatalog(), o);
        QVERIFY(!r.ok());
        QVERIFY(r.error.find("no-such-preset") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestIbnetdiscover)
#include "tst_ibnetdiscover.moc"
