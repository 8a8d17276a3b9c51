// Tests of the NCCL topology XML import (issue 19): published topology files of real servers
// (tests/data/import/nccl/README.md says where each comes from), a degraded copy of one, and
// malformed input.
#include "io/catalogfile.h"
#include "io/fabricimport.h"
#include "io/nccltopology.h"
#include "model/validate.h"

#include <QFile>
#include <QtTest>
#include <algorithm>

using namespace weft;

namespace {

std::string readData(const char *name)
{
    QFile f(QStringLiteral(WEFT_TEST_DATA_DIR "/import/nccl/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

bool anyContains(const std::vector<std::string> &lines, const std::string &part)
{
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string &l) { return l.find(part) != std::string::npos; });
}

std::string joined(const std::vector<std::string> &lines)
{
    std::string s;
    for (const std::string &l : lines)
        s += l + "\n";
    return s;
}

int count(const Design &d, bool accelerators)
{
    return int(std::count_if(d.nodes().begin(), d.nodes().end(), [&](const Node &n) {
        return accelerators ? n.isAccelerator() : n.isSwitch() && n.role == SwitchRole::ScaleUp;
    }));
}

FabricImportResult import(const std::string &text, const std::string &preset = "auto")
{
    FabricImportOptions o;
    o.scaleUpPreset = preset;
    o.name = "node1";
    return importFabric(ImportFormat::NcclTopology, text, builtinCatalog(), o);
}

// A Grace-Blackwell tray as NCCL 2.27 dumps it: every NVLink to one collapsed switch address.
std::string gbTray()
{
    std::string s = "<system version=\"1\"><cpu numaid=\"0\" arch=\"arm64\">";
    for (int g = 0; g < 4; ++g)
        s += "<pci busid=\"000" + std::to_string(g)
            + ":06:00.0\" class=\"0x030200\">"
              "<gpu dev=\""
            + std::to_string(g) + "\" sm=\"100\" rank=\"" + std::to_string(g)
            + "\"><nvlink target=\"fffffff:ff:ff.0\" count=\"18\" "
              "tclass=\"0x068000\"/></gpu></pci>";
    return s + "</cpu></system>";
}

} // namespace

class TestNcclTopology : public QObject
{
    Q_OBJECT
private slots:
    // IBM Cloud's 8 x H100 dump: 18 NVLinks per GPU to 4 NVSwitch chips, a 200 Gb/s RDMA port
    // beside each GPU under its PCIe switch (PIX), GPU 0 beside mlx5_7.
    void ibmH100DumpIsOneServer()
    {
        const std::string text = readData("ibm-gx3d-h100-topo.xml");
        QVERIFY(!text.empty());
        const NcclTopology t = parseNcclTopology(text);
        QCOMPARE(int(t.gpus.size()), 8);
        QCOMPARE(int(t.nics.size()), 8);
        QCOMPARE(t.sockets, 2);
        std::vector<int> nics;
        for (const NcclGpu &g : t.gpus) {
            QCOMPARE(g.sm, 90);
            QCOMPARE(g.device, std::string("0x2330"));
            QCOMPARE(g.switchLinks, 18);
            QCOMPARE(int(g.switchTargets.size()), 4);
            QCOMPARE(g.distance, std::string("PIX"));
            nics.push_back(g.nearestNic);
        }
        QCOMPARE(t.nics[std::size_t(t.gpus[0].nearestNic)].name, std::string("mlx5_7"));
        QCOMPARE(t.nics[std::size_t(t.gpus[7].nearestNic)].name, std::string("mlx5_0"));
        std::sort(nics.begin(), nics.end());
        QVERIFY(std::unique(nics.begin(), nics.end()) == nics.end()); // one rail per GPU
        QCOMPARE(t.nics[0].rate, 200e9 / 8);

        const FabricImportResult r = import(text);
        QVERIFY2(r.ok(), r.error.c_str());
        QCOMPARE(count(*r.design, true), 8);
        QCOMPARE(count(*r.design, false), 4);
        QVERIFY(r.design->hardware.accelerators.count("h100-sxm"));
        QVERIFY(anyContains(r.findings, "PCI device id 0x2330"));
        QVERIFY(anyContains(r.findings, "NICs at 200 Gb/s where dgx-h100 has 400 Gb/s"));
        QVERIFY(anyContains(r.summary, "gpu0->mlx5_7 PIX"));
        QVERIFY(!anyContains(r.findings, "NVLinks per GPU")); // 18, as DGX H100
        QVERIFY(!hasError(validateDesign(*r.design)));
        // An unknown device id: the compute capability chose, and the note says so (it named
        // the unknown id as the reason).
        std::string unknown = text;
        for (std::size_t at = 0; (at = unknown.find("device=\"0x2330\"", at)) != std::string::npos;)
            unknown.replace(at, 15, "device=\"0x9999\"");
        const FabricImportResult u = import(unknown);
        QVERIFY2(u.ok(), u.error.c_str());
        QVERIFY2(anyContains(u.findings,
                             "chosen from the GPUs' compute capability (sm 90); their "
                             "PCI device id 0x9999 is not known"),
                 joined(u.findings).c_str());
    }

