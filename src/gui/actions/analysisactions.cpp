#include "gui/actions/analysisactions.h"

#include "gui/charts/chartdata.h"
#include "gui/dialogs/sweepdialog.h"
#include "gui/docks/comparedock.h"
#include "gui/docks/resultsdock.h"

#include <QAction>
#include <QMenu>

namespace weft {

AnalysisActions::AnalysisActions(DesignDocument *doc, ResultsDock *results, CompareDock *compare,
                                 QWidget *window)
    : QObject(window)
    , sweep(new QAction(tr("S&weep..."), this))
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
    menu->addSeparator();
    menu->addActions({m_compare->pin, m_compare->addFile, m_compare->clear});
}

} // namespace weft
