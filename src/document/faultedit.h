#pragma once
// What the document needs to know about a design's what-if faults (model/fault.h): which
// objects they name, and the scenario left when some objects go.

#include "document/fragment.h"
#include "model/fault.h"

namespace weft {

/// The fault on link `id`, or nullptr (the GUI keeps at most one per target).
const Fault *faultOn(const Design &design, LinkId id);
/// The fault on node `id` (a switch down or a slow accelerator), or nullptr.
const Fault *faultOn(const Design &design, NodeId id);
/// The links and nodes the faults of `design.scenario` name (those that exist).
IdSet faultSubjects(const Design &design);
/// `design.scenario` without the faults naming any of `ids`; `dropped` gets what went.
Scenario withoutFaultsOn(const Design &design, const IdSet &ids, IdSet *dropped = nullptr);
/// "link 12 down", "spine3 down", "link 4 at 50% rate", "d0.gpu3 at 80% clock", "one cable of
/// link 7 down": the fault for the Properties dock and menus.
std::string faultDescription(const Design &design, const Fault &fault);

} // namespace weft
