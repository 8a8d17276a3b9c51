// Tests of `weft-cli sweep` and `weft-cli sweep-merge` (issue 6): shards 0/2 and 1/2 merged equal
// the unsharded sweep; the merge writes the table and the chart; usage errors are named.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "clirunner.h"
#include "sweepdesigns.h"

#include <QDir>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

nlohmann::json readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return nlohmann::json::parse(f.readAll().toStdString());
}

/// `weft-cli sweep DESIGN --param tp --values VALUES`.
QStringList tpSweep(const QString &design, const QString &values)
{
    return {QStringLiteral("sweep"),    design, QStringLiteral("--param"), QStringLiteral("tp"),
            QStringLiteral("--values"), values};
}

/// Runs shard `shard`/2 of `sweep`, writing to `dir`/s<shard>.
test::CliRun runShard(const QStringList &sweep, int shard, const QTemporaryDir &dir)
{
    return test::runWeftCli(
        sweep
        + QStringList {QStringLiteral("--shard"), QStringLiteral("%1/2").arg(shard),
                       QStringLiteral("--out"), dir.filePath(QStringLiteral("s%1").arg(shard))});
}

} // namespace

class TestSweepCli : public QObject
{
    Q_OBJECT
private slots:
    void shardsMergeToTheUnshardedSweep()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(2, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const QStringList common = tpSweep(design, QStringLiteral("2,3,4,8"));
        const QString whole = tmp.filePath(QStringLiteral("whole"));
        test::CliRun r
            = test::runWeftCli(common
                               + QStringList {QStringLiteral("--jobs"), QStringLiteral("2"),
                                              QStringLiteral("--out"), whole});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("held fixed"));
        QVERIFY(r.out.contains("FAILED")); // TP 3 does not divide the world: a row, not a crash
        QVERIFY2(r.err.contains("4/4 variants done"), r.err.constData()); // progress
        // The unsharded sweep renders its chart, naming the variant it could not plot.
        for (const char *f : {"sweep.png", "sweep.pdf", "sweep.svg"})
            QVERIFY2(QFileInfo(QDir(whole).filePath(QLatin1String(f))).size() > 0, f);
        QFile svg(QDir(whole).filePath(QStringLiteral("sweep.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QVERIFY2(svgText.contains("Not plotted") && svgText.contains("TP degree 3"),
                 "the chart lists the failed variant");
        for (int shard = 0; shard < 2; ++shard) {
            r = runShard(common, shard, tmp);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(QFile::exists(
                tmp.filePath(QStringLiteral("s%1/sweep-shard-%1-of-2.json").arg(shard))));
        }
        const QString merged = tmp.filePath(QStringLiteral("merged"));
        r = test::runWeftCli({QStringLiteral("sweep-merge"), tmp.filePath(QStringLiteral("s1")),
                              tmp.filePath(QStringLiteral("s0")), QStringLiteral("--out"), merged});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json a = readJson(QDir(whole).filePath(QStringLiteral("sweep.json")));
        const nlohmann::json b = readJson(QDir(merged).filePath(QStringLiteral("sweep.json")));
        QCOMPARE(a["rows"].size(), std::size_t(4));
        QVERIFY(a == b);
        QFile wholeCsv(QDir(whole).filePath(QStringLiteral("sweep.csv")));
        QFile mergedCsv(QDir(merged).filePath(QStringLiteral("sweep.csv")));
        QVERIFY(wholeCsv.open(QIODevice::ReadOnly) && mergedCsv.open(QIODevice::ReadOnly));
        const QByteArray csvText = wholeCsv.readAll();
        QCOMPARE(mergedCsv.readAll(), csvText);
        // One column per name (csv.DictReader and pandas drop or rename duplicates): the swept
        // tp is the value column, not repeated among the degrees.
        const QList<QByteArray> header = csvText.left(csvText.indexOf('\n')).split(',');
        QCOMPARE(QSet<QByteArray>(header.begin(), header.end()).size(), header.size());
        QCOMPARE(header.value(1), QByteArray("tp"));
        QVERIFY(header.contains("pp") && header.contains("dp") && header.contains("step_time_s"));
        for (const char *f : {"sweep.png", "sweep.pdf", "sweep.svg"})
            QVERIFY2(QFileInfo(QDir(merged).filePath(QLatin1String(f))).size() > 0, f);

        // A missing shard is named.
        r = test::runWeftCli({QStringLiteral("sweep-merge"), tmp.filePath(QStringLiteral("s0")),
                              QStringLiteral("--out"), tmp.filePath(QStringLiteral("m2"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("missing") && r.err.contains("shard 1"), r.err.constData());
    }

    void sweepWhereNothingRunsFails()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(2, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const test::CliRun r = test::runWeftCli(
            tpSweep(design, QStringLiteral("3,5"))
            + QStringList {QStringLiteral("--out"), tmp.filePath(QStringLiteral("out"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no variant ran"), r.err.constData());
        QVERIFY(r.out.contains("FAILED"));
    }

    void shardWhereNothingRunsSucceedsOnceWritten()
    {
        // Shard 0/2 of values 3,4,5 runs TP 3 and 5, neither of which divides the world: its
        // file is written and a job-array task must not fail for it; the merge still works.
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(2, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const QStringList common = tpSweep(design, QStringLiteral("3,4,5"));
        for (int shard = 0; shard < 2; ++shard) {
            const test::CliRun r = runShard(common, shard, tmp);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            if (shard == 0)
                QVERIFY2(r.err.contains("no variant of this shard ran")
                             && r.err.contains("shard file is written"),
                         r.err.constData());
        }
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("s0/sweep-shard-0-of-2.json"))));
        const test::CliRun merged
            = test::runWeftCli({QStringLiteral("sweep-merge"), tmp.filePath(QStringLiteral("s0")),
                                tmp.filePath(QStringLiteral("s1")), QStringLiteral("--out"),
                                tmp.filePath(QStringLiteral("m"))});
        QVERIFY2(merged.exitCode == 0, merged.err.constData());
        // Without --out nothing is written: a shard with nothing run still fails.
        const test::CliRun unwritten = test::runWeftCli(
            common + QStringList {QStringLiteral("--shard"), QStringLiteral("0/2")});
        QCOMPARE(unwritten.exitCode, 1);
    }

    void usageErrors()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(1, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        test::CliRun r = test::runWeftCli({QStringLiteral("sweep"), design,
                                           QStringLiteral("--param"), QStringLiteral("colour"),
                                           QStringLiteral("--values"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("colour") && r.err.contains("scale-up-domain"));
        r = test::runWeftCli({QStringLiteral("sweep"), design, QStringLiteral("--param"),
                              QStringLiteral("tp"), QStringLiteral("--values"), QStringLiteral("1"),
                              QStringLiteral("--shard"), QStringLiteral("2/2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--shard"));
        r = test::runWeftCli({QStringLiteral("sweep"), QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("index % N == I"));
    }
};

QTEST_GUILESS_MAIN(TestSweepCli)
#include "tst_sweep_cli.moc"
