#pragma once
// HelpActions: the Help menu: the user guide (F1; resources/help/userguide.html, shipped in the
// binary), the keyboard shortcuts of the window's menus, and About Weft (version, licence,
// third-party notices).

#include <QObject>
#include <QPointer>

class QAction;
class QDialog;
class QMenu;
class QMenuBar;
class QWidget;

namespace weft {

class HelpActions : public QObject
{
    Q_OBJECT
public:
    /// Dialogs open over `window`, which owns the actions; `menus` is the bar whose actions
    /// the shortcuts list names.
    HelpActions(QWidget *window, QMenuBar *menus);
    void addTo(QMenu *menu);

    QAction *guide; ///< object name actionUserGuide, F1
    QAction *shortcuts; ///< object name actionShortcuts
    QAction *about; ///< object name actionAbout

    /// "Menu > Action" and its shortcut for every menu action with one, in menu order, then the
    /// toolbar's canvas tools and the keys the canvas takes without an action (Space, Esc).
    [[nodiscard]] static QList<QPair<QString, QString>> shortcutList(const QMenuBar *menus);
    /// The user guide window (created on first use; object name UserGuide).
    QDialog *guideWindow();

private:
    QWidget *m_window;
    QMenuBar *m_menus;
    QPointer<QDialog> m_guide;
};

} // namespace weft
