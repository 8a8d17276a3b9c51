#pragma once
// Member names and extension locators of the `.weft` format shared by its reader and writer
// (io/designfile.h documents the layout). Internal to core/io.

#include <array>
#include <utility>

namespace weft::designkeys {

inline constexpr const char *kFormat = "weft.design";

// Extension locators (see io/designfile.h).
inline constexpr const char *kFile = "file";
inline constexpr const char *kDesign = "design";
inline constexpr const char *kView = "view";
inline constexpr const char *kFabricGenerator = "fabric_generator";
inline constexpr const char *kHardware = "hardware";
inline constexpr const char *kNodePrefix = "node:";
inline constexpr const char *kLinkPrefix = "link:";
inline constexpr const char *kGroupPrefix = "group:";

/// Hardware arrays and the locator prefix of their entries (keyed by spec key).
inline constexpr std::array<std::pair<const char *, const char *>, 3> specLocators()
{
    return {{{"accelerators", "accelerator:"},
             {"switches", "switch:"},
             {"link_technologies", "link_technology:"}}};
}

// The members each object may have; anything else goes to its extensions.
inline constexpr std::array kTopKeys {
    "format",   "version", "generator", "design", "fabric_generator", "workload",  "view",
    "hardware", "groups",  "nodes",     "links",  "faults",           "extensions"};
inline constexpr std::array kDesignKeys {"name", "description"};
inline constexpr std::array kViewKeys {"zoom", "center_x", "center_y"};
inline constexpr std::array kHardwareKeys {"accelerators", "switches", "link_technologies"};
inline constexpr std::array kFabricKeys {
    "scale_up_preset", "domains",          "fabric", "tiers",  "switch",
    "nic_gbps",        "oversubscription", "planes", "su_size"};
inline constexpr std::array kGroupKeys {"id",     "kind",      "name",   "preset",
                                        "parent", "collapsed", "members"};
inline constexpr std::array kNodeKeys {"id",   "kind",  "name", "spec", "role",
                                       "rail", "plane", "x",    "y"};
inline constexpr std::array kLinkKeys {"id", "a", "b", "tech", "rate_gbps", "lanes", "latency_ns"};

} // namespace weft::designkeys
