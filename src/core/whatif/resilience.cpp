#include "whatif/resilience.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <unordered_map>

namespace weft {

namespace {

/// Dinic's max-flow on a small graph with double capacities.
class MaxFlow
{
public:
    explicit MaxFlow(int n)
        : m_head(static_cast<std::size_t>(n), -1)
    {
    }

    /// Arc u -> v of capacity c and its reverse of capacity rc; returns the arc index.
    int add(int u, int v, double c, double rc)
    {
        m_arcs.push_back({v, m_head[static_cast<std::size_t>(u)], c});
        m_head[static_cast<std::size_t>(u)] = static_cast<int>(m_arcs.size()) - 1;
        m_arcs.push_back({u, m_head[static_cast<std::size_t>(v)], rc});
        m_head[static_cast<std::size_t>(v)] = static_cast<int>(m_arcs.size()) - 1;
        return static_cast<int>(m_arcs.size()) - 2;
    }

    double run(int s, int t)
    {
        double total = 0, maxCap = 0;
        for (const Arc &a : m_arcs)
            maxCap = std::max(maxCap, a.cap);
        m_eps = maxCap * 1e-12;
        while (bfs(s, t)) {
            m_it = m_head;
            while (true) {
                const double f = dfs(s, t, std::numeric_limits<double>::infinity());
                if (f <= m_eps)
                    break;
                total += f;
            }
        }
        return total;
    }

    /// After run(): whether v is reachable from s in the residual graph (source side of the cut).
    [[nodiscard]] bool sourceSide(int v) const { return m_level[static_cast<std::size_t>(v)] >= 0; }
    [[nodiscard]] int to(int arc) const { return m_arcs[static_cast<std::size_t>(arc)].to; }
    [[nodiscard]] int from(int arc) const { return m_arcs[static_cast<std::size_t>(arc ^ 1)].to; }

private:
    struct Arc
    {
        int to;
        int next;
        double cap;
    };

    bool bfs(int s, int t)
    {
        m_level.assign(m_head.size(), -1);
        std::queue<int> q;
        m_level[static_cast<std::size_t>(s)] = 0;
        q.push(s);
        while (!q.empty()) {
            const int u = q.front();
            q.pop();
            for (int e = m_head[static_cast<std::size_t>(u)]; e >= 0;
                 e = m_arcs[static_cast<std::size_t>(e)].next) {
                const Arc &a = m_arcs[static_cast<std::size_t>(e)];
                if (a.cap > m_eps && m_level[static_cast<std::size_t>(a.to)] < 0) {
                    m_level[static_cast<std::size_t>(a.to)]
                        = m_level[static_cast<std::size_t>(u)] + 1;
                    q.push(a.to);
                }
            }
        }
        return m_level[static_cast<std::size_t>(t)] >= 0;
    }

    double dfs(int u, int t, double f)
    {
        if (u == t)
            return f;
        for (int &e = m_it[static_cast<std::size_t>(u)]; e >= 0;
             e = m_arcs[static_cast<std::size_t>(e)].next) {
            Arc &a = m_arcs[static_cast<std::size_t>(e)];
            if (a.cap > m_eps
                && m_level[static_cast<std::size_t>(a.to)]
                    == m_level[static_cast<std::size_t>(u)] + 1) {
                const double d = dfs(a.to, t, std::min(f, a.cap));
                if (d > m_eps) {
                    a.cap -= d;
                    m_arcs[static_cast<std::size_t>(e ^ 1)].cap += d;
                    return d;
                }
            }
        }
        return 0;
    }

