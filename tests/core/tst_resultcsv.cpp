// Tests of the result CSV (io/resultcsv.h): parsed back, every number equals the SimResult's.
#include "io/csv.h"
#include "io/resultcsv.h"
#include "sim/simulator.h"
#include "sweepdesigns.h"

#include <QtTest>

using namespace weft;

namespace {

double num(const std::string &s)
{
    return std::stod(s);
}

} // namespace

class TestResultCsv : public QObject
{
    Q_OBJECT
private slots:
    void csvFieldsAndParser()
    {
        QCOMPARE(csvField("plain"), std::string("plain"));
        QCOMPARE(csvField("a,\"b\""), std::string("\"a,\"\"b\"\"\""));
        const auto rows = parseCsv("x,\"a,\"\"b\"\"\"\n1,\"two\nlines\"\n");
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0][1], std::string("a,\"b\""));
        QCOMPARE(rows[1][1], std::string("two\nlines"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseCsv("\"open"));
        QCOMPARE(num(csvNumber(0.1 + 0.2)), 0.1 + 0.2);
    }

    void csvEqualsTheResult()
    {
        const Design d = test::sweepDesign(2, 8);
        const SimResult r = simulate(d);
        QVERIFY(r.ok);

        const auto summary = parseCsv(resultSummaryCsv(r));
        QCOMPARE(summary.size(), std::size_t(2));
        QCOMPARE(summary[0].size(), summary[1].size());
        auto col = [&](const char *name) {
            for (std::size_t i = 0; i < summary[0].size(); ++i)
                if (summary[0][i] == name)
                    return summary[1][i];
            qFatal("no column %s", name);
            return std::string();
        };
        QCOMPARE(col("ok"), std::string("true"));
        QCOMPARE(num(col("step_time_s")), r.stepTime);
        QCOMPARE(num(col("tokens_per_s")), r.tokensPerSecond);
        QCOMPARE(num(col("mfu")), r.mfu);
        QCOMPARE(num(col("hfu")), r.hfu);
        QCOMPARE(num(col("compute_s")), r.breakdown.compute);
        QCOMPARE(num(col("tp_exposed_s")), r.breakdown.tpExposed);
        QCOMPARE(num(col("bubble_s")), r.breakdown.bubble);
        QCOMPARE(num(col("dp_exposed_s")), r.breakdown.dpExposed);
        QCOMPARE(num(col("optimizer_s")), r.breakdown.optimizer);
        QCOMPARE(num(col("peak_bytes_per_gpu")), r.peakMemoryPerGpu);
        QCOMPARE(num(col("capacity_bytes_per_gpu")), r.memoryCapacityPerGpu);
        QCOMPARE(col("fits"), std::string(r.memoryFits ? "true" : "false"));
        QCOMPARE(num(col("warnings")), double(r.warnings.size()));

        const auto links = parseCsv(resultLinksCsv(r, d));
        std::size_t directions = 0;
        for (const LinkResult &l : r.links)
            for (const LinkDirResult &x : l.dir)
                directions += x.bytes > 0 ? 1 : 0;
        QVERIFY(directions > 0);
        QCOMPARE(links.size(), directions + 1);
        std::size_t row = 1;
        for (const LinkResult &l : r.links)
            for (int dir = 0; dir < 2; ++dir) {
                const LinkDirResult &x = l.dir[dir];
                if (x.bytes <= 0)
                    continue;
                const auto &f = links[row++];
                QCOMPARE(num(f[0]), double(l.id.value));
                QCOMPARE(num(f[1]), double((dir == 0 ? l.from : l.to).value));
                QCOMPARE(f[3], d.node(dir == 0 ? l.from : l.to)->name);
                QCOMPARE(f[5], l.tier);
                QCOMPARE(f[6], std::string(dir == 0 ? "forward" : "reverse"));
                QCOMPARE(num(f[7]), l.capacity);
                QCOMPARE(num(f[8]), x.bytes);
                QCOMPARE(num(f[9]), x.busyTime);
                QCOMPARE(num(f[10]), x.avgUtilization);
                QCOMPARE(num(f[11]), x.peakUtilization);
            }
    }
};

QTEST_GUILESS_MAIN(TestResultCsv)
#include "tst_resultcsv.moc"
