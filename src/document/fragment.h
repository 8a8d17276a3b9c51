#pragma once
// Value snapshots of parts of a design: the payload of structural undo commands and of the
// clipboard, plus id sets used by document change notifications and the selection.

#include "model/design.h"

#include <set>
#include <vector>

namespace weft {

/// Ids of objects of a design; used for change notifications and the selection.
struct IdSet
{
    std::set<NodeId> nodes;
    std::set<LinkId> links;
    std::set<GroupId> groups;

    [[nodiscard]] bool empty() const { return nodes.empty() && links.empty() && groups.empty(); }
    [[nodiscard]] std::size_t size() const { return nodes.size() + links.size() + groups.size(); }
    bool operator==(const IdSet &) const = default;
};

/// Full values of some nodes, links and groups, plus the hardware specs they reference.
struct Fragment
{
    std::vector<Node> nodes;
    std::vector<Link> links;
    std::vector<Group> groups;
    HardwareTable hardware;

    [[nodiscard]] bool empty() const { return nodes.empty() && links.empty() && groups.empty(); }
    [[nodiscard]] IdSet ids() const;
};

/// Snapshot of `ids` in `design`, closed over containment: a group brings its members and child
/// groups, a node brings every link that ends at it. Used by delete (what goes) and copy.
Fragment snapshotClosure(const Design &design, const IdSet &ids);

/// Copy of `fragment` with fresh ids taken from `design`'s counters (links and group membership
/// remapped; links to nodes outside the fragment dropped), moved by (dx, dy). Used by paste.
Fragment withFreshIds(const Fragment &fragment, const Design &design, double dx, double dy);

} // namespace weft
