#pragma once
// The fraction a degradation keeps (a link's line rate, an accelerator's clock): a small
// dialog with one validated field, and the validation on its own for tests.

#include <QDialog>
#include <QString>
#include <functional>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace weft {

/// `text` as a fraction in (0, 1] ("0.5", "50%"); nullopt with `error` naming `field` when it
/// is not a number or out of range.
std::optional<double> parseFraction(const QString &text, const QString &field, QString *error);

/// Asks a fraction: `title` of the dialog, `field` the label of the value ("Fraction of the
/// line rate kept"), `initial` the value shown. nullopt when cancelled.
using FractionPrompt = std::function<std::optional<double>(QWidget *parent, const QString &title,
                                                           const QString &field, double initial)>;

/// The dialog behind the default FractionPrompt: OK is enabled only for a valid fraction, and
/// the error under the field says what is wrong.
class FractionDialog : public QDialog
{
    Q_OBJECT
public:
    FractionDialog(const QString &title, const QString &field, double initial,
                   QWidget *parent = nullptr);
    [[nodiscard]] std::optional<double> value() const;
    [[nodiscard]] QLineEdit *edit() const { return m_edit; }
    [[nodiscard]] QString errorText() const;

    /// Runs the dialog modally.
    static std::optional<double> ask(QWidget *parent, const QString &title, const QString &field,
                                     double initial);

private:
    void validate();

    QString m_field;
    QLineEdit *m_edit;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace weft
