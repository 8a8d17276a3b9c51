// Nothing lost (issue 17): New Cluster never replaces the open design; autosaves have an owner
// (two instances share one autosave folder: a running instance's autosave is never offered,
// a killed one's is); a restored autosave survives a second crash; a damaged autosave is
// offered for discard; the file named on the command line opens before the restore question;
// an upgraded file whose backup failed is not overwritten by Save; big files load on a worker.
//
// The "other instance" is this test binary started again with --autosave-child MODE: it makes
// a real process with its own id that the test kills with SIGKILL (a crash).
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/actions/autosave.h"
#include "gui/actions/autosaverestore.h"
#include "gui/actions/backgroundload.h"
#include "gui/actions/fileactions.h"
#include "gui/dialogs/newclusterwizard.h"
#include "gui/mainwindow.h"
#include "gui/mainwindows.h"
#include "storage/designstorage.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <cstdio>
#include <memory>

using namespace weft;
using namespace weft::test;

namespace {

constexpr int kChildTimeoutMs = 10 * 60 * 1000; // asan builds start slowly

// The other instance. "own": edits a design, autosaves it and prints "ready PATH NODES".
// "restore": restores what a crashed instance left and prints "restored COUNT NODES".
// Both then wait to be killed.
int childMain(int argc, char **argv, const QString &mode)
{
    QApplication app(argc, argv);
    std::unique_ptr<RecordingPresenter> presenter;
    QString line;
    if (mode == QLatin1String("own")) {
        MainWindow *w = MainWindow::openWindow();
        w->document()->resetDesign(fixtures::smallFabric());
        for (int i = 0; i < 3; ++i)
            w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        if (!w->autosave()->saveNow())
            return 3;
        line = QStringLiteral("ready %1 %2")
                   .arg(w->autosave()->path())
                   .arg(w->document()->design().nodes().size());
    } else {
        presenter = std::make_unique<RecordingPresenter>();
        const int restored = MainWindow::offerAutosaveRestore();
        const auto windows = MainWindow::windows();
        line = QStringLiteral("restored %1 %2")
                   .arg(restored)
                   .arg(windows.isEmpty() ? 0
                                          : windows.front()->document()->design().nodes().size());
    }
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
    return QApplication::exec();
}

// A presenter that notes which files were open when the restore question came.
class StartupPresenter : public RecordingPresenter
{
public:
    RestoreAnswer askRestore(QWidget *, const QStringList &documents) override
    {
        for (MainWindow *w : MainWindow::windows())
            openAtQuestion << w->document()->filePath();
        offered << documents;
        return RestoreAnswer::Later;
    }
    QStringList openAtQuestion, offered;
};

} // namespace

class TestDataSafety : public QObject
{
    Q_OBJECT
public:
    QTemporaryDir data;

private:
    // Starts the other instance; returns its first output line in *line.
    std::unique_ptr<QProcess> startChild(const QString &mode, QStringList *line)
    {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("WEFT_NO_AUTOSAVE_PROMPT"));
        p->setProcessEnvironment(env);
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start(QCoreApplication::applicationFilePath(),
                 {QStringLiteral("--autosave-child"), mode});
        QElapsedTimer t;
        t.start();
        while (!p->canReadLine() && p->state() != QProcess::NotRunning
               && t.elapsed() < kChildTimeoutMs)
            p->waitForReadyRead(1000);
        *line = QString::fromUtf8(p->readLine()).trimmed().split(QLatin1Char(' '));
        return p;
    }

    static void crash(QProcess &p)
    {
        p.kill(); // SIGKILL: no clean-up of any kind
        p.waitForFinished(); // reaped: its id no longer names a process
    }

    // A small fabric saved as `dir`/mine.weft and opened in a new window.
    static MainWindow *openedSmallFabric(const QTemporaryDir &dir, QString *file)
    {
        *file = dir.filePath(QStringLiteral("mine.weft"));
        if (saveDesignFile(fixtures::smallFabric(), *file))
            return nullptr;
        MainWindow *w = MainWindow::openWindow();
        return w->openFile(*file) == w ? w : nullptr;
    }

    static void closeAll()
    {
        for (MainWindow *w : MainWindow::windows()) {
            w->document()->undoStack()->setClean();
            w->close();
        }
        QApplication::processEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }

