#pragma once
// SettingsActions: View > Theme (System, Light, Dark; stored in the settings and applied to the
// whole application at once) and Edit > Preferences (theme and chart-export defaults).

#include "gui/appsettings.h"

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace weft {

class SettingsActions : public QObject
{
    Q_OBJECT
public:
    /// `window` parents the Preferences dialog.
    SettingsActions(QWidget *window, QObject *parent);
    /// Adds the Theme submenu to `viewMenu` and Preferences to `editMenu`.
    void addTo(QMenu *viewMenu, QMenu *editMenu);

    /// The checkable action choosing `theme` (object names actionThemeSystem/Light/Dark).
    [[nodiscard]] QAction *themeAction(Theme theme) const;
    QAction *preferences;

private:
    void syncChecked();

    QWidget *m_window;
    QAction *m_themeActions[3];
};

} // namespace weft
