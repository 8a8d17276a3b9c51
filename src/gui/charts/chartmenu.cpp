#include "chartmenu.h"

#include "chart.h"
#include "gui/appsettings.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/dialogs/preferencesdialog.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <memory>

namespace weft {

bool exportChartTo(Chart *chart, ChartFormat format, const QString &path, QString *error)
{
    const ChartExportOptions options = AppSettings::chartExportOptions();
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

QString exportChartWithDialog(QWidget *parent, Chart *chart, ChartFormat format)
{
    const QString ext = chartFormatExtension(format);
    const QString filter = QMenu::tr("%1 files (*.%2)").arg(ext.toUpper(), ext);
    const QString suggestion
        = QDir(AppSettings::lastExportFolder()).filePath(chart->chartId() + QLatin1Char('.') + ext);
    QString path
        = dialogPresenter().exportFileName(parent, QMenu::tr("Export chart"), suggestion, filter);
    if (path.isEmpty())
        return {};
    if (!path.endsWith(QLatin1Char('.') + ext, Qt::CaseInsensitive))
        path += QLatin1Char('.') + ext;
    QString error;
    if (!exportChartTo(chart, format, path, &error)) {
        dialogPresenter().showError(parent, QMenu::tr("Cannot export the chart"), error);
        return {};
    }
    AppSettings::setLastExportFolder(QFileInfo(path).absolutePath());
    AppSettings::setLastChartFormat(format);
    return path;
}

QMenu *createChartMenu(QWidget *parent, Chart *chart,
                       const std::function<void(ChartFormat)> &exportTo)
{
    auto *menu = new QMenu;
    const std::pair<ChartFormat, QString> entries[]
        = {{ChartFormat::Png, QMenu::tr("Export as &PNG...")},
           {ChartFormat::Pdf, QMenu::tr("Export as P&DF...")},
           {ChartFormat::Svg, QMenu::tr("Export as &SVG...")},
           {ChartFormat::Csv, QMenu::tr("Export data as &CSV...")}};
    const ChartFormat last = AppSettings::lastChartFormat();
    for (const auto &[format, text] : entries) {
        QAction *action = menu->addAction(text);
        action->setData(int(format));
        if (format == last)
            menu->setDefaultAction(action);
        QObject::connect(action, &QAction::triggered, menu,
                         [exportTo, format = format] { exportTo(format); });
    }
    QAction *options = menu->addAction(QMenu::tr("Export &options..."));
    options->setObjectName(QStringLiteral("actionExportOptions"));
    QObject::connect(options, &QAction::triggered, parent, [parent] {
        auto *dialog = new PreferencesDialog(parent);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    menu->addSeparator();
    QObject::connect(menu->addAction(QMenu::tr("&Reset view")), &QAction::triggered, chart,
                     &Chart::resetView);
    return menu;
}

void installChartMenu(Chart *chart)
{
    chart->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(
        chart, &QWidget::customContextMenuRequested, chart, [chart](const QPoint &pos) {
            std::unique_ptr<QMenu> menu(createChartMenu(chart, chart, [chart](ChartFormat format) {
                exportChartWithDialog(chart, chart, format);
            }));
            menu->exec(chart->mapToGlobal(pos));
        });
}

} // namespace weft
