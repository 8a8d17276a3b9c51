#pragma once
// The About dialog: version, licence (GPL-3.0-or-later) and the third-party notices of the
// libraries Weft ships with (Qt, QCustomPlot, nlohmann_json). Form: ui/aboutdialog.ui.

#include <QDialog>
#include <memory>

namespace Ui {
class AboutDialog;
}

namespace weft {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);
    ~AboutDialog() override;

    /// The dialog's text as rich text (also used by tests).
    static QString aboutText();

private:
    std::unique_ptr<Ui::AboutDialog> m_ui; ///< the form, ui/aboutdialog.ui
};

} // namespace weft
