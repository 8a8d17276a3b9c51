#pragma once
// Slurm's topology.conf for the tree plugin (slurm.conf TopologyPlugin=topology/tree; Slurm
// documentation "topology.conf"): one line per switch,
//
//   SwitchName=su0 Nodes=dgx[001-032]        # a leaf: the nodes cabled to it
//   SwitchName=spine Switches=su[0-3]        # above: the switches cabled to it
//
// with Slurm host lists ("dgx[001-032,040],login1", zero padding kept). '#' starts a comment; keys
// are case-insensitive; LinkSpeed= is accepted and ignored (Slurm gives it no unit either).

#include "io/fabricimport.h"
#include "model/design.h"

#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// Expands a Slurm host list: "dgx[01-03,07],n5" -> dgx01 dgx02 dgx03 dgx07 n5. Several bracket
/// groups multiply out ("r[1-2]n[1-2]"). Throws std::invalid_argument naming the bad part.
std::vector<std::string> expandHostList(std::string_view list);

/// The shortest host list of `names` that expandHostList() turns back into the same set: names
/// sharing a prefix become ranges of consecutive numbers, as wide as their zero padding
/// ("dgx[001-032]"; unpadded numbers of any digit count in one range: "dgx-h100-[0-31]").
/// Order: natural.
std::string compressHostList(std::vector<std::string> names);

/// Imports topology.conf: one server of `options.scaleUpPreset` per node named under a leaf,
/// every GPU cabled to its leaf with `options.nicTech` (one cable per NIC); switch levels from the
/// Switches= graph (leaf, spine, core). topology.conf gives neither cable counts nor rates, so
/// uplinks are sized non-blocking: a switch's uplinks carry as many cables as its downlinks,
/// spread over its parents (said in the summary). Errors name the line.
FabricImportResult importSlurmTopology(std::string_view text, const Catalog &catalog,
                                       const FabricImportOptions &options);

/// The topology.conf of `design`: leaves that serve the same servers (the rail leaves of a
/// rail-optimized scalable unit) become one Slurm switch named after their group (or first
/// leaf), since Slurm places jobs by switch and a node must sit under one leaf; a server is the
/// accelerator's scale-up domain name. Upper switches list the switches below them.
std::string exportSlurmTopology(const Design &design);
/// Switches that exportSlurmTopology() would write (0: the design has no leaf, spine or core
/// switch cabled to its servers, and a topology.conf without switches cannot be imported).
std::size_t slurmSwitchCount(const Design &design);

/// The same switches as Slurm's topology.yaml (one topology "weft", cluster_default, a tree of
/// `switch:` entries with `nodes:` or `children:` host lists).
std::string exportSlurmTopologyYaml(const Design &design);

} // namespace weft
