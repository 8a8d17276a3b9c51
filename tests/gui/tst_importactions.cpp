// Tests of File > Import (issue 19): the menu holds the InfiniBand and Slurm importers; importing
// the committed ibsim output replaces the design (one undoable step); a malformed file shows an
// error naming the line and leaves the design alone.
#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/actions/importactions.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/dialogs/importoptionsdialog.h"
#include "gui/mainwindow.h"
#include "model/link.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace weft;

namespace {

class RecordingPresenter : public DialogPresenter
{
public:
    void showError(QWidget *, const QString &title, const QString &text) override
    {
        errors << title + QStringLiteral(": ") + text;
    }
    void showReport(QWidget *, const QString &title, const QString &text,
                    const QStringList &details) override
    {
        reports << title + QStringLiteral(": ") + text;
        reportDetails = details;
    }
    QStringList errors, reports, reportDetails;
};

const QString kData = QStringLiteral(WEFT_TEST_DATA_DIR "/import/");

// A Slurm tree topology.conf of two leaves of two nodes under one top switch, in `dir`; its
// path, or "" when it cannot be written.
QString writeSlurmTopology(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("topology.conf"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("SwitchName=s0 Nodes=gpu[01-02]\nSwitchName=s1 Nodes=gpu[03-04]\n"
            "SwitchName=top Switches=s[0-1]\n");
    return f.error() == QFileDevice::NoError ? path : QString();
}

} // namespace

class TestImportActions : public QObject
{
    Q_OBJECT

private slots:
    void init() { setDialogPresenter(&m_presenter); }
    void cleanup()
    {
        setDialogPresenter(nullptr);
        m_presenter.errors.clear();
        m_presenter.reports.clear();
    }

    void menu()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QVERIFY(import);
        QMenu *file = nullptr;
        for (QAction *a : w.menuBar()->actions())
            if (a->menu() && a->text() == QStringLiteral("&File"))
                file = a->menu();
        QVERIFY(file);
        QVERIFY(file->actions().contains(import->menu()->menuAction()));
        QCOMPARE(import->menu()->actions().size(), 3);
        QVERIFY(import->menu()->actions().contains(import->infiniband));
        QVERIFY(import->menu()->actions().contains(import->slurm));
        QVERIFY(import->menu()->actions().contains(import->nccl));
    }

