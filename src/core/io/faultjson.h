#pragma once
// The "faults" array of a design file (io/designfile.h): the design's what-if scenario
// (model/fault.h). Internal to core/io.
//
//   "faults": [{"kind": "link-down", "link": 12}, {"kind": "cable-down", "link": 7},
//              {"kind": "switch-down", "node": 40}, {"kind": "link-rate", "link": 4, "factor":
//              0.5},
//              {"kind": "accelerator-clock", "node": 3, "factor": 0.8}]
//
// `link` and `node` are ids of the design; `factor` (link-rate: the fraction of the line rate
// kept; accelerator-clock: the fraction of the clock kept) is in (0, 1].

#include "io/jsonreader.h"
#include "model/design.h"

#include <nlohmann/json.hpp>

namespace weft {

/// Reads the array at `faults` against `design` (its nodes and links already read). Throws
/// JsonFieldError at the fault's member for an unknown kind, a link or node the design does
/// not have, a node of the wrong kind (switch-down on an accelerator, ...) or a factor outside
/// (0, 1].
Scenario faultsFromJson(const JsonReader &faults, const Design &design);

/// The array for `design.scenario`, targets as ids. Faults naming nothing in the design (the
/// document never holds such) are left out.
nlohmann::ordered_json faultsToJson(const Design &design);

} // namespace weft
