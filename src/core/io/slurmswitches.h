#pragma once
// The switches of a Slurm tree topology as both of Slurm's files give them (topology.conf lines,
// topology.yaml `switch:` entries), for the importer in io/slurmtopology.cpp.

#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// One Slurm switch: the hosts under it (a leaf) or the switches under it.
struct SlurmSwitch
{
    std::string name;
    std::vector<std::string> nodes; ///< expanded host list
    std::vector<std::string> children; ///< expanded switch names
    int line = 0; ///< 1-based line of its definition in the file
    int level = -1; ///< 0 for a leaf, one above its highest child otherwise (linkSwitchLevels)
};

/// Checks names (defined once, children defined) and sets every level; a cycle is refused.
/// Throws std::invalid_argument "line N: ...".
void linkSwitchLevels(std::vector<SlurmSwitch> &switches);

/// True when `text` is a topology.yaml (its first content line is "---" or a "- topology:" entry)
/// rather than a topology.conf.
bool isTopologyYaml(std::string_view text);

/// The switches of Slurm's topology.yaml (Slurm 23.11+ documentation "topology.yaml"): a list of
/// topologies, each with `topology:` (its name), optional `cluster_default:` and one of `tree:`
/// (`switches:` entries with `switch:`, `nodes:` or `children:` host lists, `link_speed:`),
/// `block:` or `flat:`. The cluster-default tree is imported, else the first tree; the others are
/// named in `notes`. Throws std::invalid_argument "line N: ..." for malformed YAML, a file
/// without a tree topology, or a switch entry that is not a map with `switch:`; then with
/// linkSwitchLevels's errors.
std::vector<SlurmSwitch> parseTopologyYaml(std::string_view text, std::vector<std::string> &notes);

} // namespace weft
