// Tests of validateDesign(): each finding code on a minimal design that has exactly that
// problem, the clean case, capping, and a 150k-node design.
#include "model/validate.h"
#include "modelbuilders.h"

#include <QtTest>
#include <algorithm>
#include <functional>

using namespace weft;
using namespace weft::test;

namespace {

// Two accelerators on one switch of radix 4, all specs known: a valid design.
Design smallDesign()
{
    Design d;
    d.hardware.accelerators["gpu"] = acceleratorSpec("gpu");
    d.hardware.switches["sw4"] = switchSpec("sw4", 4);
    d.hardware.linkTechs["t"] = linkTechSpec("t", 50e9);
    const GroupId g = d.addGroup(group("dom"));
    for (int i = 0; i < 2; ++i)
        d.addNode(accel("gpu" + std::to_string(i), "gpu", g));
    d.addNode(switchNode("leaf", "sw4", g));
    for (std::uint32_t i = 0; i < 2; ++i)
        d.addLink(link(NodeId(i), NodeId(2), "t", 50e9));
    return d;
}

QStringList codes(const std::vector<Finding> &fs)
{
    QStringList out;
    for (const Finding &f : fs)
        out << QString::fromStdString(f.code);
    return out;
}

const Finding *findCode(const std::vector<Finding> &fs, const char *code)
{
    auto it
        = std::find_if(fs.begin(), fs.end(), [code](const Finding &f) { return f.code == code; });
    return it == fs.end() ? nullptr : &*it;
}

using Mutation = std::function<void(Design &)>;

} // namespace

Q_DECLARE_METATYPE(Mutation)

class TestValidate : public QObject
{
    Q_OBJECT
private slots:
    void cleanDesignHasNoFindings()
    {
        const auto fs = validateDesign(smallDesign());
        QVERIFY2(fs.empty(), qPrintable(codes(fs).join(u',')));
    }

    void findsProblem_data()
    {
        QTest::addColumn<Mutation>("mutate");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("port budget")
            << Mutation([](Design &d) { d.addLink(link(NodeId(0), NodeId(2), "t", 50e9, 3)); })
            << "port-budget" << true << "uses 5 ports but its model sw4 has 4 (1 over)";
        QTest::newRow("dangling") << Mutation(
            [](Design &d) { d.addLink(link(NodeId(0), NodeId(99), "t", 1e9)); })
                                  << "dangling-link" << true << "node #99, which does not exist";
        QTest::newRow("self link")
            << Mutation([](Design &d) { d.addLink(link(NodeId(0), NodeId(0), "t", 1e9)); })
            << "self-link" << true << "accelerator \"gpu0\" (#0) to itself";
        QTest::newRow("zero rate")
            << Mutation([](Design &d) { d.link(LinkId(0))->rate = 0; }) << "bad-rate" << true
            << "link #0 (gpu0 - leaf) has lane rate 0 Gb/s";
        QTest::newRow("negative rate")
            << Mutation([](Design &d) { d.link(LinkId(1))->rate = -1e9; }) << "bad-rate" << true
            << "lane rate -8 Gb/s";
        QTest::newRow("NaN rate") << Mutation([](Design &d) {
            d.link(LinkId(1))->rate = std::nan("");
        }) << "bad-rate" << true << "must be a positive number";
        QTest::newRow("zero lanes") << Mutation([](Design &d) { d.link(LinkId(0))->lanes = 0; })
                                    << "bad-lanes" << true << "has 0 lanes";
        QTest::newRow("negative latency")
            << Mutation([](Design &d) { d.link(LinkId(0))->latency = -1e-6; }) << "bad-latency"
            << true << "latency -1000 ns";
        QTest::newRow("unknown tech")
            << Mutation([](Design &d) { d.link(LinkId(0))->tech = "warp"; }) << "unknown-link-tech"
            << true << "\"warp\"";
        QTest::newRow("unknown accelerator model")
            << Mutation([](Design &d) { d.node(NodeId(1))->spec = "sw4"; }) << "unknown-node-spec"
            << true << "accelerator model \"sw4\"";
        QTest::newRow("unknown switch model")
            << Mutation([](Design &d) { d.node(NodeId(2))->spec = "gpu"; }) << "unknown-node-spec"
            << true << "switch model \"gpu\"";
        QTest::newRow("isolated accelerator")
            << Mutation([](Design &d) { d.addNode(accel("lonely", "gpu")); })
            << "isolated-accelerators" << true << "\"lonely\" (#3) has no path";
        QTest::newRow("unconnected switch")
            << Mutation([](Design &d) { d.addNode(switchNode("spare", "sw4")); })
            << "unconnected-switch" << false << "\"spare\" (#3) has no links";
        QTest::newRow("group member missing")
            << Mutation([](Design &d) { d.group(GroupId(0))->members.push_back(NodeId(42)); })
            << "group-member-missing" << true << "member node #42";
        QTest::newRow("member of two groups") << Mutation([](Design &d) {
            d.addGroup([] {
                Group g = group("other");
                g.members = {NodeId(1)};
                return g;
            }());
        }) << "group-member-duplicate" << true << "\"gpu1\" (#1) is a member of";
        QTest::newRow("parent missing")
            << Mutation([](Design &d) { d.group(GroupId(0))->parent = GroupId(9); })
            << "group-parent-missing" << true << "parent group #9";
        QTest::newRow("parent cycle") << Mutation([](Design &d) {
            const GroupId a = d.addGroup(group("a", GroupKind::Rack));
            const GroupId b = d.addGroup(group("b", GroupKind::Pod, a));
            d.group(a)->parent = b;
        }) << "group-cycle" << true << "rack group \"a\" (#1) -> pod group \"b\" (#2) -> rack";
        QTest::newRow("self parent")
            << Mutation([](Design &d) { d.group(GroupId(0))->parent = GroupId(0); })
            << "group-cycle" << true << "cycle";
        QTest::newRow("node group missing")
            << Mutation([](Design &d) { d.node(NodeId(0))->group = GroupId(7); })
            << "node-group-missing" << true << "group #7";
        QTest::newRow("membership mismatch")
            << Mutation([](Design &d) { d.node(NodeId(0))->group = GroupId(); })
            << "group-membership-mismatch" << false << "names no group but is listed in group #0";
    }

