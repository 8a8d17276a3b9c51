// The what-if context menu of the canvas (issue 19) in a real main window: a right click that
// does not drag opens it; on a switch it marks the switch down and restores it, on a link it
// marks it down or degrades its rate (the fraction asked through the prompt), on an accelerator
// it slows its clock, on empty canvas it restores every fault (disabled when there is none).
// Faults show in the canvas legend and the Properties dock; the fraction field is validated.
#include "canvasdriver.h"
#include "canvasfixtures.h"
#include "document/faultedit.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/faultlegend.h"
#include "gui/canvas/fractionprompt.h"
#include "gui/docks/propertiesdock.h"
#include "gui/mainwindow.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace weft;
using namespace weft::test;

namespace {

QAction *action(QMenu *menu, const char *name)
{
    for (QAction *a : menu->actions())
        if (a->objectName() == QLatin1String(name))
            return a;
    return nullptr;
}

// The object names of the menu's actions, comma-separated.
QString names(QMenu *menu)
{
    QStringList out;
    for (QAction *a : menu->actions())
        if (!a->objectName().isEmpty())
            out << a->objectName();
    return out.join(u',');
}

NodeId leafOf(const Design &d)
{
    for (const Node &n : d.nodes())
        if (n.isSwitch() && n.role == SwitchRole::Leaf)
            return n.id;
    return {};
}

} // namespace

