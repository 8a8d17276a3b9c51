#pragma once
// Export of a fabric to ASTRA-sim 2.0's analytical network backend: a multi-dimensional
// topology (network.yml: topology, npus_count, bandwidth in GB/s, latency in ns per dimension)
// and a system configuration (system.json: collective implementation per dimension).
//
// ASTRA-sim models each dimension as a uniform, non-blocking Ring, FullyConnected or Switch.
// A Weft design maps onto it when every scale-up domain is alike (dimension 1: Switch for an
// NVSwitch domain, FullyConnected for a switchless mesh) and, with more than one domain, the
// scale-out fabric is a non-blocking tree that reaches every domain (dimension 2: Switch, with
// the NIC bandwidth per accelerator). What it cannot express is reported, not approximated.

#include "model/design.h"

#include <string>
#include <vector>

namespace weft {

/// One dimension of the exported topology. Bandwidth per accelerator per direction in bytes/s,
/// latency in seconds.
struct AstraSimDimension
{
    std::string topology; ///< "Switch", "FullyConnected" or "Ring"
    int npus = 0;
    double bandwidth = 0; ///< bytes/s per accelerator (Switch) or per link (FullyConnected)
    double latency = 0; ///< seconds, one traversal of the dimension
};

/// The result: the dimensions and the two file texts, or the reasons the design cannot be
/// expressed (each names the objects concerned).
struct AstraSimExport
{
    std::vector<AstraSimDimension> dimensions;
    std::string networkYaml; ///< network.yml
    std::string systemJson; ///< system.json
    std::vector<std::string> problems; ///< non-empty: nothing was exported

    [[nodiscard]] bool ok() const { return problems.empty(); }
};

/// Maps `design` onto ASTRA-sim's analytical topology. Never throws.
AstraSimExport exportAstraSim(const Design &design);

} // namespace weft
