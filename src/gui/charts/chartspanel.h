#pragma once
// The charts of the Results dock: a tab per chart (breakdown, timeline, utilization per tier,
// link over the step, memory, collective bandwidth, sweep), each with a context menu to
// export it (PNG, PDF, SVG, CSV), change the export defaults or reset its view. The export
// size, DPI, last format and last folder are user settings (AppSettings), shared by every
// panel and kept across restarts. The main window only embeds it.

#include "chartexporter.h"

#include <QTabWidget>

class QMenu;

namespace weft {

class BreakdownChart;
class Chart;
class CollectiveChart;
class LinkSeriesChart;
class MemoryChart;
class SweepChart;
class TimelineChart;
class UtilizationChart;

class ChartsPanel : public QTabWidget
{
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget *parent = nullptr);

    [[nodiscard]] BreakdownChart *breakdownChart() const { return m_breakdown; }
    [[nodiscard]] TimelineChart *timelineChart() const { return m_timeline; }
    [[nodiscard]] UtilizationChart *utilizationChart() const { return m_utilization; }
    [[nodiscard]] LinkSeriesChart *linkSeriesChart() const { return m_linkSeries; }
    [[nodiscard]] MemoryChart *memoryChart() const { return m_memory; }
    [[nodiscard]] CollectiveChart *collectiveChart() const { return m_collective; }
    [[nodiscard]] SweepChart *sweepChart() const { return m_sweep; }
    /// Every chart, in tab order.
    [[nodiscard]] QList<Chart *> charts() const;

    /// Size and DPI used by PNG, PDF and SVG exports (stored in the user settings).
    static void setExportOptions(const ChartExportOptions &options);
    [[nodiscard]] static ChartExportOptions exportOptions();

    /// The context menu of `chart` (owned by the caller): Export as PNG/PDF/SVG, Export data
    /// as CSV (the last used format is the menu's default action), Export options (the
    /// Preferences dialog), Reset view.
    [[nodiscard]] QMenu *createContextMenu(Chart *chart);
    /// Writes `chart` to `path` in `format` with exportOptions(); on failure shows nothing,
    /// returns false and sets *error (the menu shows it).
    bool exportTo(Chart *chart, ChartFormat format, const QString &path, QString *error = nullptr);
    /// What the menu's export entries do: asks for a path (DialogPresenter::exportFileName,
    /// starting in the last export folder), writes the file, records its folder and format in
    /// the settings. Returns the written path, "" when cancelled or failed (error shown).
    QString exportWithDialog(Chart *chart, ChartFormat format);

signals:
    /// Emitted after a successful export from the menu (for the status bar).
    void exported(const QString &path);

private:
    void addChart(Chart *chart, const QString &tabTitle);

    BreakdownChart *m_breakdown = nullptr; // children of the tab widget
    TimelineChart *m_timeline = nullptr;
    UtilizationChart *m_utilization = nullptr;
    LinkSeriesChart *m_linkSeries = nullptr;
    MemoryChart *m_memory = nullptr;
    CollectiveChart *m_collective = nullptr;
    SweepChart *m_sweep = nullptr;
};

} // namespace weft
