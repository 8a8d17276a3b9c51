#pragma once
// Groups of nodes: scale-up domains, racks, scalable units, pods. Groups nest.

#include "model/ids.h"

#include <string>
#include <vector>

namespace weft {

enum class GroupKind { ScaleUpDomain, Rack, ScalableUnit, Pod };

/// A named set of nodes. A scale-up domain holds its accelerators and its scale-up switches
/// (or none, for a switchless mesh); `parent` nests it in a rack, scalable unit or pod.
struct Group
{
    GroupId id;
    GroupKind kind = GroupKind::ScaleUpDomain;
    std::string name;
    std::string preset;              ///< scale-up preset key ("dgx-h100", ...) or empty
    GroupId parent;                  ///< enclosing group, invalid at the top
    std::vector<NodeId> members;     ///< direct member nodes, in order
    bool collapsed = true;           ///< canvas level of detail (view state)
};

const char *toString(GroupKind k);
bool fromString(const std::string &s, GroupKind &out);

} // namespace weft
