#pragma once
// Preferences: the theme, the defaults of chart exports (page size in px, resolution in
// dpi, format, folder) and whether canvas exports keep the on-screen theme. Opens with the stored
// settings; OK stores them (AppSettings) and applies a changed theme to the whole application.
// Form: ui/preferencesdialog.ui.

#include "gui/appsettings.h"

#include <QDialog>
#include <memory>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace Ui {
class PreferencesDialog;
}

namespace weft {

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);
    ~PreferencesDialog() override;

    /// Stores what the fields show and applies the theme (what OK does).
    void apply();

    // The fields, for tests (object names themeBox, widthBox, heightBox, dpiBox, formatBox,
    // folderEdit).
    [[nodiscard]] QComboBox *themeBox() const;
    [[nodiscard]] QSpinBox *widthBox() const;
    [[nodiscard]] QSpinBox *heightBox() const;
    [[nodiscard]] QSpinBox *dpiBox() const;
    [[nodiscard]] QComboBox *formatBox() const;
    [[nodiscard]] QLineEdit *folderEdit() const;

private:
    std::unique_ptr<Ui::PreferencesDialog> m_ui;
};

} // namespace weft
