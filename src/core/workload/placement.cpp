#include "workload/placement.h"

#include "model/design.h"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace weft {

std::array<int, 5> attentionDimSizes(const TrainingConfig &c)
{
    return {c.tp, c.cp, 1, c.dp, c.pp};
}

std::array<int, 5> expertDimSizes(const TrainingConfig &c)
{
    return {c.expertTp(), 1, c.ep, c.expertDp(), c.pp};
}

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
    if (world <= 0 || c.expertDp() <= 0)
        return;
    // Megatron-Core's two RankGenerators: attention (tp, cp, ep = 1, dp, pp) and experts (etp,
    // cp = 1, ep, expert-dp, pp), the same order for both.
    const std::array<int, 5> size = attentionDimSizes(c), expertSize = expertDimSizes(c);
    // Parse the order string into strides; dimensions of size 1 may be omitted.
    std::vector<int> order;
    std::stringstream ss(p.order);
    std::string tok;
    const auto &names = kPlacementDims;
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
            const std::size_t di = static_cast<std::size_t>(dim);
            const int degree = std::max(size[di], expertSize[di]);
            if (degree > 1) {
                findings.push_back({Severity::Error,
                                    "placement-order-invalid",
                                    "placement order '" + p.order + "' lacks '" + names[dim]
                                        + "' whose degree is " + std::to_string(degree),
                                    {}});
                return;
            }
            order.push_back(dim);
        }
    int stride = 1, expertStride = 1;
    for (int dim : order) {
        const std::size_t di = static_cast<std::size_t>(dim);
        m_stride[di] = stride;
        m_expertStride[di] = expertStride;
        stride *= size[di];
        expertStride *= expertSize[di];
    }
    // Both decompositions must agree on the pipeline stage of every rank, or the expert
    // groups would join ranks of different stages.
    if (m_stride[DimPp] != m_expertStride[DimPp] && c.pp > 1) {
        findings.push_back({Severity::Error,
                            "placement-order-expert-stages",
                            "placement order '" + p.order
                                + "': with ETP x EP different from TP x CP, 'pp' must come after "
                                  "tp, cp, ep and dp, or the expert groups would span pipeline "
                                  "stages",
                            {}});
        return;
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
    m_replicasPerUnit = coupledBlock();
}

RankCoord RankMap::coord(int rank) const
{
    auto at = [&](int dim, int size) {
        return (rank / m_stride[static_cast<std::size_t>(dim)]) % size;
    };
    return {at(DimTp, m_cfg.tp), at(DimCp, m_cfg.cp), at(DimDp, m_cfg.dp), at(DimPp, m_cfg.pp)};
}

int RankMap::rank(const RankCoord &c) const
{
    return c.tp * m_stride[DimTp] + c.cp * m_stride[DimCp] + c.dp * m_stride[DimDp]
        + c.pp * m_stride[DimPp];
}

ExpertCoord RankMap::expertCoord(int rank) const
{
    auto at = [&](int dim, int size) {
        return (rank / m_expertStride[static_cast<std::size_t>(dim)]) % size;
    };
    return {at(DimTp, m_cfg.expertTp()), at(DimEp, m_cfg.ep), at(DimDp, m_cfg.expertDp()),
            at(DimPp, m_cfg.pp)};
}

int RankMap::expertRank(const ExpertCoord &e) const
{
    return e.etp * m_expertStride[DimTp] + e.ep * m_expertStride[DimEp]
        + e.edp * m_expertStride[DimDp] + e.pp * m_expertStride[DimPp];
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

std::vector<NodeId> RankMap::expertGroup(const RankCoord &c, int dim) const
{
    const ExpertCoord base = expertCoord(rank(c));
    const int n = dim == DimEp ? m_cfg.ep : dim == DimTp ? m_cfg.expertTp() : m_cfg.expertDp();
    std::vector<NodeId> g;
    g.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        ExpertCoord e = base;
        (dim == DimEp ? e.ep : dim == DimTp ? e.etp : e.edp) = i;
        g.push_back(node(expertRank(e)));
    }
    return g;
}

std::vector<NodeId> RankMap::epGroup(const RankCoord &c) const
{
    return expertGroup(c, DimEp);
}

std::vector<NodeId> RankMap::expertDpGroup(const RankCoord &c) const
{
    return expertGroup(c, DimDp);
}

std::vector<NodeId> RankMap::expertTpGroup(const RankCoord &c) const
{
    return expertGroup(c, DimTp);
}

int RankMap::coupledBlock() const
{
    const int ep = m_cfg.ep, etp = m_cfg.expertTp();
    if (ep * etp <= 1)
        return 1;
    for (int block = 1; block < m_cfg.dp; ++block) {
        if (m_cfg.dp % block != 0)
            continue;
        bool inside = true;
        for (int r = 0; r < worldSize() && inside; ++r) {
            const ExpertCoord e = expertCoord(r);
            if (e.ep != 0 || e.etp != 0)
                continue; // each EP x ETP block once, from its first member
            const int unit = coord(r).dp / block;
            ExpertCoord x = e;
            for (x.ep = 0; x.ep < ep && inside; ++x.ep)
                for (x.etp = 0; x.etp < etp && inside; ++x.etp)
                    inside = coord(expertRank(x)).dp / block == unit;
        }
        if (inside)
            return block;
    }
    return m_cfg.dp;
}

} // namespace weft
