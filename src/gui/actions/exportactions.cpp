#include "gui/actions/exportactions.h"

#include "document/designdocument.h"
#include "generate/bom.h"
#include "gui/appsettings.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/simulation/simulationrunner.h"
#include "io/resultcsv.h"
#include "io/resultjson.h"
#include "storage/designstorage.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>

namespace weft {

ExportActions::ExportActions(DesignDocument *doc, TopologyView *view, SimulationRunner *runner,
                             QWidget *window)
    : QObject(window)
    , m_doc(doc)
    , m_view(view)
    , m_runner(runner)
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
    result = new QAction(tr("Export Simulation &Result…"), this);
    result->setStatusTip(tr("Write the last simulation result as JSON or CSV"));
    connect(result, &QAction::triggered, this, &ExportActions::askAndExportResult);
    const auto sync = [this] {
        const auto r = m_runner->result();
        result->setEnabled(r && r->ok);
    };
    connect(m_runner, &SimulationRunner::resultChanged, this, sync);
    sync();
}

void ExportActions::addTo(QMenu *menu)
{
    menu->addActions({canvas, visibleCanvas, bom, result});
}

bool ExportActions::exportCanvas(const QString &path, bool visibleOnly, QString *error)
{
    CanvasFormat format = CanvasFormat::Svg;
    if (!canvasFormatFromPath(path, &format)) {
        if (error)
            *error = tr("%1: the file name must end in .svg, .pdf or .png").arg(path);
        return false;
    }
    TopologyView *view = m_view;
    CanvasExportOptions options;
    options.reportStyle = !AppSettings::canvasExportInScreenTheme();
    if (visibleOnly)
        options.source = view->mapToScene(view->viewport()->rect()).boundingRect();
    return CanvasExporter::save(*view->topologyScene(), path, format, options, error);
}

namespace {

// Through the design files' writer (storage/designstorage.h): a full disk names its cause
// ("no space left on device", not "Unknown error") and leaves any old file as it was.
bool writeText(const QString &path, const std::string &text, QString *error)
{
    return writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())),
                               error);
}

// The design's name without ".weft", as the start of suggested export file names.
QString baseName(const DesignDocument &doc)
{
    const QString name = doc.displayName();
    return name.endsWith(QLatin1String(".weft")) ? name.chopped(5) : name;
}

} // namespace

bool ExportActions::exportBom(const QString &path, QString *error)
{
    return writeText(path, formatBomCsv(computeBom(m_doc->design())), error);
}

bool ExportActions::exportResult(const QString &path, QString *error)
{
    const auto r = m_runner->result();
    if (!r || !r->ok) {
        if (error)
            *error = tr("there is no simulation result to export: simulate first (F5)");
        return false;
    }
    const Design &d = m_doc->design();
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("json"))
        return writeText(path, toJson(*r, d, {true, true, false}).dump(2) + "\n", error);
    if (suffix != QLatin1String("csv")) {
        if (error)
            *error = tr("%1: the file name must end in .json or .csv").arg(path);
        return false;
    }
    const QString links
        = info.dir().filePath(info.completeBaseName() + QStringLiteral("-links.csv"));
    return writeText(path, resultSummaryCsv(*r), error)
        && writeText(links, resultLinksCsv(*r, d), error);
}

void ExportActions::askAndExportCanvas(bool visibleOnly)
{
    const QString base = baseName(*m_doc);
    const QString path = dialogPresenter().exportFileName(
        m_window, visibleOnly ? tr("Export visible canvas") : tr("Export canvas"),
        base + QStringLiteral(".svg"),
        tr("SVG vector (*.svg);;PDF vector (*.pdf);;PNG image (*.png)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportCanvas(path, visibleOnly, &error))
        emit statusMessage(tr("Canvas exported to %1").arg(path));
    else
        dialogPresenter().showError(m_window, tr("Cannot export canvas"), error);
}

void ExportActions::askAndExportResult()
{
    const QString path = dialogPresenter().exportFileName(
        m_window, tr("Export simulation result"), baseName(*m_doc) + QStringLiteral("-result.json"),
        tr("JSON (*.json);;CSV, summary and links (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportResult(path, &error))
        emit statusMessage(tr("Simulation result exported to %1").arg(path));
    else
        dialogPresenter().showError(m_window, tr("Cannot export the simulation result"), error);
}

void ExportActions::askAndExportBom()
{
    const QString path = dialogPresenter().exportFileName(
        m_window, tr("Export bill of materials"), baseName(*m_doc) + QStringLiteral("-bom.csv"),
        tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportBom(path, &error))
        emit statusMessage(tr("Bill of materials exported to %1").arg(path));
    else
        dialogPresenter().showError(m_window, tr("Cannot export bill of materials"), error);
}

} // namespace weft
