#pragma once
// Value snapshots of parts of a design: the payload of structural undo commands and of the
// clipboard, plus id sets used by document change notifications and the selection.

#include "model/design.h"

#include <QString>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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

/// Gives every spec of `fragment` that `design` already holds under the same key with other
/// figures a fresh key ("<key>-2", ...) and points the fragment's nodes and links at it, so that
/// inserting keeps both sets of figures: a custom entry edited since the design used it, or a
/// paste from a design with other figures. Specs equal to the design's are left alone.
void keepOwnSpecs(Fragment &fragment, const Design &design);

/// The fragment as the text of a `.weft` design file (io/designfile.h) holding only it, with
/// ids renumbered from 0 and references to objects outside it dropped: the system clipboard's
/// application/x-weft-fragment+json payload, readable by any Weft process.
std::string fragmentToText(const Fragment &fragment);
/// Reads fragmentToText() output (or any design file's text) back. Returns nothing, with
/// `error` saying why, for text that is not a Weft design or holds no nodes or groups.
std::optional<Fragment> fragmentFromText(std::string_view text, QString *error);
/// A few readable lines for text/plain: counts, then one line per group and node (at most
/// `maxLines` of those).
QString fragmentSummary(const Fragment &fragment, int maxLines = 40);

} // namespace weft
