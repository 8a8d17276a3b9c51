#pragma once
// The plan charts (issue 16): PlanParetoChart, every simulated candidate as a point of
// throughput (tokens/s) against peak memory per GPU (GB) with the Pareto front joined by a line,
// the top candidates numbered (coinciding ones share a label, "1-5"), the front's other points
// labelled with their layout, the HBM capacity and the headroom line (90% of it: above it
// `simulate` warns, sim/memoryheadroom.h) as vertical lines; PlanBreakdownChart, the
// step-time breakdown of the top candidates side by side (BreakdownChart under its own file
// name). renderPlanCharts() writes both as PNG, PDF and SVG.

#include "breakdownchart.h"
#include "datachart.h"
#include "planchartdata.h"

namespace weft {

class PlanParetoChart : public DataChart<PlanParetoData>
{
    Q_OBJECT
public:
    explicit PlanParetoChart(QWidget *parent = nullptr);
    [[nodiscard]] QString chartId() const override { return QStringLiteral("plan-pareto"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    /// The ranks of the top candidates (one label per place when several coincide) and the
    /// layouts of the Pareto front's other points where there is room.
    void addPointLabels();
    /// A vertical line at `gb` with its label at the top (`atTop`) or the bottom of the plot.
    void addMemoryLine(double gb, const QString &text, Qt::PenStyle style, bool atTop);
    /// The axis ranges (GB, tokens/s): memory from just below the leanest candidate (and the
    /// headroom line) to just past the HBM capacity; throughput around the candidates' own range
    /// (at least 4% of the best), not from zero, where equally good candidates were one dot.
    struct View
    {
        double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    };
    [[nodiscard]] View view() const;
};

class PlanBreakdownChart : public BreakdownChart
{
    Q_OBJECT
public:
    explicit PlanBreakdownChart(QWidget *parent = nullptr);
    [[nodiscard]] QString chartId() const override { return QStringLiteral("plan-breakdown"); }
};

/// Renders the Pareto chart and the breakdown of the top 5 of `r` to `dir`/plan-pareto.* and
/// plan-breakdown.* (PNG, PDF, SVG; light palette). Needs a QApplication. Returns the paths;
/// on error stops and sets *error naming the chart and the cause.
QStringList renderPlanCharts(const TrainingPlan &r, const QString &dir, QString *error = nullptr);

} // namespace weft