private slots:
    void initTestCase()
    {
        // One autosave folder for this process and the children (they inherit the variable).
        QVERIFY(data.isValid());
        qputenv("XDG_DATA_HOME", data.path().toUtf8());
        qunsetenv("WEFT_NO_AUTOSAVE_PROMPT");
        QVERIFY(Autosave::directory().startsWith(data.path()));
    }

    void cleanup()
    {
        closeAll();
        QDir(Autosave::directory()).removeRecursively();
    }

    void runningInstancesAutosaveIsNotOffered()
    {
        QStringList ready;
        auto owner = startChild(QStringLiteral("own"), &ready);
        QCOMPARE(ready.value(0), QStringLiteral("ready"));
        const QString path = ready.value(1);
        QVERIFY(QFile::exists(path));
        QVERIFY(QFile::exists(Autosave::lockPathFor(path)));
        // A second instance starting now: the first one's live autosave is none of its business.
        QVERIFY(Autosave::pending().isEmpty());
        RecordingPresenter presenter;
        presenter.restoreAnswer = RecordingPresenter::RestoreAnswer::Discard; // deleted it once
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QVERIFY(QFile::exists(path));
        QVERIFY(presenter.questions.isEmpty() && presenter.errors.isEmpty());

        crash(*owner);
        const QList<Autosave::Entry> left = Autosave::pending();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.front().autosavePath, path);
    }

    void restoredWorkSurvivesASecondCrash()
    {
        QStringList ready;
        auto owner = startChild(QStringLiteral("own"), &ready);
        QCOMPARE(ready.value(0), QStringLiteral("ready"));
        const QString path = ready.value(1);
        const int nodes = ready.value(2).toInt();
        QVERIFY(nodes > 0);
        crash(*owner);

        QStringList restored;
        auto second = startChild(QStringLiteral("restore"), &restored);
        QCOMPARE(restored,
                 (QStringList {QStringLiteral("restored"), QStringLiteral("1"),
                               QString::number(nodes)}));
        QVERIFY(QFile::exists(path)); // kept until saved or autosaved again
        QVERIFY(Autosave::pending().isEmpty()); // and owned by the restoring instance
        crash(*second); // within the minute: nothing autosaved since the restore

        RecordingPresenter presenter;
        QCOMPARE(MainWindow::offerAutosaveRestore(), 1);
        QCOMPARE(MainWindow::windows().size(), 1);
        MainWindow *w = MainWindow::windows().front();
        QCOMPARE(int(w->document()->design().nodes().size()), nodes);
        QVERIFY(w->document()->isModified());
        QCOMPARE(w->autosave()->path(), path);
        // Autosaved again: written over the same file, still one autosave.
        w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        QVERIFY(w->autosave()->saveNow());
        QCOMPARE(QDir(Autosave::directory()).entryList({QStringLiteral("*.weft")}).size(), 1);
        QCOMPARE(loadDesignFile(path, MigrationBackup::Skip).design->nodes().size(),
                 std::size_t(nodes + 1));
        // Saved: the autosave goes.
        w->document()->undoStack()->setClean();
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(Autosave::lockPathFor(path)));
    }

    void damagedAutosaveIsOfferedForDiscard()
    {
        QVERIFY(QDir().mkpath(Autosave::directory()));
        const QString path = QDir(Autosave::directory()).filePath(QStringLiteral("bad.weft"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"weft.design\", \"vers");
        f.close();
        RecordingPresenter presenter;
        presenter.confirmAnswer = false; // keep it for now
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QCOMPARE(presenter.questions.size(), 1);
        QVERIFY2(presenter.questions.front().contains(QLatin1String("cannot be read")),
                 qPrintable(presenter.questions.front()));
        QVERIFY(QFile::exists(path));
        presenter.confirmAnswer = true; // discard
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QCOMPARE(presenter.questions.size(), 2);
        QVERIFY(!QFile::exists(path));
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0); // not offered again
        QCOMPARE(presenter.questions.size(), 2);
        QVERIFY(presenter.errors.isEmpty());
    }

    // Closing the restore question (Escape, or Later) keeps the autosaves for the next start;
    // Discard asks again before deleting (it deleted every autosave at once on "No").
    void laterKeepsAndDiscardAsksFirst()
    {
        QVERIFY(QDir().mkpath(Autosave::directory()));
        const QString path = QDir(Autosave::directory()).filePath(QStringLiteral("left.weft"));
        QVERIFY(!saveDesignFile(fixtures::smallFabric(), path));
        RecordingPresenter presenter;
        presenter.restoreAnswer = RecordingPresenter::RestoreAnswer::Later;
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QVERIFY(QFile::exists(path));
        QVERIFY(presenter.questions.isEmpty());
        presenter.restoreAnswer = RecordingPresenter::RestoreAnswer::Discard;
        presenter.confirmAnswer = false; // "No, keep them"
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QVERIFY(QFile::exists(path));
        QCOMPARE(presenter.questions.size(), 1);
        QVERIFY2(presenter.questions.front().contains(QLatin1String("cannot be undone")),
                 qPrintable(presenter.questions.front()));
        presenter.confirmAnswer = true;
        QCOMPARE(MainWindow::offerAutosaveRestore(), 0);
        QVERIFY(!QFile::exists(path));
        QVERIFY(Autosave::pending().isEmpty());
    }

    // A failing autosave is said in the status bar (permanently, with the cause) instead of
    // failing silently every minute; it goes away once autosaving works again.
    void failingAutosaveIsShown()
    {
        QDir(Autosave::directory()).removeRecursively();
        QVERIFY(QDir().mkpath(QFileInfo(Autosave::directory()).absolutePath()));
        QFile blocker(Autosave::directory()); // a file where the folder goes: mkpath fails
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        RecordingPresenter presenter;
        MainWindow *w = MainWindow::openWindow();
        w->show();
        w->document()->resetDesign(fixtures::smallFabric());
        w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        auto *label = w->findChild<QLabel *>(QStringLiteral("autosaveProblem"));
        QVERIFY(label);
        QVERIFY(label->isHidden());
        QSignalSpy changed(w->autosave(), &Autosave::problemChanged);
        QVERIFY(!w->autosave()->saveNow());
        QCOMPARE(changed.size(), 1);
        QVERIFY(!label->isHidden());
        QVERIFY2(label->toolTip().contains(QDir::toNativeSeparators(Autosave::directory())),
                 qPrintable(label->toolTip()));
        QVERIFY(!w->autosave()->saveNow());
        QCOMPARE(changed.size(), 1); // said once, not every minute
        if (qEnvironmentVariableIsSet("WEFT_SCREENSHOT_DIR"))
            w->grab().save(qEnvironmentVariable("WEFT_SCREENSHOT_DIR")
                           + QStringLiteral("/autosave-failed.png"));
        QVERIFY(QFile::remove(Autosave::directory()));
        QVERIFY(w->autosave()->saveNow());
        QVERIFY(label->isHidden());
        QVERIFY(w->autosave()->problem().isEmpty());
        closeAll();
    }

    // Save over a file another program wrote since it was opened here asks first (it
    // overwrote that work without a word); No goes to Save As. Saving again after our own save
    // does not ask.
    void saveAsksWhenTheFileChangedOnDisk()
    {
        QTemporaryDir dir;
        QString file;
        RecordingPresenter presenter;
        MainWindow *w = openedSmallFabric(dir, &file);
        QVERIFY(w);
        w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        // Not changed: Save writes without a question.
        QVERIFY(w->fileActions()->saveDocument());
        QVERIFY(presenter.questions.isEmpty());
        // Another program writes the file (a later time and another size).
        Design theirs = fixtures::smallFabric();
        theirs.name = QStringLiteral("theirs, with a longer name").toStdString();
        QVERIFY(!saveDesignFile(theirs, file));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(60),
                                  QFileDevice::FileModificationTime));
        }
        QFile before(file);
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray onDisk = before.readAll();
        before.close();
        w->document()->addFromCatalog({CatalogItem::Kind::Switch, "qm9700"}, {}, {}, nullptr);
        presenter.confirmAnswer = false; // keep theirs
        presenter.savePath = dir.filePath(QStringLiteral("mine-2.weft"));
        QVERIFY(w->fileActions()->saveDocument());
        QCOMPARE(presenter.questions.size(), 1);
        QVERIFY2(presenter.questions.front().contains(QLatin1String("changed by another program")),
                 qPrintable(presenter.questions.front()));
        QFile after(file);
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), onDisk);
        QCOMPARE(w->document()->filePath(), presenter.savePath);
        QVERIFY(QFile::exists(presenter.savePath));
        closeAll();
    }

    void commandLineFileOpensBeforeTheQuestion()
    {
        QVERIFY(QDir().mkpath(Autosave::directory()));
        QVERIFY(!saveDesignFile(fixtures::smallFabric(),
                                QDir(Autosave::directory()).filePath(QStringLiteral("x.weft"))));
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("mine.weft"));
        QVERIFY(!saveDesignFile(fixtures::smallFabric(), file));
        StartupPresenter presenter;
        openAtStartup(MainWindows::instance(), {file});
        QCOMPARE(MainWindow::windows().size(), 1);
        QCOMPARE(MainWindow::windows().front()->document()->filePath(), file);
        QVERIFY(presenter.offered.isEmpty()); // asked only once the event loop runs
        QTRY_COMPARE(presenter.offered.size(), 1);
        QCOMPARE(presenter.openAtQuestion, QStringList {file});
    }

    void newClusterNeverReplacesTheOpenDesign()
    {
        QTemporaryDir dir;
        QString file;
        RecordingPresenter presenter;
        MainWindow *w = openedSmallFabric(dir, &file);
        QVERIFY(w);
        const std::size_t nodes = w->document()->design().nodes().size();
        w->fileActions()->newCluster->trigger();
        auto *wizard = w->findChild<NewClusterWizard *>();
        QVERIFY(wizard);
        QSignalSpy ready(wizard, &NewClusterWizard::ready);
        wizard->findChild<QSpinBox *>(QStringLiteral("domains"))->setValue(4);
        QVERIFY(ready.wait(60000));
        wizard->findChild<QPushButton *>(QStringLiteral("create"))->click();
        QCOMPARE(w->document()->design().nodes().size(), nodes);
        QCOMPARE(w->document()->filePath(), file);
        QVERIFY(!w->document()->isModified());
        QCOMPARE(MainWindow::windows().size(), 2);
        MainWindow *other = MainWindow::windows().front() == w ? MainWindow::windows().back()
                                                               : MainWindow::windows().front();
        QCOMPARE(other->document()->design().acceleratorCount(), 32u);
        QVERIFY(other->document()->filePath().isEmpty());
        // Ctrl+S in the old window writes the old design.
        w->fileActions()->save->trigger();
        QCOMPARE(loadDesignFile(file).design->nodes().size(), nodes);
    }

    void upgradedFileWithoutBackupIsNotOverwritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.weft"));
        QVERIFY(QFile::copy(QStringLiteral(WEFT_TEST_DATA_DIR "/io/v0/four-gpu-node.weft"), path));
        QVERIFY(QDir().mkpath(backupPathFor(path))); // the .bak cannot be written
        QFile original(path);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();
        RecordingPresenter presenter;
        MainWindow *w = MainWindow::openWindow();
        QSignalSpy status(w, &MainWindow::statusMessage);
        QVERIFY(w->openFile(path) == w);
        QCOMPARE(presenter.errors.size(), 1);
        QVERIFY2(presenter.errors.front().contains(backupPathFor(path)),
                 qPrintable(presenter.errors.front()));
        QVERIFY(!status.isEmpty());
        QVERIFY(!status.back().front().toString().contains(QLatin1String("kept as .")));
        presenter.savePath = dir.filePath(QStringLiteral("new.weft"));
        w->fileActions()->save->trigger(); // asks for a name instead of overwriting
        QVERIFY(QFile::exists(presenter.savePath));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);
    }

    void bigFilesLoadOnAWorker()
    {
        MainWindow w;
        w.show();
        int ticks = 0;
        bool sawProgress = false;
        QTimer timer;
        timer.setInterval(5);
        connect(&timer, &QTimer::timeout, this, [&] {
            ++ticks;
            if (auto *p = w.findChild<QProgressDialog *>(); p && p->isVisible())
                sawProgress = p->labelText().contains(QLatin1String("dgx-h100-16k.weft"));
        });
        timer.start();
        const LoadResult r = loadDesignInBackground(
            QStringLiteral(WEFT_RESOURCES_DIR "/examples/dgx-h100-16k.weft"), &w,
            MigrationBackup::Skip, /*progressDelayMs=*/0);
        QVERIFY(r.ok());
        QVERIFY(ticks > 0); // the GUI thread ran its event loop meanwhile
        QVERIFY(sawProgress);
        QVERIFY(!w.findChild<QProgressDialog *>());
    }
};

int main(int argc, char **argv)
{
    if (argc >= 3 && QByteArray(argv[1]) == "--autosave-child")
        return childMain(argc, argv, QString::fromLocal8Bit(argv[2]));
    QApplication app(argc, argv);
    TestDataSafety test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_datasafety.moc"
