#pragma once
// Routing of point-to-point flows over a design's fabric (simulator.md, Communication: Routing).
//
// A flow's route is the set of link directions it crosses with the fraction of its bytes on
// each: shortest paths, with ECMP as fractional splits at every hop (proportional to the
// capacity of the next-hop links, i.e. equal per lane/cable), never by enumerating paths.
// Policy, as NCCL on a rail-optimized fabric:
//  - inside one scale-up domain: scale-up links only (NVLink/NVSwitch, any node may transit);
//  - between domains: the scale-out graph (accelerators are endpoints, never transit), leaving
//    through the sending accelerator's own NIC; with PXN, a rail-mismatched flow first hops over
//    the scale-up fabric to the accelerator of the destination's rail in the sender's domain;
//  - otherwise (unusual hand-made graphs) shortest paths over every link;
//  - no path at all (or only zero-capacity links): UnroutableError naming both ends.
// Scale-out distances are computed by one BFS over the switches per destination class (the set
// of switches a destination attaches to) and cached, so a 16k-GPU fat tree needs one BFS per
// leaf rather than per accelerator.

#include "model/design.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft {

/// A flow has no path between its ends (or only through links of zero capacity).
class UnroutableError : public std::runtime_error
{
public:
    UnroutableError(NodeId from, NodeId to, const std::string &message)
        : std::runtime_error(message)
        , m_from(from)
        , m_to(to)
    {
    }
    [[nodiscard]] NodeId from() const { return m_from; }
    [[nodiscard]] NodeId to() const { return m_to; }

private:
    NodeId m_from;
    NodeId m_to;
};

/// One direction of a link: 2 * (index of the link in Design::links()) + dir, where dir 0 is
/// a->b and dir 1 is b->a.
using LinkDir = std::uint32_t;

/// A link direction crossed by a flow and the fraction (0..1] of the flow's bytes crossing it.
struct RouteEntry
{
    LinkDir linkDir = 0;
    double fraction = 0;
};

/// The route of one flow. Entries hold each link direction once; on every cut between source
/// and destination the fractions sum to 1.
struct Route
{
    std::vector<RouteEntry> entries;
    double alpha = 0; ///< largest LinkTechSpec::latency of the technologies crossed, s
    double propagation = 0; ///< byte-weighted sum of Link::latency along the route, s
};

/// A route as parts, for the symmetry classes (flowclasses.h): entries of its own plus up to two
/// shared pieces, runs of entries that many routes hold verbatim: the scale-up walk between two
/// accelerators of a domain (a route inside the domain, or the hop to the PXN proxy) and the
/// scale-out walk between two leaves. The own entries with the pieces' entries (pieceEntries)
/// are exactly route()'s entries, each link direction once.
struct RouteParts
{
    std::vector<RouteEntry> own;
    std::uint64_t pieces[2] = {0, 0}; ///< keys for pieceEntries
    int pieceCount = 0;
};

/// Routing tables of one design. Build once per design (O(nodes + links)); routes are computed
/// on demand and cached. Not thread-safe (the cache is shared).
class Router
{
public:
    /// `pxn`: PXN for rail-mismatched inter-domain flows (see above).
    explicit Router(const Design &design, bool pxn = true);

    /// Route of a flow from `src` to `dst` (accelerators, or a switch as destination/source for
    /// in-network reduction). Empty when src == dst. The reference is valid until the next call.
    /// Throws UnroutableError if there is no path, std::invalid_argument for unknown nodes.
    const Route &route(NodeId src, NodeId dst) const;
    /// The same route, written to `out` and not cached: for one pass over many pairs (the
    /// lockstep shares of all replicas' sends) that would only evict the routes in use.
    void routeUncached(NodeId src, NodeId dst, Route &out) const;
    /// The same route as parts (see RouteParts), none cached per pair: O(own entries) once the
    /// pieces are known. Throws as route().
    void routeParts(NodeId src, NodeId dst, RouteParts &out) const;
    /// Entries of a piece named by routeParts; the reference is valid until the next call.
    const std::vector<RouteEntry> &pieceEntries(std::uint64_t key) const;

    [[nodiscard]] const Design &design() const { return m_design; }
    [[nodiscard]] std::size_t nodeCount() const { return m_nodeIds.size(); }
    [[nodiscard]] std::size_t linkCount() const { return m_linkCap.size(); }
    /// Index of a node in Design::nodes(), or -1.
    [[nodiscard]] int nodeIndex(NodeId id) const;
    [[nodiscard]] NodeId nodeId(int index) const
    {
        return m_nodeIds[static_cast<std::size_t>(index)];
    }
    [[nodiscard]] LinkId linkId(std::size_t linkIndex) const { return m_linkIds[linkIndex]; }
    /// Achievable rate of one direction: lanes x rate x technology efficiency, bytes/s.
    [[nodiscard]] double capacity(LinkDir ld) const { return m_linkCap[ld / 2]; }
    /// Scale-up domain index of a node (accelerators and scale-up switches), -1 if none.
    [[nodiscard]] int domainOf(int node) const { return m_domain[static_cast<std::size_t>(node)]; }
    [[nodiscard]] int domainCount() const { return static_cast<int>(m_domainMembers.size()); }
    /// Accelerators of a domain, in design order.
    [[nodiscard]] const std::vector<int> &domainAccelerators(int domain) const
    {
        return m_domainMembers[static_cast<std::size_t>(domain)];
    }
    /// Rail (local index) of an accelerator, -1 if unknown.
    [[nodiscard]] int railOf(int node) const { return m_rail[static_cast<std::size_t>(node)]; }
    [[nodiscard]] bool isAccelerator(int node) const
    {
        return m_isAcc[static_cast<std::size_t>(node)];
    }
    /// Whether a link belongs to a scale-up domain (both ends in one domain or an end is a
    /// scale-up switch).
    [[nodiscard]] bool isScaleUp(std::size_t linkIndex) const { return m_scaleUp[linkIndex]; }
    /// Total achievable scale-up / scale-out egress of a node, bytes/s.
    [[nodiscard]] double scaleUpEgress(int node) const;
    [[nodiscard]] double scaleOutEgress(int node) const;
    /// Scale-up switches adjacent to an accelerator with the lanes to each (for NVLS).
    [[nodiscard]] std::vector<std::pair<int, int>> scaleUpSwitchLanes(int node) const;
    /// Neighbours of a node over links of non-zero capacity: (node index, link index).
    [[nodiscard]] std::vector<std::pair<int, std::uint32_t>> neighbors(int node) const;
    [[nodiscard]] bool pxn() const { return m_pxn; }
    /// Number of cached routes (for tests and benchmarks).
    [[nodiscard]] std::size_t cachedRoutes() const { return m_cache.size(); }

private:
    struct Adj
    {
        int to;
        std::uint32_t link;
        LinkDir dir;
    };
    enum class Mode { ScaleUp, ScaleOut, Any };

