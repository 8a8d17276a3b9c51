#pragma once
// Readable names of the fabric tiers of a simulation result.

#include <QString>

namespace weft {

/// The name shown for a tier of a result's links (LinkResult::tier: "scale-up", "nic",
/// "leaf", "spine", "core"): "NIC" for the links from accelerators to scale-out switches (as
/// the palette, the sweep and the wizard write it), the others unchanged. A comparison's
/// "<tier> · <design>" keeps its design.
QString tierLabel(const QString &tier);

} // namespace weft
