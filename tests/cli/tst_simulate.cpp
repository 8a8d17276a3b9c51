// Tests of `weft-cli simulate`: the documented JSON keys, CSV, --out files, exit codes.
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

QString writeDesign(const QTemporaryDir &dir, bool withWorkload, int tp = 8)
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
        d.workload = w;
    }
    const QString path = dir.filePath(QStringLiteral("d.weft"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QByteArray::fromStdString(serializeDesign(d)));
    return path;
}

int runCli(const QStringList &args, QByteArray &output)
{
    QProcess p;
    p.start(QStringLiteral(WEFT_CLI), QStringList {QStringLiteral("simulate")} + args);
    p.waitForFinished(weft::test::kCliTimeoutMs);
    output = p.readAllStandardOutput();
    return p.exitCode();
}

} // namespace

class TestSimulateCli : public QObject
{
    Q_OBJECT
private slots:
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
        for (const char *k : {"peak_bytes_per_gpu", "capacity_bytes_per_gpu", "fits"})
            QVERIFY2(j["memory"].contains(k), k);
        QVERIFY(!j["links"].empty());
        const auto &l = j["links"][0];
        for (const char *k : {"id", "from", "to", "tier", "capacity_bytes_per_s"})
            QVERIFY2(l.contains(k), k);
        for (const char *k : {"bytes", "avg_utilization", "peak_utilization"})
            QVERIFY2(l["forward"].contains(k) && l["reverse"].contains(k), k);
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
        QVERIFY(out.contains("MFU"));
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
