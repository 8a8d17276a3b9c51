// Tests of the ASTRA-sim network/system configuration export (issue 6).
#include "io/astrasimexport.h"

#include <QtTest>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

// Two-level design: `domains` domains of `gpus` accelerators on one NVSwitch each (NVLink
// `nvlinkRate` bytes/s per accelerator, 1 us), every accelerator on one of `gpus` rail leaves
// with a 50 GB/s NIC (2 us); each leaf has uplinks of `uplinkRate` to one spine (3 us).
Design twoLevel(int domains, int gpus, double nvlinkRate, double uplinkRate)
{
    Design d;
    d.name = "test";
    Node spine;
    spine.kind = NodeKind::Switch;
    spine.role = SwitchRole::Spine;
    spine.name = "spine";
    const NodeId spineId = d.addNode(spine);
    std::vector<NodeId> leaves;
    for (int r = 0; r < gpus; ++r) {
        Node leaf;
        leaf.kind = NodeKind::Switch;
        leaf.role = SwitchRole::Leaf;
        leaf.name = "leaf" + std::to_string(r);
        leaves.push_back(d.addNode(leaf));
        Link up;
        up.a = leaves.back();
        up.b = spineId;
        up.rate = uplinkRate;
        up.latency = 3e-6;
        d.addLink(up);
    }
    for (int dom = 0; dom < domains; ++dom) {
        Group g;
        g.name = "domain" + std::to_string(dom);
        const GroupId gid = d.addGroup(g);
        Node sw;
        sw.kind = NodeKind::Switch;
        sw.role = SwitchRole::ScaleUp;
        sw.group = gid;
        const NodeId swId = d.addNode(sw);
        for (int r = 0; r < gpus; ++r) {
            Node acc;
            acc.group = gid;
            acc.rail = r;
            const NodeId a = d.addNode(acc);
            Link nv;
            nv.a = a;
            nv.b = swId;
            nv.rate = nvlinkRate;
            nv.latency = 1e-6;
            d.addLink(nv);
            Link nic;
            nic.a = a;
            nic.b = leaves[static_cast<std::size_t>(r)];
            nic.rate = 50e9;
            nic.latency = 2e-6;
            d.addLink(nic);
        }
    }
    return d;
}

} // namespace

class TestAstraSimExport : public QObject
{
    Q_OBJECT
private slots:
    void twoLevelNonBlocking()
    {
        // 4 rail leaves, each with 2 accelerators down (100 GB/s) and 100 GB/s up: 1:1.
        const Design d = twoLevel(2, 4, 450e9, 100e9);
        const AstraSimExport e = exportAstraSim(d);
        QVERIFY2(e.ok(), e.problems.empty() ? "" : e.problems.front().c_str());
        QCOMPARE(e.dimensions.size(), std::size_t(2));
        QCOMPARE(e.dimensions[0].topology, std::string("Switch"));
        QCOMPARE(e.dimensions[0].npus, 4);
        QCOMPARE(e.dimensions[0].bandwidth, 450e9);
        QCOMPARE(e.dimensions[1].npus, 2);
        QCOMPARE(e.dimensions[1].bandwidth, 50e9);
        QCOMPARE(e.dimensions[1].latency, 2 * 2e-6 + 2 * 3e-6);
        QVERIFY(e.networkYaml.find("topology: [ Switch, Switch ]") != std::string::npos);
        QVERIFY(e.networkYaml.find("npus_count: [ 4, 2 ]") != std::string::npos);
        QVERIFY(e.networkYaml.find("bandwidth: [ 450, 50 ]") != std::string::npos);
        QVERIFY(e.networkYaml.find("latency: [ 2000, 10000 ]") != std::string::npos);
        const auto sys = nlohmann::json::parse(e.systemJson);
        QCOMPARE(sys["all-reduce-implementation"].size(), std::size_t(2));
        QCOMPARE(sys["all-reduce-implementation"][0].get<std::string>(), std::string("ring"));
        QVERIFY(sys.contains("collective-optimization"));
    }
    void oversubscribedSpineIsRefused()
    {
        const Design d = twoLevel(2, 4, 450e9, 50e9); // 100 GB/s down, 50 up: 2:1
        const AstraSimExport e = exportAstraSim(d);
        QVERIFY(!e.ok());
        QVERIFY(e.networkYaml.empty());
        QVERIFY2(e.problems.front().find("oversubscribed 2:1") != std::string::npos,
                 e.problems.front().c_str());
    }
    void singleDomainHasOneDimension()
    {
        const Design d = twoLevel(1, 8, 450e9, 400e9);
        const AstraSimExport e = exportAstraSim(d);
        QVERIFY(e.ok());
        QCOMPARE(e.dimensions.size(), std::size_t(1));
        QCOMPARE(e.dimensions[0].npus, 8);
    }
    void meshIsFullyConnected()
    {
        Design d;
        const GroupId g = d.addGroup(Group {});
        std::vector<NodeId> ids;
        for (int i = 0; i < 4; ++i) {
            Node n;
            n.group = g;
            ids.push_back(d.addNode(n));
        }
        for (int i = 0; i < 4; ++i)
            for (int j = i + 1; j < 4; ++j) {
                Link l;
                l.a = ids[static_cast<std::size_t>(i)];
                l.b = ids[static_cast<std::size_t>(j)];
                l.rate = 64e9;
                d.addLink(l);
            }
        const AstraSimExport e = exportAstraSim(d);
        QVERIFY(e.ok());
        QCOMPARE(e.dimensions[0].topology, std::string("FullyConnected"));
        QCOMPARE(e.dimensions[0].bandwidth, 64e9);
    }
    void unevenDomainsAreNamed()
    {
        Design d = twoLevel(2, 4, 450e9, 100e9);
        Node extra;
        extra.group = d.groups().front().id;
        d.addNode(extra);
        const AstraSimExport e = exportAstraSim(d);
        QVERIFY(!e.ok());
        bool named = false;
        for (const auto &p : e.problems)
            named |= p.find("scale-up domains differ") != std::string::npos;
        QVERIFY(named);
    }
    void emptyDesign() { QVERIFY(!exportAstraSim(Design {}).ok()); }
};

QTEST_GUILESS_MAIN(TestAstraSimExport)
#include "tst_astrasimexport.moc"
