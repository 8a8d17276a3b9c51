#include "gui/actions/analysisactions.h"

#include "gui/charts/chartdata.h"
#include "gui/dialogs/plandialog.h"
#include "gui/dialogs/sweepdialog.h"
#include "gui/dialogs/whatifdialog.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/resultsdock.h"
#include "gui/simulation/comparison.h"

#include <QAction>
#include <QMenu>

namespace weft {

AnalysisActions::AnalysisActions(DesignDocument *doc, ResultsDock *results, CompareDock *compare,
                                 QWidget *window)
    : QObject(window)
    , sweep(new QAction(tr("S&weep..."), this))
    , plan(new QAction(tr("Pl&an..."), this))
    , whatIf(new QAction(tr("&What-if Trials..."), this))
    , m_doc(doc)
    , m_results(results)
    , m_compare(compare)
    , m_window(window)
{
    sweep->setObjectName(QStringLiteral("actionSweep"));
    sweep->setToolTip(tr("Simulate variants of this design over one parameter (scale-up domain "
                         "size, TP, oversubscription, NIC rate...) and plot step time and MFU"));
    connect(sweep, &QAction::triggered, this, [this] {
        SweepDialog *dialog = sweepDialog();
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    plan->setObjectName(QStringLiteral("actionPlan"));
    plan->setToolTip(tr("Find the fastest parallelism and placement of this design's model"));
    connect(plan, &QAction::triggered, this, [this] {
        PlanDialog *dialog = planDialog();
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
    whatIf->setObjectName(QStringLiteral("actionWhatIfTrials"));
    whatIf->setToolTip(tr("The step time under K random cable failures over T trials: median, "
                          "p95, worst and the cables that hurt most"));
    connect(whatIf, &QAction::triggered, this, [this] {
        WhatIfDialog *dialog = whatIfDialog();
        dialog->show();
        dialog->raise();
        dialog->activateWindow();
    });
}

WhatIfDialog *AnalysisActions::whatIfDialog()
{
    if (!m_whatIfDialog)
        m_whatIfDialog = new WhatIfDialog(m_doc, m_window);
    return m_whatIfDialog;
}

PlanDialog *AnalysisActions::planDialog()
{
    if (!m_planDialog)
        m_planDialog = new PlanDialog(m_doc, m_window->findChild<Comparison *>(), m_window);
    return m_planDialog;
}

SweepDialog *AnalysisActions::sweepDialog()
{
    if (!m_dialog) {
        m_dialog = new SweepDialog(m_doc, m_window);
        connect(m_dialog, &SweepDialog::chartReady, m_results, &ResultsDock::showSweep);
    }
    return m_dialog;
}

void AnalysisActions::addTo(QMenu *menu)
{
    menu->addSeparator();
    menu->addAction(sweep);
    menu->addAction(plan);
    menu->addAction(whatIf);
    menu->addSeparator();
    menu->addActions({m_compare->pin, m_compare->addFile, m_compare->clear});
}

} // namespace weft
