#pragma once
// NCCL channels over a switchless mesh (simulator.md, Communication: Channels).
//
// NCCL searches the real link graph for rings (its channels) and runs as many as the links
// allow, each over links the others use least (src/graph/search.cc: rings over NVLink, each
// channel consuming bandwidth of the links it crosses). On GPUs behind NVSwitch one ring over
// the switch already fills every GPU's lanes; on a switchless mesh (a DGX-1 hybrid cube-mesh,
// 8 MI300X over Infinity Fabric) one ring uses one link per GPU, so the channels are several
// Hamiltonian cycles of direct links, each lane of a link given to one cycle, every cycle run in
// both directions (the two directions of a link are separate resources).

#include "sim/routing.h"

#include <vector>

namespace weft {

/// Rings (in ring order, each member once) over the direct accelerator-to-accelerator links
/// among `members`: Hamiltonian cycles found greedily by depth-first search preferring the pairs
/// with the most unused lanes, each taking one lane of every pair it crosses, each returned with
/// its reverse; at most `maxRings` rings. Empty when `members` has fewer than 3 or more than 64
/// accelerators, or no Hamiltonian cycle of direct links (e.g. GPUs behind a switch).
std::vector<std::vector<NodeId>> meshRings(const Router &router, const std::vector<NodeId> &members,
                                           int maxRings = 32);

} // namespace weft
