#pragma once
// The simulation result as JSON (CSV: io/resultcsv.h): the stable interface of `weft-cli simulate
// --json` documented in docs/simulate-json.md. Units are in the key names (_s seconds, _bytes,
// _bytes_per_s, _per_s).

#include "model/design.h"
#include "sim/result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace weft {

/// Options of the JSON rendering.
struct ResultJsonOptions
{
    bool timelines = false; ///< include the per-accelerator timelines (large)
    bool series = false; ///< include each link direction's utilization series
    bool idleLinks = false; ///< include links that carried no bytes
    /// At most this many links, the busiest first (peak of the two directions' average
    /// utilization; ties by id); -1: every link, in id order; 0: none. "links_total" and
    /// "links_omitted" say how many there were.
    long long maxLinks = -1;
};

/// The links a result document lists unless asked otherwise (weft-cli simulate --json and every
/// result.json): each link that carried traffic up to kAllLinksUpTo of them, else the
/// kBusiestLinks busiest with their utilization series (links.csv lists every link). The
/// 16,384-GPU example carries traffic on ~100,000 links: its full list was 89 MB of JSON, and
/// with the series result.json was 650 MB.
inline constexpr long long kAllLinksUpTo = 5000;
inline constexpr long long kBusiestLinks = 1000;
/// ResultJsonOptions::maxLinks by that rule: -1 (every link) or kBusiestLinks.
[[nodiscard]] long long defaultMaxLinks(const SimResult &r);

/// A duration as written to the result files: never negative. Breakdown parts are differences of
/// event times, so rounding leaves e.g. -1.8e-16 s where nothing is exposed; NaN also gives 0.
[[nodiscard]] inline double reportedDuration(double seconds)
{
    return seconds > 0 ? seconds : 0.0;
}

/// The result document (schema "weft-simulation-result", version 1). `design` names link ends.
nlohmann::ordered_json toJson(const SimResult &r, const Design &design,
                              const ResultJsonOptions &o = {});

} // namespace weft
