#pragma once
// PlanDialog (Simulation > Plan..., issue 16; form ui/plandialog.ui): plans the window's design
// (objective, fixed knobs, ranked count, jobs) on a worker with progress and Cancel; the ranked
// table and the Pareto chart update as candidates are simulated. "Apply" sets the selected
// candidate's workload and placement as one undoable command; "Add to Comparison" simulates
// the selected candidates and pins them in the Compare dock. Modeless: the plan works on a
// copy of the design.

#include "model/design.h"
#include "plan/planner.h"

#include <QDialog>
#include <memory>

namespace Ui {
class PlanDialog;
}

namespace weft {

class Comparison;
class DesignDocument;
class PlanRunner;

class PlanDialog : public QDialog
{
    Q_OBJECT
public:
    /// `comparison` receives "Add to Comparison" entries (the button is hidden when null).
    PlanDialog(DesignDocument *doc, Comparison *comparison, QWidget *parent = nullptr);
    ~PlanDialog() override;

    [[nodiscard]] Ui::PlanDialog *ui() const { return m_ui.get(); }
    [[nodiscard]] PlanRunner *runner() const { return m_runner; }
    /// The ranked rows shown in the table (best first).
    [[nodiscard]] const std::vector<PlanRow> &rankedRows() const { return m_ranked; }

public slots:
    /// Starts the plan of the current fields (does nothing when they are invalid).
    void run();
    /// Applies the selected row (the first when none is selected).
    void applySelected();
    /// Pins the selected rows (the first when none is selected) in the comparison.
    void compareSelected();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void addRow(const PlanRow &row);
    void refreshTable();
    void refreshChart();
    void finished();
    void updateButtons();
    void compareNext();
    [[nodiscard]] std::vector<int> selectedRanks() const;
    [[nodiscard]] PlanObjective objective() const;

    std::unique_ptr<Ui::PlanDialog> m_ui;
    DesignDocument *m_doc;
    Comparison *m_comparison;
    PlanRunner *m_runner;
    Design m_design; ///< the design planned (a copy taken when Run is pressed)
    PlanSpace m_space;
    std::vector<PlanRow> m_simulated;
    std::vector<PlanRow> m_ranked;
    std::vector<PlanRow> m_toCompare;
    bool m_chartDirty = false;
};

} // namespace weft