    std::vector<int> m_head, m_it, m_level;
    std::vector<Arc> m_arcs;
    double m_eps = 0;
};

/// The contracted flow network of a design: vertex 0 = first half, 1 = second half, 2.. = fabric
/// switches. Arcs keep the links they stand for.
struct Bisection
{
    double flow = 0;
    std::vector<LinkId> cut; // links across the minimum cut
};

class BisectionGraph
{
public:
    explicit BisectionGraph(const Design &d)
        : m_d(d)
    {
        std::vector<GroupId> domains;
        for (const Group &g : d.groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                domains.push_back(g.id);
        m_domains = static_cast<int>(domains.size());
        for (std::size_t i = 0; i < domains.size(); ++i)
            m_side[domains[i]] = i < domains.size() / 2 ? 0 : 1;
        for (const Node &n : d.nodes())
            if (n.isSwitch() && n.role != SwitchRole::ScaleUp) {
                m_vertex[n.id] = 2 + static_cast<int>(m_switches.size());
                m_switches.push_back(n.id);
            }
        for (const Link &l : d.links()) {
            int u = vertex(l.a), v = vertex(l.b);
            if (u < 0 || v < 0 || u == v)
                continue;
            // A half is a source (0) or a sink (1): arcs leave 0 and enter 1.
            if (v == 0 || u == 1)
                std::swap(u, v);
            const bool terminal = u == 0 || v == 1;
            m_edges.push_back({u, v, l.capacity(), terminal ? 0 : l.capacity(), l.id});
        }
    }

    [[nodiscard]] int domains() const { return m_domains; }
    [[nodiscard]] const std::vector<NodeId> &switches() const { return m_switches; }

    /// Max flow with `down` (a switch, or invalid) removed.
    [[nodiscard]] Bisection solve(NodeId down, bool wantCut) const
    {
        MaxFlow mf(2 + static_cast<int>(m_switches.size()));
        std::vector<std::pair<int, LinkId>> arcs;
        const int skip = down.valid() ? m_vertex.at(down) : -1;
        for (const Edge &e : m_edges)
            if (e.u != skip && e.v != skip)
                arcs.emplace_back(mf.add(e.u, e.v, e.cap, e.reverse), e.link);
        Bisection r;
        r.flow = mf.run(0, 1);
        if (wantCut)
            for (const auto &[arc, id] : arcs) {
                const int u = mf.from(arc), v = mf.to(arc);
                if (mf.sourceSide(u) != mf.sourceSide(v))
                    r.cut.push_back(id);
            }
        return r;
    }

private:
    /// 0/1 for an accelerator of a domain half, the switch's vertex, -1 otherwise.
    [[nodiscard]] int vertex(NodeId id) const
    {
        const Node *n = m_d.node(id);
        if (!n)
            return -1;
        if (n->isAccelerator()) {
            const auto it = m_side.find(n->group);
            return it == m_side.end() ? -1 : it->second;
        }
        const auto it = m_vertex.find(id);
        return it == m_vertex.end() ? -1 : it->second;
    }

    struct Edge
    {
        int u, v;
        double cap, reverse;
        LinkId link;
    };

    const Design &m_d;
    std::vector<Edge> m_edges;
    int m_domains = 0;
    std::unordered_map<GroupId, int> m_side;
    std::unordered_map<NodeId, int> m_vertex;
    std::vector<NodeId> m_switches;
};

} // namespace

double bisectionBandwidth(const Design &design)
{
    const BisectionGraph g(design);
    return g.domains() < 2 ? 0 : g.solve(NodeId(), false).flow;
}

ResilienceReport fabricResilience(const Design &design, int topLinks)
{
    ResilienceReport r;
    const BisectionGraph g(design);
    if (g.domains() < 2) {
        r.problem = "the design has fewer than two scale-up domains: no bisection to cut";
        return r;
    }
    r.ok = true;
    const Bisection healthy = g.solve(NodeId(), true);
    r.bisection = healthy.flow;
    r.worstSwitchBisection = healthy.flow;
    for (const NodeId s : g.switches()) {
        const double f = g.solve(s, false).flow;
        ++r.switchesTried;
        if (r.worstSwitch.empty() || f < r.worstSwitchBisection) {
            r.worstSwitch = design.node(s)->name;
            r.worstSwitchBisection = f;
        }
    }
    for (const LinkId id : healthy.cut)
        r.costliestLinks.push_back({id, design.link(id)->capacity()});
    std::stable_sort(r.costliestLinks.begin(), r.costliestLinks.end(),
                     [](const LinkLoss &a, const LinkLoss &b) { return a.loss > b.loss; });
    if (static_cast<int>(r.costliestLinks.size()) > topLinks)
        r.costliestLinks.resize(static_cast<std::size_t>(std::max(0, topLinks)));
    return r;
}

} // namespace weft
