#include "chartspanel.h"

#include "breakdownchart.h"
#include "chartmenu.h"
#include "collectivechart.h"
#include "gui/appsettings.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/dialogs/preferencesdialog.h"
#include "linkserieschart.h"
#include "memorychart.h"
#include "sweepchart.h"
#include "timelinechart.h"
#include "utilizationchart.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>

namespace weft {

ChartsPanel::ChartsPanel(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
    m_breakdown = new BreakdownChart(this);
    m_timeline = new TimelineChart(this);
    m_utilization = new UtilizationChart(this);
    m_linkSeries = new LinkSeriesChart(this);
    m_memory = new MemoryChart(this);
    m_collective = new CollectiveChart(this);
    m_sweep = new SweepChart(this);
    addChart(m_breakdown, tr("Breakdown"));
    addChart(m_timeline, tr("Timeline"));
    addChart(m_utilization, tr("Utilization"));
    addChart(m_linkSeries, tr("Link"));
    addChart(m_memory, tr("Memory"));
    addChart(m_collective, tr("Collectives"));
    addChart(m_sweep, tr("Sweep"));
    const QString simulate = tr("No simulation result yet.\nGive the design a workload in the "
                                "Partitions dock,\nthen Simulation > Simulate (F5).");
    for (Chart *chart :
         QList<Chart *> {m_breakdown, m_timeline, m_utilization, m_memory, m_collective})
        chart->setEmptyHint(simulate);
    m_linkSeries->setEmptyHint(tr("No link chosen.\nAfter a simulation, click a link on the "
                                  "canvas\nto plot its traffic over the step."));
    m_sweep->setEmptyHint(tr("No sweep yet.\nSimulation > Sweep... varies one parameter\n"
                             "(domain size, TP, PP, ...) and plots step time and MFU here."));
}

QList<Chart *> ChartsPanel::charts() const
{
    return {m_breakdown, m_timeline, m_utilization, m_linkSeries, m_memory, m_collective, m_sweep};
}

void ChartsPanel::addChart(Chart *chart, const QString &tabTitle)
{
    chart->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(chart, &QWidget::customContextMenuRequested, this, [this, chart](const QPoint &pos) {
        std::unique_ptr<QMenu> menu(createContextMenu(chart));
        menu->exec(chart->mapToGlobal(pos));
    });
    addTab(chart, tabTitle);
}

QMenu *ChartsPanel::createContextMenu(Chart *chart)
{
    return createChartMenu(this, chart,
                           [this, chart](ChartFormat format) { exportWithDialog(chart, format); });
}

void ChartsPanel::setExportOptions(const ChartExportOptions &options)
{
    AppSettings::setChartExportOptions(options);
}

ChartExportOptions ChartsPanel::exportOptions()
{
    return AppSettings::chartExportOptions();
}

bool ChartsPanel::exportTo(Chart *chart, ChartFormat format, const QString &path, QString *error)
{
    return exportChartTo(chart, format, path, error);
}

QString ChartsPanel::exportWithDialog(Chart *chart, ChartFormat format)
{
    const QString path = exportChartWithDialog(this, chart, format);
    if (!path.isEmpty())
        emit exported(path);
    return path;
}

} // namespace weft
