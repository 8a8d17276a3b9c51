// Tests of `weft-cli simulate`: the documented JSON keys, CSV, --out files, progress, exit codes.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "clirunner.h"
#include "io/designfile.h"
#include "testcluster.h"

#include <QProcess>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

QString writeDesign(const QTemporaryDir &dir, bool withWorkload, int tp = 8,
                    double launchOverhead = 0)
{
    Design d = test::makeCluster("dgx-a100", 2).design;
    d.name = "cli-test";
    if (withWorkload) {
        Workload w;
        w.model = *modelPreset("llama3-8b");
        w.model.layers = 4;
        w.model.seq = 2048;
        w.config.tp = tp;
        w.config.dp = 2;
        w.config.globalBatch = 8;
        w.config.launchOverhead = launchOverhead;
        d.workload = w;
    }
    const QString path = dir.filePath(QStringLiteral("d.weft"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QByteArray::fromStdString(serializeDesign(d)));
    return path;
}

int runCli(const QStringList &args, QByteArray &output, QByteArray *errors = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(WEFT_CLI), QStringList {QStringLiteral("simulate")} + args);
    p.waitForFinished(weft::test::kCliTimeoutMs);
    output = p.readAllStandardOutput();
    if (errors)
        *errors = p.readAllStandardError();
    return p.exitCode();
}

} // namespace

class TestSimulateCli : public QObject
{
    Q_OBJECT
private slots:
    // The 16k example's --json was 89 MB: --links chooses how many links are listed.
    void linksOption()
    {
        QTemporaryDir dir;
        const QString design = writeDesign(dir, true);
        QByteArray out;
        QCOMPARE(runCli({design, QStringLiteral("--json"), QStringLiteral("--links"),
                         QStringLiteral("all")},
                        out),
                 0);
        const auto all = nlohmann::json::parse(out.toStdString());
        const auto total = all["links_total"].get<long long>();
        QVERIFY(total > 3);
        QCOMPARE(static_cast<long long>(all["links"].size()), total);
        QCOMPARE(all["links_omitted"].get<long long>(), 0);
        QCOMPARE(runCli({design, QStringLiteral("--json")}, out), 0); // small: all by default
        QCOMPARE(nlohmann::json::parse(out.toStdString())["links"].size(), all["links"].size());
        QCOMPARE(runCli({design, QStringLiteral("--json"), QStringLiteral("--links"),
                         QStringLiteral("top-3")},
                        out),
                 0);
        const auto top = nlohmann::json::parse(out.toStdString());
        QCOMPARE(top["links"].size(), std::size_t(3));
        QCOMPARE(top["links_omitted"].get<long long>(), total - 3);
        const auto busy = [](const nlohmann::json &l) {
            return std::max(l["forward"]["avg_utilization"].get<double>(),
                            l["reverse"]["avg_utilization"].get<double>());
        };
        double most = 0;
        for (const auto &l : all["links"])
            most = std::max(most, busy(l));
        QCOMPARE(busy(top["links"][0]), most); // busiest first
        QVERIFY(busy(top["links"][1]) <= busy(top["links"][0]));
        QCOMPARE(runCli({design, QStringLiteral("--json"), QStringLiteral("--links"),
                         QStringLiteral("none")},
                        out),
                 0);
        QVERIFY(nlohmann::json::parse(out.toStdString())["links"].empty());
        QByteArray errors;
        QCOMPARE(runCli({design, QStringLiteral("--json"), QStringLiteral("--links"),
                         QStringLiteral("top-0")},
                        out, &errors),
                 2);
        QVERIFY(errors.contains("--links must be all, none or top-N"));
    }

