#include "gui/actions/settingsactions.h"

#include "gui/dialogs/preferencesdialog.h"
#include "gui/theme.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace weft {

namespace {

constexpr Theme kThemes[] = {Theme::System, Theme::Light, Theme::Dark};

} // namespace

SettingsActions::SettingsActions(QWidget *window, QObject *parent)
    : QObject(parent)
    , m_window(window)
{
    const QString texts[] = {tr("&System"), tr("&Light"), tr("&Dark")};
    const QString tips[] = {tr("Use the desktop's colours"), tr("Light background, dark text"),
                            tr("Dark background, light text")};
    const char *names[] = {"actionThemeSystem", "actionThemeLight", "actionThemeDark"};
    auto *group = new QActionGroup(this);
    for (int i = 0; i < 3; ++i) {
        const Theme theme = kThemes[i];
        auto *a = new QAction(texts[i], this);
        a->setObjectName(QLatin1String(names[i]));
        a->setToolTip(tips[i]);
        a->setCheckable(true);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [theme] { chooseTheme(theme); });
        m_themeActions[i] = a;
    }
    syncChecked();

    preferences = new QAction(tr("&Preferences..."), this);
    preferences->setObjectName(QStringLiteral("actionPreferences"));
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setShortcut(QKeySequence::Preferences);
    connect(preferences, &QAction::triggered, this, [this] {
        auto *dialog = new PreferencesDialog(m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
}

void SettingsActions::addTo(QMenu *viewMenu, QMenu *editMenu)
{
    QMenu *theme = viewMenu->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("menuTheme"));
    for (QAction *a : m_themeActions)
        theme->addAction(a);
    // Another window or the Preferences dialog may have changed the theme since.
    connect(theme, &QMenu::aboutToShow, this, &SettingsActions::syncChecked);
    editMenu->addSeparator();
    editMenu->addAction(preferences);
}

QAction *SettingsActions::themeAction(Theme theme) const
{
    return m_themeActions[int(theme)];
}

void SettingsActions::syncChecked()
{
    themeAction(AppSettings::theme())->setChecked(true);
}

} // namespace weft
