#pragma once
// Building blocks of the importers: GPU servers from a scale-up preset, named after real hosts,
// and the canvas rows of the switch tiers above them.

#include "model/catalog.h"
#include "model/design.h"

#include <optional>
#include <string>
#include <vector>

namespace weft {

/// A design holding one scale-up domain of `preset` per host (generateFabric with
/// FabricKind::None: accelerators, NVSwitch chips, NVLink links, groups), the domain named after
/// the host and its nodes "<host>.gpu<i>", "<host>.nvs<c>". `gpus[h]` are host h's accelerators
/// by rail. No generator parameters are kept (the fabric is not regenerable). Empty hosts: an
/// empty design. nullopt with `error` when the preset is unknown or does not build.
std::optional<Design> serverDomains(const Catalog &catalog, const std::string &preset,
                                    const std::vector<std::string> &hosts,
                                    std::vector<std::vector<NodeId>> &gpus, std::string &error);

/// Places leaf, spine and core switches in rows above the scale-up domains (250 scene units
/// apart, as the generator), spread over the domains' width in node order; accelerators of
/// `rowBelow` spec (endpoints that are not GPUs) in a row under them.
void placeSwitchTiers(Design &design, const std::string &rowBelow = {});

/// How matchSwitchSpec reads its port count: the switch's radix (ibnetdiscover sees every port),
/// or the ports a fabric uses (Slurm's topology knows only the cabling: the smallest catalog
/// model with at least that many ports is taken).
enum class PortCount { Radix, Used };

/// The catalog switch of `technology` with `radix` ports (or radix - 1: port 0 may be counted;
/// with PortCount::Used the smallest with at least `radix`) at `portRate` bytes/s, copied into
/// the design's hardware; else a spec made for it, keyed "<prefix>-<ports>p-<label>", with
/// `source`. Returns the key.
std::string matchSwitchSpec(Design &design, const Catalog &catalog, Technology technology,
                            int radix, double portRate, const std::string &label,
                            const std::string &prefix, const std::string &source,
                            PortCount count = PortCount::Radix);

} // namespace weft
