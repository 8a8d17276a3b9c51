// weft-cli under faults (issue 17): every command refuses what `validate` rejects (self-links,
// unknown link technology or switch model, group cycles: `simulate` used to run them and exit
// 0), with exit code 1 and the findings; a full disk names the cause and the path.
#include "clirunner.h"
#include "fulldisk.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <tuple>

using namespace weft::test;

namespace {

using Mutation = std::function<void(QJsonObject &)>;

QJsonObject example()
{
    QFile f(QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-server.weft"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing example");
    return QJsonDocument::fromJson(f.readAll()).object();
}

// Sets member `key` of element `index` of array `array` in `doc`.
void setIn(QJsonObject &doc, const char *array, int index, const char *key, const QJsonValue &v)
{
    QJsonArray a = doc[QLatin1String(array)].toArray();
    QJsonObject o = a[index].toObject();
    o[QLatin1String(key)] = v;
    a[index] = o;
    doc[QLatin1String(array)] = a;
}

// Writes `doc` to `path`; false when it cannot.
bool writeDesign(const QJsonObject &doc, const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(doc).toJson()) > 0;
}

void groupCycle(QJsonObject &doc)
{
    QJsonArray groups = doc[QLatin1String("groups")].toArray();
    for (const auto &[id, kind, parent] : {std::tuple {7, "rack", 8}, std::tuple {8, "pod", 7}})
        groups.append(QJsonObject {{QStringLiteral("id"), id},
                                   {QStringLiteral("kind"), QString::fromLatin1(kind)},
                                   {QStringLiteral("parent"), parent},
                                   {QStringLiteral("members"), QJsonArray()}});
    doc[QLatin1String("groups")] = groups;
}

} // namespace

