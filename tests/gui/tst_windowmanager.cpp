// The file actions know their window and the others only through DesignWindow and
// WindowManager (gui/actions/designwindow.h): driven here with windows that are not MainWindows.
// New, Quit, Open (into an untouched window, a new one, or the one already showing the file) and
// the layering itself (no action handler includes gui/mainwindow.h; mainwindow.cpp assembles in
// under 300 lines).
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/actions/autosave.h"
#include "gui/actions/autosaverestore.h"
#include "gui/actions/designwindow.h"
#include "gui/actions/fileactions.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "storage/designstorage.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

class FakeManager;

// A design window that is a plain QWidget: what the handlers may use and nothing more.
class FakeWindow : public QWidget, public DesignWindow
{
public:
    explicit FakeWindow(FakeManager *manager);
    ~FakeWindow() override
    {
        delete m_actions;
        delete m_autosave;
        delete m_view;
        delete m_scene;
    }
    QWidget *widget() override { return this; }
    DesignDocument *document() const override { return m_doc; }
    TopologyView *view() const override { return m_view; }
    FileActions *fileActions() const override { return m_actions; }
    Autosave *autosave() const override { return m_autosave; }
    bool isPristine() const override
    {
        return m_doc->filePath().isEmpty() && !m_doc->isModified()
            && m_doc->design().nodes().empty();
    }
    bool refuseClose = false;

protected:
    void closeEvent(QCloseEvent *e) override
    {
        if (refuseClose)
            e->ignore();
        else
            e->accept();
    }

private:
    DesignDocument *m_doc;
    TopologyScene *m_scene;
    TopologyView *m_view;
    Autosave *m_autosave;
    FileActions *m_actions;
};

class FakeManager : public WindowManager
{
public:
    ~FakeManager() override
    {
        for (const QPointer<FakeWindow> &w : m_owned)
            delete w.data();
    }
    DesignWindow *createWindow() override
    {
        ++created;
        auto *w = new FakeWindow(this);
        m_owned << w;
        return w;
    }
    QList<DesignWindow *> windows() const override
    {
        QList<DesignWindow *> out;
        for (const QPointer<FakeWindow> &w : m_owned)
            if (w && w->isVisible())
                out << w.data();
        return out;
    }
    int created = 0;

private:
    QList<QPointer<FakeWindow>> m_owned;
};

FakeWindow::FakeWindow(FakeManager *manager)
    : m_doc(new DesignDocument(builtinCatalog(), this))
    , m_scene(new TopologyScene(m_doc, this))
    , m_view(new TopologyView(m_scene, this))
    , m_autosave(new Autosave(m_doc, this))
    , m_actions(new FileActions(this, manager, this))
{
    resize(600, 400);
}

QString writeDesign(const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    Design d = fixtures::smallFabric();
    if (saveDesignFile(d, path))
        return {};
    return path;
}

} // namespace

