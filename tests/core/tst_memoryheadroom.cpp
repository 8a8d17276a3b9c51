// Memory headroom (sim/memoryheadroom.h): a stage above 90% of HBM in the estimate gets a
// warning naming the stage, the figures and the stated headroom; the 16k example's 79.2 of
// 80 GB used to raise nothing.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "sim/memoryheadroom.h"

using namespace weft;

namespace {

SimResult withMemory(double peakGb, double capacityGb)
{
    SimResult r;
    r.ok = true;
    r.peakMemoryPerGpu = peakGb * 1e9;
    r.memoryCapacityPerGpu = capacityGb * 1e9;
    r.memoryFits = peakGb <= capacityGb;
    for (int stage = 0; stage < 2; ++stage) {
        AcceleratorResult a;
        a.node = NodeId(std::uint32_t(stage));
        a.stage = stage;
        a.memory.weights = (stage == 1 ? peakGb : peakGb / 2) * 1e9;
        a.memory.capacity = capacityGb * 1e9;
        r.accelerators.push_back(a);
    }
    return r;
}

} // namespace

class TestMemoryHeadroom : public QObject
{
    Q_OBJECT
private slots:
    void headroom_data()
    {
        QTest::addColumn<double>("peak");
        QTest::addColumn<bool>("warned");
        QTest::newRow("16k example, 99%") << 79.2 << true;
        QTest::newRow("just above 90%") << 72.1 << true;
        QTest::newRow("at 90%") << 72.0 << false;
        QTest::newRow("half") << 40.0 << false;
        QTest::newRow("over capacity: the simulator's error") << 90.0 << false;
    }

    void headroom()
    {
        QFETCH(double, peak);
        QFETCH(bool, warned);
        const std::vector<Finding> fs = memoryHeadroomFindings(withMemory(peak, 80));
        QCOMPARE(fs.size(), std::size_t(warned ? 1 : 0));
        if (!warned)
            return;
        const Finding &f = fs.front();
        QCOMPARE(f.severity, Severity::Warning);
        QCOMPARE(f.code, std::string(kMemoryHeadroomCode));
        QVERIFY2(f.message.find("pipeline stage 1") != std::string::npos, f.message.c_str());
        QVERIFY2(f.message.find("of 80.0 GB") != std::string::npos, f.message.c_str());
        QVERIFY2(f.message.find("10% headroom") != std::string::npos, f.message.c_str());
        QCOMPARE(f.subjects.front(), std::string("stage:1"));
    }

    void noFiguresNoWarning() { QVERIFY(memoryHeadroomFindings(SimResult {}).empty()); }
};

QTEST_APPLESS_MAIN(TestMemoryHeadroom)
#include "tst_memoryheadroom.moc"
