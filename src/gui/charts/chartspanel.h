#pragma once
// The charts of the Results dock: a tab per chart (breakdown, timeline, utilization per tier,
// link over the step, memory, collective bandwidth, sweep), each with a context menu to
// export it (PNG, PDF, SVG, CSV) or reset its view. The main window only embeds it.

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

    /// Size and DPI used by PNG, PDF and SVG exports from the context menu.
    void setExportOptions(const ChartExportOptions &options) { m_exportOptions = options; }
    [[nodiscard]] ChartExportOptions exportOptions() const { return m_exportOptions; }

    /// The context menu of `chart` (owned by the caller): Export as PNG/PDF/SVG, Export data
    /// as CSV, Reset view.
    [[nodiscard]] QMenu *createContextMenu(Chart *chart);
    /// Writes `chart` to `path` in `format`; on failure shows nothing, returns false and sets
    /// *error (the menu shows it in a message box).
    bool exportTo(Chart *chart, ChartFormat format, const QString &path, QString *error = nullptr);

signals:
    /// Emitted after a successful export from the menu (for the status bar).
    void exported(const QString &path);

private:
    void addChart(Chart *chart, const QString &tabTitle);
    void exportWithDialog(Chart *chart, ChartFormat format);

    BreakdownChart *m_breakdown = nullptr; // children of the tab widget
    TimelineChart *m_timeline = nullptr;
    UtilizationChart *m_utilization = nullptr;
    LinkSeriesChart *m_linkSeries = nullptr;
    MemoryChart *m_memory = nullptr;
    CollectiveChart *m_collective = nullptr;
    SweepChart *m_sweep = nullptr;
    ChartExportOptions m_exportOptions;
};

} // namespace weft
