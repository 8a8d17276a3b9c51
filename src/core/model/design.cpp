#include "model/design.h"

#include <algorithm>

namespace weft {

namespace {

// Erases element `pos` of `vec` and shifts the indices of the elements after it.
template<class T, class IdT>
void eraseAt(std::vector<T> &vec, std::unordered_map<IdT, std::size_t> &index, std::size_t pos)
{
    index.erase(vec[pos].id);
    vec.erase(vec.begin() + static_cast<std::ptrdiff_t>(pos));
    for (std::size_t i = pos; i < vec.size(); ++i)
        index[vec[i].id] = i;
}

// Adds `obj` with a fresh id if it has none; returns an invalid id if its id is taken.
template<class T, class IdT>
IdT insert(std::vector<T> &vec, std::unordered_map<IdT, std::size_t> &index, std::uint32_t &next,
           T obj)
{
    if (!obj.id.valid())
        obj.id = IdT(next);
    if (index.count(obj.id))
        return IdT();
    next = std::max(next, obj.id.value + 1);
    index.emplace(obj.id, vec.size());
    vec.push_back(std::move(obj));
    return vec.back().id;
}

template<class T, class IdT>
T *find(std::vector<T> &vec, const std::unordered_map<IdT, std::size_t> &index, IdT id)
{
    auto it = index.find(id);
    return it == index.end() ? nullptr : &vec[it->second];
}

} // namespace

NodeId Design::addNode(Node n)
{
    const GroupId g = n.group;
    const NodeId id = insert(m_nodes, m_nodeIndex, m_nextNode, std::move(n));
    if (id.valid() && g.valid()) {
        if (Group *grp = group(g); grp && std::find(grp->members.begin(), grp->members.end(), id)
                                              == grp->members.end())
            grp->members.push_back(id);
    }
    return id;
}

bool Design::removeNode(NodeId id)
{
    auto it = m_nodeIndex.find(id);
    if (it == m_nodeIndex.end())
        return false;
    if (Group *grp = group(m_nodes[it->second].group))
        std::erase(grp->members, id);
    // Drop the links ending at the node in one pass, then rebuild the link index.
    std::erase_if(m_links, [id](const Link &l) { return l.a == id || l.b == id; });
    m_linkIndex.clear();
    for (std::size_t i = 0; i < m_links.size(); ++i)
        m_linkIndex[m_links[i].id] = i;
    eraseAt(m_nodes, m_nodeIndex, it->second);
    return true;
}

const Node *Design::node(NodeId id) const
{
    return find(const_cast<std::vector<Node> &>(m_nodes), m_nodeIndex, id);
}
Node *Design::node(NodeId id) { return find(m_nodes, m_nodeIndex, id); }

LinkId Design::addLink(Link l) { return insert(m_links, m_linkIndex, m_nextLink, std::move(l)); }

bool Design::removeLink(LinkId id)
{
    auto it = m_linkIndex.find(id);
    if (it == m_linkIndex.end())
        return false;
    eraseAt(m_links, m_linkIndex, it->second);
    return true;
}

const Link *Design::link(LinkId id) const
{
    return find(const_cast<std::vector<Link> &>(m_links), m_linkIndex, id);
}
Link *Design::link(LinkId id) { return find(m_links, m_linkIndex, id); }

GroupId Design::addGroup(Group g) { return insert(m_groups, m_groupIndex, m_nextGroup, std::move(g)); }

bool Design::removeGroup(GroupId id)
{
    auto it = m_groupIndex.find(id);
    if (it == m_groupIndex.end())
        return false;
    const GroupId parent = m_groups[it->second].parent;
    for (const NodeId n : m_groups[it->second].members)
        if (Node *nd = node(n))
            nd->group = parent;
    for (Group &g : m_groups)
        if (g.parent == id)
            g.parent = parent;
    eraseAt(m_groups, m_groupIndex, it->second);
    return true;
}

const Group *Design::group(GroupId id) const
{
    return find(const_cast<std::vector<Group> &>(m_groups), m_groupIndex, id);
}
Group *Design::group(GroupId id) { return find(m_groups, m_groupIndex, id); }

std::size_t Design::acceleratorCount() const
{
    return static_cast<std::size_t>(
        std::count_if(m_nodes.begin(), m_nodes.end(), [](const Node &n) { return n.isAccelerator(); }));
}

const AcceleratorSpec *Design::acceleratorSpec(const Node &n) const
{
    auto it = hardware.accelerators.find(n.spec);
    return it == hardware.accelerators.end() ? nullptr : &it->second;
}

const SwitchSpec *Design::switchSpec(const Node &n) const
{
    auto it = hardware.switches.find(n.spec);
    return it == hardware.switches.end() ? nullptr : &it->second;
}

const LinkTechSpec *Design::linkTech(const Link &l) const
{
    auto it = hardware.linkTechs.find(l.tech);
    return it == hardware.linkTechs.end() ? nullptr : &it->second;
}

void Design::reserve(std::size_t nodes, std::size_t links, std::size_t groups)
{
    m_nodes.reserve(nodes);
    m_links.reserve(links);
    m_groups.reserve(groups);
    m_nodeIndex.reserve(nodes);
    m_linkIndex.reserve(links);
    m_groupIndex.reserve(groups);
}

void Catalog::merge(const Catalog &other)
{
    for (const auto &[k, v] : other.hardware.accelerators)
        hardware.accelerators[k] = v;
    for (const auto &[k, v] : other.hardware.switches)
        hardware.switches[k] = v;
    for (const auto &[k, v] : other.hardware.linkTechs)
        hardware.linkTechs[k] = v;
    for (const auto &[k, v] : other.scaleUpPresets)
        scaleUpPresets[k] = v;
}

} // namespace weft
