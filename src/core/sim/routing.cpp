#include "sim/routing.h"

#include <algorithm>
#include <limits>

namespace weft {

namespace {

constexpr int kInf = std::numeric_limits<int>::max();
constexpr std::uint8_t kFar = 255;
// Routes are cached up to this many entries in total, then the cache starts over.
constexpr std::size_t kCacheEntryLimit = 16'000'000;

std::string nodeLabel(const Design &d, NodeId id)
{
    const Node *n = d.node(id);
    return n && !n->name.empty() ? "'" + n->name + "'" : "node " + std::to_string(id.value);
}

} // namespace

Router::Router(const Design &design, bool pxn)
    : m_design(design)
    , m_pxn(pxn)
{
    const auto &nodes = design.nodes();
    const std::size_t n = nodes.size();
    m_nodeIds.reserve(n);
    m_isAcc.assign(n, 0);
    m_domain.assign(n, -1);
    m_rail.assign(n, -1);
    m_switchIndex.assign(n, -1);
    std::unordered_map<std::uint32_t, int> domainOfGroup;
    std::vector<char> scaleUpSwitch(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const Node &nd = nodes[i];
        m_nodeIds.push_back(nd.id);
        m_nodeIndex.emplace(nd.id.value, static_cast<int>(i));
        m_isAcc[i] = nd.isAccelerator();
        if (nd.isSwitch()) {
            m_switchIndex[i] = static_cast<int>(m_switchCount++);
            scaleUpSwitch[i] = nd.role == SwitchRole::ScaleUp;
        }
        const Group *g = design.group(nd.group);
        if ((nd.isAccelerator() || scaleUpSwitch[i]) && g && g->kind == GroupKind::ScaleUpDomain) {
            auto [it, fresh]
                = domainOfGroup.emplace(nd.group.value, static_cast<int>(m_domainMembers.size()));
            if (fresh)
                m_domainMembers.emplace_back();
            m_domain[i] = it->second;
            if (nd.isAccelerator())
                m_domainMembers[static_cast<std::size_t>(it->second)].push_back(
                    static_cast<int>(i));
        }
        m_rail[i] = nd.isAccelerator() ? nd.rail : -1;
    }
    // Accelerators without an explicit rail take their position in the domain.
    for (const auto &members : m_domainMembers)
        for (std::size_t k = 0; k < members.size(); ++k)
            if (m_rail[static_cast<std::size_t>(members[k])] < 0)
                m_rail[static_cast<std::size_t>(members[k])] = static_cast<int>(k);

    const auto &links = design.links();
    const std::size_t L = links.size();
    m_linkIds.resize(L);
    m_linkCap.assign(L, 0);
    m_linkAlpha.assign(L, 0);
    m_linkLatency.assign(L, 0);
    m_scaleUp.assign(L, 0);
    std::vector<std::pair<int, int>> ends(L, {-1, -1});
    for (std::size_t i = 0; i < L; ++i) {
        const Link &l = links[i];
        m_linkIds[i] = l.id;
        const int a = nodeIndex(l.a), b = nodeIndex(l.b);
        if (a < 0 || b < 0 || a == b)
            continue;
        ends[i] = {a, b};
        const LinkTechSpec *tech = design.linkTech(l);
        m_linkCap[i] = std::max(0.0, l.capacity() * (tech ? tech->efficiency : 1.0));
        m_linkAlpha[i] = tech ? tech->latency : 0.0;
        m_linkLatency[i] = l.latency;
    }
    // Scale-up switches without a domain group join the domain of an adjacent accelerator.
    for (std::size_t i = 0; i < L; ++i) {
        auto [a, b] = ends[i];
        if (a < 0)
            continue;
        for (int k = 0; k < 2; ++k, std::swap(a, b))
            if (scaleUpSwitch[static_cast<std::size_t>(a)]
                && m_domain[static_cast<std::size_t>(a)] < 0
                && m_isAcc[static_cast<std::size_t>(b)])
                m_domain[static_cast<std::size_t>(a)] = m_domain[static_cast<std::size_t>(b)];
    }
    std::vector<std::uint32_t> degree(n + 1, 0);
    for (std::size_t i = 0; i < L; ++i) {
        const auto [a, b] = ends[i];
        if (a < 0)
            continue;
        const int da = m_domain[static_cast<std::size_t>(a)],
                  db = m_domain[static_cast<std::size_t>(b)];
        m_scaleUp[i] = (da >= 0 && da == db) || scaleUpSwitch[static_cast<std::size_t>(a)]
            || scaleUpSwitch[static_cast<std::size_t>(b)];
        if (m_linkCap[i] > 0) {
            ++degree[static_cast<std::size_t>(a) + 1];
            ++degree[static_cast<std::size_t>(b) + 1];
        }
    }
    for (std::size_t i = 1; i <= n; ++i)
        degree[i] += degree[i - 1];
    m_adjStart = degree;
    m_adj.resize(m_adjStart[n]);
    std::vector<std::uint32_t> fill(m_adjStart.begin(), m_adjStart.end() - 1);
    for (std::size_t i = 0; i < L; ++i) {
        const auto [a, b] = ends[i];
        if (a < 0 || m_linkCap[i] <= 0)
            continue;
        const auto li = static_cast<std::uint32_t>(i);
        m_adj[fill[static_cast<std::size_t>(a)]++] = Adj {b, li, 2 * li};
        m_adj[fill[static_cast<std::size_t>(b)]++] = Adj {a, li, 2 * li + 1};
    }
    // Accelerators with one scale-out link (a NIC to its leaf): their routes share the walk
    // between the two leaves (walkScaleOut).
    m_soleOut.assign(n, -1);
    for (std::size_t v = 0; v < n; ++v) {
        if (!m_isAcc[v])
            continue;
        int count = 0;
        for (auto i = m_adjStart[v]; i < m_adjStart[v + 1]; ++i)
            if (!m_scaleUp[m_adj[i].link]) {
                ++count;
                m_soleOut[v] = i;
            }
        if (count != 1 || m_switchIndex[static_cast<std::size_t>(m_adj[m_soleOut[v]].to)] < 0)
            m_soleOut[v] = -1;
    }
    // The scale-out graph between switches, by compact switch index, for the distance BFS.
    m_switchAdjStart.assign(m_switchCount + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t v = 0; v < n; ++v) {
            const int sv = m_switchIndex[v];
            if (sv < 0)
                continue;
            for (auto i = m_adjStart[v]; i < m_adjStart[v + 1]; ++i) {
                const int su = m_switchIndex[static_cast<std::size_t>(m_adj[i].to)];
                if (m_scaleUp[m_adj[i].link] || su < 0)
                    continue;
                if (pass == 0)
                    ++m_switchAdjStart[static_cast<std::size_t>(sv) + 1];
                else
                    m_switchAdj[fill[static_cast<std::size_t>(sv)]++] = su;
            }
        }
        if (pass == 0) {
            for (std::size_t i = 1; i <= m_switchCount; ++i)
                m_switchAdjStart[i] += m_switchAdjStart[i - 1];
            m_switchAdj.resize(m_switchAdjStart[m_switchCount]);
            fill.assign(m_switchAdjStart.begin(), m_switchAdjStart.end() - 1);
        }
    }
    m_scratchDist.assign(n, kInf);
    m_scratchStamp.assign(n, 0);
    m_mass.assign(n, 0);
    m_nodeClass.assign(n, nullptr);
    m_massStamp.assign(n, 0);
}

