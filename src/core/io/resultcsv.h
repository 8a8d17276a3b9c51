#pragma once
// The simulation result as CSV (`weft-cli simulate --csv`, `weft-cli report`): a summary table
// and a per-link table. Units are in the column names (_s seconds, _bytes, _bytes_per_s);
// numbers are written with 17 significant digits so they read back to the same doubles.

#include "model/design.h"
#include "sim/result.h"

#include <string>

namespace weft {

/// One header line and one row: ok, step time, throughput, MFU/HFU, the breakdown parts,
/// memory, the warning count and the wall time.
std::string resultSummaryCsv(const SimResult &r);

/// One row per link direction that carried traffic: id, end ids and names (from `design`),
/// tier, direction ("forward" is a -> b), capacity, bytes, busy time, average and peak
/// utilization.
std::string resultLinksCsv(const SimResult &r, const Design &design);

} // namespace weft
