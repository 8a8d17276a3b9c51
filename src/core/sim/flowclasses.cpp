#include "sim/flowclasses.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

namespace weft {

namespace {

struct WordsHash
{
    std::size_t operator()(const std::vector<std::uint64_t> &v) const
    {
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (std::uint64_t x : v)
            h = (h ^ x) * 0x100000001b3ull;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

/// Exact colour table: a signature (list of words) to a dense colour number.
class Palette
{
public:
    std::uint32_t colour(const std::vector<std::uint64_t> &signature)
    {
        auto [it, added] = m_ids.try_emplace(signature, static_cast<std::uint32_t>(m_ids.size()));
        return it->second;
    }
    [[nodiscard]] std::size_t size() const { return m_ids.size(); }

private:
    std::unordered_map<std::vector<std::uint64_t>, std::uint32_t, WordsHash> m_ids;
};

/// Compressed sparse rows: the (neighbour, fraction) pairs of each item.
struct Csr
{
    std::vector<std::uint32_t> offset {0};
    std::vector<std::uint32_t> other;
    std::vector<double> fraction;
};

/// New colours of the items of `rows`: (old colour, multiset of (neighbour colour, fraction)),
/// the multiset sorted and run-length encoded. Returns the number of colours.
std::size_t refine(const Csr &rows, const std::vector<std::uint32_t> &neighbourColour,
                   std::vector<std::uint32_t> &colour)
{
    Palette palette;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> pairs;
    std::vector<std::uint64_t> sig;
    for (std::size_t i = 0; i + 1 < rows.offset.size(); ++i) {
        pairs.clear();
        for (std::uint32_t k = rows.offset[i]; k < rows.offset[i + 1]; ++k)
            pairs.emplace_back(neighbourColour[rows.other[k]],
                               std::bit_cast<std::uint64_t>(rows.fraction[k]));
        std::sort(pairs.begin(), pairs.end());
        sig.assign(1, colour[i]);
        for (std::size_t k = 0; k < pairs.size();) {
            std::size_t j = k;
            while (j < pairs.size() && pairs[j] == pairs[k])
                ++j;
            sig.push_back(pairs[k].first);
            sig.push_back(pairs[k].second);
            sig.push_back(j - k);
            k = j;
        }
        colour[i] = palette.colour(sig);
    }
    return palette.size();
}

} // namespace

FlowClasses symmetricFlowClasses(const Router &router, std::span<const Flow> flows,
                                 const FlowSeeds &seeds)
{
    if (!seeds.flow.empty() && seeds.flow.size() != flows.size())
        throw std::invalid_argument("flow classes: one seed per flow");
    FlowClasses out;
    std::vector<std::uint32_t> moving;
    for (std::uint32_t i = 0; i < flows.size(); ++i)
        if (flows[i].bytes > 0 && flows[i].src != flows[i].dst)
            moving.push_back(i);
    out.flows = moving.size();
    if (moving.empty())
        return out;

    // The graph refined: flows, the link directions they cross and the shared pieces of their
    // routes (Router::routeParts: a piece is a run of entries many routes hold verbatim, so a
    // flow's incidences are a few instead of every ECMP direction of a spine layer). Flows touch
    // their own entries' directions (weight: the fraction) and their pieces (weight 1); pieces
    // touch their entries' directions. An equitable partition of this graph is one of the flow x
    // direction graph (a flow's weight on a direction class is its own entries' plus, per piece
    // class, pieces used x the piece class's weight there; likewise per direction), so its
    // classes are exact; on a symmetric fabric the pieces split as the flows do.
    const std::size_t nf = moving.size();
    // Local numbers of the link directions, in a per-thread table sized by the design and
    // reset entry by entry on return (a refinement runs many times per step on a large fabric).
    thread_local std::vector<std::uint32_t> dirLocal;
    if (dirLocal.size() < 2 * router.linkCount())
        dirLocal.assign(2 * router.linkCount(), UINT32_MAX);
    std::vector<LinkDir> dirs;
    struct Reset // also when a route throws
    {
        std::vector<std::uint32_t> &table;
        const std::vector<LinkDir> &used;
        ~Reset()
        {
            for (LinkDir ld : used)
                table[ld] = UINT32_MAX;
        }
    } reset {dirLocal, dirs};
    std::unordered_map<std::uint64_t, std::uint32_t> pieceLocal;
    std::vector<std::uint64_t> pieceKeys;
    auto dirOf = [&](LinkDir ld) {
        std::uint32_t &slot = dirLocal[ld];
        if (slot == UINT32_MAX) {
            slot = static_cast<std::uint32_t>(dirs.size());
            dirs.push_back(ld);
        }
        return slot;
    };
    struct Edge
    {
        std::uint32_t a, b; ///< flow or piece (a), direction or piece (b), local numbers
        double w;
        bool toPiece;
    };
    std::vector<Edge> flowEdges; // flow -> direction or piece
    std::vector<std::uint32_t> flowStart {0};
    RouteParts parts;
    for (std::uint32_t f = 0; f < nf; ++f) {
        router.routeParts(flows[moving[f]].src, flows[moving[f]].dst, parts);
        for (const RouteEntry &e : parts.own)
            flowEdges.push_back({f, dirOf(e.linkDir), e.fraction, false});
        for (int k = 0; k < parts.pieceCount; ++k) {
            auto [it, added] = pieceLocal.try_emplace(parts.pieces[k],
                                                      static_cast<std::uint32_t>(pieceKeys.size()));
            if (added)
                pieceKeys.push_back(parts.pieces[k]);
            flowEdges.push_back({f, it->second, 1.0, true});
        }
        flowStart.push_back(static_cast<std::uint32_t>(flowEdges.size()));
    }
    std::vector<std::vector<RouteEntry>> pieceEntries(pieceKeys.size());
    std::vector<Edge> pieceEdges; // piece -> direction
    for (std::uint32_t q = 0; q < pieceKeys.size(); ++q) {
        pieceEntries[q] = router.pieceEntries(pieceKeys[q]);
        for (const RouteEntry &e : pieceEntries[q])
            pieceEdges.push_back({q, dirOf(e.linkDir), e.fraction, false});
    }

    // Nodes: flows [0, nf), directions [nf, nf + nd), pieces after; symmetric adjacency.
    const std::size_t nd = dirs.size(), np = pieceKeys.size(), n = nf + nd + np;
    auto dirNode = [nf](std::uint32_t l) { return static_cast<std::uint32_t>(nf + l); };
    auto pieceNode = [nf, nd](std::uint32_t q) { return static_cast<std::uint32_t>(nf + nd + q); };
    Csr graph;
    graph.offset.assign(n + 1, 0);
    auto forEachEdge = [&](auto &&fn) {
        for (const Edge &e : flowEdges)
            fn(e.a, e.toPiece ? pieceNode(e.b) : dirNode(e.b), e.w);
        for (const Edge &e : pieceEdges)
            fn(pieceNode(e.a), dirNode(e.b), e.w);
    };
    forEachEdge([&](std::uint32_t u, std::uint32_t v, double) {
        ++graph.offset[u + 1];
        ++graph.offset[v + 1];
    });
    for (std::size_t i = 0; i < n; ++i)
        graph.offset[i + 1] += graph.offset[i];
    graph.other.resize(graph.offset[n]);
    graph.fraction.resize(graph.offset[n]);
    {
        std::vector<std::uint32_t> at(graph.offset.begin(), graph.offset.end() - 1);
        forEachEdge([&](std::uint32_t u, std::uint32_t v, double w) {
            graph.other[at[u]] = v;
            graph.fraction[at[u]++] = w;
            graph.other[at[v]] = u;
            graph.fraction[at[v]++] = w;
        });
    }

    // Initial colours: flows by (bytes, cap, seed), directions by (capacity, seed), pieces
    // alike; the first word keeps the three kinds apart.
    std::vector<std::uint32_t> colour(n);
    std::size_t colours = 0;
    {
        Palette first;
        for (std::size_t f = 0; f < nf; ++f)
            colour[f]
                = first.colour({0, std::bit_cast<std::uint64_t>(flows[moving[f]].bytes),
                                std::bit_cast<std::uint64_t>(flows[moving[f]].maxRate),
                                seeds.flow.empty() ? std::uint64_t(0) : seeds.flow[moving[f]]});
        std::vector<std::uint64_t> sig;
        for (std::size_t l = 0; l < nd; ++l) {
            sig.assign({1, std::bit_cast<std::uint64_t>(router.capacity(dirs[l]))});
            if (seeds.link)
                seeds.link(dirs[l], sig);
            colour[nf + l] = first.colour(sig);
        }
        for (std::size_t q = 0; q < np; ++q)
            colour[nf + nd + q] = first.colour({2});
        colours = first.size();
    }
    std::vector<std::uint32_t> previous;
    for (;;) {
        ++out.rounds;
        previous = colour;
        const std::size_t c = refine(graph, previous, colour);
        if (c == colours)
            break;
        colours = c;
    }

    // One class per flow colour, its directions weighted by the sum of its members' fractions
    // (a piece's entries once per member using it).
    std::unordered_map<std::uint32_t, std::uint32_t> classOf;
    for (std::uint32_t f = 0; f < nf; ++f) {
        auto [it, added]
            = classOf.try_emplace(colour[f], static_cast<std::uint32_t>(out.classes.size()));
        if (added)
            out.classes.emplace_back();
        out.classes[it->second].members.push_back(moving[f]);
    }
    std::vector<double> weight(nd, 0.0);
    std::vector<char> seen(nd, 0);
    std::vector<std::uint32_t> order, used(np, 0), piecesUsed;
    std::vector<std::uint32_t> flowOf(flows.size(), 0);
    for (std::uint32_t k = 0; k < nf; ++k)
        flowOf[moving[k]] = k;
    auto add = [&](std::uint32_t l, double w) {
        if (!seen[l]) {
            seen[l] = 1;
            order.push_back(l);
        }
        weight[l] += w;
    };
    for (FlowClass &c : out.classes) {
        order.clear();
        piecesUsed.clear();
        for (std::uint32_t i : c.members) {
            const std::uint32_t f = flowOf[i];
            for (std::uint32_t k = flowStart[f]; k < flowStart[f + 1]; ++k) {
                const Edge &e = flowEdges[k];
                if (!e.toPiece)
                    add(e.b, e.w);
                else if (used[e.b]++ == 0)
                    piecesUsed.push_back(e.b);
            }
        }
        for (std::uint32_t q : piecesUsed) {
            for (const RouteEntry &e : pieceEntries[q])
                add(dirLocal[e.linkDir], used[q] * e.fraction);
            used[q] = 0;
        }
        c.entries.reserve(order.size());
        c.cells.reserve(order.size());
        for (std::uint32_t l : order) {
            c.entries.push_back({dirs[l], weight[l]});
            c.cells.push_back(colour[nf + l]);
            weight[l] = 0;
            seen[l] = 0;
        }
    }
    return out;
}

} // namespace weft
