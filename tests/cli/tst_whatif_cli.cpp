// weft-cli simulate --fail / --fail-random and weft-cli whatif (issue 19) on an 8-server DGX H100
// design training Llama 3 8B with TP 8, DP 8 (DP traffic crosses the rail leaves).
#include "clirunner.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"

#include <QImage>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;
using namespace weft::test;

namespace {

QString text(const QByteArray &b)
{
    return QString::fromUtf8(b);
}

Design job()
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = 8;
    p.tiers = 2;
    Design d = std::move(*generateFabric(p, builtinCatalog()).design);
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.config.tp = 8;
    w.config.dp = 8;
    w.config.globalBatch = 64;
    d.workload = w;
    return d;
}

} // namespace

class TestWhatIfCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_file;
    QString m_leaf;

private slots:
    void initTestCase()
    {
        const Design d = job();
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role == SwitchRole::Leaf && m_leaf.isEmpty())
                m_leaf = QString::fromStdString(n.name);
        m_file = writeDesignFile(d, m_dir.filePath(QStringLiteral("job.weft")));
    }

    void simulateWithFailure()
    {
        const CliRun r = runWeftCli({QStringLiteral("simulate"), m_file, QStringLiteral("--fail"),
                                     QStringLiteral("switch:") + m_leaf});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("what if          switch:") + m_leaf));
        QVERIFY2(text(r.out).contains(QStringLiteral("slowdown x")), r.out.constData());
    }

    // A design file that carries faults (saved from the GUI) is simulated with them; --fail
    // replaces them.
    void simulateSavedFaults()
    {
        Design d = job();
        NodeId leaf;
        for (const Node &n : d.nodes())
            if (QString::fromStdString(n.name) == m_leaf)
                leaf = n.id;
        d.scenario.faults = {{Fault::Kind::SwitchDown, faultTarget(leaf), 1}};
        const QString file = writeDesignFile(d, m_dir.filePath(QStringLiteral("saved.weft")));
        CliRun r = runWeftCli({QStringLiteral("simulate"), file});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(
            text(r.out).contains(QStringLiteral("what if          switch:#%1").arg(leaf.value)),
            r.out.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("slowdown x")));
        r = runWeftCli({QStringLiteral("simulate"), file, QStringLiteral("--fail"),
                        QStringLiteral("link:0@0.5")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("what if          link:0@0.5")));
    }

    void simulateRandomJson()
    {
        const CliRun r = runWeftCli({QStringLiteral("simulate"), m_file, QStringLiteral("--json"),
                                     QStringLiteral("--fail-random"), QStringLiteral("2"),
                                     QStringLiteral("--seed"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError e;
        QJsonDocument::fromJson(r.out, &e);
        QCOMPARE(e.error, QJsonParseError::NoError); // the documented JSON stays clean
        QVERIFY(text(r.err).contains(QStringLiteral("slowdown x")));
    }

    void simulateBadFailure()
    {
        CliRun r = runWeftCli({QStringLiteral("simulate"), m_file, QStringLiteral("--fail"),
                               QStringLiteral("switch:nope")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(text(r.err).contains(QStringLiteral("nope")));
        r = runWeftCli({QStringLiteral("simulate"), m_file, QStringLiteral("--fail"),
                        QStringLiteral("link:1@2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(text(r.err).contains(QStringLiteral("(0, 1]")));
    }

    void whatif()
    {
        const QString out = m_dir.filePath(QStringLiteral("w"));
        const CliRun r = runWeftCli(
            {QStringLiteral("whatif"), m_file, QStringLiteral("--fail-random"), QStringLiteral("2"),
             QStringLiteral("--trials"), QStringLiteral("3"), QStringLiteral("--jobs"),
             QStringLiteral("2"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char *s : {"healthy step", "median", "p95", "worst", "hurt most",
                              "worst single switch failure", "links whose loss costs the most"})
            QVERIFY2(text(r.out).contains(QString::fromLatin1(s)), s);
        QFile csv(out + QStringLiteral("/whatif.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 4);
        QVERIFY(!QImage(out + QStringLiteral("/whatif.png")).isNull());
        QVERIFY(QFile::exists(out + QStringLiteral("/whatif.svg")));
    }

    void whatifShard()
    {
        const QString out = m_dir.filePath(QStringLiteral("s"));
        const CliRun r = runWeftCli({QStringLiteral("whatif"), m_file, QStringLiteral("--trials"),
                                     QStringLiteral("3"), QStringLiteral("--shard"),
                                     QStringLiteral("0/2"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile csv(out + QStringLiteral("/whatif-shard-0-of-2.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3); // header, trials 0 and 2
        QVERIFY(lines[1].startsWith("0,"));
        QVERIFY(lines[2].startsWith("2,"));
        QCOMPARE(runWeftCli({QStringLiteral("whatif"), m_file, QStringLiteral("--trials"),
                             QStringLiteral("0")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestWhatIfCli)
#include "tst_whatif_cli.moc"
