// Link-rate findings (model/linkrates.h): a lane rate above a switch port's line rate or above
// its technology's lane rate is an error naming the link, the end and both rates. Before, an
// HDR link set to 800 Gb/s per lane x 4 lanes on a 200 Gb/s QM8700 port passed validation and
// simulated at 3,200 Gb/s.
#include "fabrictesting.h"
#include "model/linkrates.h"
#include "model/validate.h"

#include <QtTest>

using namespace weft;

namespace {

// A GPU on a QM8700 (200 Gb/s ports) leaf over one HDR (200 Gb/s lane) link.
struct HdrLink
{
    Design d;
    LinkId link;
    NodeId leaf;
    HdrLink()
    {
        d.hardware.switches["qm8700"] = test::makeSwitch("qm8700", Technology::InfiniBand, 40, 200);
        d.hardware.linkTechs["ib-hdr"]
            = test::makeTech("ib-hdr", Technology::InfiniBand, 200e9 / 8, 2e-6);
        d.hardware.linkTechs["ib-ndr"]
            = test::makeTech("ib-ndr", Technology::InfiniBand, 400e9 / 8, 2e-6);
        Node g;
        g.kind = NodeKind::Accelerator;
        g.spec = "h100";
        g.name = "gpu0";
        Node s;
        s.kind = NodeKind::Switch;
        s.role = SwitchRole::Leaf;
        s.spec = "qm8700";
        s.name = "leaf0";
        const NodeId a = d.addNode(g);
        leaf = d.addNode(s);
        Link l;
        l.a = a;
        l.b = leaf;
        l.tech = "ib-hdr";
        l.rate = 200e9 / 8;
        l.lanes = 1;
        link = d.addLink(l);
    }
    Link &edit() { return *d.link(link); }
};

std::vector<const Finding *> withCode(const std::vector<Finding> &fs, const char *code)
{
    std::vector<const Finding *> out;
    for (const Finding &f : fs)
        if (f.code == code)
            out.push_back(&f);
    return out;
}

} // namespace

class TestLinkRates : public QObject
{
    Q_OBJECT
private slots:
    void rates_data()
    {
        QTest::addColumn<double>("gbps");
        QTest::addColumn<int>("lanes");
        QTest::addColumn<QString>("tech");
        QTest::addColumn<bool>("overPort");
        QTest::addColumn<bool>("overTech");
        QTest::newRow("at the port and lane rate") << 200.0 << 1 << "ib-hdr" << false << false;
        QTest::newRow("slower") << 100.0 << 2 << "ib-hdr" << false << false;
        QTest::newRow("issue: 800 x 4 on HDR") << 800.0 << 4 << "ib-hdr" << true << true;
        QTest::newRow("NDR lane on an HDR port") << 400.0 << 1 << "ib-ndr" << true << false;
        QTest::newRow("rounding") << 200.0000001 << 1 << "ib-hdr" << false << false;
    }

    void rates()
    {
        QFETCH(double, gbps);
        QFETCH(int, lanes);
        QFETCH(QString, tech);
        QFETCH(bool, overPort);
        QFETCH(bool, overTech);
        HdrLink h;
        h.edit().rate = gbps * 1e9 / 8;
        h.edit().lanes = lanes;
        h.edit().tech = tech.toStdString();
        const std::vector<Finding> fs = validateDesign(h.d);
        const auto port = withCode(fs, findings::kRateOverPort);
        const auto techs = withCode(fs, findings::kRateOverTechnology);
        QCOMPARE(port.size(), std::size_t(overPort ? 1 : 0));
        QCOMPARE(techs.size(), std::size_t(overTech ? 1 : 0));
        if (overPort) {
            const Finding &f = *port.front();
            QCOMPARE(f.severity, Severity::Error);
            QCOMPARE(f.links, std::vector<LinkId> {h.link});
            QCOMPARE(f.nodes, std::vector<NodeId> {h.leaf});
            QVERIFY2(f.message.find("leaf0") != std::string::npos, f.message.c_str());
            QVERIFY2(f.message.find("200 Gb/s") != std::string::npos, f.message.c_str());
            if (lanes == 4)
                QVERIFY2(f.message.find("3200 Gb/s") != std::string::npos, f.message.c_str());
        }
    }

    void generatedFabricsHaveNone()
    {
        for (const auto &p : {test::dgxH100(32, 2), test::dgxH100(64, 3)}) {
            const Design d = test::generate(p);
            QVERIFY(checkLinkRates(d).empty());
        }
    }

    void cappedPerCode()
    {
        HdrLink h;
        h.edit().rate = 400e9 / 8;
        for (std::size_t i = 0; i < kMaxFindingsPerCode + 5; ++i) {
            Link l = *h.d.link(h.link);
            l.id = LinkId();
            h.d.addLink(l);
        }
        const std::vector<Finding> fs = checkLinkRates(h.d);
        QCOMPARE(withCode(fs, findings::kRateOverPort).size(), kMaxFindingsPerCode);
        QCOMPARE(withCode(fs, findings::kTooMany).size(), std::size_t(2)); // port and tech
    }
};

QTEST_APPLESS_MAIN(TestLinkRates)
#include "tst_linkrates.moc"