    void findsProblem()
    {
        QFETCH(Mutation, mutate);
        QFETCH(QString, code);
        QFETCH(bool, isError);
        QFETCH(QString, fragment);
        Design d = smallDesign();
        mutate(d);
        const auto fs = validateDesign(d);
        const Finding *f = findCode(fs, code.toStdString().c_str());
        QVERIFY2(f, qPrintable(QStringLiteral("got: ") + codes(fs).join(u',')));
        QCOMPARE(f->severity == Severity::Error, isError);
        QVERIFY2(QString::fromStdString(f->message).contains(fragment), f->message.c_str());
        QVERIFY(!f->nodes.empty() || !f->links.empty() || !f->groups.empty());
        QCOMPARE(hasError(fs), isError);
    }

    void subjectsNameTheObjects()
    {
        Design d = smallDesign();
        d.addLink(link(NodeId(0), NodeId(2), "t", 50e9, 3));
        // Keep the findings alive while `f` points into them.
        const std::vector<Finding> budget = validateDesign(d);
        const Finding *f = findCode(budget, findings::kPortBudget);
        QVERIFY(f);
        QCOMPARE(f->nodes, std::vector<NodeId> {NodeId(2)});
        d = smallDesign();
        d.link(LinkId(1))->rate = 0;
        const std::vector<Finding> rate = validateDesign(d);
        f = findCode(rate, findings::kBadRate);
        QVERIFY(f);
        QCOMPARE(f->links, std::vector<LinkId> {LinkId(1)});
    }

    void isolatedPartsListEveryAcceleratorOfThePart()
    {
        Design d = smallDesign();
        const NodeId x = d.addNode(accel("x", "gpu"));
        const NodeId y = d.addNode(accel("y", "gpu"));
        d.addLink(link(x, y, "t", 1e9));
        const auto fs = validateDesign(d);
        QCOMPARE(fs.size(), std::size_t(1));
        QCOMPARE(fs[0].nodes, (std::vector<NodeId> {x, y}));
        QVERIFY(fs[0].message.find("2 accelerators") != std::string::npos);
        QVERIFY(fs[0].message.find("the largest connected part has 2") != std::string::npos);
    }

