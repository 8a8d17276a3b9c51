#pragma once
// Names for pasted objects: a pasted node or group whose name the design (or an earlier object
// of the same paste) already uses gets the next free one of its series: "gpu57" becomes
// "gpu64" when gpu0..gpu63 exist, "d3.nvs1" becomes "d3.nvs4", a name without a number gets
// "-2", "-3", ... Names that are free are kept.

#include "document/fragment.h"

namespace weft {

/// Renames the nodes and groups of `fragment` whose names `design` or an earlier object of the
/// fragment holds (nodes and groups are separate namespaces). O(names).
void mintUniqueNames(Fragment &fragment, const Design &design);

} // namespace weft
