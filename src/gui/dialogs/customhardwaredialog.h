#pragma once
// CustomHardwareDialog: creates or edits a custom accelerator or switch of the user catalog
// (document/catalogstore.h). Unit-labelled fields validated as you type; OK stays disabled and
// a line under the form names the first problem until every field is valid. Form:
// ui/customhardwaredialog.ui (name and source; the number fields are added per kind).

#include "model/hardware.h"

#include <QDialog>
#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace Ui {
class CustomHardwareDialog;
}

namespace weft {

class UnitField;

class CustomHardwareDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Kind { Accelerator, Switch };

    /// A dialog for an accelerator prefilled from `spec` (a new entry: a spec with figures to
    /// start from and an empty name, or the custom entry being edited).
    CustomHardwareDialog(const AcceleratorSpec &spec, QWidget *parent = nullptr);
    /// The same for a switch.
    CustomHardwareDialog(const SwitchSpec &spec, QWidget *parent = nullptr);
    ~CustomHardwareDialog() override;

    [[nodiscard]] Kind kind() const { return m_kind; }
    /// The entered accelerator (key and source as given to the constructor, figures in SI).
    [[nodiscard]] AcceleratorSpec accelerator() const;
    [[nodiscard]] SwitchSpec switchSpec() const;
    /// The first problem of the form ("" when it is valid).
    [[nodiscard]] QString problem() const;

    /// Fields by role, for tests and keyboard users: "name", "bf16", "fp8", "hbm",
    /// "hbm_bandwidth", "scale_up", "matmul", "memory" (accelerator); "name", "radix",
    /// "port", "reduction" (switch); "source" for both.
    [[nodiscard]] QLineEdit *field(const QString &role) const;
    [[nodiscard]] QComboBox *technologyBox() const { return m_tech; }
    [[nodiscard]] QCheckBox *reductionBox() const { return m_reduction; }
    [[nodiscard]] QLabel *messageLabel() const { return m_message; }
    [[nodiscard]] QDialogButtonBox *buttons() const { return m_buttons; }

private:
    void build(const QString &title);
    /// Adds a row above the Source row.
    void addRow(const QString &label, QWidget *field);
    UnitField *addNumber(const QString &role, const QString &label, const QString &unit, double min,
                         double max, bool minExclusive, double value, const QString &tip);
    void revalidate();
    void alignUnits();
    /// The value of the number field `role` (0 when invalid).
    [[nodiscard]] double number(const char *role) const;

    std::unique_ptr<Ui::CustomHardwareDialog> m_ui;
    Kind m_kind;
    AcceleratorSpec m_acc;
    SwitchSpec m_sw;
    QFormLayout *m_form = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_source = nullptr;
    QComboBox *m_tech = nullptr;
    QCheckBox *m_reduction = nullptr;
    QLabel *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    std::vector<std::pair<QString, UnitField *>> m_fields; ///< role, field (form order)
    std::vector<QString> m_labels; ///< label text of each field, same order
};

} // namespace weft
