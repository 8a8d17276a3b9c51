#pragma once
// The hardware catalog: accelerator, switch and link-technology specs plus scale-up domain
// presets. Built-in entries come from resources/catalog/*.json (compiled in); users add their own
// files (see io/catalogfile.h).

#include "model/hardware.h"

#include <map>
#include <string>

namespace weft {

/// A scale-up domain template (DGX H100, GB200 NVL72, MI300X 8-way ...).
struct ScaleUpPreset
{
    std::string key; ///< "dgx-h100"
    std::string name; ///< "DGX H100"
    std::string accelerator; ///< AcceleratorSpec key
    int accelerators = 8; ///< accelerators per domain
    std::string scaleUpSwitch; ///< SwitchSpec key of the NVSwitch chip; empty: full mesh
    int scaleUpSwitches = 0; ///< NVSwitch chips per domain
    std::string scaleUpTech; ///< LinkTechSpec key of the scale-up links
    int lanesPerAccelerator = 0; ///< scale-up lanes (NVLink links) per accelerator in total
    int nicsPerAccelerator = 1; ///< scale-out NICs per accelerator
    /// Accelerators per compute tray (server) of the domain; 0: the domain is one server. A
    /// multi-node NVLink domain (GB200 NVL72: 18 trays of 4) has one rail per NIC of a tray.
    int acceleratorsPerTray = 0;
    double nicRate = 0; ///< default NIC line rate, bytes/s
    std::string nicTech; ///< LinkTechSpec key of the NIC links
    std::string source;

    /// Accelerators of one compute tray (server): the whole domain unless stated.
    [[nodiscard]] int trayAccelerators() const
    {
        return acceleratorsPerTray > 0 && acceleratorsPerTray < accelerators ? acceleratorsPerTray
                                                                             : accelerators;
    }
};

/// Specs keyed by their catalog key; std::map keeps file output deterministic.
struct HardwareTable
{
    std::map<std::string, AcceleratorSpec> accelerators;
    std::map<std::string, SwitchSpec> switches;
    std::map<std::string, LinkTechSpec> linkTechs;
};

/// The whole catalog: hardware plus scale-up presets.
struct Catalog
{
    HardwareTable hardware;
    std::map<std::string, ScaleUpPreset> scaleUpPresets;

    /// Adds or replaces every entry of `other` (user catalogs override built-ins by key).
    void merge(const Catalog &other);
};

/// The keys of a catalog table, comma-separated ("dgx-a100, dgx-h100, ..."), for the messages
/// that refuse an unknown one: "unknown scale-up preset 'x' (known: ...)".
template<class Spec> std::string catalogKeys(const std::map<std::string, Spec> &table)
{
    std::string known;
    for (const auto &[key, spec] : table)
        known += (known.empty() ? "" : ", ") + key;
    return known.empty() ? std::string("none") : known;
}

} // namespace weft
