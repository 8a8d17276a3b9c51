// Help beyond About (issue 18): F1 opens the user guide shipped in the binary with its
// chapters; Help > Keyboard Shortcuts lists the menus' shortcuts; Save As is Ctrl+Shift+S; the
// palette elides long names in the middle and names them in full in the tooltip.
#include "gui/actions/fileactions.h"
#include "gui/actions/helpactions.h"
#include "gui/docks/palettedock.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QDialog>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

using namespace weft;

class TestHelp : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void f1OpensTheUserGuide()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction *guide = w.findChild<QAction *>(QStringLiteral("actionUserGuide"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(Qt::Key_F1));
        QTest::keyClick(&w, Qt::Key_F1);
        auto *window = w.findChild<QDialog *>(QStringLiteral("UserGuide"));
        QVERIFY(window);
        QTRY_VERIFY(window->isVisible());
        auto *text = window->findChild<QTextBrowser *>(QStringLiteral("guideText"));
        QVERIFY(text);
        const QString plain = text->toPlainText();
        for (const char *chapter : {"Concepts", "The canvas", "Partitions", "Simulation",
                                    "The planner", "Files and exports", "The command line"})
            QVERIFY2(plain.contains(QLatin1String(chapter)), chapter);
        window->close();
    }

    void shortcutsAreListed()
    {
        MainWindow w;
        const auto list = HelpActions::shortcutList(w.menuBar());
        const auto has = [&list](const QString &name, const QKeySequence &keys) {
            const QString k = keys.toString(QKeySequence::NativeText);
            return std::any_of(list.begin(), list.end(), [&](const auto &e) {
                return e.first.endsWith(name) && e.second == k;
            });
        };
        QVERIFY(has(QStringLiteral("Save As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)));
        QVERIFY(has(QStringLiteral("Weft User Guide"), QKeySequence(Qt::Key_F1)));
        QVERIFY(list.size() > 15);
        QCOMPARE(w.fileActions()->saveAs->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
        w.findChild<QAction *>(QStringLiteral("actionShortcuts"))->trigger();
        auto *dialog = w.findChild<QDialog *>(QStringLiteral("KeyboardShortcuts"));
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QTreeWidget *>()->topLevelItemCount(), int(list.size()));
        dialog->close();
    }

    // QM8700 and QM9700 looked the same once elided at the end: the middle goes instead, and
    // the tooltip names the switch in full.
    void paletteNamesElidedInTheMiddle()
    {
        MainWindow w;
        PaletteTree *tree = w.paletteDock()->tree();
        QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
        QTreeWidgetItem *h100 = tree->findEntry(QStringLiteral("H100"));
        QVERIFY(h100);
        QVERIFY(h100->toolTip(0).startsWith(h100->text(0)));
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
