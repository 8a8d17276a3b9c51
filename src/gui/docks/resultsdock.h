#pragma once
// ResultsDock: the charts of the last simulation (breakdown, pipeline timeline, utilization per
// tier, the selected link over the step, memory per stage), under a one-line summary. When the
// window compares designs (Comparison), the breakdown, timeline, utilization, memory and
// collective charts show the current result and every compared design side by side. The Sweep
// tab shows the last sweep. Each chart exports from its context menu.

#include "gui/charts/chartreport.h"

#include <QDockWidget>
#include <memory>

class QLabel;

namespace weft {

class ChartsPanel;
class Comparison;
class DesignDocument;
class SimulationRunner;
struct SimResult;

class ResultsDock : public QDockWidget
{
    Q_OBJECT
public:
    ResultsDock(DesignDocument *doc, SimulationRunner *runner, Comparison *comparison,
                QWidget *parent = nullptr);

    [[nodiscard]] ChartsPanel *charts() const { return m_charts; }
    [[nodiscard]] QString summary() const;

public slots:
    /// Shows a sweep in the Sweep tab and raises it; with `addSeries` its series join those
    /// already shown when they sweep the same parameter.
    void showSweep(const SweepChartData &data, bool addSeries);

private:
    /// Regroups a new result into chart data (the only place that may simulate a collective).
    void showResult();
    /// Shows the current charts, merged with the compared designs when there are any.
    void showCharts();
    void showSelectedLink();
    void updateSummary();
    /// What the empty charts say: an empty design, no workload, not simulated, a failed
    /// simulation; the Collectives tab also why a simulated step has no collective chart.
    void updateHints();

    DesignDocument *m_doc;
    SimulationRunner *m_runner;
    Comparison *m_comparison;
    ReportChartData m_current; ///< charts of the current result (empty without one)
    QLabel *m_summary;
    ChartsPanel *m_charts;
};

} // namespace weft
