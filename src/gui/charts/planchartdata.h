#pragma once
// From a plan result (core/plan) to the plan charts' data: the Pareto front of throughput
// against memory per GPU, and the step-time breakdown of the top candidates side by side.
// What `weft-cli plan --out`, `weft-cli plan-merge` and the Plan dialog plot.

#include "chartdata.h"
#include "plan/planner.h"

namespace weft {

/// One simulated candidate as a point: peak memory per GPU (bytes) against tokens/s.
struct PlanPoint
{
    QString label; ///< "TP 8 · PP 16 · ..." (the candidate)
    double memoryBytes = 0;
    double tokensPerSecond = 0;
    bool pareto = false; ///< no other candidate has at least its throughput with less memory
    int rank = 0; ///< 1-based rank among the top K, 0 when not in it
};

/// Every simulated candidate of a plan; the HBM capacity (bytes, 0 when unknown) as a line.
struct PlanParetoData
{
    std::vector<PlanPoint> points;
    double capacityBytes = 0;
};

/// Empty when `data` is plottable, else the problem (a negative or non-finite value).
QString validateChartData(const PlanParetoData &data);

/// The points of `r.simulated`, with the Pareto front marked and the ranks of `r.ranked`.
PlanParetoData planParetoData(const TrainingPlan &r);

/// Marks `points[i].pareto`: the candidates no other beats on both memory (less or equal) and
/// throughput (more or equal, one strictly).
void markParetoFront(std::vector<PlanPoint> &points);

/// The breakdown of the first `count` ranked candidates, labelled "#1 TP 8 PP 16 ...".
BreakdownChartData planBreakdownData(const TrainingPlan &r, int count = 5);

/// Short label of a row for charts and tables: "TP 8 · PP 16 · DP 128 · int v4 · b 1 · ...".
QString planRowLabel(const PlanRow &row);

} // namespace weft
