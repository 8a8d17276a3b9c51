// Tests of `weft-cli plan` and `weft-cli plan-merge` (issue 16): the table, counts and losing
// layouts; --json keys; --fix and the workload flags pin knobs; shards merged give a plan.csv
// byte-identical to the unsharded one, with the charts; infeasible spaces say why; usage errors.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "clirunner.h"
#include "plandesigns.h"

#include <QDir>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestPlanCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_design;

    QStringList plan(QStringList more) const
    {
        // A small space: CP 1, ZeRO 1, no recomputation choice.
        return QStringList {
                   QStringLiteral("plan"),   m_design,
                   QStringLiteral("--fix"),  QStringLiteral("cp=1,zero_stage=1,recompute=none"),
                   QStringLiteral("--jobs"), QStringLiteral("2")}
        + more;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        Design d = test::withModel(test::planFabric("dgx-h100", 2), test::smallDense(), 16);
        m_design = test::writeDesignFile(d, m_tmp.filePath(QStringLiteral("plan.weft")));
    }

    void printsTableCountsAndLosers()
    {
        const test::CliRun r
            = test::runWeftCli(plan({QStringLiteral("--top"), QStringLiteral("3")}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.startsWith(QStringLiteral("rank")));
        QCOMPARE(out.count(QRegularExpression(QStringLiteral("\\n   [123] "))), 3);
        // A dense model's rows show no expert TP ("-": it showed its TP as if an expert knob).
        QCOMPARE(out.count(QRegularExpression(
                     QStringLiteral("\\n   [123] +\\d+ +\\d+ +\\d+ +\\d+ +1 +- "))),
                 3);
        QVERIFY(out.contains(QStringLiteral("pruned by the lower bound")));
        QVERIFY2(out.contains(QStringLiteral("known loser: ")), r.out.constData());
        // Progress at most every 10 s: here only the last line, with the rate.
        QCOMPARE(r.err.count("weft-cli plan: "), 1);
        QVERIFY2(r.err.contains("feasible candidates (100%)") && r.err.contains("simulated/s"),
                 r.err.constData());
    }

    // A MoE model's plan searches the EP all-to-all overlap: its column says on or off for a
    // candidate with EP ("-" without), and the layouts Megatron-Core refuses with it are counted.
    void moePlanSearchesTheEpOverlap()
    {
        Design d = test::withModel(test::planFabric("dgx-h100", 2), test::smallMoe(), 16);
        d.workload->config.ep = 2;
        d.workload->config.globalBatch = 64; // 8 micro-batches: steady pairs to overlap in
        const QString design
            = test::writeDesignFile(d, m_tmp.filePath(QStringLiteral("plan-moe.weft")));
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("plan"), design, QStringLiteral("--fix"),
             QStringLiteral("cp=1,zero_stage=1,tp=1,pp=2,ep=2,micro_batch=1,dispatcher=alltoall"),
             QStringLiteral("--top"), QStringLiteral("20"), QStringLiteral("--jobs"),
             QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith(QStringLiteral("rank")) && out.contains(QStringLiteral(" EP ovl ")),
                 r.out.constData());
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral("alltoall on  +int v"))),
                 r.out.constData());
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral("alltoall off +"))),
                 r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("ep-overlap-needs-interleaving")), r.out.constData());
    }

    void jsonHasCandidatesAndCounts()
    {
        const test::CliRun r = test::runWeftCli(
            plan({QStringLiteral("--json"), QStringLiteral("--tp"), QStringLiteral("4")}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QVERIFY(!j["candidates"].empty());
        for (const char *key : {"tp", "pp", "dp", "cp", "ep", "vpp", "micro_batch", "recompute",
                                "zero_stage", "placement", "step_time_s", "tokens_per_s", "mfu",
                                "peak_memory_bytes_per_gpu", "fits", "breakdown"})
            QVERIFY2(j["candidates"][0].contains(key), key);
        for (const auto &c : j["candidates"])
            QCOMPARE(c["tp"].get<int>(), 4); // --tp pins the knob
        QVERIFY(j["counts"]["enumerated"].get<long long>() > 0);
        QVERIFY(j["counts"].contains("pruned_by_bound"));
    }

    void shardsMergeByteIdentical()
    {
        const QString whole = m_tmp.filePath(QStringLiteral("whole"));
        test::CliRun r = test::runWeftCli(plan({QStringLiteral("--out"), whole}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QStringList dirs;
        for (int i = 0; i < 3; ++i) {
            dirs << m_tmp.filePath(QStringLiteral("s%1").arg(i));
            r = test::runWeftCli(plan({QStringLiteral("--shard"), QStringLiteral("%1/3").arg(i),
                                       QStringLiteral("--out"), dirs.back()}));
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(QFile::exists(dirs.back() + QStringLiteral("/plan-shard-%1-of-3.json").arg(i)));
        }
        const QString merged = m_tmp.filePath(QStringLiteral("merged"));
        r = test::runWeftCli(QStringList {QStringLiteral("plan-merge")} + dirs
                             + QStringList {QStringLiteral("--out"), merged});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray a = readAll(whole + QStringLiteral("/plan.csv"));
        QVERIFY(!a.isEmpty());
        QCOMPARE(readAll(merged + QStringLiteral("/plan.csv")), a);
        for (const QString &dir : {whole, merged})
            for (const char *f : {"plan.json", "plan-pareto.png", "plan-pareto.pdf",
                                  "plan-pareto.svg", "plan-breakdown.png", "plan-breakdown.svg"})
                QVERIFY2(QFile::exists(dir + u'/' + QString::fromLatin1(f)), f);
        // Axis labels carry units.
        const QByteArray svg = readAll(merged + QStringLiteral("/plan-pareto.svg"));
        QVERIFY(svg.contains("peak memory per GPU (GB)"));
        QVERIFY(svg.contains("throughput (tokens/s)"));
        // A missing shard is named.
        r = test::runWeftCli({QStringLiteral("plan-merge"), dirs[0], dirs[2],
                              QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("bad"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("shards missing from the results: 1 of 3"), r.err.constData());
        // A shard of another plan (another global batch) is refused, naming file and setting.
        const QString other = m_tmp.filePath(QStringLiteral("other"));
        r = test::runWeftCli(plan({QStringLiteral("--shard"), QStringLiteral("1/3"),
                                   QStringLiteral("--global-batch"), QStringLiteral("32"),
                                   QStringLiteral("--out"), other}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = test::runWeftCli({QStringLiteral("plan-merge"), dirs[0], other, dirs[2],
                              QStringLiteral("--out"), m_tmp.filePath(QStringLiteral("bad2"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("plan-shard-1-of-3.json") && r.err.contains("global batch 32"),
                 r.err.constData());
    }

    void infeasibleSaysWhy()
    {
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("plan"), m_design, QStringLiteral("--model"),
             QStringLiteral("llama3-405b"), QStringLiteral("--fix"), QStringLiteral("cp=1")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("needs more memory than the 85.5 GB"), r.err.constData());
        QVERIFY(r.err.contains("the closest, TP "));
        // Nothing ranks, so no table header above nothing: the counts and the reason only.
        QVERIFY2(!r.out.contains("rank  TP"), r.out.constData());
        QVERIFY2(r.out.contains("infeasible"), r.out.constData());
    }

    // plan --help gives the knob flags as searched (they said "default 1") and the others as
    // the design's (they said "default llama3-8b"): found by a fresh-user check.
    void helpSaysWhatIsSearched()
    {
        const test::CliRun r = test::runWeftCli({QStringLiteral("plan"), QStringLiteral("--help")});
        const QString help = QString::fromUtf8(r.out).simplified();
        QVERIFY2(help.contains(QStringLiteral("--tp <N> Tensor parallel degree (default searched; "
                                              "giving it pins the knob, as --fix does)")),
                 qPrintable(help));
        // --model and --global-batch are required without a workload (the help gave
        // generate's defaults, llama3-8b and 4 x pp micro-batches per replica).
        QVERIFY2(help.contains(QStringLiteral("--global-batch <N> Global batch, sequences "
                                              "(default the design's; required when the "
                                              "design has no workload)")),
                 qPrintable(help));
        QVERIFY2(help.contains(QStringLiteral("qwen3-30b-a3b) "
                                              "or a new name, which needs --layers --hidden "
                                              "--heads --ffn --vocab --seq (default the "
                                              "design's; required (or the model flags) when "
                                              "the design has no workload)")),
                 qPrintable(help));
    }

    void usageErrors()
    {
        QCOMPARE(test::runWeftCli({QStringLiteral("plan")}).exitCode, 2);
        test::CliRun r = test::runWeftCli(plan({QStringLiteral("--fix"), QStringLiteral("tq=8")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("tq=8"));
        // A pinned degree the GPUs cannot take: refused up front with the numbers (it used
        // to run, print an empty table header and say only "2496 gpus-not-divisible").
        r = test::runWeftCli(plan({QStringLiteral("--fix"), QStringLiteral("tp=32")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("'tp=32': TP 32 does not divide the 16 GPUs"), r.err.constData());
        QVERIFY2(!r.out.contains("rank  TP"), r.out.constData());
        // Every --fix counts, not only the last (plan() gives one already: cp=1): a second
        // pinning CP to another value contradicts the first.
        r = test::runWeftCli(plan({QStringLiteral("--fix"), QStringLiteral("cp=2")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("'cp=2' contradicts 'cp=1'"), r.err.constData());
        r = test::runWeftCli(plan({QStringLiteral("--shard"), QStringLiteral("3/3")}));
        QCOMPARE(r.exitCode, 2);
        r = test::runWeftCli(plan({QStringLiteral("--json"), QStringLiteral("--csv")}));
        QCOMPARE(r.exitCode, 2);
        r = test::runWeftCli(plan({QStringLiteral("--gpus"), QStringLiteral("64")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("more than the 16 accelerators"));
        // --placement was parsed and silently ignored (plan searches the rank orders), and
        // --help gave --dp a default though plan refuses it: both refused, with why, in both.
        r = test::runWeftCli(plan({QStringLiteral("--placement"), QStringLiteral("dp-tp")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--placement is not accepted: plan searches"), r.err.constData());
        r = test::runWeftCli(plan({QStringLiteral("--dp"), QStringLiteral("8")}));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--dp is not accepted: DP is --gpus"), r.err.constData());
        const QString help
            = QString::fromUtf8(
                  test::runWeftCli({QStringLiteral("plan"), QStringLiteral("--help")}).out)
                  .simplified();
        QVERIFY2(help.contains(QStringLiteral("--dp <N> Data parallel degree (not accepted: DP "
                                              "is --gpus / (TP x CP x PP))")),
                 qPrintable(help));
        // A design without a workload: with neither a model nor a global batch, or with a model
        // but no global batch, the same exit code (1: it exited 2 for the second) and message.
        QTemporaryDir dir;
        const QString bare = dir.filePath(QStringLiteral("bare.weft"));
        QCOMPARE(
            test::runWeftCli({QStringLiteral("generate"), QStringLiteral("-o"), bare}).exitCode, 0);
        for (const QStringList &extra :
             {QStringList {},
              QStringList {QStringLiteral("--model"), QStringLiteral("llama3-8b")}}) {
            r = test::runWeftCli(QStringList {QStringLiteral("plan"), bare} + extra);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("has no workload: give "), r.err.constData());
            QVERIFY2(r.err.contains("--global-batch B"), r.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestPlanCli)
#include "tst_plan_cli.moc"