    void singleAcceleratorIsNotIsolated()
    {
        Design d;
        d.hardware.accelerators["gpu"] = acceleratorSpec("gpu");
        d.addNode(accel("", "gpu"));
        QVERIFY(validateDesign(d).empty());
    }

    void errorsComeBeforeWarnings()
    {
        Design d = smallDesign();
        d.addNode(switchNode("spare", "sw4")); // warning
        d.link(LinkId(0))->lanes = 0; // error
        const auto fs = validateDesign(d);
        QCOMPARE(codes(fs),
                 (QStringList {QStringLiteral("bad-lanes"), QStringLiteral("unconnected-switch")}));
    }

    void manyFindingsAreCapped()
    {
        Design d = smallDesign();
        for (int i = 0; i < 250; ++i)
            d.addLink(link(NodeId(0), NodeId(1), "nope", 1e9));
        const auto fs = validateDesign(d);
        QCOMPARE(
            std::count_if(fs.begin(), fs.end(),
                          [](const Finding &f) { return f.code == findings::kUnknownLinkTech; }),
            qsizetype(kMaxFindingsPerCode));
        const Finding *more = findCode(fs, findings::kTooMany);
        QVERIFY(more);
        QVERIFY2(more->message.find("150 more \"unknown-link-tech\"") != std::string::npos,
                 more->message.c_str());
    }

    // 150k nodes / 300k links: every accelerator on two leaves; one leaf overloaded, one
    // accelerator cut off. Exactly those two findings (plus nothing spurious).
    void largeDesign()
    {
        Design d;
        d.hardware.accelerators["gpu"] = acceleratorSpec("gpu");
        d.hardware.switches["big"] = switchSpec("big", 64);
        d.hardware.linkTechs["t"] = linkTechSpec("t", 1e9);
        // Accelerators in blocks of 32; block j links each accelerator to leaves 2j and 2j+1.
        const int accels = 147'008, leaves = accels / 32 * 2;
        d.reserve(accels + leaves, 2 * accels + leaves, 0);
        for (int i = 0; i < accels; ++i)
            d.addNode(accel("", "gpu"));
        for (int i = 0; i < leaves; ++i)
            d.addNode(switchNode("", "big"));
        const auto leaf = [&](int i) { return NodeId(static_cast<std::uint32_t>(accels + i)); };
        for (int i = 0; i < accels - 1; ++i) // the last accelerator stays unlinked
            for (int k = 0; k < 2; ++k)
                d.addLink(link(NodeId(i), leaf(i / 32 * 2 + k), "t", 1e9));
        for (int i = 0; i + 1 < leaves; ++i) // chain the leaves: at most 32 + 2 ports each
            d.addLink(link(leaf(i), leaf(i + 1), "t", 1e9));
        d.addLink(link(NodeId(0), leaf(0), "t", 1e9, 40)); // leaf 0: 32 + 1 + 40 = 73 > 64
        QVERIFY(d.nodes().size() >= 150'000 && d.links().size() >= 290'000);
        QElapsedTimer t;
        t.start();
        const auto fs = validateDesign(d);
        qInfo("validateDesign on %zu nodes / %zu links: %lld ms", d.nodes().size(),
              d.links().size(), static_cast<long long>(t.elapsed()));
        QCOMPARE(
            codes(fs),
            (QStringList {QStringLiteral("port-budget"), QStringLiteral("isolated-accelerators")}));
        QCOMPARE(fs[0].nodes, std::vector<NodeId> {leaf(0)});
        QVERIFY2(fs[0].message.find("uses 73 ports") != std::string::npos, fs[0].message.c_str());
        QCOMPARE(fs[1].nodes, std::vector<NodeId> {NodeId(accels - 1)});
    }
};

QTEST_GUILESS_MAIN(TestValidate)
#include "tst_validate.moc"
