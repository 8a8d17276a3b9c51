// Tests of `weft-cli validate`, run as a process: exit codes and messages on the bad-file corpus
// (tests/data/io/bad/cases.json), good files, and usage errors.
#include "clirunner.h"
#include "io/designfile.h"
#include "sampledesigns.h"
#include "storage/designstorage.h"
#include "sweepdesigns.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run validate(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(WEFT_CLI), QStringList {QStringLiteral("validate")} + args);
    if (!p.waitForFinished(weft::test::kCliTimeoutMs))
        qFatal("weft-cli did not finish");
    return Run {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
}

QString dataPath(const QString &rel)
{
    return QStringLiteral(WEFT_TEST_DATA_DIR "/io/") + rel;
}

} // namespace

class TestValidateCli : public QObject
{
    Q_OBJECT
private slots:
    void badFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QFile f(dataPath(QStringLiteral("bad/cases.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(!cases.isEmpty());
        for (const QJsonValue &v : cases) {
            const QJsonObject c = v.toObject();
            const QString file = c[QLatin1String("file")].toString();
            QTest::newRow(qPrintable(file))
                << file << c[QLatin1String("exit")].toInt() << c[QLatin1String("path")].toString()
                << c[QLatin1String("code")].toString() << c[QLatin1String("message")].toString();
        }
    }

    void badFiles()
    {
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, path);
        QFETCH(QString, code);
        QFETCH(QString, message);
        const QString full = dataPath(QStringLiteral("bad/") + file);
        const Run r = validate({full});
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode == 2) {
            // "weft-cli validate: FILE: at /json/path: message"
            QVERIFY2(r.err.contains(full), qPrintable(r.err));
            if (!path.isEmpty())
                QVERIFY2(r.err.contains(QStringLiteral(": at %1: ").arg(path)), qPrintable(r.err));
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
        } else {
            QVERIFY2(r.out.contains(QStringLiteral("error [%1] ").arg(code)), qPrintable(r.out));
            QVERIFY2(r.out.contains(message), qPrintable(r.out));
            QVERIFY2(r.out.contains(QStringLiteral(": invalid: ")), qPrintable(r.out));
        }
    }

    void goodFiles_data()
    {
        QTest::addColumn<QString>("file");
        const QDir good(dataPath(QStringLiteral("good")));
        for (const QString &f : good.entryList({QStringLiteral("*.weft")}))
            QTest::newRow(qPrintable(f)) << good.filePath(f);
        QTest::newRow("v0 fixture") << dataPath(QStringLiteral("v0/four-gpu-node.weft"));
        const QDir examples(QStringLiteral(WEFT_RESOURCES_DIR "/examples"));
        for (const QString &f : examples.entryList({QStringLiteral("*.weft")}))
            QTest::newRow(qPrintable(QStringLiteral("example ") + f)) << examples.filePath(f);
    }

    void goodFiles()
    {
        QFETCH(QString, file);
        const Run r = validate({file});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral(": valid, ")), qPrintable(r.out));
        QVERIFY(r.err.isEmpty());
    }

    void savedDesignIsValid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("full.weft"));
        QVERIFY(!weft::saveDesignFile(weft::test::fullDesign(), path));
        const Run r = validate({path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("8 nodes (4 accelerators), 12 links, 2 groups")));
    }

    void workloadThatCannotRunIsInvalid()
    {
        // 4 DGX H100 domains (32 GPUs) with a workload of world size 2048: the fabric is sound
        // but simulate would refuse the workload; validate reports it with the same exit code.
        QTemporaryDir dir;
        weft::Design d = weft::test::sweepDesign(4, 8);
        d.workload->config.dp = 256;
        d.workload->config.globalBatch = 1024;
        const QString path
            = weft::test::writeDesignFile(d, dir.filePath(QStringLiteral("too-big.weft")));
        const Run r = validate({path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("error [")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("2048")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral(": invalid: ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("workload tp-heavy on 2048 accelerators")),
                 qPrintable(r.out));
        // -q prints the workload error too, and nothing else.
        const Run quiet = validate({QStringLiteral("-q"), path});
        QCOMPARE(quiet.exitCode, 1);
        QVERIFY2(quiet.out.startsWith(QStringLiteral("error [")), qPrintable(quiet.out));
        QVERIFY(!quiet.out.contains(QStringLiteral("invalid:")));

        // The same design with a workload that fits is valid.
        const Run ok = validate({weft::test::writeDesignFile(
            weft::test::sweepDesign(4, 8), dir.filePath(QStringLiteral("fits.weft")))});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.out));
        QVERIFY2(ok.out.contains(QStringLiteral(": valid, ")), qPrintable(ok.out));
    }

    void oldVersionIsNotRewrittenOrBackedUp()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.weft"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("v0/four-gpu-node.weft")), path));
        const Run r = validate({path});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("version 0 -> 1")));
        QVERIFY(!QFile::exists(path + QStringLiteral(".bak")));
    }

    void quietPrintsErrorsOnly()
    {
        const Run bad
            = validate({QStringLiteral("-q"), dataPath(QStringLiteral("bad/self-link.weft"))});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.out.startsWith(QStringLiteral("error [self-link]")));
        QVERIFY(!bad.out.contains(QStringLiteral("invalid:")));
        const Run good = validate(
            {QStringLiteral("--quiet"), dataPath(QStringLiteral("good/four-gpu-node.weft"))});
        QCOMPARE(good.exitCode, 0);
        QVERIFY(good.out.isEmpty());
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("help") << QStringList {QStringLiteral("--help")} << 0
                              << "Exit codes: 0 valid";
        QTest::newRow("no file") << QStringList {} << 2 << "expected one FILE";
        QTest::newRow("two files")
            << QStringList {QStringLiteral("a"), QStringLiteral("b")} << 2 << "expected one FILE";
        QTest::newRow("unknown option")
            << QStringList {QStringLiteral("--frobnicate")} << 2 << "Unknown option 'frobnicate'";
        QTest::newRow("missing file") << QStringList {QStringLiteral("/no/such/design.weft")} << 2
                                      << "/no/such/design.weft: the file does not exist";
        QTest::newRow("folder") << QStringList {QStringLiteral(WEFT_TEST_DATA_DIR)} << 2
                                << "this is a folder";
    }

    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, fragment);
        const Run r = validate(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2((r.out + r.err).contains(fragment), qPrintable(r.out + r.err));
    }

    void topLevelHelpListsValidate()
    {
        QProcess p;
        p.start(QStringLiteral(WEFT_CLI), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(weft::test::kCliTimeoutMs));
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains(QStringLiteral("validate")));
    }
};

QTEST_GUILESS_MAIN(TestValidateCli)
#include "tst_validate_cli.moc"
