#pragma once
// UnitField: a number entry with its unit shown beside it, validated as you type (red frame and
// a tooltip saying what is wrong); it reports a value only when the text is valid.

#include <QWidget>
#include <optional>

class QLabel;
class QLineEdit;

namespace weft {

class UnitField : public QWidget
{
    Q_OBJECT
public:
    /// Accepts numbers in [minimum, maximum] (`minimumExclusive`: strictly above minimum).
    UnitField(const QString &unit, double minimum, double maximum, bool minimumExclusive,
              QWidget *parent = nullptr);
    /// Shows `value`, or an empty field with "mixed" when the selection disagrees (nullopt).
    void setValue(std::optional<double> value);
    /// The parsed value when the text is valid.
    [[nodiscard]] std::optional<double> value() const;
    [[nodiscard]] bool isValid() const { return m_valid; }
    [[nodiscard]] QLineEdit *lineEdit() const { return m_edit; }

signals:
    /// Editing finished with a valid value different from the one shown before.
    void committed(double value);

private:
    void validate();

    QLineEdit *m_edit;
    QLabel *m_unit;
    double m_min, m_max;
    bool m_minExclusive;
    bool m_valid = true;
    std::optional<double> m_shown;
};

} // namespace weft