int Router::nodeIndex(NodeId id) const
{
    auto it = m_nodeIndex.find(id.value);
    return it == m_nodeIndex.end() ? -1 : it->second;
}

double Router::scaleUpEgress(int node) const
{
    double sum = 0;
    for (auto i = m_adjStart[static_cast<std::size_t>(node)];
         i < m_adjStart[static_cast<std::size_t>(node) + 1]; ++i)
        if (m_scaleUp[m_adj[i].link])
            sum += m_linkCap[m_adj[i].link];
    return sum;
}

double Router::scaleOutEgress(int node) const
{
    double sum = 0;
    for (auto i = m_adjStart[static_cast<std::size_t>(node)];
         i < m_adjStart[static_cast<std::size_t>(node) + 1]; ++i)
        if (!m_scaleUp[m_adj[i].link])
            sum += m_linkCap[m_adj[i].link];
    return sum;
}

std::vector<std::pair<int, int>> Router::scaleUpSwitchLanes(int node) const
{
    std::vector<std::pair<int, int>> out;
    for (auto i = m_adjStart[static_cast<std::size_t>(node)];
         i < m_adjStart[static_cast<std::size_t>(node) + 1]; ++i) {
        const Adj &a = m_adj[i];
        const Node &other = m_design.nodes()[static_cast<std::size_t>(a.to)];
        if (!other.isSwitch() || other.role != SwitchRole::ScaleUp)
            continue;
        const int lanes = std::max(1, m_design.links()[a.link].lanes);
        auto it
            = std::find_if(out.begin(), out.end(), [&](const auto &p) { return p.first == a.to; });
        if (it == out.end())
            out.emplace_back(a.to, lanes);
        else
            it->second += lanes;
    }
    return out;
}

