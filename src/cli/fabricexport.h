#pragma once
// `weft-cli export --to ibnetdiscover|ibsim|slurm`: the fabric as the text files of the real
// tools (io/ibnetdiscoverexport.h, io/slurmtopology.h). Kept apart from cmd_export.cpp, which
// renders the canvas.

#include "model/design.h"

#include <QString>
#include <optional>

namespace weft::cli {

/// True for the formats handled here.
bool isFabricTextFormat(const QString &to);

/// Writes `design` as `to` to the file `outPath`; prints what was written. Returns the exit
/// code (ExitOk, ExitInvalid when the design has nothing to export, ExitUsage when the file
/// cannot be written).
int exportFabricText(const QString &to, const Design &design, const QString &outPath);

} // namespace weft::cli
