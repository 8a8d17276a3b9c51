#pragma once
// FindingsDock: the live list of problems in the design and its workload (validation, the
// simulator's preflight and the last simulation's warnings), errors first. Clicking a finding
// selects its subjects on the canvas.

#include "document/fragment.h"
#include "model/finding.h"

#include <QDockWidget>

class QTreeWidget;

namespace weft {

class DesignDocument;
class SimulationRunner;

class FindingsDock : public QDockWidget
{
    Q_OBJECT
public:
    FindingsDock(DesignDocument *doc, SimulationRunner *runner, QWidget *parent = nullptr);

    /// The nodes, links and domains a finding names (its id lists and its "node:<id>",
    /// "link:<id>", "group:<id>" subjects), restricted to those in `design`.
    static IdSet subjectsOf(const Finding &finding, const Design &design);
    /// The dock's title: "Findings", "Findings (1 error)", "Findings (2 errors, 1 warning)"
    /// (notes count as warnings).
    static QString titleFor(int findings, int errors);
    [[nodiscard]] QTreeWidget *list() const { return m_list; }

signals:
    /// A finding was clicked and its subjects selected (the window brings them into view).
    void subjectsSelected();

private:
    void refresh();
    void select(int row);

    DesignDocument *m_doc;
    SimulationRunner *m_runner;
    QTreeWidget *m_list;
    std::vector<Finding> m_shown;
};

} // namespace weft