    // Azure's files give PCIe slots only: GPUs and HCAs by class, no sm, no speeds. The preset
    // must be named; a GPU's rail is the HCA under its PCIe switch.
    void azureClassOnlyFiles()
    {
        const std::string v5 = readData("azure-ndv5-topo.xml");
        const NcclTopology t = parseNcclTopology(v5);
        QCOMPARE(int(t.gpus.size()), 8);
        QCOMPARE(int(t.nics.size()), 8);
        QVERIFY(t.nics[0].infiniband);
        QCOMPARE(t.gpus[0].busId, std::string("0001:00:00.0"));
        QCOMPARE(t.nics[std::size_t(t.gpus[0].nearestNic)].busId, std::string("0101:00:00.0"));
        QCOMPARE(t.gpus[3].distance, std::string("PIX"));

        const FabricImportResult unnamed = import(v5);
        QVERIFY(!unnamed.ok());
        QVERIFY2(unnamed.error.find("name a scale-up preset") != std::string::npos,
                 unnamed.error.c_str());
        const FabricImportResult named = import(v5, "dgx-h100");
        QVERIFY2(named.ok(), named.error.c_str());
        QCOMPARE(count(*named.design, true), 8);
        QVERIFY(anyContains(named.findings, "gives no NVLinks"));

        // ND40rs v2: one HCA on socket 0 for 8 V100s; GPUs 4-7 reach it across the sockets.
        const NcclTopology v2 = parseNcclTopology(readData("azure-ndv2-topo.xml"));
        QCOMPARE(int(v2.nics.size()), 1);
        QCOMPARE(v2.gpus[0].distance, std::string("PHB"));
        QCOMPARE(v2.gpus[7].distance, std::string("SYS"));
        const FabricImportResult r2 = import(readData("azure-ndv2-topo.xml"), "dgx-a100");
        QVERIFY2(r2.ok(), r2.error.c_str());
        // One 100 Gb/s HCA for the 8 GPUs: each GPU's link gets an eighth of it (it was
        // built as 8 NICs at DGX A100's 200 Gb/s, 16 times the server's bandwidth).
        QVERIFY2(anyContains(r2.findings,
                             "1 RDMA NIC for 8 GPUs, shared by all 8: one link per "
                             "GPU at 1/8 of"),
                 joined(r2.findings).c_str());
        QVERIFY(anyContains(r2.findings,
                            "GPU 7 (0008:00:00.0) reaches its nearest RDMA NIC only "
                            "through the CPU (SYS)"));
    }

    // The rail order for the other importers: IBM pairs gpu g with mlx5_(7-g); Azure's class-only
    // file names no NIC devices (its slots' addresses), so the device order stays, with a note.
    void railOrderFromThePairing()
    {
        std::vector<std::string> notes;
        const std::map<int, int> ibm
            = ncclRailOfHca(parseNcclTopology(readData("ibm-gx3d-h100-topo.xml")), 1, notes);
        QCOMPARE(int(ibm.size()), 8);
        for (int d = 0; d < 8; ++d)
            QCOMPARE(ibm.at(d), 7 - d);
        QVERIFY(anyContains(notes,
                            "rails follow the file's GPU-NIC pairing: gpu0-mlx5_7, "
                            "gpu1-mlx5_6"));
        notes.clear();
        QVERIFY(
            ncclRailOfHca(parseNcclTopology(readData("azure-ndv5-topo.xml")), 1, notes).empty());
        QVERIFY(anyContains(notes, "rails in HCA device order: GPU 0 (0001:00:00.0) pairs with"));
        notes.clear();
        // Two GPUs beside NICs of one device number (a renamed port) keep the device order too.
        std::string renamed = readData("ibm-gx3d-h100-topo.xml");
        renamed.replace(renamed.find("\"mlx5_6\""), 8, "\"mlx5_7\"");
        QVERIFY(ncclRailOfHca(parseNcclTopology(renamed), 1, notes).empty());
        QVERIFY(anyContains(notes, "GPU 1 (0000:")
                && anyContains(notes,
                               "pairs with mlx5_7, a "
                               "device number another"));
        notes.clear();
        QVERIFY(
            ncclRailOfHca(parseNcclTopology(readData("ibm-gx3d-h100-topo.xml")), 2, notes).empty());
        QVERIFY(anyContains(notes, "the server has 2 per GPU"));
        // addNcclServer: the preset in the catalog and the same pairing.
        Catalog catalog = builtinCatalog();
        notes.clear();
        const NcclServer server = addNcclServer(catalog, readData("ibm-gx3d-h100-topo.xml"), notes);
        QCOMPARE(server.presetKey, std::string("nccl-topology"));
        QVERIFY(catalog.scaleUpPresets.count("nccl-topology"));
        QVERIFY(server.railOfHca == ibm);
    }

