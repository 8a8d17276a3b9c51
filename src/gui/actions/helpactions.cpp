#include "gui/actions/helpactions.h"

#include "gui/dialogs/aboutdialog.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTextBrowser>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace weft {

namespace {

const QString kGuide = QStringLiteral("qrc:/weft/help/userguide.html");

void collect(const QMenu *menu, const QString &path, QList<QPair<QString, QString>> &out)
{
    for (const QAction *a : menu->actions()) {
        const QString name = path + QStringLiteral(" > ") + QString(a->text()).remove(u'&');
        if (a->menu())
            collect(a->menu(), name, out);
        else if (!a->isSeparator() && !a->shortcut().isEmpty())
            out.append({name, a->shortcut().toString(QKeySequence::NativeText)});
    }
}

QDialog *closableDialog(QWidget *parent, const QString &title, QWidget *content, QSize size)
{
    auto *dialog = new QDialog(parent);
    dialog->setWindowTitle(title);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(content);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    // At least half the main window: at 1600x1000 a fixed 560 px list looked like a pop-up.
    const QSize half = parent ? parent->window()->size() / 2 : QSize();
    dialog->resize(size.expandedTo(half));
    return dialog;
}

} // namespace

HelpActions::HelpActions(QWidget *window, QMenuBar *menus)
    : QObject(window)
    , guide(new QAction(tr("Weft &User Guide"), this))
    , shortcuts(new QAction(tr("&Keyboard Shortcuts"), this))
    , about(new QAction(tr("&About Weft"), this))
    , m_window(window)
    , m_menus(menus)
{
    guide->setObjectName(QStringLiteral("actionUserGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    if (guide->shortcut().isEmpty())
        guide->setShortcut(Qt::Key_F1);
    shortcuts->setObjectName(QStringLiteral("actionShortcuts"));
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(guide, &QAction::triggered, this, [this] {
        QDialog *w = guideWindow();
        w->show();
        w->raise();
        w->activateWindow();
    });
    connect(shortcuts, &QAction::triggered, this, [this] {
        auto *list = new QTreeWidget;
        list->setObjectName(QStringLiteral("shortcutList"));
        list->setHeaderLabels({tr("Action"), tr("Shortcut")});
        list->setRootIsDecorated(false);
        for (const auto &[name, keys] : shortcutList(m_menus))
            list->addTopLevelItem(new QTreeWidgetItem({name, keys}));
        list->header()->setSectionResizeMode(0, QHeaderView::Stretch);
        list->resizeColumnToContents(1);
        QDialog *dialog = closableDialog(m_window, tr("Keyboard Shortcuts"), list, {560, 560});
        dialog->setObjectName(QStringLiteral("KeyboardShortcuts"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    connect(about, &QAction::triggered, this, [this] {
        auto *dialog = new AboutDialog(m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
}

void HelpActions::addTo(QMenu *menu)
{
    menu->addActions({guide, shortcuts});
    menu->addSeparator();
    menu->addAction(about);
}

QList<QPair<QString, QString>> HelpActions::shortcutList(const QMenuBar *menus)
{
    QList<QPair<QString, QString>> out;
    for (const QAction *a : menus->actions())
        if (a->menu())
            collect(a->menu(), QString(a->text()).remove(u'&'), out);
    // The canvas tools live on the toolbar only (S, C were missing from the list), and some
    // keys act on the canvas without an action.
    QSet<QString> listed;
    for (const auto &[name, keys] : out)
        listed.insert(keys);
    for (const QToolBar *bar : menus->window()->findChildren<QToolBar *>())
        for (const QAction *a : bar->actions()) {
            const QString keys = a->shortcut().toString(QKeySequence::NativeText);
            if (!a->shortcut().isEmpty() && !listed.contains(keys)) {
                out.append({tr("Canvas > %1 tool").arg(QString(a->text()).remove(u'&')), keys});
                listed.insert(keys);
            }
        }
    const auto key = [](Qt::Key k) { return QKeySequence(k).toString(QKeySequence::NativeText); };
    out.append({tr("Canvas > Pan (hold while dragging)"), key(Qt::Key_Space)});
    out.append({tr("Canvas > Cancel the gesture, clear the selection"), key(Qt::Key_Escape)});
    out.append({tr("Canvas > Fault menu of the item under the mouse"), key(Qt::Key_Menu)});
    return out;
}

QDialog *HelpActions::guideWindow()
{
    if (!m_guide) {
        auto *browser = new QTextBrowser;
        browser->setObjectName(QStringLiteral("guideText"));
        browser->setOpenExternalLinks(true);
        browser->setSource(QUrl(kGuide));
        m_guide = closableDialog(m_window, tr("Weft User Guide"), browser, {760, 720});
        m_guide->setObjectName(QStringLiteral("UserGuide"));
    }
    return m_guide;
}

} // namespace weft
