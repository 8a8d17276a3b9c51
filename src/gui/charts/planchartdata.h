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
    /// "TP8 PP16 DP128 v4", with MoE "TP1 PP1 DP8 EP4 ETP2 hybridep" (planShortLabel(): on
    /// the chart)
    QString shortLabel;
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

/// The breakdown of the first `count` ranked candidates, labelled on two lines: "#1 TP8 PP16
/// DP128 v4" and what else tells them apart, planDetailLabel().
BreakdownChartData planBreakdownData(const TrainingPlan &r, int count = 5);

/// Short label of a row for charts and tables: "TP 8 · PP 16 · DP 128 · int v4 · b 1 · ...".
QString planRowLabel(const PlanRow &row);

/// The parallel layout in a few characters: "TP8 PP16 DP128 CP2 EP8 v4" (CP, EP and the virtual
/// stages only when used).
QString planShortLabel(const TrainingConfig &c);

/// The rest of a candidate: "b 1 · selective recompute · ZeRO 1 · tp-dp-pp" (recomputation
/// only when there is some; no-break spaces inside the parts so a wrapped label keeps them).
QString planDetailLabel(const PlanRow &row);

/// Ranks as a label: {1, 2, 3, 5} -> "1-3, 5" (with an en dash).
QString rankListLabel(std::vector<int> ranks);

} // namespace weft
