#pragma once
// WorkloadForm: every field of the workload's model (TransformerSpec) and training
// configuration (TrainingConfig) as editors in sections, with validate()'s messages shown under
// the section they concern. Each committed edit (Enter, focus out, arrow step, combo or box
// change) is one undo step; the widgets follow the document on undo and redo.

#include "workload/workload.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <map>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace weft {

class DesignDocument;

class WorkloadForm : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadForm(QWidget *parent = nullptr);
    void setDocument(DesignDocument *doc);
    /// Shows the document's workload (called on workloadChanged()).
    void refresh();
    /// The editor of field `key` ("tp", "globalBatch", "model.layers", "preset", ...), or nullptr.
    [[nodiscard]] QWidget *field(const QString &key) const;

private:
    /// Applies `edit` to a copy of the workload and pushes it as one undo step "Change <what>".
    /// With `dpFills`, DP follows so that TP x PP x CP x DP still fills the accelerators.
    void commit(const QString &what, const std::function<void(Workload &)> &edit,
                bool dpFills = false);
    QSpinBox *intRow(QFormLayout *form, const QString &key, const QString &label, int lo, int hi,
                     std::function<int &(Workload &)> ref, const QString &tip,
                     bool dpFills = false);
    QCheckBox *boolRow(QFormLayout *form, const QString &key, const QString &label,
                       std::function<bool &(Workload &)> ref, const QString &tip);
    template<class E>
    QComboBox *enumRow(QFormLayout *form, const QString &key, const QString &label,
                       const std::vector<std::pair<QString, E>> &options,
                       std::function<E &(Workload &)> ref, const QString &tip);
    /// A value kept in SI units (`ref`) shown as value x `scale` with `suffix` (s as us: 1e6).
    QDoubleSpinBox *doubleRow(QFormLayout *form, const QString &key, const QString &label,
                              double lo, double hi, int decimals, double scale,
                              const QString &suffix, std::function<double &(Workload &)> ref,
                              const QString &tip);
    /// A text editor of a list field: `format` shows the workload's value, `parse` applies the
    /// text to a workload and returns an error message (empty when the text was kept). A wrong
    /// text is shown in the editor's colour and tooltip and changes nothing.
    QLineEdit *textRow(QFormLayout *form, const QString &key, const QString &label,
                       const QString &tip, const QString &placeholder,
                       std::function<QString(const Workload &)> format,
                       std::function<QString(const QString &, Workload &)> parse);
    void buildListRows(QFormLayout *form); // recomputed modules, layers per stage
    /// Spin boxes and text fields take the width the form gives them (not the width of their
    /// largest value), so the dock stays narrow without a horizontal scroll bar. Combo boxes
    /// keep the width of their texts: in a narrow dock their rows put them under the label.
    static void fitWidth(QWidget *editor);
    /// Shows `text` for the spin box's minimum ("auto", "as TP") and keeps it wide enough to
    /// read it (fitWidth's 90 px cut "auto (hidden / heads)" to "to (hidden / heads)").
    static void withSpecialText(QSpinBox *spin, const QString &text);
    QLabel *issuesLabel(QFormLayout *form);
    void buildModel(QFormLayout *form);
    void buildAttention(QFormLayout *form); // workloadformstack.cpp
    void buildParallelism(QFormLayout *form);
    void buildBatch(QFormLayout *form);
    void buildPrecision(QFormLayout *form);
    void buildStack(QFormLayout *form); // workloadformstack.cpp
    void showIssues(const Workload &w);

    QPointer<DesignDocument> m_doc;
    std::map<QString, QWidget *> m_fields;
    std::vector<std::function<void(const Workload &)>> m_refreshers;
    QLabel *m_modelIssues = nullptr;
    QLabel *m_parallelIssues = nullptr;
    QLabel *m_batchIssues = nullptr;
};

} // namespace weft