std::vector<std::pair<int, std::uint32_t>> Router::neighbors(int node) const
{
    std::vector<std::pair<int, std::uint32_t>> out;
    for (auto i = m_adjStart[static_cast<std::size_t>(node)];
         i < m_adjStart[static_cast<std::size_t>(node) + 1]; ++i)
        out.emplace_back(m_adj[i].to, m_adj[i].link);
    return out;
}

const Route &Router::route(NodeId src, NodeId dst) const
{
    const int s = nodeIndex(src), d = nodeIndex(dst);
    if (s < 0 || d < 0)
        throw std::invalid_argument("route: unknown node "
                                    + std::to_string((s < 0 ? src : dst).value));
    const std::uint64_t key
        = (std::uint64_t(static_cast<std::uint32_t>(s)) << 32) | std::uint32_t(d);
    if (auto it = m_cache.find(key); it != m_cache.end())
        return it->second;
    Route r;
    routeUncached(src, dst, r);
    if (m_cachedEntries > kCacheEntryLimit) {
        m_cache.clear();
        m_cachedEntries = 0;
    }
    m_cachedEntries += r.entries.size() + 4;
    return m_cache.emplace(key, std::move(r)).first->second;
}

void Router::routeUncached(NodeId src, NodeId dst, Route &out) const
{
    const int s = nodeIndex(src), d = nodeIndex(dst);
    if (s < 0 || d < 0)
        throw std::invalid_argument("route: unknown node "
                                    + std::to_string((s < 0 ? src : dst).value));
    out.entries.clear();
    if (s != d && !computeRoute(s, d, out))
        throw UnroutableError(src, dst,
                              "no route from " + nodeLabel(m_design, src) + " to "
                                  + nodeLabel(m_design, dst)
                                  + " (no path, or only through links of zero capacity)");
    finishRoute(out);
}

int Router::pxnProxy(int s, int d) const
{
    const int ds = m_domain[static_cast<std::size_t>(s)];
    if (!m_pxn || !m_isAcc[static_cast<std::size_t>(s)] || !m_isAcc[static_cast<std::size_t>(d)]
        || ds < 0 || ds == m_domain[static_cast<std::size_t>(d)]
        || m_rail[static_cast<std::size_t>(d)] < 0
        || m_rail[static_cast<std::size_t>(s)] == m_rail[static_cast<std::size_t>(d)])
        return -1;
    for (int p : m_domainMembers[static_cast<std::size_t>(ds)])
        if (m_rail[static_cast<std::size_t>(p)] == m_rail[static_cast<std::size_t>(d)]
            && scaleOutEgress(p) > 0)
            return p;
    return -1;
}

bool Router::computeRoute(int s, int d, Route &out) const
{
    const int ds = m_domain[static_cast<std::size_t>(s)];
    // Inside a domain the walk itself (route() caches the route); scaleUpWalk caches the hops
    // to PXN proxies, which many routes share.
    if (ds >= 0 && ds == m_domain[static_cast<std::size_t>(d)]
        && walkScaleUp(s, d, Mode::ScaleUp, out))
        return true;
    if (const int p = pxnProxy(s, d); p >= 0) {
        // PXN: hop over the scale-up fabric to the rail-matched accelerator, then its NIC.
        const Segment &first = scaleUpWalk(s, p);
        if (first.ok) {
            out.entries = first.entries;
            if (walkScaleOut(p, d, out))
                return true;
        }
    }
    out.entries.clear();
    if (walkScaleOut(s, d, out))
        return true;
    out.entries.clear();
    return walkScaleUp(s, d, Mode::Any, out);
}

