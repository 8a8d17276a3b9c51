// The what-if faults a design carries (Design::scenario) in the design file: they round-trip
// exactly, a file without them (every file before what-if) loads healthy and is written as it
// was, and a fault naming a link or node the design does not have, a node of the wrong kind, a
// bad factor or an unknown kind is refused with the file's name and the fault's JSON location.
#include "io/designfile.h"
#include "sampledesigns.h"

#include <QFile>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

NodeId firstNode(const Design &d, bool wantSwitch)
{
    for (const Node &n : d.nodes())
        if (n.isSwitch() == wantSwitch)
            return n.id;
    return {};
}

// fullDesign() with one fault of each kind.
Design faultedDesign()
{
    Design d = test::fullDesign();
    const auto &links = d.links();
    d.scenario.faults = {
        {Fault::Kind::LinkDown, faultTarget(links.at(0).id), 1},
        {Fault::Kind::CableDown, faultTarget(links.at(1).id), 1},
        {Fault::Kind::SwitchDown, faultTarget(firstNode(d, true)), 1},
        {Fault::Kind::LinkRate, faultTarget(links.at(2).id), 0.5},
        {Fault::Kind::AcceleratorClock, faultTarget(firstNode(d, false)), 0.8},
    };
    return d;
}

ParseResult parseEdited(const std::function<void(nlohmann::json &)> &edit)
{
    nlohmann::json j = nlohmann::json::parse(serializeDesign(faultedDesign()));
    edit(j);
    return parseDesign(j.dump(2), "edited.weft");
}

} // namespace

class TestFaultFile : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip()
    {
        const Design d = faultedDesign();
        const std::string text = serializeDesign(d);
        QVERIFY(text.find("\"faults\"") != std::string::npos);
        QVERIFY(text.find("\"kind\": \"accelerator-clock\"") != std::string::npos);
        const ParseResult r = parseDesign(text, "faults.weft");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.design->scenario.label(), d.scenario.label());
        QVERIFY(r.design->scenario == d.scenario);
        QCOMPARE(serializeDesign(*r.design), text); // byte-identical when written again
        QVERIFY(!r.migrated()); // no format version change
    }

    // A node fault given by name (the --fail syntax) is written by id and read back as "#id".
    void nodeByNameWrittenById()
    {
        Design d = test::fullDesign();
        const Node *sw = d.node(firstNode(d, true));
        d.scenario.faults = {{Fault::Kind::SwitchDown, sw->name, 1}};
        const ParseResult r = parseDesign(serializeDesign(d), "byname.weft");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QCOMPARE(r.design->scenario.faults.at(0).target, faultTarget(sw->id));
    }

    void oldFileWithoutFaultsLoads()
    {
        QFile f(QStringLiteral(WEFT_TEST_DATA_DIR "/io/v1/four-gpu-node.weft"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        QVERIFY(text.find("\"faults\"") == std::string::npos);
        const ParseResult r = parseDesign(text, "four-gpu-node.weft");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(r.design->scenario.empty());
        // Healthy designs are written without the member, as before what-if.
        QVERIFY(serializeDesign(*r.design).find("\"faults\"") == std::string::npos);
    }

    void badFaultsRefusedWithLocation_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("member");
        QTest::addColumn<QString>("value"); // JSON
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("says");
        QTest::newRow("dangling link") << 1 << "link"
                                       << "99999"
                                       << "/faults/1/link"
                                       << "link 99999, which does not exist";
        QTest::newRow("dangling node") << 4 << "node"
                                       << "77777"
                                       << "/faults/4/node"
                                       << "node 77777, which does not exist";
        QTest::newRow("switch-down on an accelerator") << 2 << "node"
                                                       << "ACC"
                                                       << "/faults/2/node"
                                                       << "needs a switch";
        QTest::newRow("factor above 1") << 3 << "factor"
                                        << "1.5"
                                        << "/faults/3/factor"
                                        << "must be in (0, 1]";
        // The value as written ("-100"), not std::to_string's "-100.000000".
        QTest::newRow("factor -100") << 3 << "factor"
                                     << "-100"
                                     << "/faults/3/factor"
                                     << "must be in (0, 1], found -100";
        QTest::newRow("factor 0") << 4 << "factor"
                                  << "0"
                                  << "/faults/4/factor"
                                  << "must be in (0, 1]";
        QTest::newRow("unknown kind") << 0 << "kind"
                                      << "\"link-melted\""
                                      << "/faults/0/kind"
                                      << "unknown fault kind \"link-melted\"";
        QTest::newRow("link id not a number") << 0 << "link"
                                              << "\"twelve\""
                                              << "/faults/0/link"
                                              << "";
    }

    void badFaultsRefusedWithLocation()
    {
        QFETCH(int, index);
        QFETCH(QString, member);
        QFETCH(QString, value);
        QFETCH(QString, path);
        QFETCH(QString, says);
        const ParseResult r = parseEdited([&](nlohmann::json &j) {
            const std::string v = value == QLatin1String("ACC")
                ? std::to_string(firstNode(faultedDesign(), false).value)
                : value.toStdString();
            j["faults"][std::size_t(index)][member.toStdString()] = nlohmann::json::parse(v);
        });
        QVERIFY(!r.ok());
        QCOMPARE(r.error.file, std::string("edited.weft"));
        QCOMPARE(QString::fromStdString(r.error.jsonPath), path);
        QVERIFY2(QString::fromStdString(r.error.message).contains(says),
                 r.error.toString().c_str());
        QVERIFY(QString::fromStdString(r.error.toString()).contains(path));
        QVERIFY2(!QString::fromStdString(r.error.message).contains(QLatin1String(".000000")),
                 r.error.message.c_str());
    }

    void faultsNotAnArray()
    {
        const ParseResult r = parseEdited([](nlohmann::json &j) { j["faults"] = 3; });
        QVERIFY(!r.ok());
        QCOMPARE(r.error.jsonPath, std::string("/faults"));
    }
};

QTEST_GUILESS_MAIN(TestFaultFile)
#include "tst_faultfile.moc"
