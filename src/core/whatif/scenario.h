#pragma once
// What-if scenarios (issue 19): failures and degradations applied to a copy of a design, which
// the unchanged simulator then routes over (ECMP over what is left). A design can carry one
// scenario (Design::scenario, model/fault.h), saved in the design file's "faults" array
// (io/designfile.h) and edited in the GUI (canvas context menu, undoable); `--fail` on the command
// line gives another one instead.
//
// Syntax, comma-separated: link:ID (the whole link, every cable of the bundle, down),
// cable:ID (one cable of the bundle down), switch:NAME (the switch and its links down),
// link:ID@F (rate x F, e.g. 0.5 for half rate), gpu:NAME@F (a straggler: tensor-core peak x F,
// as a clock at F of nominal; HBM unchanged). NAME is a node name or #<node id>.

#include "model/design.h"
#include "model/fault.h"
#include "model/finding.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace weft {

/// Parses the --fail syntax. nullopt with `error` naming the bad item.
std::optional<Scenario> parseScenario(const std::string &text, std::string &error);

/// `design` with `scenario` applied: links removed or fewer lanes, switches removed with their
/// links, link rates scaled, a straggler's spec replaced by a slower copy keyed
/// "<spec>@<F>" (peakFlops x F). `exploitSymmetry` is false when a degradation touches an
/// accelerator's link, which replica mirroring (same hop distances) could not see.
struct FailedDesign
{
    Design design;
    bool exploitSymmetry = true;
};

/// nullopt with `error` when a target does not exist or a factor is out of (0, 1].
std::optional<FailedDesign> applyScenario(const Design &design, const Scenario &scenario,
                                          std::string &error);

/// `count` distinct random cable failures among the scale-out cables (links with a leaf, spine
/// or core switch end, one cable per lane), drawn with std::mt19937_64(seed) so the same seed
/// gives the same scenario on every machine. Fewer when the design has fewer cables.
Scenario randomCableFailures(const Design &design, int count, std::uint64_t seed);

} // namespace weft
