#pragma once
// Sweep results as files (`weft-cli sweep`, `weft-cli sweep-merge`): JSON (format
// "weft.sweep", version 1; what a shard writes and the merge reads back exactly) and CSV.
// Units are in the key names (_s seconds, _bytes); MFU is a fraction.

#include "io/fileerror.h"
#include "sweep/sweep.h"

#include <string>
#include <string_view>
#include <variant>

namespace weft {

/// The table as JSON text: design, parameter (name, title, unit, what was held fixed), the
/// whole value list, shard I of N and one object per row.
std::string sweepToJson(const SweepTable &t);

/// Parses sweepToJson() output; `sourceName` names the file in errors (with the JSON Pointer).
std::variant<SweepTable, FileError> parseSweepJson(std::string_view text,
                                                   const std::string &sourceName);

/// One header line and one row per variant: index, value (headed by the parameter's name),
/// ok, reason, note, accelerators, degrees tp/pp/dp (without the swept one, whose value is the
/// second column: no two columns share a name), micro_batch, global_batch, step time, tokens/s,
/// MFU, memory.
std::string sweepToCsv(const SweepTable &t);

} // namespace weft