const Router::Segment &Router::scaleUpWalk(int s, int d) const
{
    const std::uint64_t key
        = (std::uint64_t(static_cast<std::uint32_t>(s)) << 32) | std::uint32_t(d);
    if (auto it = m_scaleUpWalks.find(key); it != m_scaleUpWalks.end())
        return it->second;
    Segment w;
    Route r;
    w.ok = walkScaleUp(s, d, Mode::ScaleUp, r);
    if (w.ok)
        w.entries = std::move(r.entries);
    if (m_scaleUpWalkEntries > kCacheEntryLimit) {
        m_scaleUpWalks.clear();
        m_scaleUpWalkEntries = 0;
    }
    m_scaleUpWalkEntries += w.entries.size() + 4;
    return m_scaleUpWalks.emplace(key, std::move(w)).first->second;
}

namespace {

constexpr std::uint64_t kPieceScaleUp = 1, kPieceSegment = 2;

std::uint64_t pieceKey(std::uint64_t kind, int a, int b)
{
    return (kind << 62) | (std::uint64_t(static_cast<std::uint32_t>(a)) << 31)
        | std::uint64_t(static_cast<std::uint32_t>(b));
}

} // namespace

void Router::routeParts(NodeId src, NodeId dst, RouteParts &out) const
{
    const int s = nodeIndex(src), d = nodeIndex(dst);
    if (s < 0 || d < 0)
        throw std::invalid_argument("route: unknown node "
                                    + std::to_string((s < 0 ? src : dst).value));
    out.own.clear();
    out.pieceCount = 0;
    if (s == d || computeParts(s, d, out))
        return;
    out.own.clear();
    out.pieceCount = 0;
    Route r;
    routeUncached(src, dst, r); // the unusual graphs: the whole route as own entries
    out.own = std::move(r.entries);
}

const std::vector<RouteEntry> &Router::pieceEntries(std::uint64_t key) const
{
    const int a = static_cast<int>((key >> 31) & 0x7fffffffu);
    const int b = static_cast<int>(key & 0x7fffffffu);
    return (key >> 62) == kPieceScaleUp ? scaleUpWalk(a, b).entries : segment(a, b).entries;
}

// computeRoute's choices, with the scale-up walks and the leaf-to-leaf walks as pieces; false
// where computeRoute would take its last resorts (the caller then routes the whole way).
bool Router::computeParts(int s, int d, RouteParts &out) const
{
    const int ds = m_domain[static_cast<std::size_t>(s)];
    if (ds >= 0 && ds == m_domain[static_cast<std::size_t>(d)] && scaleUpWalk(s, d).ok) {
        out.pieces[out.pieceCount++] = pieceKey(kPieceScaleUp, s, d);
        return true;
    }
    if (const int p = pxnProxy(s, d); p >= 0 && scaleUpWalk(s, p).ok) {
        if (scaleOutParts(p, d, out)) {
            out.pieces[out.pieceCount++] = pieceKey(kPieceScaleUp, s, p);
            return true;
        }
        out.own.clear();
        out.pieceCount = 0;
    }
    return scaleOutParts(s, d, out);
}

// BFS from the destination over the links allowed by `mode` (any node may transit), then walk.
bool Router::walkScaleUp(int s, int d, Mode mode, Route &out) const
{
    const std::uint32_t stamp = ++m_stamp;
    auto dist = [&](int v) {
        return m_scratchStamp[static_cast<std::size_t>(v)] == stamp
            ? m_scratchDist[static_cast<std::size_t>(v)]
            : kInf;
    };
    std::vector<int> &queue = m_queue;
    queue.assign(1, d);
    std::size_t head = 0;
    m_scratchStamp[static_cast<std::size_t>(d)] = stamp;
    m_scratchDist[static_cast<std::size_t>(d)] = 0;
    bool reached = false;
    while (head < queue.size() && !reached) {
        const int v = queue[head++];
        for (auto i = m_adjStart[static_cast<std::size_t>(v)];
             i < m_adjStart[static_cast<std::size_t>(v) + 1]; ++i) {
            const Adj &a = m_adj[i];
            if (!linkAllowed(a.link, mode) || dist(a.to) != kInf)
                continue;
            m_scratchStamp[static_cast<std::size_t>(a.to)] = stamp;
            m_scratchDist[static_cast<std::size_t>(a.to)]
                = m_scratchDist[static_cast<std::size_t>(v)] + 1;
            if (a.to == s)
                reached = true; // nodes nearer than s are all labelled already
            queue.push_back(a.to);
        }
    }
    if (!reached)
        return false;
    return walk(s, d, mode, dist, out);
}

