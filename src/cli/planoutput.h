#pragma once
// What `weft-cli plan` and `weft-cli plan-merge` print and write: the ranked table, the counts,
// the losing layouts, plan.json / plan.csv and the plan charts (Pareto front, breakdown of the
// top candidates) as PNG, PDF and SVG.

#include "plan/planner.h"

#include <QDir>
#include <QString>

namespace weft::cli {

/// The ranked table, the counts line, the losing layouts and (when nothing ran) why, on stdout.
void printPlan(const TrainingPlan &r);

/// Writes `dir`/<base>.json and <base>.csv, printing each path, and with `charts` the plan
/// charts plan-pareto.* and plan-breakdown.* (needs a QApplication). Returns ExitOk, or
/// ExitUsage when a file cannot be written (message on stderr under `command`).
int writePlanOutputs(const QString &command, const TrainingPlan &r, const QDir &dir,
                     const QString &base, bool charts);

} // namespace weft::cli
