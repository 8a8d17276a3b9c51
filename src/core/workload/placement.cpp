#include "workload/placement.h"

#include "model/design.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace weft {

std::vector<NodeId> acceleratorsInOrder(const Design &d)
{
    std::vector<NodeId> out;
    out.reserve(d.nodes().size());
    std::unordered_set<NodeId> seen;
    for (const Group &g : d.groups()) {
        if (g.kind != GroupKind::ScaleUpDomain)
            continue;
        std::vector<const Node *> acc;
        for (NodeId id : g.members)
            if (const Node *n = d.node(id); n && n->isAccelerator() && !seen.count(id))
                acc.push_back(n);
        std::stable_sort(acc.begin(), acc.end(),
                         [](const Node *a, const Node *b) { return a->rail < b->rail; });
        for (const Node *n : acc) {
            out.push_back(n->id);
            seen.insert(n->id);
        }
    }
    for (const Node &n : d.nodes())
        if (n.isAccelerator() && !seen.count(n.id))
            out.push_back(n.id);
    return out;
}

namespace {

// Index of each dimension in m_stride.
enum Dim { DimTp = 0, DimCp, DimEp, DimDp, DimPp };

} // namespace

RankMap::RankMap(const Design &d, const TrainingConfig &c, const Placement &p,
                 std::vector<Finding> &findings)
    : m_cfg(c)
{
    const long long world = c.worldSize();
    if (world <= 0 || c.dp % std::max(1, c.ep) != 0)
        return;
    const std::array<int, 5> size {c.tp, c.cp, c.ep, c.dp / c.ep, c.pp};
    // Parse the order string into strides; dimensions of size 1 may be omitted.
    std::vector<int> order;
    std::stringstream ss(p.order);
    std::string tok;
    const char *names[5] = {"tp", "cp", "ep", "dp", "pp"};
    while (std::getline(ss, tok, '-')) {
        auto it = std::find_if(std::begin(names), std::end(names),
                               [&](const char *n) { return tok == n; });
        if (it == std::end(names)) {
            findings.push_back({Severity::Error,
                                "placement-order-invalid",
                                "placement order '" + p.order + "': unknown dimension '" + tok
                                    + "' (use tp, cp, ep, dp, pp separated by '-')",
                                {}});
            return;
        }
        const int dim = static_cast<int>(it - std::begin(names));
        if (std::find(order.begin(), order.end(), dim) != order.end()) {
            findings.push_back({Severity::Error,
                                "placement-order-invalid",
                                "placement order '" + p.order + "' names '" + tok + "' twice",
                                {}});
            return;
        }
        order.push_back(dim);
    }
    for (int dim = 0; dim < 5; ++dim)
        if (std::find(order.begin(), order.end(), dim) == order.end()) {
            if (size[static_cast<std::size_t>(dim)] > 1) {
                findings.push_back({Severity::Error,
                                    "placement-order-invalid",
                                    "placement order '" + p.order + "' lacks '" + names[dim]
                                        + "' whose degree is "
                                        + std::to_string(size[static_cast<std::size_t>(dim)]),
                                    {}});
                return;
            }
            order.push_back(dim);
        }
    int stride = 1;
    for (int dim : order) {
        m_stride[static_cast<std::size_t>(dim)] = stride;
        stride *= size[static_cast<std::size_t>(dim)];
    }

    std::vector<NodeId> nodes;
    if (!p.explicitMap.empty()) {
        if (static_cast<long long>(p.explicitMap.size()) != world) {
            findings.push_back({Severity::Error,
                                "placement-map-size",
                                "explicit placement maps " + std::to_string(p.explicitMap.size())
                                    + " ranks but the world size is " + std::to_string(world),
                                {}});
            return;
        }
        std::unordered_set<NodeId> used;
        for (std::size_t r = 0; r < p.explicitMap.size(); ++r) {
            const NodeId id = p.explicitMap[r];
            const Node *n = d.node(id);
            if (!n || !n->isAccelerator() || !used.insert(id).second) {
                findings.push_back(
                    {Severity::Error,
                     "placement-map-invalid",
                     "explicit placement: rank " + std::to_string(r) + " -> node "
                         + std::to_string(id.value)
                         + (n && n->isAccelerator() ? " is used twice" : " is not an accelerator"),
                     {"rank:" + std::to_string(r), "node:" + std::to_string(id.value)}});
                return;
            }
        }
        nodes = p.explicitMap;
    } else {
        nodes = acceleratorsInOrder(d);
        if (static_cast<long long>(nodes.size()) < world)
            return; // reported by validate() as world-size-exceeds-accelerators
        nodes.resize(static_cast<std::size_t>(world));
    }
    m_nodes = std::move(nodes);
}

RankCoord RankMap::coord(int rank) const
{
    auto at = [&](int dim, int size) {
        return (rank / m_stride[static_cast<std::size_t>(dim)]) % size;
    };
    RankCoord c;
    c.tp = at(DimTp, m_cfg.tp);
    c.cp = at(DimCp, m_cfg.cp);
    c.dp = at(DimEp, m_cfg.ep) + m_cfg.ep * at(DimDp, m_cfg.dp / m_cfg.ep);
    c.pp = at(DimPp, m_cfg.pp);
    return c;
}

int RankMap::rank(const RankCoord &c) const
{
    return c.tp * m_stride[DimTp] + c.cp * m_stride[DimCp] + (c.dp % m_cfg.ep) * m_stride[DimEp]
        + (c.dp / m_cfg.ep) * m_stride[DimDp] + c.pp * m_stride[DimPp];
}

std::vector<NodeId> RankMap::tpGroup(const RankCoord &c) const
{
    std::vector<NodeId> g;
    RankCoord x = c;
    for (x.tp = 0; x.tp < m_cfg.tp; ++x.tp)
        g.push_back(node(x));
    return g;
}

std::vector<NodeId> RankMap::cpGroup(const RankCoord &c) const
{
    std::vector<NodeId> g;
    RankCoord x = c;
    for (x.cp = 0; x.cp < m_cfg.cp; ++x.cp)
        g.push_back(node(x));
    return g;
}

std::vector<NodeId> RankMap::dpGroup(const RankCoord &c) const
{
    std::vector<NodeId> g;
    RankCoord x = c;
    for (x.dp = 0; x.dp < m_cfg.dp; ++x.dp)
        for (x.cp = 0; x.cp < m_cfg.cp; ++x.cp)
            g.push_back(node(x));
    return g;
}

std::vector<NodeId> RankMap::expertDpGroup(const RankCoord &c) const
{
    std::vector<NodeId> g;
    RankCoord x = c;
    for (int outer = 0; outer < m_cfg.dp / m_cfg.ep; ++outer) {
        x.dp = c.dp % m_cfg.ep + m_cfg.ep * outer;
        for (x.cp = 0; x.cp < m_cfg.cp; ++x.cp)
            g.push_back(node(x));
    }
    return g;
}

std::vector<NodeId> RankMap::epGroup(const RankCoord &c) const
{
    std::vector<NodeId> g;
    RankCoord x = c;
    const int outer = c.dp / m_cfg.ep;
    for (int e = 0; e < m_cfg.ep; ++e) {
        x.dp = e + m_cfg.ep * outer;
        g.push_back(node(x));
    }
    return g;
}

} // namespace weft
