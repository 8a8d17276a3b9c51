#pragma once
// AnalysisActions: the Simulation menu's analysis entries. Sweep... opens the window's sweep
// dialog (one per window, modeless) and routes its chart to the Results dock; Plan... and
// What-if Trials... open theirs (modeless, one per window); the comparison
// entries are the Compare dock's actions (pin the current result, compare with a file, clear).

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace weft {

class CompareDock;
class DesignDocument;
class ResultsDock;
class PlanDialog;
class SweepDialog;
class WhatIfDialog;

class AnalysisActions : public QObject
{
    Q_OBJECT
public:
    AnalysisActions(DesignDocument *doc, ResultsDock *results, CompareDock *compare,
                    QWidget *window);
    void addTo(QMenu *menu);

    /// The window's sweep dialog, created on first use.
    SweepDialog *sweepDialog();
    /// The window's plan dialog (Simulation > Plan...), created on first use.
    PlanDialog *planDialog();
    /// The window's what-if trials dialog (Simulation > What-if Trials...), created on first use.
    WhatIfDialog *whatIfDialog();

    QAction *sweep;
    QAction *plan;
    QAction *whatIf;

private:
    DesignDocument *m_doc;
    ResultsDock *m_results;
    CompareDock *m_compare;
    QWidget *m_window;
    SweepDialog *m_dialog = nullptr;
    PlanDialog *m_planDialog = nullptr;
    WhatIfDialog *m_whatIfDialog = nullptr;
};

} // namespace weft
