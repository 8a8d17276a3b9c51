#pragma once
// ExportActions: File > Export Canvas… (whole design), Export Visible Canvas… (the part the
// view shows), both SVG/PDF/PNG through CanvasExporter, and Export Bill of Materials… (CSV,
// formatBomCsv), and Export Simulation Result… (the current result as JSON with timelines and
// series, or CSV: a summary file and a per-link file beside it). Paths come from the
// DialogPresenter; failures show an error naming the file.

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace weft {

class DesignDocument;
class SimulationRunner;
class TopologyView;

class ExportActions : public QObject
{
    Q_OBJECT
public:
    /// Exports `doc` as `view` shows it, with the result of `runner`; dialogs open over
    /// `window`, which owns the actions.
    ExportActions(DesignDocument *doc, TopologyView *view, SimulationRunner *runner,
                  QWidget *window);
    void addTo(QMenu *menu);

    QAction *canvas, *visibleCanvas, *bom, *result;

    /// Writes the canvas (whole design, or the view's visible scene rectangle) to `path`, the
    /// format from its suffix (.svg, .pdf, .png). Returns false and sets *error on failure.
    bool exportCanvas(const QString &path, bool visibleOnly, QString *error = nullptr);
    /// Writes the bill of materials CSV of the document's design to `path`.
    bool exportBom(const QString &path, QString *error = nullptr);
    /// Writes the current simulation result to `path`: .json (the `weft-cli simulate --json`
    /// document with timelines and series) or .csv (the summary, plus the per-link table in
    /// "<name>-links.csv"). False with *error when there is no result or a write fails.
    bool exportResult(const QString &path, QString *error = nullptr);

signals:
    /// A line for the status bar (what was written where).
    void statusMessage(const QString &text);

private:
    void askAndExportCanvas(bool visibleOnly);
    void askAndExportBom();
    void askAndExportResult();

    DesignDocument *m_doc;
    TopologyView *m_view;
    SimulationRunner *m_runner;
    QWidget *m_window;
};

} // namespace weft
