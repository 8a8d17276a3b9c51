// Documents through the UI: save and reopen, a bad file's error dialog (not blocking), the
// unsaved-changes prompt, autosave, and the "New cluster..." wizard creating one undo step.
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/actions/autosave.h"
#include "gui/actions/fileactions.h"
#include "gui/dialogs/newclusterwizard.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace weft;
using namespace weft::test;
using namespace Qt::StringLiterals;

namespace {

// Shows `w` and opens File > New Cluster; the wizard (null if it did not open).
NewClusterWizard *openWizard(MainWindow &w)
{
    w.show();
    w.fileActions()->newCluster->trigger();
    return w.findChild<NewClusterWizard *>();
}

} // namespace

class TestDocuments : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void saveAndReopen()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        auto w = std::make_unique<MainWindow>();
        w->document()->resetDesign(fixtures::smallFabric());
        w->document()->connectNodes(w->document()->design().nodes()[0].id,
                                    w->document()->design().nodes()[1].id, nullptr);
        QVERIFY(w->document()->isModified());
        presenter.savePath = dir.filePath(QStringLiteral("small.weft"));
        w->fileActions()->saveAs->trigger();
        QVERIFY(QFile::exists(presenter.savePath));
        QVERIFY(!w->document()->isModified());
        QCOMPARE(w->document()->filePath(), presenter.savePath);
        QVERIFY(FileActions::recentFiles().contains(presenter.savePath));
        const Design a = w->document()->design();
        w.reset(); // reopen from disk, not from the window that has it open

        MainWindow other;
        presenter.openPath = presenter.savePath;
        other.fileActions()->open->trigger();
        const Design &b = other.document()->design();
        QCOMPARE(b.nodes().size(), a.nodes().size());
        QCOMPARE(b.links().size(), a.links().size());
        QCOMPARE(b.groups().size(), a.groups().size());
        for (const Node &n : a.nodes())
            QCOMPARE(b.node(n.id)->name, n.name);
        QVERIFY(presenter.errors.isEmpty());
    }

    void badFileShowsErrorAndKeepsDocument()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.weft"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "weft.design", "version": 1, "nodes": [{"id": "x"}]})");
        f.close();
        MainWindow w;
        w.show();
        w.document()->resetDesign(fixtures::smallFabric());
        const std::size_t nodes = w.document()->design().nodes().size();
        // The default presenter: a window-modal box that does not block this call.
        QVERIFY(!w.openFile(bad));
        QMessageBox *box = w.findChild<QMessageBox *>();
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QVERIFY(box->text().contains(QLatin1String("broken.weft")));
        QVERIFY(box->text().contains(QLatin1String("Location: /")));
        QVERIFY(box->text().contains(QLatin1String("Problem: ")));
        box->close();
        QCOMPARE(w.document()->design().nodes().size(), nodes); // unaffected
        QCOMPARE(MainWindow::windows().size(), 1);

        RecordingPresenter presenter; // unreadable: a missing file
        QVERIFY(!w.openFile(dir.filePath(QStringLiteral("missing.weft"))));
        QCOMPARE(presenter.errors.size(), 1);
        QVERIFY(presenter.errors.front().contains(QLatin1String("missing.weft")));
    }

    void closePromptsForUnsavedChanges()
    {
        RecordingPresenter presenter;
        auto *w = new MainWindow;
        w->setAttribute(Qt::WA_DeleteOnClose);
        w->show();
        w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        presenter.saveAnswer = QMessageBox::Cancel;
        QVERIFY(!w->close());
        QCOMPARE(presenter.saveQuestions, 1);
        presenter.saveAnswer = QMessageBox::Discard;
        QVERIFY(w->close());
        QCOMPARE(presenter.saveQuestions, 2);
    }

    void autosaveWritesAndCleansUp()
    {
        MainWindow w;
        Autosave *a = w.autosave();
        w.document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        QVERIFY(a->saveNow());
        QVERIFY(QFile::exists(a->path()));
        QVERIFY(a->path().startsWith(Autosave::directory()));
        QVERIFY(Autosave::pending().isEmpty()); // our own file is not a leftover
        // A leftover from a "crashed" session is offered (the env var skips the prompt in ctest).
        QFile::copy(a->path(), Autosave::directory() + QStringLiteral("/left.weft"));
        QCOMPARE(Autosave::pending().size(), 1);
        Autosave::remove(Autosave::pending().front());
        QVERIFY(Autosave::pending().isEmpty());
        w.document()->undoStack()->setClean(); // saved: the autosave goes
        QVERIFY(!QFile::exists(a->path()));
    }

    void wizardChecksBudgetsAndCreatesOneStep()
    {
        MainWindow w; // empty: the cluster is created here (else in a new window)
        auto *wizard = openWizard(w);
        QVERIFY(wizard);
        auto *domains = wizard->findChild<QSpinBox *>(QStringLiteral("domains"));
        QVERIFY(domains);
        // Too large for 2 tiers of 64-port switches: refused live, Create disabled.
        QSignalSpy ready(wizard, &NewClusterWizard::ready);
        domains->setValue(4096);
        QVERIFY(!wizard->problems().isEmpty());
        QVERIFY(!wizard->isReady());
        domains->setValue(8);
        QVERIFY(wizard->problems().isEmpty());
        QVERIFY(ready.wait(20000));
        QVERIFY(wizard->bomView()->topLevelItemCount()
                >= 4); // accelerators, switches, links, total
        auto *create = wizard->findChild<QPushButton *>(QStringLiteral("create"));
        QVERIFY(create && create->isEnabled());
        const int steps = w.document()->undoStack()->count();
        create->click();
        QCOMPARE(w.document()->design().acceleratorCount(), 64u);
        QCOMPARE(w.document()->undoStack()->count(), steps + 1);
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->design().acceleratorCount(), 0u);
        w.document()->undoStack()->redo();
        QCOMPARE(w.document()->design().acceleratorCount(), 64u);
        w.document()->undoStack()->setClean();
    }

    // A fabric that does not fit: the fix the generator suggests in command-line flags
    // ("use --fabric none ... or --fabric fat-tree") reads in the wizard's field names and item
    // texts, and applying it makes the fabric fit. One NVL72 rack on radix-40 QM8700 leaves
    // with 3.2 Tb/s per GPU: each NIC takes 16 ports, so a leaf takes one NIC and the rack's
    // 72 NICs need 72 leaves.
    void wizardSuggestsFixesInFieldTerms()
    {
        MainWindow w;
        auto *wizard = openWizard(w);
        QVERIFY(wizard);
        auto *preset = wizard->findChild<QComboBox *>(QStringLiteral("preset"));
        auto *domains = wizard->findChild<QSpinBox *>(QStringLiteral("domains"));
        auto *fabric = wizard->findChild<QComboBox *>(QStringLiteral("fabric"));
        auto *summary = wizard->findChild<QLabel *>(QStringLiteral("summary"));
        auto *switchModel = wizard->findChild<QComboBox *>(QStringLiteral("switchModel"));
        auto *nic = wizard->findChild<QDoubleSpinBox *>(QStringLiteral("nic"));
        QVERIFY(preset && domains && fabric && summary && switchModel && nic);
        preset->setCurrentIndex(preset->findData(u"gb200-nvl72"_s));
        domains->setValue(1);
        QVERIFY(wizard->problems().isEmpty()); // 4 rails of 18 trays: 4 leaves
        switchModel->setCurrentIndex(switchModel->findData(u"qm8700"_s));
        nic->setValue(3200);
        QCOMPARE(wizard->problems().size(), 1);
        const QString problem = wizard->problems().first();
        QVERIFY2(problem.contains(u"72 leaves; set Fabric to “None (scale-up only)” (one "
                                  u"scale-up domain needs no scale-out fabric) or Switch model "
                                  u"to “"_s),
                 qPrintable(problem));
        QVERIFY2(!problem.contains(u"--"_s), qPrintable(problem));
        QVERIFY(summary->text().contains(u"Does not fit:"_s));
        QVERIFY(summary->text().contains(u"Fabric to"_s));
        fabric->setCurrentIndex(fabric->findData(int(FabricKind::None)));
        QVERIFY(wizard->problems().isEmpty());
        fabric->setCurrentIndex(fabric->findData(int(FabricKind::RailOptimized)));
        switchModel->setCurrentIndex(switchModel->findData(u"qm9700"_s));
        QVERIFY(wizard->problems().isEmpty());
        nic->setValue(0); // the preset's
        // more domains than two tiers reach: the fix names the Tiers field
        preset->setCurrentIndex(preset->findData(u"dgx-h100"_s));
        domains->setValue(4096);
        QVERIFY2(wizard->problems().join(u' ').contains(u"set Tiers to 3"_s),
                 qPrintable(wizard->problems().join(u' ')));
        // a fix of several fields lists them ("--switch qm9700 --tiers 3 --su-size 50")
        domains->setValue(3000);
        switchModel->setCurrentIndex(switchModel->findData(u"qm8700"_s));
        const QString several = wizard->problems().join(u' ');
        QVERIFY2(several.contains(u"set Switch model to “"_s)
                     && several.contains(u"”, Tiers to 3, Scalable unit to "_s),
                 qPrintable(several));
        wizard->close();
    }

    // The wizard's summary said "1 spines" (issue 18): counts of one are singular.
    void wizardSummaryCountsInWords()
    {
        MainWindow w;
        auto *wizard = openWizard(w);
        QVERIFY(wizard);
        auto *domains = wizard->findChild<QSpinBox *>(QStringLiteral("domains"));
        auto *summary = wizard->findChild<QLabel *>(QStringLiteral("summary"));
        QVERIFY(domains && summary);
        domains->setValue(1); // one DGX H100: 8 rail leaves of one uplink each, 1 spine
        const QString text = summary->text();
        QVERIFY2(text.contains(QStringLiteral("1 domain ")) && text.contains(u"1 spine"_s)
                     && !text.contains(u"1 spines"_s) && !text.contains(u"1 domains"_s),
                 qPrintable(text));
        domains->setValue(8);
        QVERIFY2(summary->text().contains(u"8 domains"_s), qPrintable(summary->text()));
        wizard->close();
    }
};

QTEST_MAIN(TestDocuments)
#include "tst_documents.moc"
