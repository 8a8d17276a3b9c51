// Tests of `weft-cli report` (issue 6): every chart in every format, the result JSON and CSV,
// headless; clear errors for a missing or broken file, no workload, an unknown format and an
// unwritable directory.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "clirunner.h"
#include "sweepdesigns.h"

#include <QDir>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace weft;

class TestReportCli : public QObject
{
    Q_OBJECT
private slots:
    void writesEveryFile()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(2, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const QString out = tmp.filePath(QStringLiteral("report"));
        const test::CliRun r
            = test::runWeftCli({QStringLiteral("report"), design, QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QStringList expected {QStringLiteral("result.json"), QStringLiteral("summary.csv"),
                              QStringLiteral("links.csv")};
        for (const char *chart : {"breakdown", "timeline", "utilization", "link-utilization",
                                  "memory", "collective-bandwidth"})
            for (const char *ext : {"png", "pdf", "svg", "csv"})
                expected << QStringLiteral("%1.%2").arg(QLatin1String(chart), QLatin1String(ext));
        for (const QString &f : expected) {
            const QFileInfo info(QDir(out).filePath(f));
            QVERIFY2(info.isFile() && info.size() > 0, qPrintable(f));
            QVERIFY2(r.out.contains(info.fileName().toUtf8()), qPrintable(f)); // listed
        }
        QCOMPARE(QDir(out).entryList(QDir::Files).size(), expected.size());
        QFile json(QDir(out).filePath(QStringLiteral("result.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(json.readAll().toStdString());
        QVERIFY(j["step_time_s"].get<double>() > 0);
    }

    // The bundled examples a new user reports first (the servers and the NVL72 racks; the 16k
    // and SuperPOD ones are minutes of rendering): every chart is written. The single server's
    // step ended with an exposed DP time of -1.8e-16 s (rounding), and the breakdown chart was
    // refused with "exposed DP (s) is -1.80411e-16, must be a finite number >= 0", exit 2.
    void reportsTheBundledExamples_data()
    {
        QTest::addColumn<QString>("example");
        for (const char *f : {"dgx-h100-server.weft", "mi300x-node.weft", "gb200-nvl72-x8.weft"})
            QTest::newRow(f) << QStringLiteral(WEFT_RESOURCES_DIR "/examples/") + QLatin1String(f);
    }
    void reportsTheBundledExamples()
    {
        QFETCH(QString, example);
        QTemporaryDir tmp;
        const test::CliRun r
            = test::runWeftCli({QStringLiteral("report"), example, QStringLiteral("--out"),
                                tmp.path(), QStringLiteral("--format"), QStringLiteral("svg")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(QFileInfo(QDir(tmp.path()).filePath(QStringLiteral("breakdown.svg"))).isFile(),
                 r.out.constData());
        // The link chart says which link it plots and why (it did not; fresh-user report).
        QFile link(QDir(tmp.path()).filePath(QStringLiteral("link-utilization.svg")));
        QVERIFY(link.open(QIODevice::ReadOnly));
        QVERIFY(link.readAll().contains("busiest link"));
        // result.json lists links as simulate --json does by default: all that carried traffic
        // up to 5,000, else the 1,000 busiest with their series (the eight NVL72 racks' ~11,000
        // made a 35 MB file; the 16k example's 650 MB); links.csv keeps every link.
        QFile json(QDir(tmp.path()).filePath(QStringLiteral("result.json")));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(json.readAll().toStdString());
        const auto total = j["links_total"].get<long long>();
        const auto listed = static_cast<long long>(j["links"].size());
        QCOMPARE(listed + j["links_omitted"].get<long long>(), total);
        QCOMPARE(listed, total > 5000 ? 1000 : total);
        for (const auto &l : j["links"])
            QVERIFY(l["forward"].contains("utilization_series"));
        QFile csv(QDir(tmp.path()).filePath(QStringLiteral("links.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 2 * total + 1); // a row per direction, a header
        if (example.endsWith(QLatin1String("gb200-nvl72-x8.weft")))
            QVERIFY2(total > 5000, "the racks' links are no longer a case of the cap");
    }

    // A workload over HBM: everything is written (the memory chart shows the stage over the
    // line) and the exit code is 1; stderr says why, as simulate does (it said nothing).
    void overCapacitySaysWhy()
    {
        QTemporaryDir tmp;
        Design d = test::sweepDesign(2, 8);
        d.workload->model.layers = 160; // 80 layers of 8192 x 28672 per GPU: ~190 GB of states
        const QString design = test::writeDesignFile(d, tmp.filePath(QStringLiteral("d.weft")));
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("report"), design, QStringLiteral("--out"),
             tmp.filePath(QStringLiteral("r")), QStringLiteral("--format"), QStringLiteral("svg")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("r/memory.svg"))));
        QVERIFY2(r.err.contains("memory-over-capacity") && r.err.contains("does not fit in memory"),
                 r.err.constData());
    }

    // A MoE design's Collectives chart has its EP group's all-to-all beside the all-reduce (it
    // showed only the DP all-reduce while the exchange took 42% of a DeepSeek-V3 step; fresh-
    // user report, session 32).
    void moeCollectivesIncludeTheAllToAll()
    {
        QTemporaryDir tmp;
        const QString design = tmp.filePath(QStringLiteral("moe.weft"));
        const test::CliRun g = test::runWeftCli(
            {QStringLiteral("generate"), QStringLiteral("--domains"), QStringLiteral("2"),
             QStringLiteral("--model"), QStringLiteral("qwen3-30b-a3b"), QStringLiteral("--ep"),
             QStringLiteral("16"), QStringLiteral("--global-batch"), QStringLiteral("64"),
             QStringLiteral("-o"), design});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("report"), design, QStringLiteral("--out"),
             tmp.filePath(QStringLiteral("r")), QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile csv(tmp.filePath(QStringLiteral("r/collective-bandwidth.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QVERIFY2(text.contains("all-to-all, EP group 0 (16 GPUs)") && text.contains("all-reduce"),
                 text.left(400).constData());
    }

    void formatsSubset()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(2, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const QString out = tmp.filePath(QStringLiteral("r"));
        const test::CliRun r
            = test::runWeftCli({QStringLiteral("report"), design, QStringLiteral("--out"), out,
                                QStringLiteral("--format"), QStringLiteral("svg")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QFile::exists(QDir(out).filePath(QStringLiteral("breakdown.svg"))));
        QVERIFY(!QFile::exists(QDir(out).filePath(QStringLiteral("breakdown.png"))));
    }

    void clearErrors()
    {
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("r"));
        // Missing file: named.
        test::CliRun r
            = test::runWeftCli({QStringLiteral("report"), tmp.filePath(QStringLiteral("none.weft")),
                                QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("none.weft"));
        // Broken file: path and JSON location from the reader.
        const QString broken = tmp.filePath(QStringLiteral("broken.weft"));
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"format": "weft.design", "version": 1, "nodes": 5})");
        }
        r = test::runWeftCli({QStringLiteral("report"), broken, QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("broken.weft") && r.err.contains("at /"), r.err.constData());
        // No workload.
        Design noWork = test::sweepDesign(1, 8);
        noWork.workload.reset();
        const QString bare = test::writeDesignFile(noWork, tmp.filePath(QStringLiteral("b.weft")));
        r = test::runWeftCli({QStringLiteral("report"), bare, QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no workload"), r.err.constData());
        // Unknown format, named.
        const QString ok = test::writeDesignFile(test::sweepDesign(1, 8),
                                                 tmp.filePath(QStringLiteral("o.weft")));
        r = test::runWeftCli({QStringLiteral("report"), ok, QStringLiteral("--out"), out,
                              QStringLiteral("--format"), QStringLiteral("png,gif")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("gif"), r.err.constData());
        // DIR not writable: a file stands where the directory should be.
        const QString file = tmp.filePath(QStringLiteral("plain"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        r = test::runWeftCli(
            {QStringLiteral("report"), ok, QStringLiteral("--out"), file + QStringLiteral("/sub")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("plain"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReportCli)
#include "tst_report_cli.moc"
