#pragma once
// Parameters of a generated fabric, stored in the design beside the expanded result so that a
// design can be regenerated (product.md, Generators).

#include <string>

namespace weft {

enum class FabricKind { RailOptimized, FatTree, None };

/// Inputs of the fabric generators (`weft-cli generate`, the "New cluster..." wizard).
struct FabricParams
{
    std::string scaleUpPreset = "dgx-h100"; ///< key of a ScaleUpPreset
    int domains = 1;                        ///< number of scale-up domains
    FabricKind fabric = FabricKind::RailOptimized;
    int tiers = 2;                          ///< scale-out tiers: 2 (leaf/spine) or 3 (+core)
    std::string switchModel = "qm9700";     ///< key of a SwitchSpec for leaf/spine/core
    double nicRate = 50e9;                  ///< NIC line rate per accelerator, bytes/s (400 Gb/s)
    double oversubscription = 1.0;          ///< leaf downlink:uplink bandwidth ratio (>= 1)
    int planes = 1;                         ///< independent scale-out planes
    int suSize = 32;                        ///< scale-up domains per scalable unit (0: auto)
};

const char *toString(FabricKind k);
bool fromString(const std::string &s, FabricKind &out);

} // namespace weft