    // RCCL's dump of an MI300X server: xGMI links GPU to GPU (a full mesh of 7 per GPU), the
    // MI300X preset from the PCI device id; AWS p4d's EFA devices are class-only Ethernet slots
    // of vendor 0x1d0f.
    void rcclAndEfaFiles()
    {
        const NcclTopology amd = parseNcclTopology(readData("rccl-mi300x-8p-topo.xml"));
        QCOMPARE(int(amd.gpus.size()), 8);
        for (const NcclGpu &g : amd.gpus) {
            QCOMPARE(g.gpuLinks, 7);
            QCOMPARE(g.switchLinks, 0);
        }
        const FabricImportResult r = import(readData("rccl-mi300x-8p-topo.xml"));
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(r.design->hardware.accelerators.count("mi300x"));
        QVERIFY(
            anyContains(r.findings, "preset mi300x-8 chosen from the GPUs' PCI device id 0x74a1"));
        QVERIFY(
            anyContains(r.summary, "8 x mi300x, 7 xGMI links per GPU, no NVSwitch (direct links)"));

        const NcclTopology p4d = parseNcclTopology(readData("aws-p4d-24xl-topo.xml"));
        QCOMPARE(int(p4d.gpus.size()), 8);
        QCOMPARE(int(p4d.nics.size()), 4);
        QVERIFY(!p4d.nics[0].infiniband);
        QCOMPARE(p4d.gpus[0].distance, std::string("PIX"));
        QCOMPARE(p4d.gpus[0].nearestNic, p4d.gpus[1].nearestNic); // two GPUs per EFA device
        // Imported, the 4 devices keep the server's scale-out bandwidth: one link per GPU at
        // half a NIC's rate (the preset's one NIC per GPU made it 8 full NICs).
        const FabricImportResult aws = import(readData("aws-p4d-24xl-topo.xml"), "dgx-a100");
        QVERIFY2(aws.ok(), aws.error.c_str());
        QVERIFY2(anyContains(aws.findings,
                             "4 RDMA NICs for 8 GPUs, each shared by 2: one link "
                             "per GPU at 1/2 of"),
                 joined(aws.findings).c_str());
        QVERIFY2(anyContains(aws.summary, "1 x 100 Gb/s NIC per GPU"), // DGX A100's 200 / 2
                 joined(aws.summary).c_str());
    }

    // A GPU whose NVLinks are down appears in NCCL's dump without <nvlink> rows.
    void gpuWithoutNvlinkIsNoted()
    {
        std::string text = readData("ibm-gx3d-h100-topo.xml");
        const std::size_t gpu5 = text.find("<gpu dev=\"5\"");
        QVERIFY(gpu5 != std::string::npos);
        const std::size_t from = text.find('\n', gpu5) + 1;
        const std::size_t to = text.find("</gpu>", gpu5);
        text.erase(from, to - from);
        const FabricImportResult r = import(text);
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(anyContains(r.findings,
                            "GPU 5 (0000:d6:00.0) has 0 NVLinks, the others 18: "
                            "NCCL sends its traffic over PCIe"));
    }

    // NVL72 trays: the dump shows 4 GPUs of the 72-GPU NVLink domain.
    void multiNodeNvlinkTray()
    {
        const FabricImportResult r = import(gbTray());
        QVERIFY2(r.ok(), r.error.c_str());
        QVERIFY(anyContains(r.findings, "preset gb200-nvl72"));
        QVERIFY(anyContains(r.findings, "4 GPUs of a multi-node NVLink domain"));
        QCOMPARE(count(*r.design, true), 72);
    }

    void badInputNamesTheLine()
    {
        const auto error = [](const std::string &text) { return import(text).error; };
        QVERIFY(error("<system version=\"1\">\n<cpu>\n</system>").rfind("line 3: malformed XML", 0)
                == 0);
        QVERIFY(error("<topology/>").find("not NCCL's <system>") != std::string::npos);
        QCOMPARE(error("<system>\n<pci busid=\"1\" class=\"0x030200\">\n<gpu sm=\"nine\"/></pci>"
                       "</system>"),
                 std::string("line 3: <gpu> sm=\"nine\" is not a count"));
        QVERIFY(error("<system version=\"1\"/>").find("no GPU") != std::string::npos);
        std::string deep = "<system>";
        for (int i = 0; i < 100; ++i)
            deep += "<pci>";
        for (int i = 0; i < 100; ++i)
            deep += "</pci>";
        deep += "</system>";
        QVERIFY(error(deep).find("nested deeper than 64") != std::string::npos);
        QVERIFY(import(readData("ibm-gx3d-h100-topo.xml"), "no-such-preset")
                    .error.find("unknown scale-up preset 'no-such-preset'")
                != std::string::npos);
    }
};

QTEST_MAIN(TestNcclTopology)
#include "tst_nccltopology.moc"