class TestWhatIfCanvas : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_w;
    std::unique_ptr<RecordingPresenter> m_presenter;
    DesignDocument *doc() { return m_w->document(); }
    TopologyView &view() { return *m_w->view(); }

    QPoint at(QPointF scene) { return view().mapFromScene(scene); }
    QPointF nodePos(NodeId id)
    {
        const Node *n = doc()->design().node(id);
        return {n->x, n->y};
    }
    /// A scene point on `link` where nothing but its bundle is hit.
    QPointF onLink(LinkId link)
    {
        const Link *l = doc()->design().link(link);
        const QPointF a = nodePos(l->a), b = nodePos(l->b);
        for (double t = 0.3; t <= 0.7; t += 0.02) {
            const QPointF p = a + (b - a) * t;
            const CanvasHit hit = view().topologyScene()->hitAt(p, 4.0 / view().zoom());
            if (!hit.node.valid() && !hit.group.valid()
                && std::count(hit.links.begin(), hit.links.end(), link))
                return p;
        }
        return {};
    }
    std::unique_ptr<QMenu> menuAt(QPointF scene)
    {
        return std::unique_ptr<QMenu>(view().contextMenuAt(at(scene)));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1400, 900);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
        openDesign(view(), fixtures::smallFabric());
        for (const Group &g : doc()->design().groups()) // members visible: accelerators hit
            doc()->setCollapsed(g.id, false);
        view().fitAll();
    }

    void cleanup()
    {
        doc()->undoStack()->setClean();
        m_w.reset();
        m_presenter.reset();
    }

    void switchMarkDownAndRestore()
    {
        const NodeId leaf = leafOf(doc()->design());
        auto menu = menuAt(nodePos(leaf));
        QCOMPARE(names(menu.get()),
                 QStringLiteral("whatIfMarkDown,whatIfRestore,whatIfRestoreAll"));
        QVERIFY(action(menu.get(), "whatIfMarkDown")->isEnabled());
        QVERIFY(!action(menu.get(), "whatIfRestore")->isEnabled());
        QVERIFY(!action(menu.get(), "whatIfRestoreAll")->isEnabled());
        action(menu.get(), "whatIfMarkDown")->trigger();
        QVERIFY(faultOn(doc()->design(), leaf));
        QCOMPARE(faultOn(doc()->design(), leaf)->kind, Fault::Kind::SwitchDown);
        // The legend says how many faults are in effect; the Properties dock the state.
        QVERIFY(view().faultLegend()->isVisible());
        QVERIFY2(view().faultLegend()->title().contains(QStringLiteral("1 fault")),
                 qPrintable(view().faultLegend()->title()));
        IdSet sel;
        sel.nodes.insert(leaf);
        doc()->setSelection(sel);
        auto *state = qobject_cast<QLabel *>(
            m_w->findChild<PropertiesDock *>()->field(QStringLiteral("What if")));
        QVERIFY(state);
        QVERIFY2(state->text().contains(QStringLiteral("down")), qPrintable(state->text()));
        // Canvas exports carry the same legend beside the design.
        QVERIFY(CanvasExporter::layout(*view().topologyScene(), {}).drawFault);

        menu = menuAt(nodePos(leaf));
        QVERIFY(!action(menu.get(), "whatIfMarkDown")->isEnabled());
        QVERIFY(action(menu.get(), "whatIfRestore")->isEnabled());
        action(menu.get(), "whatIfRestore")->trigger();
        QVERIFY(doc()->design().scenario.empty());
        QVERIFY(!view().faultLegend()->isVisible());
        QVERIFY(!CanvasExporter::layout(*view().topologyScene(), {}).drawFault);
        QCOMPARE(state->text(), QStringLiteral("Healthy"));
        doc()->undoStack()->undo(); // restore undone: down again
        QVERIFY(faultOn(doc()->design(), leaf));
    }

    void linkDownAndDegrade()
    {
        const Design &d = doc()->design();
        const NodeId leaf = leafOf(d);
        LinkId link;
        for (const Link &l : d.links())
            if (l.a == leaf || l.b == leaf)
                link = l.id;
        const QPointF p = onLink(link);
        QVERIFY(!p.isNull());
        auto menu = menuAt(p);
        QCOMPARE(names(menu.get()),
                 QStringLiteral("whatIfMarkDown,whatIfRestore,whatIfDegradeRate,whatIfRestoreAll"));
        action(menu.get(), "whatIfMarkDown")->trigger();
        QCOMPARE(faultOn(d, link)->kind, Fault::Kind::LinkDown);
        // Degrade: the prompt is asked for the fraction (here it answers 0.5).
        QString askedField;
        view().setFractionPrompt([&](QWidget *, const QString &, const QString &field, double) {
            askedField = field;
            return std::optional<double>(0.5);
        });
        menu = menuAt(p);
        action(menu.get(), "whatIfDegradeRate")->trigger();
        QCOMPARE(askedField, QStringLiteral("Fraction of the line rate kept"));
        QCOMPARE(faultOn(d, link)->kind, Fault::Kind::LinkRate);
        QCOMPARE(faultOn(d, link)->factor, 0.5);
        QCOMPARE(d.scenario.faults.size(), 1u); // replaced, not added
        // A cancelled prompt changes nothing.
        view().setFractionPrompt(
            [](QWidget *, const QString &, const QString &, double) { return std::nullopt; });
        const int steps = doc()->undoStack()->count();
        menu = menuAt(p);
        action(menu.get(), "whatIfDegradeRate")->trigger();
        QCOMPARE(doc()->undoStack()->count(), steps);
        // Empty canvas: Restore all faults, enabled now.
        const QRectF content = view().topologyScene()->contentBounds();
        menu = menuAt(content.topLeft() - QPointF(30, 30));
        QCOMPARE(names(menu.get()), QStringLiteral("whatIfRestoreAll"));
        QVERIFY(action(menu.get(), "whatIfRestoreAll")->isEnabled());
        action(menu.get(), "whatIfRestoreAll")->trigger();
        QVERIFY(d.scenario.empty());
    }

    void acceleratorSlowClock()
    {
        NodeId acc;
        for (const Node &n : doc()->design().nodes())
            if (n.isAccelerator())
                acc = n.id;
        view().setFractionPrompt([](QWidget *, const QString &, const QString &field, double) {
            return field == QLatin1String("Fraction of the clock kept") ? std::optional(0.8)
                                                                        : std::nullopt;
        });
        auto menu = menuAt(nodePos(acc));
        QCOMPARE(names(menu.get()),
                 QStringLiteral("whatIfSlowClock,whatIfRestore,whatIfRestoreAll"));
        action(menu.get(), "whatIfSlowClock")->trigger();
        QCOMPARE(faultOn(doc()->design(), acc)->kind, Fault::Kind::AcceleratorClock);
        QCOMPARE(faultOn(doc()->design(), acc)->factor, 0.8);
    }

    // A right click (press and release without moving) pops the menu up; a right drag pans.
    void rightClickOpensTheMenu()
    {
        const QPointF p = nodePos(leafOf(doc()->design()));
        mouse(view(), QEvent::MouseButtonPress, p, Qt::RightButton, Qt::RightButton);
        mouse(view(), QEvent::MouseButtonRelease, p, Qt::RightButton, Qt::NoButton);
        QMenu *popup = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            popup = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            return popup != nullptr;
        }));
        QVERIFY(action(popup, "whatIfMarkDown"));
        popup->close();
        drag(view(), p, p + QPointF(80, 40), Qt::RightButton);
        QApplication::processEvents();
        QVERIFY(!QApplication::activePopupWidget());
    }

    void fractionIsValidated()
    {
        QString error;
        QVERIFY(parseFraction(QStringLiteral("0.25"), QStringLiteral("F"), &error)
                == std::optional(0.25));
        QVERIFY(parseFraction(QStringLiteral("50%"), QStringLiteral("F"), &error)
                == std::optional(0.5));
        QVERIFY(parseFraction(QStringLiteral("1"), QStringLiteral("F"), &error)
                == std::optional(1.0));
        for (const char *bad : {"0", "-0.5", "1.5", "half", ""}) {
            error.clear();
            QVERIFY(!parseFraction(QLatin1String(bad), QStringLiteral("Fraction of the clock kept"),
                                   &error));
            QVERIFY2(error.startsWith(QStringLiteral("Fraction of the clock kept: ")),
                     qPrintable(error));
        }
        FractionDialog dialog(QStringLiteral("Degrade link rate"),
                              QStringLiteral("Fraction of the line rate kept"), 0.5);
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(ok->isEnabled());
        dialog.edit()->setText(QStringLiteral("1.5"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(dialog.errorText().contains(QStringLiteral("Fraction of the line rate kept")));
        dialog.edit()->setText(QStringLiteral("0.75"));
        QVERIFY(ok->isEnabled());
        QVERIFY(dialog.value() == std::optional(0.75));
    }
};

QTEST_MAIN(TestWhatIfCanvas)
#include "tst_whatifcanvas.moc"
