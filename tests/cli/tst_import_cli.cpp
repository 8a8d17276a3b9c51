// weft-cli import (ibnetdiscover, slurm) and export --to ibnetdiscover|ibsim|slurm|slurm-yaml
// (issue 19), on the committed ibsim + ibnetdiscover outputs of tests/data/import/.
#include "clirunner.h"
#include "storage/designstorage.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace weft;
using namespace weft::test;

namespace {

const QString kData = QStringLiteral(WEFT_TEST_DATA_DIR "/import/");

QString text(const QByteArray &b)
{
    return QString::fromUtf8(b);
}

} // namespace

class TestImportCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QString path(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    // The committed a100-su4 capture imported as 4 DGX A100 into su4.weft.
    bool importSu4() const
    {
        return runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                           kData + QStringLiteral("a100-su4.ibnetdiscover"), QStringLiteral("-o"),
                           path("su4.weft"), QStringLiteral("--scaleup"),
                           QStringLiteral("dgx-a100")})
                   .exitCode
            == 0;
    }

private slots:
    void importIbnetdiscover()
    {
        const CliRun r = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                                     kData + QStringLiteral("a100-su4.ibnetdiscover"),
                                     QStringLiteral("-o"), path("su4.weft"),
                                     QStringLiteral("--scaleup"), QStringLiteral("dgx-a100")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(text(r.out).contains(QStringLiteral("4 dgx-a100 servers, 32 GPUs")));
        QVERIFY(text(r.out).contains(QStringLiteral("9 x qm8700 (40 ports, 4xHDR)")));
        const LoadResult loaded = loadDesignFile(path("su4.weft"));
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.design->acceleratorCount(), std::size_t(32));
    }

    // One server from NCCL's topology dump, and the same file as the servers of a fabric.
    void ncclTopology()
    {
        const QString xml = kData + QStringLiteral("nccl/ibm-gx3d-h100-topo.xml");
        const CliRun one = runWeftCli({QStringLiteral("import"), QStringLiteral("nccl-topo"), xml,
                                       QStringLiteral("-o"), path("server.weft")});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QVERIFY(
            text(one.out).contains(QStringLiteral("8 x h100-sxm, 18 NVLinks per GPU, 4 NVSwitch "
                                                  "chips, 1 x 200 Gb/s NIC per GPU")));
        QCOMPARE(loadDesignFile(path("server.weft")).design->acceleratorCount(), std::size_t(8));

        const CliRun fabric
            = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                          kData + QStringLiteral("a100-su4.ibnetdiscover"), QStringLiteral("-o"),
                          path("su4-h100.weft"), QStringLiteral("--scaleup"), xml});
        QVERIFY2(fabric.exitCode == 0, fabric.err.constData());
        QVERIFY2(text(fabric.out).contains(QStringLiteral("4 nccl-topology servers, 32 GPUs")),
                 fabric.out.constData());
        QVERIFY(text(fabric.out).contains(QStringLiteral("note: server ")));
        const LoadResult loaded = loadDesignFile(path("su4-h100.weft"));
        QVERIFY(loaded.ok());
        QVERIFY(loaded.design->hardware.accelerators.count("h100-sxm"));
        // The dump pairs gpu0 with mlx5_7: HCA mlx5_7 of each host is cabled to its GPU 0.
        QVERIFY2(text(fabric.out)
                     .contains(QStringLiteral("rails follow the file's GPU-NIC pairing: "
                                              "gpu0-mlx5_7")),
                 fabric.out.constData());

        // A server file that names no GPU model is refused, naming the file.
        const CliRun bad = runWeftCli(
            {QStringLiteral("import"), QStringLiteral("slurm"),
             kData + QStringLiteral("../import/a100-su4.net"), QStringLiteral("-o"), path("x.weft"),
             QStringLiteral("--scaleup"), kData + QStringLiteral("nccl/azure-ndv5-topo.xml")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(text(bad.err).contains(QStringLiteral("azure-ndv5-topo.xml: the file names no GPU "
                                                       "model")),
                 bad.err.constData());
    }

    // An imported fabric has no workload: simulate and whatif take the model flags for it.
    void simulateAnImportedFabric()
    {
        QVERIFY(importSu4());
        const CliRun none = runWeftCli({QStringLiteral("simulate"), path("su4.weft")});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(text(none.err).contains(QStringLiteral("the model flags of this command")),
                 none.err.constData());
        const QStringList job
            = {QStringLiteral("--model"), QStringLiteral("llama3-8b"),      QStringLiteral("--tp"),
               QStringLiteral("8"),       QStringLiteral("--global-batch"), QStringLiteral("64")};
        const CliRun sim = runWeftCli(QStringList {QStringLiteral("simulate"), path("su4.weft")}
                                      + job + QStringList {QStringLiteral("--json")});
        QVERIFY2(sim.exitCode == 0, sim.err.constData());
        QVERIFY2(text(sim.out).contains(QStringLiteral("\"step_time_s\"")), sim.out.constData());
        const CliRun what
            = runWeftCli(QStringList {QStringLiteral("whatif"), path("su4.weft"),
                                      QStringLiteral("--fail-random"), QStringLiteral("1"),
                                      QStringLiteral("--trials"), QStringLiteral("2"),
                                      QStringLiteral("--no-resilience")}
                         + job);
        QVERIFY2(what.exitCode == 0, what.err.constData());
        const CliRun bad
            = runWeftCli(QStringList {QStringLiteral("simulate"), path("su4.weft"),
                                      QStringLiteral("--model"), QStringLiteral("no-such-model")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(text(bad.err).contains(QStringLiteral("no-such-model")), bad.err.constData());
    }

    // Export the imported design as ibnetdiscover text and import that: the same summary.
    void exportAndImportAgain()
    {
        QVERIFY(runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                            kData + QStringLiteral("h100-messy.ibnetdiscover"),
                            QStringLiteral("-o"), path("messy.weft")})
                    .exitCode
                == 0);
        for (const QString &to : {QStringLiteral("ibnetdiscover"), QStringLiteral("ibsim")}) {
            const CliRun e
                = runWeftCli({QStringLiteral("export"), path("messy.weft"), QStringLiteral("--to"),
                              to, QStringLiteral("--out"), path("messy.txt")});
            QVERIFY2(e.exitCode == 0, e.err.constData());
            const CliRun again
                = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                              path("messy.txt"), QStringLiteral("-o"), path("again.weft")});
            QVERIFY2(again.exitCode == 0, again.err.constData());
            QVERIFY(
                text(again.out).contains(QStringLiteral("4 dgx-h100 servers, 32 GPUs; 1 other")));
            // The degraded 100 Gb/s cable comes back as 4xEDR (the exporter writes 4x first).
            QVERIFY2(text(again.out).contains(QStringLiteral("1 x 4xEDR, 94 x 4xHDR")),
                     again.out.constData());
            QVERIFY(!text(e.err).contains(QStringLiteral("NDR or XDR"))); // HDR: no warning
        }
        // An NDR fabric as an ibsim net file: ibsim 0.10 cannot parse NDR, said on export.
        QVERIFY(runWeftCli({QStringLiteral("generate"), QStringLiteral("--scaleup"),
                            QStringLiteral("dgx-h100"), QStringLiteral("--domains"),
                            QStringLiteral("4"), QStringLiteral("-o"), path("ndr.weft")})
                    .exitCode
                == 0);
        const CliRun ndr
            = runWeftCli({QStringLiteral("export"), path("ndr.weft"), QStringLiteral("--to"),
                          QStringLiteral("ibsim"), QStringLiteral("--out"), path("ndr.net")});
        QCOMPARE(ndr.exitCode, 0);
        QVERIFY2(text(ndr.err).contains(QStringLiteral("port(s) at NDR or XDR: ibsim 0.10 knows "
                                                       "speeds up to HDR")),
                 ndr.err.constData());
    }

    void slurm()
    {
        QVERIFY(importSu4());
        const CliRun e
            = runWeftCli({QStringLiteral("export"), path("su4.weft"), QStringLiteral("--to"),
                          QStringLiteral("slurm"), QStringLiteral("--out"), path("topology.conf")});
        QVERIFY2(e.exitCode == 0, e.err.constData());
        QFile conf(path("topology.conf"));
        QVERIFY(conf.open(QIODevice::ReadOnly));
        const QString c = QString::fromUtf8(conf.readAll());
        QVERIFY2(c.contains(QStringLiteral("Nodes=dgx-a100-[0-3]")), qPrintable(c));
        const CliRun i = runWeftCli(
            {QStringLiteral("import"), QStringLiteral("slurm"), path("topology.conf"),
             QStringLiteral("-o"), path("slurm.weft"), QStringLiteral("--scaleup"),
             QStringLiteral("dgx-a100"), QStringLiteral("--nic-tech"), QStringLiteral("ib-hdr")});
        QVERIFY2(i.exitCode == 0, i.err.constData());
        QVERIFY(text(i.out).contains(QStringLiteral("4 dgx-a100 servers, 32 GPUs")));
        QCOMPARE(runWeftCli({QStringLiteral("export"), path("su4.weft"), QStringLiteral("--to"),
                             QStringLiteral("slurm-yaml"), QStringLiteral("--out"),
                             path("topology.yaml")})
                     .exitCode,
                 0);
    }

    void errors()
    {
        QFile bad(path("bad.txt"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("Switch\t8 \"S-1\"\n[1]\t\"H-1\"[1]\n[1]\t\"H-2\"[1]\n");
        bad.close();
        CliRun r = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                               path("bad.txt"), QStringLiteral("-o"), path("x.weft")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(text(r.err).contains(QStringLiteral("line 3: port 1")), r.err.constData());
        QVERIFY(!QFile::exists(path("x.weft")));
        r = runWeftCli({QStringLiteral("import"), QStringLiteral("xml"), path("bad.txt"),
                        QStringLiteral("-o"), path("x.weft")});
        QCOMPARE(r.exitCode, 2);
        r = runWeftCli(
            {QStringLiteral("import"), QStringLiteral("ibnetdiscover"), path("bad.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(text(r.err).contains(QStringLiteral("-o FILE is required")));
        // an option the format does not read is refused, naming it and the format it is for
        const QString su4 = kData + QStringLiteral("a100-su4.ibnetdiscover");
        r = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"), su4,
                        QStringLiteral("-o"), path("x.weft"), QStringLiteral("--nic-tech"),
                        QStringLiteral("ib-hdr")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(text(r.err).contains(
                     QStringLiteral("--nic-tech applies to slurm imports only, not ibnetdiscover")),
                 r.err.constData());
        r = runWeftCli({QStringLiteral("import"), QStringLiteral("nccl-topo"),
                        kData + QStringLiteral("nccl/aws-p4d-24xl-topo.xml"), QStringLiteral("-o"),
                        path("x.weft"), QStringLiteral("--drop-unknown")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(text(r.err).contains(QStringLiteral(
                     "--drop-unknown applies to ibnetdiscover imports only, not nccl-topo")),
                 r.err.constData());
        QVERIFY(!QFile::exists(path("x.weft")));
    }

    // A design without scale-out switches (one server) has no Slurm topology: refused as the
    // ibnetdiscover export refuses it (it wrote a file of comments that import then refused).
    void slurmExportNeedsSwitches()
    {
        const CliRun one = runWeftCli({QStringLiteral("import"), QStringLiteral("nccl-topo"),
                                       kData + QStringLiteral("nccl/ibm-gx3d-h100-topo.xml"),
                                       QStringLiteral("-o"), path("one.weft")});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        for (const char *to : {"slurm", "slurm-yaml", "ibnetdiscover"}) {
            const CliRun e
                = runWeftCli({QStringLiteral("export"), path("one.weft"), QStringLiteral("--to"),
                              QString::fromLatin1(to), QStringLiteral("--out"), path("one.out")});
            QCOMPARE(e.exitCode, 1);
            QVERIFY2(text(e.err).contains(QStringLiteral("no leaf, spine or core switch")),
                     e.err.constData());
            QVERIFY(!QFile::exists(path("one.out")));
        }
    }

    // The summary's cable count says how many made it into the design: with --drop-unknown the
    // storage HCA's cable is left out (it said "95 cables" of a design of 94).
    void cablesImportedAreCounted()
    {
        const QString messy = kData + QStringLiteral("h100-messy.ibnetdiscover");
        const CliRun kept = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                                        messy, QStringLiteral("-o"), path("kept.weft")});
        QVERIFY2(kept.exitCode == 0, kept.err.constData());
        QVERIFY2(text(kept.out).contains(QStringLiteral("95 cables\n")), kept.out.constData());
        const CliRun dropped = runWeftCli(
            {QStringLiteral("import"), QStringLiteral("ibnetdiscover"), messy, QStringLiteral("-o"),
             path("dropped.weft"), QStringLiteral("--drop-unknown")});
        QVERIFY2(dropped.exitCode == 0, dropped.err.constData());
        QVERIFY2(text(dropped.out).contains(QStringLiteral("95 cables (94 imported)")),
                 dropped.out.constData());
    }

    // An unknown preset or cable technology is refused with the keys the catalog knows.
    void unknownKeysListTheKnownOnes()
    {
        const CliRun preset
            = runWeftCli({QStringLiteral("import"), QStringLiteral("ibnetdiscover"),
                          kData + QStringLiteral("a100-su4.ibnetdiscover"), QStringLiteral("-o"),
                          path("x.weft"), QStringLiteral("--scaleup"), QStringLiteral("foo")});
        QCOMPARE(preset.exitCode, 2);
        QVERIFY2(text(preset.err).contains(QStringLiteral("unknown scale-up preset 'foo' (known: "))
                     && text(preset.err).contains(QStringLiteral("dgx-h100")),
                 preset.err.constData());
        QFile conf(path("two.conf"));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("SwitchName=s0 Nodes=gpu[01-02]\n");
        conf.close();
        const CliRun tech = runWeftCli({QStringLiteral("import"), QStringLiteral("slurm"),
                                        path("two.conf"), QStringLiteral("-o"), path("x.weft"),
                                        QStringLiteral("--nic-tech"), QStringLiteral("foo")});
        QCOMPARE(tech.exitCode, 2);
        QVERIFY2(text(tech.err).contains(QStringLiteral("unknown link technology 'foo' (known: "))
                     && text(tech.err).contains(QStringLiteral("ib-ndr")),
                 tech.err.constData());
    }

    // A topology.conf saved with a UTF-8 byte-order mark imports (with a note).
    void slurmByteOrderMark()
    {
        QFile conf(path("bom.conf"));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("\xEF\xBB\xBFSwitchName=s0 Nodes=gpu[01-02]\n");
        conf.close();
        const CliRun r = runWeftCli({QStringLiteral("import"), QStringLiteral("slurm"),
                                     path("bom.conf"), QStringLiteral("-o"), path("bom.weft")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2((text(r.out) + text(r.err)).contains(QStringLiteral("byte-order mark")),
                 r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_import_cli.moc"