    void jsonHasTheDocumentedKeys()
    {
        QTemporaryDir dir;
        QByteArray out;
        QCOMPARE(runCli({writeDesign(dir, true), QStringLiteral("--json")}, out), 0);
        const auto j = nlohmann::json::parse(out.toStdString());
        for (const char *k :
             {"step_time_s", "tokens_per_s", "model_tflops_per_gpu", "hardware_tflops_per_gpu",
              "mfu", "hfu", "breakdown", "memory", "links", "warnings", "simulation_wall_s"})
            QVERIFY2(j.contains(k), k);
        double sum = 0;
        for (const char *k : {"compute_s", "tp_exposed_s", "cp_exposed_s", "ep_exposed_s",
                              "pp_exposed_s", "bubble_s", "dp_exposed_s", "optimizer_s"}) {
            QVERIFY2(j["breakdown"].contains(k), k);
            sum += j["breakdown"][k].get<double>();
        }
        QVERIFY(std::abs(sum - j["step_time_s"].get<double>()) < 1e-9 * sum);
        QVERIFY(j["breakdown"].contains("host_bound_s")); // inside compute_s, not in the sum
        for (const char *k : {"peak_bytes_per_gpu", "capacity_bytes_per_gpu", "fits"})
            QVERIFY2(j["memory"].contains(k), k);
        QVERIFY(!j["links"].empty());
        const auto &l = j["links"][0];
        for (const char *k : {"id", "from", "to", "tier", "capacity_bytes_per_s"})
            QVERIFY2(l.contains(k), k);
        for (const char *k : {"bytes", "avg_utilization", "peak_utilization"})
            QVERIFY2(l["forward"].contains(k) && l["reverse"].contains(k), k);
    }
    // Workload flags change the design's workload: `simulate --pp 8` of a Qwen3-235B design ran
    // Llama 3 8B with the defaults until session 32. Here the design's 4-layer model with TP 8
    // run with --tp 4 --dp 2 is the design written with TP 4; --model replaces the model.
    void workloadFlagsChangeTheDesignsWorkload()
    {
        QTemporaryDir a, b;
        auto step = [](const QStringList &args) {
            QByteArray out, errors;
            const int code = runCli(args + QStringList {QStringLiteral("--json")}, out, &errors);
            [&] { QVERIFY2(code == 0, errors.constData()); }();
            return code == 0 ? nlohmann::json::parse(out.toStdString())["step_time_s"].get<double>()
                             : -1.0;
        };
        const QString tp8 = writeDesign(a, true, 8);
        const double flagged = step({tp8, QStringLiteral("--tp"), QStringLiteral("4"),
                                     QStringLiteral("--dp"), QStringLiteral("2")});
        const double written = step({writeDesign(b, true, 4)});
        QVERIFY(flagged > 0 && written > 0);
        QVERIFY2(
            qAbs(flagged - written) <= 1e-9 * written,
            qPrintable(QStringLiteral("%1 s with --tp 4, %2 s written").arg(flagged).arg(written)));
        // The whole Llama 3 8B (32 layers, 8k tokens) instead of the design's 4 layers of 2k.
        const double replaced = step({tp8, QStringLiteral("--model"), QStringLiteral("llama3-8b")});
        QVERIFY2(replaced > 10 * step({tp8}), qPrintable(QString::number(replaced)));
        // A name that is no preset is a new model, which needs its shape: a near miss is an
        // error, not the design's model renamed.
        QByteArray out, errors;
        QCOMPARE(runCli({tp8, QStringLiteral("--model"), QStringLiteral("llama3-8")}, out, &errors),
                 2);
        QVERIFY2(errors.contains("did you mean llama3-8b"), errors.constData());
    }
    void csvAndOutDir()
    {
        QTemporaryDir dir;
        QByteArray out;
        const QString outDir = dir.filePath(QStringLiteral("res"));
        QCOMPARE(runCli({writeDesign(dir, true), QStringLiteral("--csv"), QStringLiteral("--out"),
                         outDir},
                        out),
                 0);
        QVERIFY(out.startsWith("ok,step_time_s,"));
        for (const char *f : {"result.json", "summary.csv", "links.csv"})
            QVERIFY2(QFile::exists(outDir + QLatin1Char('/') + QLatin1String(f)), f);
    }
    void summaryByDefault()
    {
        QTemporaryDir dir;
        QByteArray out;
        QCOMPARE(runCli({writeDesign(dir, true)}, out), 0);
        QVERIFY(out.contains("step time"));
        // MFU's basis is said: the dense peak of the workload's datatype (an FP8 run's MFU, of
        // the FP8 peak, is half what papers quoting the BF16 peak print).
        QVERIFY2(out.contains("% of the BF16 peak)"), out.constData());
        QVERIFY(
            runCli({writeDesign(dir, true), QStringLiteral("--dtype"), QStringLiteral("fp8")}, out)
            == 0);
        QVERIFY2(out.contains("% of the FP8 peak)"), out.constData());
    }
    // A host time per kernel launch far above the kernels' (1 ms): the summary says how much of
    // compute the GPU waited for the host, and the JSON breakdown carries it (a part of compute,
    // not a term of the sum); without one there is no such line and the value is 0.
    void hostBoundTimeIsShown()
    {
        QTemporaryDir dir;
        QByteArray out;
        QCOMPARE(runCli({writeDesign(dir, true)}, out), 0);
        QVERIFY2(!out.contains("host-bound"), out.constData());
        QCOMPARE(runCli({writeDesign(dir, true, 8, 1e-3)}, out), 0);
        QVERIFY2(out.contains("of compute, host-bound"), out.constData());
        QCOMPARE(runCli({writeDesign(dir, true, 8, 1e-3), QStringLiteral("--json")}, out), 0);
        const auto j = nlohmann::json::parse(out.toStdString());
        const double host = j["breakdown"]["host_bound_s"].get<double>();
        QVERIFY(host > 0);
        QVERIFY(host <= j["breakdown"]["compute_s"].get<double>());
    }
    // Qwen3-30B-A3B EP 8 on one DGX H100 without a host time: host_bound_s was 2e-15 (the
    // sums' rounding) and the summary said "host-bound 0.00 ms" with its hint (a fresh-user
    // check); nothing is host-bound without a host time.
    void noHostBoundWithoutAHostTime()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("q30.weft"));
        QProcess g;
        g.start(QStringLiteral(WEFT_CLI),
                {QStringLiteral("generate"), QStringLiteral("--scaleup"),
                 QStringLiteral("dgx-h100"), QStringLiteral("--domains"), QStringLiteral("1"),
                 QStringLiteral("--fabric"), QStringLiteral("none"), QStringLiteral("--model"),
                 QStringLiteral("qwen3-30b-a3b"), QStringLiteral("--ep"), QStringLiteral("8"),
                 QStringLiteral("--global-batch"), QStringLiteral("64"), QStringLiteral("-o"),
                 path});
        QVERIFY(g.waitForFinished(weft::test::kCliTimeoutMs));
        QByteArray out;
        runCli({path}, out); // over memory (exit 1), still simulated
        QVERIFY2(!out.contains("host-bound"), out.constData());
        runCli({path, QStringLiteral("--json")}, out);
        const auto j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["breakdown"]["host_bound_s"].get<double>(), 0.0);
    }
    void summaryHasNoNegativeZeros()
    {
        // 4 DGX H100 with TP 4 x DP 8: the DP gradient reduction is hidden entirely and the
        // breakdown's DP part is -2.8e-17 s of rounding, which printed as "-0.00 ms (-0.0%)".
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tp4.weft"));
        QProcess g;
        g.start(QStringLiteral(WEFT_CLI),
                {QStringLiteral("generate"), QStringLiteral("--domains"), QStringLiteral("4"),
                 QStringLiteral("--tp"), QStringLiteral("4"), QStringLiteral("-o"), path});
        QVERIFY(g.waitForFinished(weft::test::kCliTimeoutMs) && g.exitCode() == 0);
        QByteArray out;
        QCOMPARE(runCli({path}, out), 0);
        QVERIFY2(out.contains("DP exposed     0.00 ms (0.0%)"), out.constData());
        QVERIFY2(!out.contains("-0.0"), out.constData());
    }
    void failedSummaryShowsNoEmptyFigures()
    {
        QTemporaryDir dir;
        QByteArray out;
        QCOMPARE(runCli({writeDesign(dir, true, 3)}, out), 1); // TP 3 does not divide the heads
        QVERIFY2(out.contains("error [heads-not-divisible-by-tp]"), out.constData());
        QVERIFY2(!out.contains("memory"), out.constData()); // "0.0 of 0.0 GB": nothing computed
        QVERIFY2(!out.contains("simulated in"), out.constData());
        QVERIFY2(out.contains("not simulated"), out.constData());
    }
    void bundledExamplesSimulate_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"dgx-h100-server.weft", "dgx-h100-su.weft", "mi300x-node.weft",
                              "gb200-nvl72-x8.weft", "dgx-h100-16k.weft"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void bundledExamplesSimulate()
    {
        // Every bundled example carries a workload that runs and fits (exit 0).
        QFETCH(QString, file);
        QByteArray out;
        QCOMPARE(runCli({QStringLiteral(WEFT_RESOURCES_DIR "/examples/") + file,
                         QStringLiteral("--json")},
                        out),
                 0);
        const auto j = nlohmann::json::parse(out.toStdString());
        QVERIFY(j["ok"].get<bool>());
        QVERIFY(j["memory"]["fits"].get<bool>());
        QVERIFY(j["step_time_s"].get<double>() > 0);
    }
    void progressOnStderr()
    {
        QTemporaryDir dir;
        const QString design = writeDesign(dir, true);
        QByteArray out, errors;
        QCOMPARE(
            runCli({design, QStringLiteral("--json"), QStringLiteral("--progress")}, out, &errors),
            0);
        QVERIFY(nlohmann::json::accept(out.toStdString())); // stdout stays pure JSON
        const QList<QByteArray> lines = errors.trimmed().split('\n');
        QVERIFY2(lines.size() >= 2, errors.constData());
        QVERIFY2(lines.back().contains("100% done"), errors.constData());
        int last = -1;
        for (const QByteArray &l : lines) {
            const int percent = l.mid(l.indexOf(": ") + 2).split('%').front().toInt();
            QVERIFY2(percent > last, l.constData());
            last = percent;
        }
        // a quick run prints nothing on stderr without --progress
        QCOMPARE(runCli({design}, out, &errors), 0);
        QVERIFY2(errors.isEmpty(), errors.constData());
    }
    void exitCodes()
    {
        QTemporaryDir dir;
        QByteArray out;
        QCOMPARE(runCli({writeDesign(dir, false)}, out), 1); // no workload
        QCOMPARE(runCli({writeDesign(dir, true, 3), QStringLiteral("--json")}, out),
                 1); // invalid TP
        const auto j = nlohmann::json::parse(out.toStdString());
        QCOMPARE(j["warnings"][0]["code"].get<std::string>(),
                 std::string("heads-not-divisible-by-tp"));
        QCOMPARE(runCli({dir.filePath(QStringLiteral("missing.weft"))}, out), 2);
        QCOMPARE(runCli({}, out), 2);
    }
};

QTEST_GUILESS_MAIN(TestSimulateCli)
#include "tst_simulate.moc"