const std::vector<std::uint8_t> &Router::scaleOutDistances(int d) const
{
    if (const auto *known = m_nodeClass[static_cast<std::size_t>(d)])
        return *known;
    std::vector<int> key;
    if (!m_isAcc[static_cast<std::size_t>(d)]) {
        key = {-1, m_switchIndex[static_cast<std::size_t>(d)]};
    } else {
        for (auto i = m_adjStart[static_cast<std::size_t>(d)];
             i < m_adjStart[static_cast<std::size_t>(d) + 1]; ++i)
            if (!m_scaleUp[m_adj[i].link] && !m_isAcc[static_cast<std::size_t>(m_adj[i].to)])
                key.push_back(m_adj[i].to);
        std::sort(key.begin(), key.end());
        key.erase(std::unique(key.begin(), key.end()), key.end());
    }
    auto it = m_classDist.find(key);
    if (it != m_classDist.end()) {
        m_nodeClass[static_cast<std::size_t>(d)] = &it->second;
        return it->second;
    }
    // BFS over the switches only: accelerators never forward scale-out traffic.
    std::vector<std::uint8_t> dist(m_switchCount, kFar);
    std::vector<int> queue; // compact switch indices
    std::size_t head = 0;
    if (key.size() == 2 && key[0] == -1) {
        dist[static_cast<std::size_t>(key[1])] = 0;
        queue.push_back(key[1]);
    } else {
        for (int sw : key) {
            const int c = m_switchIndex[static_cast<std::size_t>(sw)];
            dist[static_cast<std::size_t>(c)] = 1;
            queue.push_back(c);
        }
    }
    while (head < queue.size()) {
        const auto v = static_cast<std::size_t>(queue[head++]);
        const std::uint8_t dv = dist[v];
        if (dv >= kFar - 1)
            continue;
        for (auto i = m_switchAdjStart[v]; i < m_switchAdjStart[v + 1]; ++i) {
            const auto u = static_cast<std::size_t>(m_switchAdj[i]);
            if (dist[u] != kFar)
                continue;
            dist[u] = static_cast<std::uint8_t>(dv + 1);
            queue.push_back(static_cast<int>(u));
        }
    }
    const auto &stored = m_classDist.emplace(std::move(key), std::move(dist)).first->second;
    m_nodeClass[static_cast<std::size_t>(d)] = &stored;
    return stored;
}

// Hops to `d` over scale-out links between switches (accelerators never transit), kInf where d
// cannot be reached.
auto Router::scaleOutDistanceTo(int d) const
{
    const std::vector<std::uint8_t> &sd = scaleOutDistances(d);
    return [this, &sd, d](int v) {
        if (v == d)
            return 0;
        const int sw = m_switchIndex[static_cast<std::size_t>(v)];
        if (sw < 0)
            return kInf; // accelerators do not transit
        const std::uint8_t x = sd[static_cast<std::size_t>(sw)];
        return x == kFar ? kInf : int(x);
    };
}

Router::LeafHop Router::leafHop(int s, int d) const
{
    LeafHop h;
    const std::int64_t up = m_soleOut[static_cast<std::size_t>(s)];
    const std::int64_t down = m_soleOut[static_cast<std::size_t>(d)];
    if (up < 0 || down < 0 || m_adj[up].to == m_adj[down].to)
        return h;
    h.fromLeaf = m_adj[up].to;
    h.toLeaf = m_adj[down].to;
    h.seg = &segment(h.fromLeaf, h.toLeaf);
    const double c = m_linkCap[m_adj[up].link], cd = m_linkCap[m_adj[down].link];
    h.upEntry = RouteEntry {m_adj[up].dir, 1.0 * c / c};
    h.downEntry = RouteEntry {m_adj[down].dir ^ 1u, h.seg->mass * cd / cd};
    return h;
}

bool Router::walkScaleOut(int s, int d, Route &out) const
{
    // Between accelerators with one NIC each on different leaves: the NIC link up, the walk
    // between the leaves (the same DAG as from the accelerator: every distance to the
    // destination accelerator is its leaf's plus one), the NIC link down. Entries and fractions
    // are those of the walk from s, computed once per pair of leaves.
    if (const LeafHop h = leafHop(s, d); h.seg) {
        if (!h.seg->ok)
            return false;
        out.entries.push_back(h.upEntry);
        out.entries.insert(out.entries.end(), h.seg->entries.begin(), h.seg->entries.end());
        out.entries.push_back(h.downEntry);
        return true;
    }
    return walk(s, d, Mode::ScaleOut, scaleOutDistanceTo(d), out);
}