class TestWindowManager : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void newAsksTheManagerForAWindow()
    {
        FakeManager windows;
        DesignWindow *first = windows.openWindow();
        QCOMPARE(windows.created, 1);
        first->fileActions()->newDoc->trigger();
        QCOMPARE(windows.created, 2);
        QCOMPARE(windows.windows().size(), 2);
    }

    void quitClosesEveryWindowUntilOneRefuses()
    {
        FakeManager windows;
        auto *a = static_cast<FakeWindow *>(windows.openWindow());
        auto *b = static_cast<FakeWindow *>(windows.openWindow());
        b->refuseClose = true;
        a->fileActions()->quit->trigger();
        QVERIFY(b->isVisible());
        QCOMPARE(windows.windows().size(), 1);
        b->refuseClose = false;
        b->fileActions()->quit->trigger();
        QVERIFY(windows.windows().isEmpty());
    }

    void openGoesHereNewOrForward()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        const QString one = writeDesign(dir, QStringLiteral("one.weft"));
        const QString two = writeDesign(dir, QStringLiteral("two.weft"));
        QVERIFY(!one.isEmpty() && !two.isEmpty());
        FakeManager windows;
        DesignWindow *first = windows.openWindow();
        // An untouched window takes the file itself.
        QCOMPARE(first->fileActions()->openFile(one), first);
        QCOMPARE(first->document()->filePath(), QFileInfo(one).absoluteFilePath());
        QCOMPARE(windows.created, 1);
        // A window with a design opens the next file in a new one, shown.
        DesignWindow *second = first->fileActions()->openFile(two);
        QVERIFY(second && second != first);
        QCOMPARE(windows.created, 2);
        QVERIFY(second->widget()->isVisible());
        QCOMPARE(second->document()->filePath(), QFileInfo(two).absoluteFilePath());
        // A file already open is brought forward, not opened twice.
        QCOMPARE(second->fileActions()->openFile(one), first);
        QCOMPARE(windows.created, 2);
        // The Open action asks for a path and goes the same way.
        presenter.openPath = two;
        first->fileActions()->open->trigger();
        QCOMPARE(windows.created, 2);
        QVERIFY(presenter.errors.isEmpty());
    }

    void unreadableFileDeletesTheNewWindow()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        FakeManager windows;
        DesignWindow *first = windows.openWindow();
        first->document()->resetDesign(fixtures::smallFabric()); // not pristine
        QVERIFY(!first->isPristine());
        QVERIFY(!first->fileActions()->openFile(dir.filePath(QStringLiteral("missing.weft"))));
        QCOMPARE(windows.created, 2);
        QCOMPARE(windows.windows().size(), 1); // the window made for it is gone
        QCOMPARE(presenter.errors.size(), 1);
    }

    void saveReportsThroughItsOwnSignal()
    {
        RecordingPresenter presenter;
        QTemporaryDir dir;
        FakeManager windows;
        DesignWindow *w = windows.openWindow();
        w->document()->resetDesign(fixtures::smallFabric());
        QSignalSpy status(w->fileActions(), &FileActions::statusMessage);
        presenter.savePath = dir.filePath(QStringLiteral("saved.weft"));
        QVERIFY(w->fileActions()->saveDocumentAs());
        QCOMPARE(status.size(), 1);
        QVERIFY(status.front().front().toString().contains(QStringLiteral("saved.weft")));
    }

    void startupOpensThroughTheManager()
    {
        QTemporaryDir dir;
        const QString one = writeDesign(dir, QStringLiteral("one.weft"));
        FakeManager windows;
        openAtStartup(windows, {one});
        QCOMPARE(windows.created, 1);
        QCOMPARE(windows.windows().front()->document()->filePath(),
                 QFileInfo(one).absoluteFilePath());
        // WEFT_NO_AUTOSAVE_PROMPT (set for every test): nothing is offered.
        QCOMPARE(offerAutosaveRestore(windows), 0);
    }

    void actionHandlersDoNotIncludeTheMainWindow()
    {
        const QString src = QStringLiteral(WEFT_RESOURCES_DIR "/../src/gui");
        QDirIterator it(src + QStringLiteral("/actions"),
                        {QStringLiteral("*.h"), QStringLiteral("*.cpp")});
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++files;
            for (const QByteArray &line : f.readAll().split('\n'))
                if (line.startsWith("#include"))
                    QVERIFY2(
                        !line.contains("mainwindow.h"),
                        qPrintable(it.fileName() + QStringLiteral(": ") + QString::fromUtf8(line)));
        }
        QVERIFY(files > 10);
        QFile main(src + QStringLiteral("/mainwindow.cpp"));
        QVERIFY(main.open(QIODevice::ReadOnly));
        QVERIFY2(main.readAll().count('\n') < 300, "MainWindow only assembles");
    }
};

QTEST_MAIN(TestWindowManager)
#include "tst_windowmanager.moc"