class TestCliFaults : public QObject
{
    Q_OBJECT
private slots:
    void everyCommandRefusesWhatValidateRejects_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("command");
        const QList<std::pair<QString, QStringList>> commands {
            {QStringLiteral("simulate"), {QStringLiteral("simulate")}},
            {QStringLiteral("collective"),
             {QStringLiteral("collective"), QStringLiteral("--op"), QStringLiteral("all_reduce"),
              QStringLiteral("--bytes"), QStringLiteral("1M")}},
            {QStringLiteral("bom"), {QStringLiteral("bom")}},
            {QStringLiteral("plan"), {QStringLiteral("plan")}}, // exited 2 until session 17
        };
        for (const char *code :
             {"self-link", "unknown-link-tech", "unknown-node-spec", "group-cycle"})
            for (const auto &[name, args] : commands)
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(name, QLatin1String(code))))
                    << QString::fromLatin1(code) << args;
    }

    void everyCommandRefusesWhatValidateRejects()
    {
        QFETCH(QString, code);
        QFETCH(QStringList, command);
        const std::map<QString, Mutation> mutations {
            {QStringLiteral("self-link"),
             [](QJsonObject &d) { setIn(d, "links", 0, "b", 4); }}, // link 0 runs 4 -> 0
            {QStringLiteral("unknown-link-tech"),
             [](QJsonObject &d) { setIn(d, "links", 0, "tech", QStringLiteral("nvlink9")); }},
            {QStringLiteral("unknown-node-spec"),
             [](QJsonObject &d) { setIn(d, "nodes", 0, "spec", QStringLiteral("qm9999")); }},
            {QStringLiteral("group-cycle"), groupCycle},
        };
        QJsonObject doc = example();
        mutations.at(code)(doc);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.weft"));
        QVERIFY(writeDesign(doc, path));

        const CliRun validate = runWeftCli({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, 1);
        QVERIFY2(validate.out.contains("error [" + code.toUtf8() + "]"), validate.out.constData());
        const CliRun run = runWeftCli(command + QStringList {path});
        QVERIFY2(run.exitCode == 1, (run.out + run.err).constData());
        QVERIFY2(run.err.contains("error [" + code.toUtf8() + "]"), run.err.constData());
        QVERIFY2(run.err.contains("is invalid"), run.err.constData());
        QVERIFY2(!run.out.contains("step time"), run.out.constData());
    }

    // Findings named their nodes by internal id ("(node #384)"); they use the node's name, as
    // --fail switch:NAME does; links keep their id (--fail link:ID).
    void findingsNameNodesByName()
    {
        QJsonObject doc = example();
        const int a
            = doc[QLatin1String("links")].toArray()[0].toObject()[QLatin1String("a")].toInt();
        setIn(doc, "links", 0, "b", a); // a self-link
        QString name;
        for (const QJsonValue &n : doc[QLatin1String("nodes")].toArray())
            if (n.toObject()[QLatin1String("id")].toInt() == a)
                name = n.toObject()[QLatin1String("name")].toString();
        QVERIFY(!name.isEmpty());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("self.weft"));
        QVERIFY(writeDesign(doc, path));
        const CliRun validate = runWeftCli({QStringLiteral("validate"), path});
        QCOMPARE(validate.exitCode, 1);
        const QByteArray subjects = "(node " + name.toUtf8() + "; link #";
        QVERIFY2(validate.out.contains(subjects), validate.out.constData());
        QVERIFY2(!validate.out.contains("(node #"), validate.out.constData());
    }

    void fullDiskNamesCauseAndPath()
    {
        const weft::test::FullDisk disk;
        if (!disk.unavailable().isEmpty())
            QSKIP(qPrintable(disk.unavailable()));
        const QString &mount = disk.path();
        const QString out = disk.filePath(QStringLiteral("su.weft"));
        const CliRun gen = runWeftCli({QStringLiteral("generate"), QStringLiteral("--scaleup"),
                                       QStringLiteral("dgx-h100"), QStringLiteral("--domains"),
                                       QStringLiteral("8"), QStringLiteral("-o"), out});
        const CliRun sim
            = runWeftCli({QStringLiteral("simulate"),
                          QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-server.weft"),
                          QStringLiteral("--out"), mount});
        QVERIFY(gen.exitCode != 0);
        QVERIFY2(gen.err.contains("no space left on device"), gen.err.constData());
        QVERIFY2(gen.err.contains(out.toUtf8()), gen.err.constData());
        QCOMPARE(sim.exitCode, 2);
        QVERIFY2(sim.err.contains("no space left on device"), sim.err.constData());
        QVERIFY2(sim.err.contains(mount.toUtf8()), sim.err.constData());
    }

    // Output redirected to a full device (/dev/full): the command failed to write and said
    // nothing, exit 0, so a script lost the result unawares. It names the cause, exit 2.
    void unwritableOutputIsAnError()
    {
        if (!QFileInfo::exists(QStringLiteral("/dev/full")))
            QSKIP("no /dev/full here");
        const QString example = QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-server.weft");
        for (const QStringList &args :
             {QStringList {QStringLiteral("bom"), example, QStringLiteral("--csv")},
              QStringList {QStringLiteral("simulate"), example, QStringLiteral("--json")},
              QStringList {QStringLiteral("validate"), example}}) {
            QProcess p;
            p.setStandardOutputFile(QStringLiteral("/dev/full"));
            p.start(QStringLiteral(WEFT_CLI), args);
            QVERIFY(p.waitForFinished(kCliTimeoutMs));
            const QByteArray err = p.readAllStandardError();
            QCOMPARE(p.exitCode(), 2);
            QVERIFY2(err.contains("cannot write the output: No space left on device"),
                     err.constData());
        }
    }

    // Small files on a nearly full disk: the writes sat in QFileDevice's buffer and commit()
    // ignored their failed flush, so generate said "Wrote" over a good file it had truncated,
    // and export wrote part of an SVG ("written"), a PNG with "Unknown error", a PDF with no
    // cause and an empty file left behind (fresh-user report, session 34). Each names the
    // cause; the file that was there stays whole.
    void nearlyFullDiskKeepsTheOldFile()
    {
        const weft::test::FullDisk disk;
        if (!disk.unavailable().isEmpty())
            QSKIP(qPrintable(disk.unavailable()));
        const QByteArray old(1500, 'o'); // fits the 4 KiB disk; nothing else does
        const QString example = QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-server.weft");
        for (const QString &name : {QStringLiteral("x.weft"), QStringLiteral("x.svg"),
                                    QStringLiteral("x.png"), QStringLiteral("x.pdf")}) {
            const QString path = disk.filePath(name);
            {
                QFile f(path);
                QVERIFY(f.open(QIODevice::WriteOnly) && f.write(old) == old.size());
            }
            const CliRun r = name.endsWith(QLatin1String(".weft"))
                ? runWeftCli({QStringLiteral("generate"), QStringLiteral("--scaleup"),
                              QStringLiteral("dgx-h100"), QStringLiteral("--fabric"),
                              QStringLiteral("none"), QStringLiteral("-o"), path})
                : runWeftCli({QStringLiteral("export"), example, QStringLiteral("--to"),
                              name.section(QLatin1Char('.'), -1), QStringLiteral("--out"), path});
            QVERIFY2(r.exitCode != 0,
                     qPrintable(name + QLatin1String(": ") + QString::fromUtf8(r.out)));
            QVERIFY2(r.err.contains("no space left on device"),
                     qPrintable(name + QLatin1String(": ") + QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), old);
            f.close();
            QVERIFY(QFile::remove(path));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliFaults)
#include "tst_cli_faults.moc"