const Router::Segment &Router::segment(int from, int to) const
{
    const std::uint64_t key
        = (std::uint64_t(static_cast<std::uint32_t>(from)) << 32) | std::uint32_t(to);
    if (auto it = m_segments.find(key); it != m_segments.end())
        return it->second;
    Segment seg;
    Route r;
    // the walk from the accelerator reaches its leaf with mass 1.0 * c / c == 1
    seg.ok = walk(from, to, Mode::ScaleOut, scaleOutDistanceTo(to), r);
    if (seg.ok) {
        seg.entries = std::move(r.entries);
        seg.mass = m_massStamp[static_cast<std::size_t>(to)] == m_stamp
            ? m_mass[static_cast<std::size_t>(to)]
            : 0.0;
    }
    if (m_segmentEntries > kCacheEntryLimit) {
        m_segments.clear();
        m_segmentEntries = 0;
    }
    m_segmentEntries += seg.entries.size() + 4;
    return m_segments.emplace(key, std::move(seg)).first->second;
}

// Spreads the unit mass of the flow along the shortest-path DAG given by `dist`, level by level;
// at each node the mass splits over the next-hop links in proportion to their capacity (ECMP
// per lane). Each link direction is reached from one level only, so it is recorded once.
template<class DistFn> bool Router::walk(int s, int d, Mode mode, DistFn dist, Route &out) const
{
    const std::uint32_t stamp = ++m_stamp;
    std::vector<int> &level = m_level, &next = m_next;
    level.assign(1, s);
    m_massStamp[static_cast<std::size_t>(s)] = stamp;
    m_mass[static_cast<std::size_t>(s)] = 1.0;
    const std::size_t first = out.entries.size();
    for (std::size_t hops = 0; !level.empty(); ++hops) {
        if (hops > m_nodeIds.size())
            return false;
        next.clear();
        for (int v : level) {
            if (v == d)
                continue;
            const int dv = v == s ? kInf : dist(v);
            int best = kInf;
            double capSum = 0;
            const auto b = m_adjStart[static_cast<std::size_t>(v)],
                       e = m_adjStart[static_cast<std::size_t>(v) + 1];
            for (auto i = b; i < e; ++i) {
                if (!linkAllowed(m_adj[i].link, mode))
                    continue;
                const int du = dist(m_adj[i].to);
                if (du < best) {
                    best = du;
                    capSum = 0;
                }
                if (du == best && du != kInf)
                    capSum += m_linkCap[m_adj[i].link];
            }
            if (best == kInf || best >= dv || capSum <= 0) {
                out.entries.resize(first);
                return false;
            }
            const double m = m_mass[static_cast<std::size_t>(v)];
            for (auto i = b; i < e; ++i) {
                const Adj &a = m_adj[i];
                if (!linkAllowed(a.link, mode) || dist(a.to) != best)
                    continue;
                const double f = m * m_linkCap[a.link] / capSum;
                out.entries.push_back(RouteEntry {a.dir, f});
                if (m_massStamp[static_cast<std::size_t>(a.to)] != stamp) {
                    m_massStamp[static_cast<std::size_t>(a.to)] = stamp;
                    m_mass[static_cast<std::size_t>(a.to)] = 0;
                    next.push_back(a.to);
                }
                m_mass[static_cast<std::size_t>(a.to)] += f;
            }
        }
        std::swap(level, next);
    }
    return true;
}

void Router::finishRoute(Route &r) const
{
    r.alpha = 0;
    r.propagation = 0;
    for (const RouteEntry &e : r.entries) {
        r.alpha = std::max(r.alpha, m_linkAlpha[e.linkDir / 2]);
        r.propagation += e.fraction * m_linkLatency[e.linkDir / 2];
    }
}

// walkScaleOut's route as parts: the leaf-to-leaf walk a piece, the NIC links own entries.
bool Router::scaleOutParts(int s, int d, RouteParts &out) const
{
    if (const LeafHop h = leafHop(s, d); h.seg) {
        if (!h.seg->ok)
            return false;
        out.own.push_back(h.upEntry);
        out.own.push_back(h.downEntry);
        out.pieces[out.pieceCount++] = pieceKey(kPieceSegment, h.fromLeaf, h.toLeaf);
        return true;
    }
    Route r;
    r.entries = std::move(out.own);
    const bool ok = walk(s, d, Mode::ScaleOut, scaleOutDistanceTo(d), r);
    out.own = std::move(r.entries);
    return ok;
}

} // namespace weft
