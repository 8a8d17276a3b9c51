#include "chartspanel.h"

#include "breakdownchart.h"
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
    auto *menu = new QMenu;
    const std::pair<ChartFormat, QString> entries[]
        = {{ChartFormat::Png, tr("Export as &PNG...")},
           {ChartFormat::Pdf, tr("Export as P&DF...")},
           {ChartFormat::Svg, tr("Export as &SVG...")},
           {ChartFormat::Csv, tr("Export data as &CSV...")}};
    const ChartFormat last = AppSettings::lastChartFormat();
    for (const auto &[format, text] : entries) {
        QAction *action = menu->addAction(text);
        action->setData(int(format));
        if (format == last)
            menu->setDefaultAction(action);
        connect(action, &QAction::triggered, this,
                [this, chart, format = format] { exportWithDialog(chart, format); });
    }
    QAction *options = menu->addAction(tr("Export &options..."));
    options->setObjectName(QStringLiteral("actionExportOptions"));
    connect(options, &QAction::triggered, this, [this] {
        auto *dialog = new PreferencesDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    menu->addSeparator();
    connect(menu->addAction(tr("&Reset view")), &QAction::triggered, chart, &Chart::resetView);
    return menu;
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
    const ChartExportOptions options = exportOptions();
    switch (format) {
    case ChartFormat::Png:
        return ChartExporter::savePng(*chart, path, options, error);
    case ChartFormat::Pdf:
        return ChartExporter::savePdf(*chart, path, options, error);
    case ChartFormat::Svg:
        return ChartExporter::saveSvg(*chart, path, options, error);
    case ChartFormat::Csv:
        return ChartExporter::saveCsv(*chart, path, error);
    }
    return false;
}

QString ChartsPanel::exportWithDialog(Chart *chart, ChartFormat format)
{
    const QString ext = chartFormatExtension(format);
    const QString filter = tr("%1 files (*.%2)").arg(ext.toUpper(), ext);
    const QString suggestion
        = QDir(AppSettings::lastExportFolder()).filePath(chart->chartId() + QLatin1Char('.') + ext);
    QString path = dialogPresenter().exportFileName(this, tr("Export chart"), suggestion, filter);
    if (path.isEmpty())
        return {};
    if (!path.endsWith(QLatin1Char('.') + ext, Qt::CaseInsensitive))
        path += QLatin1Char('.') + ext;
    QString error;
    if (!exportTo(chart, format, path, &error)) {
        dialogPresenter().showError(this, tr("Cannot export the chart"), error);
        return {};
    }
    AppSettings::setLastExportFolder(QFileInfo(path).absolutePath());
    AppSettings::setLastChartFormat(format);
    emit exported(path);
    return path;
}

} // namespace weft
