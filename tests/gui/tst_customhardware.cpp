// Custom palette entries driven through the real widgets: the New custom accelerator/switch
// dialogs (validation as you type), the "Custom" group of the palette, drops of custom entries
// onto the canvas and into a domain (with undo/redo), edit and delete from the context menu,
// and an unreadable user catalog (a message, the built-in palette still there).
// WEFT_SCREENSHOT_DIR=DIR saves PNGs of the dialog and the palette there.
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/canvas/catalogmime.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/topologyscene.h"
#include "gui/dialogs/customhardwaredialog.h"
#include "gui/docks/palettedock.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

void retype(QLineEdit *edit, const QString &text)
{
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

void screenshot(QWidget *w, const QString &name)
{
    const QString dir = qEnvironmentVariable("WEFT_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w->grab().save(QDir(dir).filePath(name));
}

QAction *actionNamed(QMenu *menu, const QString &text)
{
    for (QAction *a : menu->actions())
        if (a->text().remove(QLatin1Char('&')).contains(text))
            return a;
    return nullptr;
}

} // namespace

class TestCustomHardware : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_w;
    std::unique_ptr<RecordingPresenter> m_presenter;
    DesignDocument *doc() { return m_w->document(); }
    TopologyView &view() { return *m_w->view(); }
    PaletteDock *palette() { return m_w->paletteDock(); }

    CustomHardwareDialog *dialog() { return palette()->findChild<CustomHardwareDialog *>(); }
    bool okEnabled(CustomHardwareDialog *d)
    {
        return d->buttons()->button(QDialogButtonBox::Ok)->isEnabled();
    }
    void pressOk(CustomHardwareDialog *d)
    {
        QTest::mouseClick(d->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!palette()->findChild<CustomHardwareDialog *>()); // deleted on close
    }
    QTreeWidgetItem *customRow(const QString &text)
    {
        QTreeWidgetItem *custom = palette()->tree()->customCategory();
        for (int i = 0; i < custom->childCount(); ++i)
            if (custom->child(i)->text(0) == text)
                return custom->child(i);
        return nullptr;
    }
    void open(Design d) { openDesign(view(), std::move(d)); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        QFile::remove(CatalogStore::defaultUserPath());
        QFile::remove(CatalogStore::defaultUserPath() + QStringLiteral(".broken"));
        CatalogStore::instance().reload();
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1400, 900);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
    }

    void cleanup()
    {
        doc()->undoStack()->setClean();
        m_w.reset();
        m_presenter.reset();
        QFile::remove(CatalogStore::defaultUserPath());
    }

    void newAcceleratorValidatesAndDropsLikeBuiltin()
    {
        Design d = fixtures::smallFabric();
        const GroupId g = d.groups().front().id;
        for (const NodeId m : d.group(g)->members) // a free slot on every NVSwitch chip
            if (d.node(m)->isAccelerator()) {
                d.removeNode(m);
                break;
            }
        open(std::move(d));
        QCOMPARE(palette()->tree()->customCategory()->childCount(), 1); // the "add" hint only
        QVERIFY(!palette()->tree()->itemOf(palette()->tree()->customCategory()->child(0)));

        palette()->newAccelerator->trigger();
        CustomHardwareDialog *dlg = dialog();
        QVERIFY(dlg);
        QVERIFY(dlg->isVisible());
        // Prefilled figures, no name yet: OK waits for the name.
        QVERIFY(!okEnabled(dlg));
        QCOMPARE(dlg->messageLabel()->text(), QStringLiteral("Enter a name."));
        QTest::keyClicks(dlg->field(QStringLiteral("name")), QStringLiteral("Lab GPU 144GB"));
        QVERIFY(okEnabled(dlg));
        retype(dlg->field(QStringLiteral("bf16")), QStringLiteral("fast"));
        QVERIFY(!okEnabled(dlg));
        QVERIFY2(dlg->messageLabel()->text().startsWith(QStringLiteral("Peak dense BF16:")),
                 qPrintable(dlg->messageLabel()->text()));
        QVERIFY(dlg->messageLabel()->text().contains(QStringLiteral("greater than 0")));
        QVERIFY(dlg->messageLabel()->text().contains(QStringLiteral("TFLOP/s")));
        retype(dlg->field(QStringLiteral("bf16")), QString());
        QCOMPARE(dlg->messageLabel()->text(), QStringLiteral("Peak dense BF16: enter a value."));
        retype(dlg->field(QStringLiteral("bf16")), QStringLiteral("1500"));
        retype(dlg->field(QStringLiteral("hbm")), QStringLiteral("0"));
        QVERIFY(!okEnabled(dlg));
        QVERIFY(dlg->messageLabel()->text().startsWith(QStringLiteral("HBM capacity:")));
        retype(dlg->field(QStringLiteral("hbm")), QStringLiteral("144"));
        retype(dlg->field(QStringLiteral("hbm_bandwidth")), QStringLiteral("6000"));
        retype(dlg->field(QStringLiteral("sustained_clock")), QStringLiteral("110"));
        QVERIFY(!okEnabled(dlg));
        QVERIFY2(dlg->messageLabel()->text().startsWith(QStringLiteral("Sustained clock:")),
                 qPrintable(dlg->messageLabel()->text()));
        retype(dlg->field(QStringLiteral("sustained_clock")), QStringLiteral("85"));
        QVERIFY(okEnabled(dlg));
        retype(dlg->field(QStringLiteral("host_launch")), QStringLiteral("0"));
        QVERIFY(!okEnabled(dlg));
        QVERIFY2(dlg->messageLabel()->text().startsWith(QStringLiteral("Host launch factor:")),
                 qPrintable(dlg->messageLabel()->text()));
        retype(dlg->field(QStringLiteral("host_launch")), QStringLiteral("2.5"));
        QVERIFY(okEnabled(dlg));
        screenshot(dlg, QStringLiteral("custom-accelerator-dialog.png"));
        pressOk(dlg);

        // Stored as a custom entry and listed under Custom.
        const CatalogStore &store = CatalogStore::instance();
        QCOMPARE(store.custom().hardware.accelerators.size(), 1u);
        const AcceleratorSpec spec = store.custom().hardware.accelerators.begin()->second;
        QCOMPARE(spec.key, std::string("custom-lab-gpu-144gb"));
        QCOMPARE(spec.peakFlopsBf16, 1500e12);
        QCOMPARE(spec.hbmBytes, 144e9);
        QCOMPARE(spec.hbmBandwidth, 6000e9);
        QCOMPARE(spec.sustainedClock, 0.85);
        QCOMPARE(spec.hostLaunchFactor, 2.5);
        QVERIFY(QFile::exists(CatalogStore::defaultUserPath()));
        QTreeWidgetItem *row = customRow(QStringLiteral("Lab GPU 144GB"));
        QVERIFY(row);
        QCOMPARE(palette()->tree()->itemOf(row)->key, spec.key);
        screenshot(palette(), QStringLiteral("palette-custom.png"));

        // Dropped on the canvas: a free accelerator with the custom spec; undo, redo.
        const std::size_t nodes = doc()->design().nodes().size();
        auto mime = catalogMimeData(*palette()->tree()->itemOf(row));
        const QRectF content = view().topologyScene()->contentBounds();
        QVERIFY(drop(view(), mime.get(), content.bottomLeft() + QPointF(0, -40)));
        QCOMPARE(doc()->design().nodes().size(), nodes + 1);
        const Node added = doc()->design().nodes().back();
        QCOMPARE(added.spec, spec.key);
        QCOMPARE(doc()->design().acceleratorSpec(added)->peakFlopsBf16, 1500e12);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().nodes().size(), nodes);
        QVERIFY(!doc()->design().hardware.accelerators.count(spec.key));
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().nodes().back().spec, spec.key);

        // Dropped into a domain: a member wired to the domain's four NVSwitch chips.
        const std::size_t links = doc()->design().links().size();
        const std::size_t members = doc()->design().group(g)->members.size();
        const QPointF box = view().topologyScene()->groupItem(g)->sceneBoundingRect().center();
        QVERIFY(drop(view(), mime.get(), box));
        QCOMPARE(doc()->design().group(g)->members.size(), members + 1);
        QCOMPARE(doc()->design().node(doc()->design().group(g)->members.back())->spec, spec.key);
        QCOMPARE(doc()->design().links().size(), links + 4);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().group(g)->members.size(), members);
        QCOMPARE(doc()->design().links().size(), links);
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().links().size(), links + 4);
    }

    void newSwitchEditAndDelete()
    {
        open(fixtures::smallFabric());
        palette()->newSwitch->trigger();
        CustomHardwareDialog *dlg = dialog();
        QVERIFY(dlg);
        QTest::keyClicks(dlg->field(QStringLiteral("name")), QStringLiteral("Lab 102T"));
        dlg->technologyBox()->setCurrentIndex(
            dlg->technologyBox()->findData(int(Technology::Ethernet)));
        retype(dlg->field(QStringLiteral("radix")), QStringLiteral("12.5"));
        QCOMPARE(dlg->messageLabel()->text(),
                 QStringLiteral("Radix: enter a whole number of ports."));
        QVERIFY(!okEnabled(dlg));
        retype(dlg->field(QStringLiteral("radix")), QStringLiteral("128"));
        retype(dlg->field(QStringLiteral("port")), QStringLiteral("800"));
        // The reduction figure only counts while in-network reduction is on.
        dlg->reductionBox()->setChecked(false);
        dlg->field(QStringLiteral("reduction"))->setText(QStringLiteral("-1"));
        QVERIFY(okEnabled(dlg));
        dlg->reductionBox()->setChecked(true);
        QVERIFY(!okEnabled(dlg));
        retype(dlg->field(QStringLiteral("reduction")), QStringLiteral("100"));
        QVERIFY(okEnabled(dlg));
        screenshot(dlg, QStringLiteral("custom-switch-dialog.png"));
        pressOk(dlg);

        const CatalogStore &store = CatalogStore::instance();
        QCOMPARE(store.custom().hardware.switches.size(), 1u);
        const SwitchSpec spec = store.custom().hardware.switches.begin()->second;
        QCOMPARE(spec.technology, Technology::Ethernet);
        QCOMPARE(spec.radix, 128);
        QCOMPARE(spec.portRate, 100e9); // 800 Gb/s in bytes/s
        QCOMPARE(spec.reductionRate, 100e9);
        QTreeWidgetItem *model = customRow(QStringLiteral("Lab 102T"));
        QVERIFY(model);
        QCOMPARE(model->childCount(), 3); // Leaf, Spine, Core

        // Drop its spine tier; undo, redo.
        QTreeWidgetItem *spine = model->child(1);
        QCOMPARE(palette()->tree()->itemOf(spine)->role, SwitchRole::Spine);
        const std::size_t nodes = doc()->design().nodes().size();
        auto mime = catalogMimeData(*palette()->tree()->itemOf(spine));
        QVERIFY(drop(view(), mime.get(),
                     view().topologyScene()->contentBounds().topLeft() + QPointF(0, -200)));
        QCOMPARE(doc()->design().nodes().size(), nodes + 1);
        const NodeId added = doc()->design().nodes().back().id;
        QCOMPARE(doc()->design().node(added)->role, SwitchRole::Spine);
        QCOMPARE(doc()->design().switchSpec(*doc()->design().node(added))->radix, 128);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().nodes().size(), nodes);
        doc()->undoStack()->redo();
        QCOMPARE(doc()->design().nodes().size(), nodes + 1);

        // Edit from the context menu: the dialog comes prefilled; the catalog changes, the
        // design keeps the figures it was built with.
        std::unique_ptr<QMenu> menu(palette()->contextMenuFor(model));
        QVERIFY(actionNamed(menu.get(), QStringLiteral("Delete")));
        actionNamed(menu.get(), QStringLiteral("Edit"))->trigger();
        dlg = dialog();
        QVERIFY(dlg);
        QCOMPARE(dlg->windowTitle(), QStringLiteral("Edit custom switch"));
        QCOMPARE(dlg->field(QStringLiteral("radix"))->text(), QStringLiteral("128"));
        retype(dlg->field(QStringLiteral("port")), QStringLiteral("400"));
        pressOk(dlg);
        QCOMPARE(store.custom().hardware.switches.size(), 1u);
        QCOMPARE(store.custom().hardware.switches.at(spec.key).portRate, 50e9);
        QCOMPARE(doc()->catalog().hardware.switches.at(spec.key).portRate, 50e9);
        QCOMPARE(doc()->design().switchSpec(*doc()->design().node(added))->portRate, 100e9);
        // Dropped again: the new node has the new figures, the first keeps the old ones.
        const std::size_t specs = doc()->design().hardware.switches.size();
        mime = catalogMimeData(
            *palette()->tree()->itemOf(customRow(QStringLiteral("Lab 102T"))->child(0)));
        QVERIFY(drop(view(), mime.get(),
                     view().topologyScene()->contentBounds().topRight() + QPointF(0, -200)));
        const Node &again = doc()->design().nodes().back();
        QCOMPARE(again.role, SwitchRole::Leaf);
        QCOMPARE(doc()->design().switchSpec(again)->portRate, 50e9);
        QCOMPARE(doc()->design().hardware.switches.size(), specs + 1);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().hardware.switches.size(), specs);
        QCOMPARE(doc()->design().switchSpec(*doc()->design().node(added))->portRate, 100e9);

        // Delete (after a question): gone from the palette and the catalog; the design's node
        // still has its spec.
        model = customRow(QStringLiteral("Lab 102T"));
        menu.reset(palette()->contextMenuFor(model));
        actionNamed(menu.get(), QStringLiteral("Delete"))->trigger();
        QCOMPARE(m_presenter->questions.size(), 1);
        QVERIFY(m_presenter->questions.front().contains(QStringLiteral("Lab 102T")));
        QVERIFY(!customRow(QStringLiteral("Lab 102T")));
        QVERIFY(store.custom().hardware.switches.empty());
        QVERIFY(doc()->design().switchSpec(*doc()->design().node(added)));

        // Built-in entries offer a copy as a custom entry, not edit or delete.
        QTreeWidgetItem *h100 = palette()->tree()->findEntry(QStringLiteral("H100 SXM5"));
        menu.reset(palette()->contextMenuFor(h100));
        QVERIFY(!actionNamed(menu.get(), QStringLiteral("Delete")));
        actionNamed(menu.get(), QStringLiteral("Based on This"))->trigger();
        dlg = dialog();
        QVERIFY(dlg);
        QCOMPARE(dlg->field(QStringLiteral("name"))->text(),
                 QStringLiteral("NVIDIA H100 SXM5 80GB (custom)"));
        QCOMPARE(dlg->field(QStringLiteral("bf16"))->text(), QStringLiteral("989.4"));
        dlg->reject();
    }

    // A built-in switch's source is a long datasheet reference: the field opened showing its
    // last words. It opens at the start now, the beginning of the reference in view.
    void sourceFieldOpensAtItsStart()
    {
        const SwitchSpec nvs
            = CatalogStore::instance().catalog().hardware.switches.at("nvswitch-gen3");
        QVERIFY(nvs.source.size() > 200);
        CustomHardwareDialog d(nvs);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        auto *source = d.findChild<QLineEdit *>(QStringLiteral("source"));
        QVERIFY(source);
        QCOMPARE(source->text(), QString::fromStdString(nvs.source));
        QVERIFY(source->fontMetrics().horizontalAdvance(source->text()) > source->width());
        QCOMPARE(source->cursorPosition(), 0);
        QVERIFY(source->inputMethodQuery(Qt::ImCursorRectangle).toRect().left()
                < 12); // start shown
    }

    void unreadableUserCatalogLeavesBuiltinPalette()
    {
        QDir().mkpath(QFileInfo(CatalogStore::defaultUserPath()).absolutePath());
        QFile f(CatalogStore::defaultUserPath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"weft.catalog\", \"version\": 1, \"switches\": [{\"key\": 7}]}");
        f.close();
        CatalogStore::instance().reload(); // as at start
        QVERIFY(palette()->problemLabel()->isVisible());
        const QString text = palette()->problemLabel()->text();
        QVERIFY2(text.contains(CatalogStore::defaultUserPath()), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("/switches/0/key")), qPrintable(text));
        QVERIFY(palette()->tree()->findEntry(QStringLiteral("Spine")));
        QCOMPARE(palette()->tree()->customCategory()->childCount(), 1); // the hint
        // A new window in this state works too.
        MainWindow other;
        QVERIFY(other.paletteDock()->tree()->findEntry(QStringLiteral("H100")));
        CatalogStore::instance().reload();
    }
};

QTEST_MAIN(TestCustomHardware)
#include "tst_customhardware.moc"