    bool linkAllowed(std::uint32_t link, Mode mode) const // inline: the walks' inner loops
    {
        return mode == Mode::Any || (mode == Mode::ScaleUp) == (m_scaleUp[link] != 0);
    }
    bool computeRoute(int s, int d, Route &out) const;
    bool computeParts(int s, int d, RouteParts &out) const;
    bool scaleOutParts(int s, int d, RouteParts &out) const;
    /// The PXN proxy of a rail-mismatched flow from s to d (the first member of s's domain on
    /// d's rail with scale-out egress), -1 when PXN does not apply.
    int pxnProxy(int s, int d) const;
    bool walkScaleUp(int s, int d, Mode mode, Route &out) const;
    bool walkScaleOut(int s, int d, Route &out) const;
    const std::vector<std::uint8_t> &scaleOutDistances(int d) const;
    auto scaleOutDistanceTo(int d) const; ///< distance function of a walk to d (routing.cpp)
    template<class DistFn> bool walk(int s, int d, Mode mode, DistFn dist, Route &out) const;
    void finishRoute(Route &r) const;

    const Design &m_design;
    bool m_pxn;
    std::vector<NodeId> m_nodeIds;
    std::vector<LinkId> m_linkIds;
    std::unordered_map<std::uint32_t, int> m_nodeIndex;
    std::vector<std::uint32_t> m_adjStart; ///< CSR offsets into m_adj
    std::vector<Adj> m_adj;
    std::vector<double> m_linkCap;
    std::vector<double> m_linkAlpha;
    std::vector<double> m_linkLatency;
    std::vector<char> m_scaleUp;
    std::vector<char> m_isAcc;
    std::vector<int> m_domain;
    std::vector<int> m_rail;
    std::vector<int> m_switchIndex; ///< node -> compact switch index, -1 for accelerators
    std::size_t m_switchCount = 0;
    std::vector<std::uint32_t> m_switchAdjStart; ///< CSR offsets into m_switchAdj
    std::vector<int> m_switchAdj; ///< scale-out links between switches, by compact index
    std::vector<std::vector<int>> m_domainMembers;

    /// Per node: for an accelerator with exactly one scale-out link, to a switch, its index in
    /// m_adj; -1 otherwise.
    std::vector<std::int64_t> m_soleOut;

    /// Between two switches: the entries of the scale-out walk and the mass reaching the end.
    struct Segment
    {
        bool ok = false;
        std::vector<RouteEntry> entries;
        double mass = 0;
    };
    const Segment &segment(int from, int to) const;
    /// Accelerators with one NIC each on different leaves: the NIC link up, the leaves' walk
    /// (cached; the reference is valid until the next call), the NIC link down; seg is null
    /// otherwise.
    struct LeafHop
    {
        const Segment *seg = nullptr;
        int fromLeaf = -1, toLeaf = -1;
        RouteEntry upEntry, downEntry;
    };
    LeafHop leafHop(int s, int d) const;
    /// walkScaleUp(s, d, Mode::ScaleUp), cached by pair (ok false: no scale-up path).
    const Segment &scaleUpWalk(int s, int d) const;

    // caches (routing is logically const)
    mutable std::unordered_map<std::uint64_t, Route> m_cache;
    mutable std::unordered_map<std::uint64_t, Segment> m_segments; ///< by (from, to) switch
    mutable std::size_t m_segmentEntries = 0;
    mutable std::unordered_map<std::uint64_t, Segment> m_scaleUpWalks; ///< by (from, to) node
    mutable std::size_t m_scaleUpWalkEntries = 0;
    mutable std::size_t m_cachedEntries = 0;
    mutable std::map<std::vector<int>, std::vector<std::uint8_t>> m_classDist;
    mutable std::vector<const std::vector<std::uint8_t> *> m_nodeClass; ///< per destination
    mutable std::vector<int> m_scratchDist;
    mutable std::vector<std::uint32_t> m_scratchStamp;
    mutable std::uint32_t m_stamp = 0;
    mutable std::vector<double> m_mass;
    mutable std::vector<int> m_queue, m_level, m_next;
    mutable std::vector<std::uint32_t> m_massStamp;
};

} // namespace weft
