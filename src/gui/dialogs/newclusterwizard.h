#pragma once
// NewClusterWizard ("New cluster…"): the generator's parameters with live port-budget checks
// (planFabric on every change) and the bill of materials of the generated fabric, built on a
// worker thread, before Create is enabled. The created design becomes one undo step
// (DesignDocument::generateCluster). Form: ui/newclusterwizard.ui.

#include "generate/bom.h"
#include "model/catalog.h"
#include "model/design.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QTimer>
#include <memory>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTreeWidget;

namespace Ui {
class NewClusterWizard;
}

namespace weft {

class NewClusterWizard : public QDialog
{
    Q_OBJECT
public:
    explicit NewClusterWizard(const Catalog &catalog, QWidget *parent = nullptr);
    ~NewClusterWizard() override;

    /// Fills the fields from `params`.
    void setParams(const FabricParams &params);
    /// The parameters the fields describe.
    [[nodiscard]] FabricParams params() const;
    /// True when the current parameters fit and their design and BOM are ready (Create enabled).
    [[nodiscard]] bool isReady() const { return m_design.has_value(); }
    /// The problems of the current parameters (empty when they fit), with their suggested
    /// fixes in the wizard's own terms (inFieldTerms).
    [[nodiscard]] QStringList problems() const { return m_problems; }
    /// The generated design (after accept()); empties the wizard.
    std::optional<Design> takeDesign();
    [[nodiscard]] QTreeWidget *bomView() const { return m_bom; }

signals:
    /// The design and BOM of the current parameters are ready.
    void ready();

private:
    /// A generator message with its command-line fix ("use --fabric fat-tree --tiers 3") in
    /// the fields' terms ("set Fabric to “Plain fat-tree”, Tiers to 3").
    [[nodiscard]] QString inFieldTerms(const std::string &message) const;
    void showProblems(); ///< m_problems in the summary, under "Does not fit:"
    void paramsChanged();
    void startGeneration();
    void generationFinished();

    struct Generated
    {
        int serial = 0;
        std::optional<Design> design;
        QStringList errors;
        BillOfMaterials bom;
    };

    std::unique_ptr<Ui::NewClusterWizard> m_ui;
    const Catalog &m_catalog;
    QComboBox *m_preset, *m_fabric, *m_switch;
    QSpinBox *m_domains, *m_tiers, *m_planes, *m_suSize;
    QDoubleSpinBox *m_nic, *m_oversub;
    QLabel *m_summary;
    QTreeWidget *m_bom;
    QDialogButtonBox *m_buttons;
    QTimer m_debounce;
    QFutureWatcher<std::shared_ptr<Generated>> m_watcher;
    int m_serial = 0;
    std::optional<Design> m_design;
    QStringList m_problems;
};

} // namespace weft
