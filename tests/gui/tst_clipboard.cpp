// Cut/copy/paste through the system clipboard: copy in one window puts the Weft MIME type and
// readable text on QGuiApplication::clipboard(); paste in another window (or from another
// process's data) adds the objects with new ids in one undo step; garbage, foreign JSON and a
// damaged Weft payload give a message and change nothing.
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/actions/editactions.h"
#include "gui/canvas/fragmentmime.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/topologyscene.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QClipboard>
#include <QStandardPaths>
#include <QTest>

using namespace weft;
using namespace weft::test;

class TestClipboard : public QObject
{
    Q_OBJECT

    std::unique_ptr<RecordingPresenter> m_presenter;

    static std::unique_ptr<MainWindow> window(Design d)
    {
        auto w = std::make_unique<MainWindow>();
        w->resize(1200, 800);
        w->show();
        openDesign(*w->view(), std::move(d));
        return w;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { m_presenter = std::make_unique<RecordingPresenter>(); }
    void cleanup() { m_presenter.reset(); }

    void copyInOneWindowPasteInAnother()
    {
        auto a = window(fixtures::smallFabric());
        Design empty;
        auto b = window(std::move(empty));
        DesignDocument *docA = a->document();
        DesignDocument *docB = b->document();

        // Copy a domain by clicking it in window A.
        const GroupId g = docA->design().groups().front().id;
        click(*a->view(), a->view()->topologyScene()->groupItem(g)->sceneBoundingRect().center());
        QCOMPARE(docA->selection().groups, std::set<GroupId> {g});
        a->editActions()->copy->trigger();
        const QMimeData *mime = QGuiApplication::clipboard()->mimeData();
        QVERIFY(mime->hasFormat(QString::fromLatin1(kFragmentMime)));
        QVERIFY2(mime->text().startsWith(QStringLiteral("Weft: 12 node(s)")),
                 qPrintable(mime->text()));
        QVERIFY(mime->data(QString::fromLatin1(kFragmentMime)).contains("\"weft.design\""));
        QVERIFY(b->editActions()->paste->isEnabled());

        // Paste in window B: the domain with its members and links, one undo step.
        b->editActions()->paste->trigger();
        QCOMPARE(docB->design().groups().size(), 1u);
        QCOMPARE(docB->design().nodes().size(), 12u);
        QCOMPARE(docB->design().links().size(), 32u);
        QCOMPARE(docB->design().group(docB->design().groups().front().id)->members.size(), 12u);
        QVERIFY(docB->design().hardware.accelerators.count("h100-sxm"));
        QCOMPARE(docB->selection().groups.size(), 1u);
        QCOMPARE(docB->undoStack()->count(), 1);
        docB->undoStack()->undo();
        QVERIFY(docB->design().nodes().empty());
        docB->undoStack()->redo();
        QCOMPARE(docB->design().nodes().size(), 12u);

        // Paste again in A: new ids, beside the original.
        const std::size_t groups = docA->design().groups().size();
        const std::size_t nodes = docA->design().nodes().size();
        a->editActions()->paste->trigger();
        QCOMPARE(docA->design().groups().size(), groups + 1);
        QCOMPARE(docA->design().nodes().size(), nodes + 12);
        QVERIFY(docA->design().groups().back().id != g);
        docA->undoStack()->undo();
        QCOMPARE(docA->design().nodes().size(), nodes);

        // Cut in B: on the clipboard, gone from B, one step.
        const int steps = docB->undoStack()->count();
        docB->selectAll();
        b->editActions()->cut->trigger();
        QVERIFY(docB->design().nodes().empty());
        QCOMPARE(docB->undoStack()->count(), steps + 1);
        b->editActions()->paste->trigger();
        QCOMPARE(docB->design().nodes().size(), 12u);
        QVERIFY(m_presenter->errors.isEmpty());
        docA->undoStack()->setClean();
        docB->undoStack()->setClean();
    }

    void pasteDataFromAnotherProcess()
    {
        // What another Weft process puts on the clipboard: only the MIME bytes cross over.
        Design other;
        const GroupId g = fixtures::addDomain(other, "mi300x-8");
        const Fragment f = snapshotClosure(other, {{}, {}, {g}});
        auto *mime = new QMimeData;
        mime->setData(QString::fromLatin1(kFragmentMime),
                      fragmentMimeData(f)->data(QString::fromLatin1(kFragmentMime)));
        QGuiApplication::clipboard()->setMimeData(mime);
        auto w = window(fixtures::smallFabric());
        const std::size_t nodes = w->document()->design().nodes().size();
        w->editActions()->paste->trigger();
        QCOMPARE(w->document()->design().nodes().size(), nodes + f.nodes.size());
        QVERIFY(w->document()->design().hardware.accelerators.count("mi300x"));
        w->document()->undoStack()->undo();
        QCOMPARE(w->document()->design().nodes().size(), nodes);
        w->document()->undoStack()->setClean();
    }

    void pasteRefusesWhatIsNotWeft_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("message");
        QTest::newRow("text") << QStringLiteral("text/plain") << QByteArray("hello, world")
                              << QStringLiteral("holds text, not Weft objects");
        QTest::newRow("foreign json")
            << QStringLiteral("text/plain") << QByteArray("{\"nodes\": [1, 2, 3]}")
            << QStringLiteral("holds text, not Weft objects");
        QTest::newRow("damaged weft")
            << QString::fromLatin1(kFragmentMime)
            << QByteArray("{\"format\": \"weft.design\", \"vers") << QStringLiteral("are damaged");
        QTest::newRow("image only") << QStringLiteral("image/png") << QByteArray("\x89PNG")
                                    << QStringLiteral("holds no Weft objects");
    }

    void pasteRefusesWhatIsNotWeft()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, data);
        QFETCH(QString, message);
        auto w = window(fixtures::smallFabric());
        auto *mime = new QMimeData;
        mime->setData(format, data);
        QGuiApplication::clipboard()->setMimeData(mime);
        const std::size_t nodes = w->document()->design().nodes().size();
        w->editActions()->paste->setEnabled(true); // the shortcut may still fire
        w->editActions()->paste->trigger();
        QCOMPARE(w->document()->design().nodes().size(), nodes);
        QCOMPARE(w->document()->undoStack()->count(), 0);
        QCOMPARE(m_presenter->errors.size(), 1);
        QVERIFY2(m_presenter->errors.front().startsWith(QStringLiteral("Cannot paste\n")),
                 qPrintable(m_presenter->errors.front()));
        QVERIFY2(m_presenter->errors.front().contains(message),
                 qPrintable(m_presenter->errors.front()));
    }

    void pasteIsDisabledWithoutCandidates()
    {
        auto w = window(fixtures::smallFabric());
        auto *mime = new QMimeData;
        mime->setData(QStringLiteral("image/png"), QByteArray("\x89PNG"));
        QGuiApplication::clipboard()->setMimeData(mime);
        QVERIFY(!w->editActions()->paste->isEnabled());
        QGuiApplication::clipboard()->setText(QStringLiteral("maybe a design"));
        QVERIFY(w->editActions()->paste->isEnabled());
    }
};

QTEST_MAIN(TestClipboard)
#include "tst_clipboard.moc"
