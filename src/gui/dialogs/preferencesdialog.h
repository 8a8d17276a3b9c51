#pragma once
// Preferences: the theme and the defaults of chart exports (page size in px, resolution in
// dpi, format, folder). Opens with the stored settings; OK stores them (AppSettings) and
// applies a changed theme to the whole application.

#include "gui/appsettings.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace weft {

class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);

    /// Stores what the fields show and applies the theme (what OK does).
    void apply();

    // The fields, for tests (object names themeBox, widthBox, heightBox, dpiBox, formatBox,
    // folderEdit).
    [[nodiscard]] QComboBox *themeBox() const { return m_theme; }
    [[nodiscard]] QSpinBox *widthBox() const { return m_width; }
    [[nodiscard]] QSpinBox *heightBox() const { return m_height; }
    [[nodiscard]] QSpinBox *dpiBox() const { return m_dpi; }
    [[nodiscard]] QComboBox *formatBox() const { return m_format; }
    [[nodiscard]] QLineEdit *folderEdit() const { return m_folder; }

private:
    QComboBox *m_theme;
    QSpinBox *m_width;
    QSpinBox *m_height;
    QSpinBox *m_dpi;
    QComboBox *m_format;
    QLineEdit *m_folder;
};

} // namespace weft
