#pragma once
// A Weft design: the fabric graph (nodes, links, groups), the hardware it uses, the generator
// parameters it came from, and view state. Plain C++ value type; the GUI document owns one.

#include "model/catalog.h"
#include "model/fabricparams.h"
#include "model/fault.h"
#include "model/group.h"
#include "model/link.h"
#include "model/node.h"
#include "workload/workload.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft {

/// Canvas view state, saved in the design's `view` section (not undoable).
struct ViewState
{
    double zoom = 1.0;
    double centerX = 0;
    double centerY = 0;
};

/// The fabric graph and everything a design file holds. Objects are kept in insertion order
/// (deterministic files); lookups by id are O(1). Ids are never reused within a design.
class Design
{
public:
    std::string name;
    std::string description;
    HardwareTable hardware; ///< specs referenced by nodes and links
    std::optional<FabricParams> generator; ///< set when the fabric was generated
    std::optional<Workload> workload; ///< the training job simulated on this fabric
    ViewState view;
    /// What-if faults the design carries (saved in the file, applied only by whatif/scenario.h
    /// before a simulation). Each names an existing link or node; the GUI keeps one per target.
    Scenario scenario;
    std::string extensions = "{}"; ///< unknown fields from the file, as JSON object text

    // --- nodes ---
    /// Adds `n`; assigns a fresh id when `n.id` is invalid. Returns the id.
    NodeId addNode(Node n);
    /// Removes the node and every link that ends at it; removes it from its group. Returns
    /// false if there is no such node.
    bool removeNode(NodeId id);
    [[nodiscard]] const Node *node(NodeId id) const;
    [[nodiscard]] Node *node(NodeId id);
    [[nodiscard]] const std::vector<Node> &nodes() const { return m_nodes; }

    // --- links ---
    LinkId addLink(Link l);
    bool removeLink(LinkId id);
    [[nodiscard]] const Link *link(LinkId id) const;
    [[nodiscard]] Link *link(LinkId id);
    [[nodiscard]] const std::vector<Link> &links() const { return m_links; }

    // --- groups ---
    GroupId addGroup(Group g);
    /// Removes the group (members stay, with no group; child groups move to the parent).
    bool removeGroup(GroupId id);
    [[nodiscard]] const Group *group(GroupId id) const;
    [[nodiscard]] Group *group(GroupId id);
    [[nodiscard]] const std::vector<Group> &groups() const { return m_groups; }

    /// Number of accelerators in the design.
    [[nodiscard]] std::size_t acceleratorCount() const;
    /// Spec of an accelerator node, or nullptr when the key is unknown.
    [[nodiscard]] const AcceleratorSpec *acceleratorSpec(const Node &n) const;
    [[nodiscard]] const SwitchSpec *switchSpec(const Node &n) const;
    [[nodiscard]] const LinkTechSpec *linkTech(const Link &l) const;

    /// Reserves storage for large generated designs.
    void reserve(std::size_t nodes, std::size_t links, std::size_t groups);

    /// Id counters: the next id handed out (kept >= every id in the design).
    [[nodiscard]] std::uint32_t nextNodeId() const { return m_nextNode; }
    [[nodiscard]] std::uint32_t nextLinkId() const { return m_nextLink; }
    [[nodiscard]] std::uint32_t nextGroupId() const { return m_nextGroup; }

private:
    std::vector<Node> m_nodes;
    std::vector<Link> m_links;
    std::vector<Group> m_groups;
    std::unordered_map<NodeId, std::size_t> m_nodeIndex;
    std::unordered_map<LinkId, std::size_t> m_linkIndex;
    std::unordered_map<GroupId, std::size_t> m_groupIndex;
    std::uint32_t m_nextNode = 0;
    std::uint32_t m_nextLink = 0;
    std::uint32_t m_nextGroup = 0;
};

} // namespace weft
