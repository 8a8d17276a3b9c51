// weft-cli usage conventions shared by every command: `weft-cli COMMAND --help` names the command
// in its usage line, errors are prefixed "weft-cli COMMAND:", bad usage exits 2 and says why.
#include "clirunner.h"
#include "sweepdesigns.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

namespace {

QString text(const QByteArray &b)
{
    return QString::fromUtf8(b);
}

/// The command names `weft-cli --help` lists.
QStringList commandNames()
{
    const test::CliRun r = test::runWeftCli({QStringLiteral("--help")});
    QStringList names;
    const QRegularExpression line(QStringLiteral("^  ([a-z-]+) "));
    for (const QString &l : text(r.out).split(u'\n'))
        if (const auto m = line.match(l); m.hasMatch())
            names << m.captured(1);
    return names;
}

} // namespace

class TestCliUsage : public QObject
{
    Q_OBJECT
private slots:
    void helpNamesTheCommand_data()
    {
        QTest::addColumn<QString>("command");
        const QStringList names = commandNames();
        QVERIFY(names.size() >= 9);
        for (const QString &n : names)
            QTest::newRow(qPrintable(n)) << n;
    }
    void helpNamesTheCommand()
    {
        QFETCH(QString, command);
        const test::CliRun r = test::runWeftCli({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        const QString first = text(r.out).section(u'\n', 0, 0);
        QVERIFY2(first.startsWith(QStringLiteral("Usage: weft-cli %1 ").arg(command)),
                 qPrintable(first));
    }

    // Scripts and job arrays branch on the exit code: every command's help states its codes.
    void helpStatesExitCodes_data() { helpNamesTheCommand_data(); }
    void helpStatesExitCodes()
    {
        QFETCH(QString, command);
        const test::CliRun r = test::runWeftCli({command, QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(text(r.out).contains(QRegularExpression(
                     QStringLiteral("Exit codes: 0 [^\\n]*[,;] 2 [^\\n]*usage"))),
                 qPrintable(command));
    }

    void unknownOptionNamesTheCommand_data() { helpNamesTheCommand_data(); }
    void unknownOptionNamesTheCommand()
    {
        QFETCH(QString, command);
        const test::CliRun r = test::runWeftCli({command, QStringLiteral("--frobnicate")});
        QCOMPARE(r.exitCode, 2);
        // The message may follow a line Qt prints itself (a platform note), so it is looked for
        // at the start of any line.
        QVERIFY2(text(r.err).contains(
                     QRegularExpression(QStringLiteral("(^|\n)weft-cli %1: .*frobnicate")
                                            .arg(QRegularExpression::escape(command)))),
                 r.err.constData());
    }

    // A rendering command run where XDG_RUNTIME_DIR is unset (root in a container, CI) printed
    // Qt's "QStandardPaths: XDG_RUNTIME_DIR not set, defaulting to ..." on stderr; it now gives
    // Qt that directory itself (private, under TMPDIR) and prints only its own lines.
    void noRuntimeDirNoteWithoutXdgRuntimeDir()
    {
        QTemporaryDir tmp;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        env.insert(QStringLiteral("TMPDIR"), tmp.path());
        const test::CliRun r
            = test::runWeftCli({QStringLiteral("plan"), QStringLiteral("--help")}, env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("XDG_RUNTIME_DIR"), r.err.constData());
        const QFileInfoList made
            = QDir(tmp.path())
                  .entryInfoList({QStringLiteral("runtime-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(made.size(), 1);
        QCOMPARE(made.first().permissions() & (QFile::ReadGroup | QFile::ReadOther),
                 QFile::Permissions());
    }

    void simulateErrorsArePrefixed()
    {
        QTemporaryDir dir;
        QFile broken(dir.filePath(QStringLiteral("broken.weft")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"format\": \"weft.design\", ");
        broken.close();
        test::CliRun r = test::runWeftCli({QStringLiteral("simulate"), broken.fileName()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(text(r.err).startsWith(QStringLiteral("weft-cli simulate: ") + broken.fileName()),
                 r.err.constData());
        r = test::runWeftCli(
            {QStringLiteral("simulate"), dir.filePath(QStringLiteral("missing.weft"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(text(r.err).startsWith(QStringLiteral("weft-cli simulate: ")), r.err.constData());
    }

    void simulateJsonAndCsvAreExclusive()
    {
        QTemporaryDir dir;
        const QString design = test::writeDesignFile(test::sweepDesign(1, 8),
                                                     dir.filePath(QStringLiteral("d.weft")));
        const test::CliRun r
            = test::runWeftCli({QStringLiteral("simulate"), design, QStringLiteral("--json"),
                                QStringLiteral("--csv")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("weft-cli simulate: --json and --csv are mutually exclusive"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void collectiveListsTheChoices()
    {
        QTemporaryDir dir;
        const QString design = test::writeDesignFile(test::sweepDesign(1, 8),
                                                     dir.filePath(QStringLiteral("d.weft")));
        test::CliRun r = test::runWeftCli({QStringLiteral("collective"), design,
                                           QStringLiteral("--op"), QStringLiteral("gather")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown --op 'gather' (known: all_reduce, all_gather, "
                                "reduce_scatter, all_to_all, send_recv, broadcast, moe_dispatch, "
                                "moe_combine)"),
                 r.err.constData());
        // the MoE benchmark: DeepEP's bottleneck bandwidth inside one server; bad dispatcher
        r = test::runWeftCli({QStringLiteral("collective"), design, QStringLiteral("--op"),
                              QStringLiteral("moe_dispatch"), QStringLiteral("--tokens"),
                              QStringLiteral("4096"), QStringLiteral("--hidden"),
                              QStringLiteral("7168")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("moe_dispatch (deepep)") && r.out.contains("nvlink"),
                 r.out.constData());
        r = test::runWeftCli({QStringLiteral("collective"), design, QStringLiteral("--op"),
                              QStringLiteral("moe_combine"), QStringLiteral("--dispatcher"),
                              QStringLiteral("nccl")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown --dispatcher 'nccl'"), r.err.constData());
        r = test::runWeftCli({QStringLiteral("collective"), design, QStringLiteral("--algorithm"),
                              QStringLiteral("bine")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown --algorithm 'bine' (known: auto, ring, tree, "
                                "hierarchical, nvls, direct, nvls_tree)"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliUsage)
#include "tst_cli_usage.moc"
