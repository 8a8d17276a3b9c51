#pragma once
// Nodes of the fabric graph: accelerators and switches.

#include "model/hardware.h"
#include "model/ids.h"

#include <string>

namespace weft {

enum class NodeKind { Accelerator, Switch };

/// A vertex of the fabric graph. Accelerators reference an AcceleratorSpec by key, switches a
/// SwitchSpec; the design's hardware table resolves the keys.
struct Node
{
    NodeId id;
    NodeKind kind = NodeKind::Accelerator;
    std::string name;
    std::string spec; ///< key into Design::hardware (accelerators or switches)
    SwitchRole role = SwitchRole::ScaleUp; ///< switches only
    GroupId group; ///< innermost group (scale-up domain for accelerators)
    int rail = -1; ///< accelerators: local index in the domain = NIC rail
    int plane = 0; ///< scale-out plane (multi-plane fabrics)
    double x = 0, y = 0; ///< canvas position, scene units

    [[nodiscard]] bool isAccelerator() const { return kind == NodeKind::Accelerator; }
    [[nodiscard]] bool isSwitch() const { return kind == NodeKind::Switch; }
};

/// Height of a node in the fabric: 0 accelerator or scale-up switch, 1 leaf, 2 spine, 3 core.
int tierLevel(const Node &n);

const char *toString(NodeKind k);
bool fromString(const std::string &s, NodeKind &out);

} // namespace weft
