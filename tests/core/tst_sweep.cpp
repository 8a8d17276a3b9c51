// Tests of parameter sweeps (issue 6): variant building, the monotone domain-size sweep, shards
// merged back equal to the whole sweep, failures as rows, the JSON/CSV files.
#include "io/csv.h"
#include "io/sweepjson.h"
#include "sweep/sweep.h"
#include "sweepdesigns.h"

#include <QtTest>
#include <algorithm>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

SweepRunOptions opts(int jobs, int shard = 0, int shards = 1)
{
    SweepRunOptions o;
    o.jobs = jobs;
    o.shard = shard;
    o.shards = shards;
    return o;
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT
private slots:
    void parsesNamesAndValues()
    {
        for (SweepParam p : allSweepParams()) {
            SweepParam back = SweepParam::Tp;
            QVERIFY(fromString(toString(p), back));
            QCOMPARE(back, p);
        }
        QCOMPARE(parseSweepValues(SweepParam::NicRate, "200,400,800"),
                 (std::vector<double> {200, 400, 800}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSweepValues(SweepParam::Tp, "2,x"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSweepValues(SweepParam::Tp, "1.5"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSweepValues(SweepParam::Tp, "0"));
        QCOMPARE(parseSweepValues(SweepParam::Oversubscription, "1,1.5"),
                 (std::vector<double> {1, 1.5}));
    }

    void domainVariantKeepsAcceleratorsAndAccelerator()
    {
        const Design base = test::sweepDesign(4);
        for (int size : {8, 16, 32}) {
            const SweepVariant v
                = buildSweepVariant(base, builtinCatalog(), SweepParam::ScaleUpDomain, size);
            QVERIFY2(v.design, v.error.c_str());
            QCOMPARE(v.design->acceleratorCount(), std::size_t(32));
            QCOMPARE(v.design->generator->domains, 32 / size);
            for (const Node &n : v.design->nodes())
                if (n.kind == NodeKind::Accelerator)
                    QCOMPARE(n.spec, std::string("h100-sxm"));
            QVERIFY(v.design->workload);
        }
        // 72 H100s with 18 NVLink4 lanes each do not fit one level of 64-port NVSwitch chips.
        const SweepVariant tooBig
            = buildSweepVariant(base, builtinCatalog(), SweepParam::ScaleUpDomain, 72);
        QVERIFY(!tooBig.design);
        QVERIFY2(tooBig.error.find("radix 64") != std::string::npos, tooBig.error.c_str());
    }

    void tpSweepKeepsWorldSize()
    {
        const Design base = test::sweepDesign(4, 8);
        const SweepVariant v = buildSweepVariant(base, builtinCatalog(), SweepParam::Tp, 4);
        QVERIFY(v.design);
        QCOMPARE(v.design->workload->config.dp, 8);
        QCOMPARE(v.design->workload->config.worldSize(), 32LL);
        const SweepVariant bad = buildSweepVariant(base, builtinCatalog(), SweepParam::Tp, 3);
        QVERIFY(!bad.design);
        QVERIFY(bad.error.find("not divisible") != std::string::npos);
    }

    // A TP-heavy workload (TP 16 over 32 H100s) gets no slower as the scale-up domain grows:
    // the TP group leaves InfiniBand for NVLink at 16.
    void domainSweepIsMonotoneForTpHeavyWork()
    {
        const SweepTable t = runSweep(test::sweepDesign(4), builtinCatalog(),
                                      SweepParam::ScaleUpDomain, {8, 16, 32}, opts(2));
        QCOMPARE(t.rows.size(), std::size_t(3));
        for (const SweepRow &r : t.rows)
            QVERIFY2(r.ok, r.reason.c_str());
        for (std::size_t i = 0; i < t.rows.size(); ++i)
            qInfo("domain %g: step %.3f ms, MFU %.1f%% (%s)", t.rows[i].value,
                  t.rows[i].stepTime * 1e3, t.rows[i].mfu * 100, t.rows[i].note.c_str());
        // TP 16's all-reduces are 32 MiB. Across two DGX H100 NCCL runs NVLS-Tree there: 235
        // GB/s busbw measured on two HGX H100 with 8 x 400G (nccl-tests issue 309, NCCL 2.26),
        // about 270 us, close to one NVSwitch domain's NVLS. With NCCL's NVLS-Tree chunks (64
        // KiB at 32 MiB: 8 MiB loops) the two-server pipeline fills in less than the one-domain
        // NVLS's fixed 16 x 16 x 128 KiB loop, and the two come out within 0.1% (35.70 vs 35.73
        // ms; the two-server figure is ~10% faster than measured at 32 MiB, validation
        // twoNodeCurve): the domain is no slower within 0.5%, and the whole-GPU domain wins.
        QVERIFY(t.rows[1].stepTime <= t.rows[0].stepTime * 1.005);
        QVERIFY(t.rows[2].stepTime <= t.rows[1].stepTime * (1 + 1e-9));
    }

    void failingVariantsAreRows()
    {
        // TP 3 does not divide the world, micro-batch 64 does not divide the global batch.
        const SweepTable t
            = runSweep(test::sweepDesign(2, 8), builtinCatalog(), SweepParam::Tp, {3, 8});
        QCOMPARE(t.rows.size(), std::size_t(2));
        QVERIFY(!t.rows[0].ok);
        QVERIFY(!t.rows[0].reason.empty());
        QVERIFY2(t.rows[1].ok, t.rows[1].reason.c_str());
        const SweepTable mb
            = runSweep(test::sweepDesign(2, 8), builtinCatalog(), SweepParam::MicroBatch, {3});
        QVERIFY(!mb.rows[0].ok);
        QVERIFY2(!mb.rows[0].reason.empty(), "a failed variant names its reason");
        // Not generated: fabric parameters cannot be swept, and say why.
        Design handMade = test::sweepDesign(2, 8);
        handMade.generator.reset();
        const SweepTable nic = runSweep(handMade, builtinCatalog(), SweepParam::NicRate, {400});
        QVERIFY(!nic.rows[0].ok);
        QVERIFY(nic.rows[0].reason.find("not generated") != std::string::npos);
    }

    void cancelStopsTheSweepAndMarksTheRest()
    {
        // Cancel from the progress callback after the first variant: the others never run.
        std::atomic<bool> cancel {false};
        SweepRunOptions o = opts(1);
        o.cancel = &cancel;
        int calls = 0;
        o.progress = [&](int, int) {
            ++calls;
            cancel = true;
        };
        const SweepTable t
            = runSweep(test::sweepDesign(2, 8), builtinCatalog(), SweepParam::Tp, {8, 4, 2}, o);
        QCOMPARE(calls, 1);
        QCOMPARE(t.rows.size(), std::size_t(3));
        QVERIFY2(t.rows[0].ok, t.rows[0].reason.c_str());
        for (std::size_t i = 1; i < 3; ++i) {
            QVERIFY(!t.rows[i].ok);
            QCOMPARE(t.rows[i].reason, std::string("cancelled"));
            QCOMPARE(t.rows[i].index, int(i));
            QCOMPARE(t.rows[i].value, t.values[i]);
        }
        // Cancelled before it starts: nothing runs, every row says so.
        const SweepTable none
            = runSweep(test::sweepDesign(2, 8), builtinCatalog(), SweepParam::Tp, {8, 4}, o);
        QCOMPARE(none.rows.size(), std::size_t(2));
        QVERIFY(!none.rows[0].ok && !none.rows[1].ok);
    }

    void shardsMergeToTheWholeSweep()
    {
        const Design base = test::sweepDesign(2, 8);
        const std::vector<double> values {1, 2, 4};
        const SweepTable whole
            = runSweep(base, builtinCatalog(), SweepParam::Oversubscription, values, opts(2));
        const SweepTable s0
            = runSweep(base, builtinCatalog(), SweepParam::Oversubscription, values, opts(1, 0, 2));
        const SweepTable s1
            = runSweep(base, builtinCatalog(), SweepParam::Oversubscription, values, opts(1, 1, 2));
        QCOMPARE(s0.rows.size(), std::size_t(2)); // indices 0 and 2
        QCOMPARE(s1.rows.size(), std::size_t(1));
        QVERIFY(mergeSweepTables({s1, s0}) == whole);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mergeSweepTables({s0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mergeSweepTables({s0, s0, s1}));
    }

    // A variant over HBM was simulated, but its step would not run: no figures in the row.
    void overHbmVariantHasNoStepTime()
    {
        // Global batch 64 x DP: micro-batch 64 divides it and overflows HBM with a 64k sequence.
        Design d = test::sweepDesign(2, 8);
        d.workload->model.seq = 65536;
        d.workload->config.globalBatch = 64 * d.workload->config.dp;
        const SweepTable t
            = runSweep(d, builtinCatalog(), SweepParam::MicroBatch, {1, 64}, opts(2, 0, 1));
        QVERIFY(t.rows[0].ok);
        QVERIFY(!t.rows[1].ok);
        QVERIFY2(t.rows[1].reason.find("HBM") != std::string::npos, t.rows[1].reason.c_str());
        QCOMPARE(t.rows[1].stepTime, 0.0);
        QCOMPARE(t.rows[1].mfu, 0.0);
        QVERIFY(t.rows[1].peakMemoryPerGpu > t.rows[1].memoryCapacityPerGpu);
    }

    void jsonRoundTripsAndCsvHasEveryRow()
    {
        const SweepTable t = runSweep(test::sweepDesign(2, 8), builtinCatalog(), SweepParam::Tp,
                                      {3, 4, 8}, opts(2, 0, 1));
        const auto parsed = parseSweepJson(sweepToJson(t), "t.json");
        QVERIFY(std::holds_alternative<SweepTable>(parsed));
        QVERIFY(std::get<SweepTable>(parsed) == t);
        const auto rows = parseCsv(sweepToCsv(t));
        QCOMPARE(rows.size(), t.rows.size() + 1);
        QCOMPARE(rows[0][1], std::string("tp"));
        QCOMPARE(std::count(rows[0].begin(), rows[0].end(), std::string("tp")),
                 std::ptrdiff_t(1)); // no twin
        const auto stepTime = std::find(rows[0].begin(), rows[0].end(), "step_time_s");
        QVERIFY(stepTime != rows[0].end());
        QCOMPARE(std::stod(rows[3][std::size_t(stepTime - rows[0].begin())]),
                 t.rows[2].stepTime); // exact
        // A variant that cannot run (TP 3 does not divide the heads) leaves step time, tokens/s
        // and MFU empty in the CSV and out of the JSON.
        QVERIFY(!t.rows[0].ok);
        for (const char *column : {"step_time_s", "tokens_per_s", "mfu"}) {
            const auto c = std::find(rows[0].begin(), rows[0].end(), column);
            QVERIFY(c != rows[0].end());
            QCOMPARE(rows[1][std::size_t(c - rows[0].begin())], std::string());
        }
        const auto json = nlohmann::json::parse(sweepToJson(t));
        QVERIFY(!json["rows"][0].contains("step_time_s") && !json["rows"][0].contains("mfu"));
        QVERIFY(json["rows"][2].contains("step_time_s"));
        const auto broken = parseSweepJson(R"({"format":"weft.sweep","version":1})", "b.json");
        QVERIFY(std::holds_alternative<FileError>(broken));
        QCOMPARE(std::get<FileError>(broken).jsonPath, std::string("/design"));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
