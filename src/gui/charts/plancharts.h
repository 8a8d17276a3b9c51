#pragma once
// The plan charts (issue 16): PlanParetoChart, every simulated candidate as a point of
// throughput (tokens/s) against peak memory per GPU (GB) with the Pareto front joined by a line,
// the top candidates numbered (coinciding ones share a label, "1-5"), the front's other points
// labelled with their layout and the HBM capacity as a vertical line; PlanBreakdownChart, the
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
