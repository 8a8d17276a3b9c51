#include "gui/actions/exportactions.h"

#include "document/designdocument.h"
#include "generate/bom.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/mainwindow.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSaveFile>

namespace weft {

ExportActions::ExportActions(MainWindow *window)
    : QObject(window)
    , m_window(window)
{
    canvas = new QAction(tr("Export &Canvas…"), this);
    canvas->setStatusTip(tr("Write the whole design's canvas as SVG, PDF or PNG"));
    visibleCanvas = new QAction(tr("Export &Visible Canvas…"), this);
    visibleCanvas->setStatusTip(
        tr("Write the part of the canvas the view shows as SVG, PDF or PNG"));
    bom = new QAction(tr("Export &Bill of Materials (CSV)…"), this);
    connect(canvas, &QAction::triggered, this, [this] { askAndExportCanvas(false); });
    connect(visibleCanvas, &QAction::triggered, this, [this] { askAndExportCanvas(true); });
    connect(bom, &QAction::triggered, this, &ExportActions::askAndExportBom);
}

void ExportActions::addTo(QMenu *menu)
{
    menu->addActions({canvas, visibleCanvas, bom});
}

bool ExportActions::exportCanvas(const QString &path, bool visibleOnly, QString *error)
{
    CanvasFormat format = CanvasFormat::Svg;
    if (!canvasFormatFromPath(path, &format)) {
        if (error)
            *error = tr("%1: the file name must end in .svg, .pdf or .png").arg(path);
        return false;
    }
    TopologyView *view = m_window->view();
    CanvasExportOptions options;
    if (visibleOnly)
        options.source = view->mapToScene(view->viewport()->rect()).boundingRect();
    return CanvasExporter::save(*view->topologyScene(), path, format, options, error);
}

bool ExportActions::exportBom(const QString &path, QString *error)
{
    const std::string csv = formatBomCsv(computeBom(m_window->document()->design()));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)
        || f.write(csv.data(), qint64(csv.size())) != qint64(csv.size()) || !f.commit()) {
        if (error)
            *error = tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void ExportActions::askAndExportCanvas(bool visibleOnly)
{
    const QString base = m_window->document()->displayName();
    const QString path = dialogPresenter().exportFileName(
        m_window, visibleOnly ? tr("Export visible canvas") : tr("Export canvas"),
        base + QStringLiteral(".svg"),
        tr("SVG vector (*.svg);;PDF vector (*.pdf);;PNG image (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportCanvas(path, visibleOnly, &error))
        emit m_window->statusMessage(tr("Canvas exported to %1").arg(path));
    else
        dialogPresenter().showError(m_window, tr("Cannot export canvas"), error);
}

void ExportActions::askAndExportBom()
{
    const QString path = dialogPresenter().exportFileName(
        m_window, tr("Export bill of materials"),
        m_window->document()->displayName() + QStringLiteral("-bom.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportBom(path, &error))
        emit m_window->statusMessage(tr("Bill of materials exported to %1").arg(path));
    else
        dialogPresenter().showError(m_window, tr("Cannot export bill of materials"), error);
}

} // namespace weft
