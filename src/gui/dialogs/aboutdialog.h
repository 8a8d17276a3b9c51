#pragma once
// The About dialog: version, licence (GPL-3.0-or-later) and the third-party notices of the
// libraries Weft ships with (Qt, QCustomPlot, nlohmann_json).

#include <QDialog>

namespace weft {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget *parent = nullptr);

    /// The dialog's text as rich text (also used by tests).
    static QString aboutText();
};

} // namespace weft
