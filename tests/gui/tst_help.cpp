// Help beyond About (issue 18): F1 opens the user guide shipped in the binary with its
// chapters; Help > Keyboard Shortcuts lists the menus' shortcuts; Save As is Ctrl+Shift+S; the
// palette elides long names in the middle and names them in full in the tooltip.
#include "gui/actions/fileactions.h"
#include "gui/actions/helpactions.h"
#include "gui/docks/palettedock.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QDialog>
#include <QLineEdit>
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
        // The canvas tools (toolbar only) and the canvas's own keys are listed too.
        QVERIFY(has(QStringLiteral("Select tool"), QKeySequence(Qt::Key_S)));
        QVERIFY(has(QStringLiteral("Connect tool"), QKeySequence(Qt::Key_C)));
        QVERIFY(has(QStringLiteral("Pan (hold while dragging)"), QKeySequence(Qt::Key_Space)));
        QVERIFY(has(QStringLiteral("clear the selection"), QKeySequence(Qt::Key_Escape)));
        QCOMPARE(w.fileActions()->saveAs->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
        w.findChild<QAction *>(QStringLiteral("actionShortcuts"))->trigger();
        auto *dialog = w.findChild<QDialog *>(QStringLiteral("KeyboardShortcuts"));
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QTreeWidget *>()->topLevelItemCount(), int(list.size()));
        dialog->close();
    }

    // In a 1600x1000 window the guide (760 px) and the shortcut list (560 x 560) opened like
    // pop-ups: each opens at least half the main window's size.
    void helpWindowsAtLeastHalfTheMainWindow()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QDialog *guide = w.helpActions()->guideWindow();
        QVERIFY(guide->width() >= 800);
        QVERIFY(guide->height() >= 500);
        w.findChild<QAction *>(QStringLiteral("actionShortcuts"))->trigger();
        auto *keys = w.findChild<QDialog *>(QStringLiteral("KeyboardShortcuts"));
        QVERIFY(keys);
        QVERIFY2(keys->width() >= 800 && keys->height() >= 500,
                 qPrintable(QStringLiteral("%1x%2").arg(keys->width()).arg(keys->height())));
        keys->close();
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
        QVERIFY(h100->toolTip(0).startsWith(QStringLiteral("NVIDIA H100 SXM5 80GB\n")));
    }

    // "NVIDIA Quantum-2 QM9700 (NDR)" in a 200 px dock: the vendor took the room that tells
    // the models apart. Rows drop it (the tooltip and the filter keep it), and the palette is
    // at least 200 px wide, also in a small window.
    void paletteNamesWithoutVendor()
    {
        MainWindow w;
        w.resize(1000, 650);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PaletteTree *tree = w.paletteDock()->tree();
        QTreeWidgetItem *qm9700
            = tree->findItems(QStringLiteral("QM9700"), Qt::MatchContains | Qt::MatchRecursive)
                  .value(0);
        QVERIFY(qm9700);
        QCOMPARE(qm9700->text(0), QStringLiteral("Quantum-2 QM9700 (NDR)"));
        QVERIFY(qm9700->toolTip(0).startsWith(QStringLiteral("NVIDIA Quantum-2 QM9700 (NDR)")));
        QTreeWidgetItem *mi300 = tree->findEntry(QStringLiteral("MI300X 192GB"));
        QVERIFY(mi300);
        QCOMPARE(mi300->text(0), QStringLiteral("Instinct MI300X 192GB"));
        for (QTreeWidgetItem *e :
             tree->findItems(QStringLiteral("*"), Qt::MatchWildcard | Qt::MatchRecursive))
            QVERIFY2(!e->text(0).startsWith(QStringLiteral("NVIDIA ")), qPrintable(e->text(0)));
        // Typing the vendor still finds its hardware.
        auto *filter = w.paletteDock()->findChild<QLineEdit *>();
        QVERIFY(filter);
        filter->setText(QStringLiteral("nvidia quantum-2"));
        QVERIFY(!qm9700->isHidden());
        filter->clear();
        QVERIFY(w.paletteDock()->width() >= PaletteDock::kMinimumWidth);
        QCOMPARE(PaletteDock::kMinimumWidth, 200);
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
