#pragma once
// The simulation result as JSON and CSV: the stable interface of `weft-cli simulate --json`
// documented in docs/simulate-json.md. Units are in the key names (_s seconds, _bytes,
// _bytes_per_s, _per_s).

#include "model/design.h"
#include "sim/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace weft {

/// Options of the JSON rendering.
struct ResultJsonOptions
{
    bool timelines = false;   ///< include the per-accelerator timelines (large)
    bool series = false;      ///< include each link direction's utilization series
    bool idleLinks = false;   ///< include links that carried no bytes
};

/// The result document (schema "weft-simulation-result", version 1). `design` names link ends.
nlohmann::ordered_json toJson(const SimResult &r, const Design &design, const ResultJsonOptions &o = {});

/// One header line and one row: the headline figures and the breakdown.
std::string resultSummaryCsv(const SimResult &r);
/// One row per link direction that carried traffic.
std::string resultLinksCsv(const SimResult &r, const Design &design);

} // namespace weft
