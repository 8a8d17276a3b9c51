#pragma once
// What `weft-cli sweep --out` and `weft-cli sweep-merge --out` write: the table as JSON and CSV
// and, for a whole (unsharded or merged) sweep, the sweep chart as PNG, PDF and SVG.

#include "sweep/sweep.h"

#include <QDir>
#include <QString>

namespace weft::cli {

/// Writes `dir`/<base>.json and <base>.csv of `table`, printing each path, and when `chart`
/// is set renders sweep.png, sweep.pdf and sweep.svg (variants that did not run are listed
/// under the legend). Needs a QApplication for the chart. Returns ExitOk, ExitUsage when a file
/// cannot be written, ExitInvalid when `chart` is set and no variant ran (messages on stderr,
/// prefixed with `command`).
int writeSweepOutputs(const QString &command, const SweepTable &table, const QDir &dir,
                      const QString &base, bool chart);

} // namespace weft::cli