    void importInfiniBand()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QSignalSpy status(&w, &MainWindow::statusMessage);
        QVERIFY(import->importFile(ImportFormat::Ibnetdiscover,
                                   kData + QStringLiteral("h100-messy.ibnetdiscover"),
                                   QStringLiteral("dgx-h100")));
        QVERIFY(m_presenter.errors.isEmpty());
        const Design &d = w.document()->design();
        QCOMPARE(d.acceleratorCount(), std::size_t(33)); // 32 GPUs + the storage host
        QVERIFY(import->lastReport()
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("dgx-h003 rail 5")));
        QVERIFY(!status.isEmpty());
        QVERIFY(
            status.last().first().toString().contains(QStringLiteral("h100-messy.ibnetdiscover")));
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            import->menu()->popup(w.mapToGlobal(QPoint(40, 40)));
            QTest::qWait(200);
            w.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/import-window.png"));
            import->menu()->grab().save(QString::fromLocal8Bit(dir)
                                        + QStringLiteral("/import-menu.png"));
            import->menu()->hide();
        }
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().acceleratorCount(), std::size_t(0));
    }

    // An open design is never replaced: the import goes into a new window (it replaced the
    // design and kept its file path, so Save wrote the import over the user's file), and its
    // undo step says "Import", not "Generate cluster".
    void importNeverReplacesAnOpenDesign()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        // A pristine window takes the import itself.
        QVERIFY(import->importFile(ImportFormat::Ibnetdiscover,
                                   kData + QStringLiteral("h100-messy.ibnetdiscover"),
                                   QStringLiteral("dgx-h100")));
        QCOMPARE(w.document()->undoStack()->undoText(),
                 QStringLiteral("Import h100-messy.ibnetdiscover"));
        const std::size_t gpus = w.document()->design().acceleratorCount();
        const QList<MainWindow *> before = MainWindow::windows();
        // Now it holds a design: the next import opens a window of its own.
        QSignalSpy status(&w, &MainWindow::statusMessage);
        QVERIFY(import->importFile(ImportFormat::Ibnetdiscover,
                                   kData + QStringLiteral("a100-su4.ibnetdiscover"),
                                   QStringLiteral("dgx-a100")));
        QCOMPARE(w.document()->design().acceleratorCount(), gpus);
        QCOMPARE(MainWindow::windows().size(), before.size() + 1);
        MainWindow *other = nullptr;
        for (MainWindow *x : MainWindow::windows())
            if (!before.contains(x))
                other = x;
        QVERIFY(other && other != &w);
        QVERIFY(other->document()->filePath().isEmpty());
        QVERIFY(other->document()->design().acceleratorCount() > 0);
        QVERIFY(status.last().first().toString().contains(QStringLiteral("into a new window")));
        other->document()->undoStack()->setClean();
        other->close();
    }

    void importSlurm()
    {
        QTemporaryDir dir;
        const QString path = writeSlurmTopology(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QVERIFY(import->importFile(ImportFormat::SlurmTopology, path, QStringLiteral("dgx-a100")));
        QCOMPARE(w.document()->design().acceleratorCount(), std::size_t(32));
    }

    // The options dialog asks what weft-cli import takes: the servers (a preset, or an NCCL XML,
    // OK only once one is named), drop-unknown for ibnetdiscover, the cable technology for a
    // Slurm topology (scale-out technologies only, NDR by default); NCCL starts on "auto".
    void optionsDialogOffersWhatTheCliTakes()
    {
        const Catalog &catalog = CatalogStore::instance().catalog();
        ImportOptionsDialog ib(ImportFormat::Ibnetdiscover, QStringLiteral("/x/fabric.txt"),
                               catalog);
        QVERIFY(ib.dropUnknown);
        QVERIFY(!ib.nicTech);
        QCOMPARE(ib.choice().preset, QStringLiteral("dgx-h100"));
        QVERIFY(!ib.choice().dropUnknown);
        ib.dropUnknown->setChecked(true);
        QVERIFY(ib.choice().dropUnknown);
        ib.servers->setCurrentIndex(ib.servers->count() - 1); // From an NCCL topology file
        QVERIFY(ib.serverXml->isEnabled());
        QVERIFY(!ib.complete());
        ib.serverXml->setText(QStringLiteral("/x/server.xml"));
        QVERIFY(ib.complete());
        QCOMPARE(ib.choice().serverXml, QStringLiteral("/x/server.xml"));
        QVERIFY(ib.choice().preset.isEmpty());

        ImportOptionsDialog slurm(ImportFormat::SlurmTopology, QStringLiteral("topology.conf"),
                                  catalog);
        QVERIFY(slurm.nicTech && !slurm.dropUnknown);
        QCOMPARE(slurm.choice().nicTech, QStringLiteral("ib-ndr"));
        QVERIFY(slurm.nicTech->findData(QStringLiteral("eth-400g")) >= 0);
        QVERIFY(slurm.nicTech->findData(QStringLiteral("ib-xdr")) >= 0);
        QCOMPARE(slurm.nicTech->findData(QStringLiteral("nvlink4")), -1);
        QCOMPARE(slurm.nicTech->findData(QStringLiteral("pcie5")), -1);

        ImportOptionsDialog nccl(ImportFormat::NcclTopology, QStringLiteral("topo.xml"), catalog);
        QCOMPARE(nccl.choice().preset, QStringLiteral("auto"));
        QCOMPARE(nccl.servers->findText(QStringLiteral("From an NCCL topology file (.xml)")), -1);
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            slurm.show();
            QVERIFY(QTest::qWaitForWindowExposed(&slurm));
            slurm.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/import-slurm.png"));
            ib.show();
            QVERIFY(QTest::qWaitForWindowExposed(&ib));
            ib.grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/import-ib.png"));
        }
    }

    // The dialog's options reach the importer: a Slurm topology cabled with the chosen
    // technology (it was always NDR InfiniBand), storage HCAs left out of an ibnetdiscover import.
    void optionsReachTheImporter()
    {
        QTemporaryDir dir;
        const QString path = writeSlurmTopology(dir);
        QVERIFY(!path.isEmpty());
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        ImportChoice choice;
        choice.nicTech = QStringLiteral("eth-400g");
        QVERIFY(import->importFile(ImportFormat::SlurmTopology, path, choice));
        int ethernet = 0;
        for (const Link &l : w.document()->design().links()) {
            QVERIFY2(l.tech != "ib-ndr", l.tech.c_str());
            ethernet += l.tech == "eth-400g" ? 1 : 0;
        }
        QVERIFY(ethernet > 0);

        MainWindow kept, dropped;
        const QString messy = kData + QStringLiteral("h100-messy.ibnetdiscover");
        QVERIFY(kept.findChild<ImportActions *>()->importFile(ImportFormat::Ibnetdiscover, messy,
                                                              ImportChoice {}));
        ImportChoice drop;
        drop.dropUnknown = true;
        QVERIFY(dropped.findChild<ImportActions *>()->importFile(ImportFormat::Ibnetdiscover, messy,
                                                                 drop));
        QCOMPARE(kept.document()->design().acceleratorCount(), std::size_t(33));
        QCOMPARE(dropped.document()->design().acceleratorCount(), std::size_t(32));
    }

    // What the importer noted (missing rails, assumed models) is shown in a report, all of it,
    // not only the first note in the status bar.
    void notesReachAReport()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QVERIFY(import->importFile(ImportFormat::Ibnetdiscover,
                                   kData + QStringLiteral("h100-messy.ibnetdiscover"),
                                   QStringLiteral("dgx-h100")));
        QCOMPARE(m_presenter.reports.size(), 1);
        QVERIFY2(m_presenter.reports.front().contains(QStringLiteral("note")),
                 qPrintable(m_presenter.reports.front()));
        QCOMPARE(m_presenter.reportDetails, import->lastReport());
        QVERIFY(m_presenter.reportDetails.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("dgx-h003 rail 5")));
        if (const QByteArray dir = qgetenv("WEFT_SCREENSHOT_DIR"); !dir.isEmpty()) {
            DialogPresenter standard; // the message box a user sees
            standard.showReport(&w, m_presenter.reports.front().section(u':', 0, 0),
                                m_presenter.reports.front().section(u':', 1).trimmed(),
                                m_presenter.reportDetails);
            auto *box = w.findChild<QMessageBox *>();
            QVERIFY(box);
            QVERIFY(QTest::qWaitForWindowExposed(box));
            box->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/import-report.png"));
            box->close();
        }
    }

    // One server from NCCL's topology dump, its preset inferred (the dialog's "auto").
    void importNcclTopology()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QVERIFY(import->importFile(ImportFormat::NcclTopology,
                                   kData + QStringLiteral("nccl/ibm-gx3d-h100-topo.xml"),
                                   QStringLiteral("auto")));
        QVERIFY(m_presenter.errors.isEmpty());
        QCOMPARE(w.document()->design().acceleratorCount(), std::size_t(8));
        QVERIFY(import->lastReport()
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("gpu0->mlx5_7 PIX")));
        // A class-only cloud file names no GPU model: the error says to choose a preset.
        QVERIFY(!import->importFile(ImportFormat::NcclTopology,
                                    kData + QStringLiteral("nccl/azure-ndv5-topo.xml"),
                                    QStringLiteral("auto")));
        QCOMPARE(m_presenter.errors.size(), 1);
        QVERIFY(m_presenter.errors.front().contains(QStringLiteral("name a scale-up preset")));
    }

    // File > Import > InfiniBand with "From an NCCL topology file": the servers are the dump's
    // (H100, 200 Gb/s NICs) with its GPU-NIC pairing; a broken XML is named in the error.
    void importWithServerTopology()
    {
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        const QString xml = kData + QStringLiteral("nccl/ibm-gx3d-h100-topo.xml");
        QVERIFY(import->importFile(ImportFormat::Ibnetdiscover,
                                   kData + QStringLiteral("a100-su4.ibnetdiscover"), QString(),
                                   xml));
        QVERIFY(m_presenter.errors.isEmpty());
        QCOMPARE(w.document()->design().acceleratorCount(), std::size_t(32));
        QVERIFY(w.document()->design().hardware.accelerators.count("h100-sxm"));
        const QString report = import->lastReport().join(QLatin1Char('\n'));
        QVERIFY2(report.contains(QStringLiteral("4 nccl-topology servers")), qPrintable(report));
        QVERIFY(report.contains(QStringLiteral("rails follow the file's GPU-NIC pairing")));

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("server.xml"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<system version=\"1\">\n<cpu>\n</system>\n");
        f.close();
        QVERIFY(!import->importFile(ImportFormat::Ibnetdiscover,
                                    kData + QStringLiteral("a100-su4.ibnetdiscover"), QString(),
                                    bad));
        QCOMPARE(m_presenter.errors.size(), 1);
        QVERIFY2(m_presenter.errors.front().contains(QStringLiteral("server.xml: line")),
                 qPrintable(m_presenter.errors.front()));
        QCOMPARE(w.document()->design().acceleratorCount(), std::size_t(32)); // unchanged
    }

    void malformedFileNamesTheLine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.ibnetdiscover"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Switch\t8 \"S-1\"\n[1]\t\"H-1\"[1]\nthis is not ibnetdiscover\n");
        f.close();
        MainWindow w;
        auto *import = w.findChild<ImportActions *>();
        QVERIFY(!import->importFile(ImportFormat::Ibnetdiscover, path, QStringLiteral("dgx-h100")));
        QCOMPARE(m_presenter.errors.size(), 1);
        QVERIFY2(m_presenter.errors.front().contains(QStringLiteral("line 3: unrecognised line")),
                 qPrintable(m_presenter.errors.front()));
        QCOMPARE(w.document()->design().nodes().size(), std::size_t(0));
        QVERIFY(!import->importFile(ImportFormat::Ibnetdiscover,
                                    dir.filePath(QStringLiteral("none")),
                                    QStringLiteral("dgx-h100")));
        QCOMPARE(m_presenter.errors.size(), 2);
    }

private:
    RecordingPresenter m_presenter;
};

QTEST_MAIN(TestImportActions)
#include "tst_importactions.moc"
