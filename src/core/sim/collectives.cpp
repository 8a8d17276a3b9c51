#include "sim/collectives.h"

#include "sim/channels.h"
#include "sim/collectivestuning.h"
#include "sim/doubletree.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <unordered_map>

namespace weft {

namespace {

struct KindName
{
    CollectiveKind kind;
    const char *name;
};
constexpr KindName kKinds[]
    = {{CollectiveKind::AllReduce, "all_reduce"},         {CollectiveKind::AllGather, "all_gather"},
       {CollectiveKind::ReduceScatter, "reduce_scatter"}, {CollectiveKind::AllToAll, "all_to_all"},
       {CollectiveKind::SendRecv, "send_recv"},           {CollectiveKind::PointToPoint, "p2p"},
       {CollectiveKind::Broadcast, "broadcast"}};

struct AlgoName
{
    CollectiveAlgorithm algo;
    const char *name;
};
constexpr AlgoName kAlgos[] = {{CollectiveAlgorithm::Auto, "auto"},
                               {CollectiveAlgorithm::Ring, "ring"},
                               {CollectiveAlgorithm::Tree, "tree"},
                               {CollectiveAlgorithm::Hierarchical, "hierarchical"},
                               {CollectiveAlgorithm::InNetwork, "nvls"},
                               {CollectiveAlgorithm::InNetwork, "in_network"},
                               {CollectiveAlgorithm::InNetwork, "sharp"},
                               {CollectiveAlgorithm::Direct, "direct"},
                               {CollectiveAlgorithm::NvlsTree, "nvls_tree"}};

// Uncapped flows with the same ends merged into one carrying their bytes (first appearance
// order). Exact in a coupled phase, whose time is the largest load per capacity over the links
// (many tree channels share the same chain edges inside a domain).
std::vector<Flow> mergeParallel(std::vector<Flow> flows)
{
    std::unordered_map<std::uint64_t, std::size_t> at;
    std::vector<Flow> out;
    out.reserve(flows.size());
    for (const Flow &f : flows) {
        if (!std::isinf(f.maxRate)) {
            out.push_back(f);
            continue;
        }
        const std::uint64_t key = (std::uint64_t(f.src.value) << 32) | f.dst.value;
        auto [it, fresh] = at.emplace(key, out.size());
        if (fresh)
            out.push_back(f);
        else
            out[it->second].bytes += f.bytes;
    }
    return out;
}

// A coupled phase of `flows` (parallel ones merged) after `latency` seconds.
Phase coupledPhase(std::vector<Flow> flows, double latency)
{
    Phase p;
    p.flows = mergeParallel(std::move(flows));
    p.latency = latency;
    p.coupled = true;
    return p;
}

// One flow of `bytes` from every member to every other member (all-pairs exchange).
std::vector<Flow> allPairs(const std::vector<NodeId> &members, double bytes)
{
    std::vector<Flow> flows;
    for (NodeId a : members)
        for (NodeId b : members)
            if (a != b)
                flows.push_back(Flow {a, b, bytes});
    return flows;
}

} // namespace

const char *toString(CollectiveKind k)
{
    for (const KindName &e : kKinds)
        if (e.kind == k)
            return e.name;
    return "?";
}

const char *toString(CollectiveAlgorithm a)
{
    if (a == CollectiveAlgorithm::InNetwork)
        return "in_network";
    for (const AlgoName &e : kAlgos)
        if (e.algo == a)
            return e.name;
    return "?";
}

bool fromString(const std::string &s, CollectiveKind &out)
{
    for (const KindName &e : kKinds)
        if (s == e.name) {
            out = e.kind;
            return true;
        }
    return false;
}

bool fromString(const std::string &s, CollectiveAlgorithm &out)
{
    for (const AlgoName &e : kAlgos)
        if (s == e.name) {
            out = e.algo;
            return true;
        }
    return false;
}

double busBandwidthFactor(CollectiveKind kind, std::size_t ranks)
{
    const double n = static_cast<double>(std::max<std::size_t>(1, ranks));
    switch (kind) {
    case CollectiveKind::AllReduce:
        return 2 * (n - 1) / n;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
        return (n - 1) / n;
    default:
        return 1.0;
    }
}

/// Members grouped by scale-up domain (in order of first appearance), each sorted by rail.
struct CollectivePlanner::Layout
{
    std::vector<std::vector<NodeId>> domains;
    std::vector<NodeId> members; ///< rank order
    [[nodiscard]] std::size_t size() const { return members.size(); }
    [[nodiscard]] bool uniform() const
    {
        return std::all_of(domains.begin(), domains.end(),
                           [&](const auto &d) { return d.size() == domains.front().size(); });
    }
};

CollectivePlanner::CollectivePlanner(const Router &router)
    : m_router(router)
{
}

CollectivePlanner::~CollectivePlanner() = default;

CollectivePlanner::Layout CollectivePlanner::layout(const std::vector<NodeId> &members) const
{
    Layout lay;
    lay.members = members;
    std::unordered_map<int, std::size_t> slot;
    for (NodeId id : members) {
        const int idx = m_router.nodeIndex(id);
        if (idx < 0 || !m_router.isAccelerator(idx))
            throw std::invalid_argument("collective: member " + std::to_string(id.value)
                                        + " is not an accelerator of the design");
        const int dom = m_router.domainOf(idx);
        const int key = dom >= 0 ? dom : -2 - idx; // accelerators without a domain stand alone
        auto [it, fresh] = slot.emplace(key, lay.domains.size());
        if (fresh)
            lay.domains.emplace_back();
        lay.domains[it->second].push_back(id);
    }
    for (auto &d : lay.domains)
        std::stable_sort(d.begin(), d.end(), [&](NodeId a, NodeId b) {
            return m_router.railOf(m_router.nodeIndex(a)) < m_router.railOf(m_router.nodeIndex(b));
        });
    return lay;
}

CollectivePlanner::Hop CollectivePlanner::hopOver(const std::vector<RouteEntry> &entries) const
{
    Hop h;
    const Design &design = m_router.design();
    for (const RouteEntry &e : entries) {
        const std::size_t li = e.linkDir / 2;
        const Link &l = design.links()[li];
        const LinkTechSpec *tech = design.linkTech(l);
        if (!m_router.isScaleUp(li))
            h.cls = HopClass::Net;
        else if (tech && tech->technology == Technology::PCIe && h.cls != HopClass::Net)
            h.cls = HopClass::PCI;
        h.extra += e.fraction * std::max(0.0, l.latency - (tech ? tech->latency : 0.0));
    }
    return h;
}

CollectivePlanner::Hop CollectivePlanner::hop(NodeId a, NodeId b) const
{
    if (a == b)
        return {};
    m_router.routeParts(a, b, m_parts);
    Hop h = hopOver(m_parts.own);
    for (int k = 0; k < m_parts.pieceCount; ++k) {
        auto it = m_pieceHops.find(m_parts.pieces[k]);
        if (it == m_pieceHops.end())
            it = m_pieceHops
                     .emplace(m_parts.pieces[k], hopOver(m_router.pieceEntries(m_parts.pieces[k])))
                     .first;
        h.cls = std::max(h.cls, it->second.cls); // NVLink < PCI < Net
        h.extra += it->second.extra;
    }
    return h;
}

ProtocolTimes CollectivePlanner::edgeLatency(LatencyFamily f, NodeId a, NodeId b, bool multiDomain,
                                             bool onePerDomain) const
{
    const Hop h = hop(a, b);
    // NCCL: with one rank per node, the network hops of a ring take the tree's figure.
    const LatencyFamily fam = h.cls == HopClass::Net && onePerDomain && f == LatencyFamily::Ring
        ? LatencyFamily::Tree
        : f;
    ProtocolTimes t = hopLatency(fam, h.cls, multiDomain);
    for (double &x : t)
        x += h.extra;
    return t;
}

ProtocolTimes CollectivePlanner::maxEdgeLatency(LatencyFamily f, const std::vector<Flow> &flows,
                                                bool multiDomain) const
{
    ProtocolTimes out {};
    for (const Flow &fl : flows)
        if (fl.src != fl.dst)
            out = maxOf(out, edgeLatency(f, fl.src, fl.dst, multiDomain, false));
    return out;
}

// NCCL-style rings. Inside one domain: on a switchless mesh, several rings over distinct links
// (meshRings, NCCL's channels); otherwise members by rail (one ring over a switch fills every
// member's lanes). Across domains: one ring (channel) per local position c, each crossing
// between domains on one rail: even domains are walked forward from position c (leaving on rail
// c-1), odd domains backward from c-1 (leaving on rail c), so every NIC carries one channel and
// every crossing is rail-matched (an odd domain count leaves one mismatched wrap-around, which
// PXN or the spine absorbs). The bytes are split evenly over the channels.
//
// Latency: a ring step waits only for its predecessor's hop, so a piece of data crossing the
// ring's `steps` edges takes the sum of their hop latencies: steps x the mean hop latency of the
// ring's edges (NCCL: (nsteps - nInterSteps) intraLat + nInterSteps interLat), the slowest
// channel's, plus the base latency.
void CollectivePlanner::ring(const Layout &lay, CollectiveKind kind, double bytes,
                             CollectivePlan &plan) const
{
    const std::size_t n = lay.size();
    if (n < 2)
        return;
    std::vector<std::vector<NodeId>> rings;
    if (lay.domains.size() == 1) {
        rings = meshRings(m_router, lay.domains.front());
        if (rings.empty())
            rings.push_back(lay.domains.front());
    } else {
        std::size_t k = lay.domains.front().size();
        for (const auto &d : lay.domains)
            k = std::min(k, d.size());
        for (std::size_t c = 0; c < k; ++c) {
            std::vector<NodeId> r;
            for (std::size_t i = 0; i < lay.domains.size(); ++i) {
                const auto &dom = lay.domains[i];
                const std::size_t m = dom.size();
                for (std::size_t t = 0; t < m; ++t)
                    r.push_back(i % 2 == 0 ? dom[(c + t) % m] : dom[(c + 2 * m - 1 - t) % m]);
            }
            rings.push_back(std::move(r));
        }
    }
    const double dn = static_cast<double>(n);
    const double share = bytes / static_cast<double>(rings.size());
    double perEdge = 0, steps = 0;
    bool chain = false;
    switch (kind) {
    case CollectiveKind::AllReduce:
        perEdge = 2 * (dn - 1) / dn * share; // Thakur et al. 2005, ring all-reduce
        steps = 2 * (dn - 1);
        break;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
        perEdge = (dn - 1) / dn * share;
        steps = dn - 1;
        break;
    default: // broadcast: pipelined chain from rank 0
        perEdge = share;
        steps = dn - 1;
        chain = true;
        break;
    }
    const bool multi = lay.domains.size() > 1;
    const bool onePer = multi && lay.domains.size() == n;
    std::vector<Flow> flows;
    ProtocolTimes worst {};
    std::vector<ProtocolTimes> hops;
    for (const auto &r : rings) {
        hops.clear();
        const std::size_t edges = chain ? r.size() - 1 : r.size();
        for (std::size_t j = 0; j < edges; ++j) {
            const NodeId to = r[(j + 1) % r.size()];
            flows.push_back(Flow {r[j], to, perEdge});
            hops.push_back(edgeLatency(LatencyFamily::Ring, r[j], to, multi, onePer));
        }
        worst = maxOf(worst, chain ? sumOf(hops) : ringPathLatency(hops, steps));
    }
    ProtocolTimes lat = baseLatency(LatencyFamily::Ring) + worst;
    // NCCL's ring Simple latency across nodes is 1.4 x its figures (ringPlateauFactor).
    if (const Node *first = m_router.design().node(lay.members.front()))
        lat[static_cast<std::size_t>(Protocol::Simple)] *= ringPlateauFactor(
            gpuGeneration(first->spec), kind, static_cast<int>(lay.domains.size()), bytes,
            static_cast<int>(rings.size()), static_cast<int>(n));
    plan.phases.push_back(coupledPhase(std::move(flows), 0));
    plan.latency.push_back(lat);
    plan.channels = static_cast<int>(rings.size());
}

bool CollectivePlanner::fullMesh(const std::vector<NodeId> &members) const
{
    if (members.size() < 3)
        return false;
    std::vector<int> idx;
    for (NodeId id : members) {
        idx.push_back(m_router.nodeIndex(id));
        if (idx.back() < 0)
            return false;
    }
    std::vector<int> adj;
    for (int a : idx) {
        adj.clear();
        for (const auto &nb : m_router.neighbors(a))
            adj.push_back(nb.first);
        for (int b : idx)
            if (b != a && std::find(adj.begin(), adj.end(), b) == adj.end())
                return false;
    }
    // Adjacent is not enough: routing must also take the direct links (it does on shortest
    // paths, unless a policy such as scale-up-only routing forbids them).
    const auto &links = m_router.design().links();
    for (NodeId a : members)
        for (NodeId b : members) {
            if (a == b)
                continue;
            const Route &r = m_router.route(a, b);
            for (const RouteEntry &e : r.entries) {
                const Link &l = links[e.linkDir / 2];
                if (!((l.a == a && l.b == b) || (l.a == b && l.b == a)))
                    return false;
            }
        }
    return true;
}

// Direct (all-pairs) algorithms on a switchless full mesh. Reduce-scatter: every member sends
// the S/n shard of each peer straight to that peer and reduces the n-1 shards it receives;
// all-gather: every member sends its S/n shard to each peer; all-reduce: reduce-scatter then
// all-gather (Rabenseifner; Thakur, Rabenseifner & Gropp 2005, sec. 4), 2S/n per directed link,
// pipelined chunk by chunk as one coupled phase. Every directed link carries S/n per pass at
// once, so the time is alpha + S/(n B) per pass and busbw = (n-1) B. That is the bound RCCL
// works to on 8 MI300X, whose collectives spread over all 7 xGMI links of each GPU (many
// channels; MSCCL all-pairs algorithms for 8 GPUs, ROCm/rccl msccl-algorithms), each link
// usable at ~48 of its 64 GB/s (AMD ROCm blog "Understanding RCCL Bandwidth and xGMI
// Performance on AMD Instinct MI300X", 2025); n-1 ring channels, one per link, would move the
// same bytes per link but take n-1 (2(n-1)) steps of latency where this takes 1 (2).
void CollectivePlanner::direct(const Layout &lay, CollectiveKind kind, double bytes,
                               CollectivePlan &plan) const
{
    if (!fullMesh(lay.members))
        throw std::invalid_argument("collective: the direct algorithm needs 3 or more members "
                                    "joined pairwise by direct links (a switchless full mesh)");
    const double n = static_cast<double>(lay.size());
    const double passes = kind == CollectiveKind::AllReduce ? 2.0 : 1.0;
    std::vector<Flow> flows = allPairs(lay.members, passes * bytes / n);
    const ProtocolTimes hops = maxEdgeLatency(LatencyFamily::Ring, flows, false);
    plan.phases.push_back(coupledPhase(std::move(flows), 0));
    plan.latency.push_back(baseLatency(LatencyFamily::Ring) + scaled(hops, passes));
    plan.channels = static_cast<int>(lay.size()) - 1;
}

// NCCL double binary tree, a pair of trees per channel and a channel per NIC: channel c enters
// every domain at its rail-c accelerator (whose NIC carries it), runs a chain through the domain
// from there (forward for the first tree, backward for the second), and joins the domains by two
// complementary binary trees (the second mirrored, so a leaf of one is inner in the other). Each
// of the 2k trees carries S/2k, reduced up and broadcast down at once: NCCL's tree all-reduce
// kernel splits each channel's threads between the reduction towards the root and the broadcast
// from it, the root doing both (src/device/all_reduce.h: runTreeSplit for Simple, LL and LL128
// alike since CUDA 11.4), so the two directions of a full-duplex link carry them together (one
// coupled phase). It matters where an inner node has a single child: on three domains each
// node's NIC carries 1.5 x S/k per direction at once, where reduce-then-broadcast takes as long
// as 2 x S/k; with two children per inner node (4, 8, ... domains) both come to 2 x S/k, and on
// two domains to S/k. Latency
// (NCCL tuning.cc): base + 2 (chain hops x intra + log2(domains) x inter) hop latencies, a chunk
// going up and then down.
void CollectivePlanner::tree(const Layout &lay, double bytes, CollectivePlan &plan) const
{
    if (lay.size() < 2)
        return;
    const std::size_t d = lay.domains.size();
    std::size_t k = lay.domains.front().size();
    for (const auto &dom : lay.domains)
        k = std::min(k, dom.size());
    if (d == 1)
        k = 1; // one chain inside a domain
    const double share = bytes / static_cast<double>(2 * k);
    std::vector<Flow> up, intra, inter;
    std::size_t chainLen = 0;
    for (std::size_t c = 0; c < k; ++c)
        for (int t = 0; t < 2; ++t)
            for (std::size_t i = 0; i < d; ++i) {
                const auto &dom = lay.domains[i];
                const std::size_t m = dom.size();
                chainLen = std::max(chainLen, m - 1);
                auto at = [&](std::size_t j) {
                    return t == 0 ? dom[(c + j) % m] : dom[(c + m - j) % m];
                };
                for (std::size_t j = 0; j + 1 < m; ++j)
                    intra.push_back(Flow {at(j + 1), at(j), share});
                const int parent = doubleTreeParent(static_cast<int>(d), static_cast<int>(i), t);
                if (parent < 0)
                    continue;
                const auto &pd = lay.domains[static_cast<std::size_t>(parent)];
                inter.push_back(Flow {dom[c % m], pd[c % pd.size()], share});
            }
    intra = mergeParallel(std::move(intra));
    inter = mergeParallel(std::move(inter));
    const bool multi = d > 1;
    const double depth = multi ? std::floor(std::log2(static_cast<double>(d))) : 0.0;
    const ProtocolTimes interHop = maxEdgeLatency(LatencyFamily::Tree, inter, multi);
    const ProtocolTimes lat
        = scaled(maxEdgeLatency(LatencyFamily::Tree, intra, multi), static_cast<double>(chainLen))
        + scaled(interHop, depth);
    up = intra;
    up.insert(up.end(), inter.begin(), inter.end());
    std::vector<Flow> both = up;
    for (const Flow &f : up)
        both.push_back(Flow {f.dst, f.src, f.bytes});
    plan.phases.push_back(coupledPhase(std::move(both), 0));
    plan.latency.push_back(baseLatency(LatencyFamily::Tree) + scaled(lat, 2.0));
    plan.channels = static_cast<int>(2 * k);
    plan.treeCorrection = true;
    plan.bytes = bytes;
    if (multi) {
        // LL128 across domains: a channel's network hop passes its K chunks (NCCL's tree LL128
        // chunking, treeLl128ChunkBytes) one per network hop latency (8.5 us, tuning.cc hwLat):
        // below tens of MiB, where NCCL shrinks the chunks to keep ~10-20 per channel in flight,
        // that, not the links, sets the tree's rate.
        const auto ll128 = static_cast<std::size_t>(Protocol::LL128);
        const double ppn = static_cast<double>(lay.size()) / static_cast<double>(d);
        const double chunk = treeLl128ChunkBytes(bytes, plan.channels, static_cast<int>(d), ppn);
        const double chunks = std::ceil(bytes / (plan.channels * chunk));
        plan.minBandwidthTime[ll128] = chunks * interHop[ll128];
    }
}

// Reduce-scatter inside each domain over scale-up, all-reduce of the 1/m shard across domains
// rail by rail over scale-out, all-gather inside each domain. With `sharp`, the cross-domain
// all-reduce of each rail is done in the network (SHARP): every member sends its shard once to
// the reduction-capable switch its rail shares and receives the result once, bounded by the
// switch's reduction rate per port. Inside domains that are switchless full meshes the
// reduce-scatter and all-gather are direct (all-pairs, see direct()) instead of rings.
void CollectivePlanner::hierarchical(const Layout &lay, double bytes, CollectivePlan &plan,
                                     bool sharp) const
{
    const std::size_t m = lay.domains.front().size(), d = lay.domains.size();
    const double dm = static_cast<double>(m), dd = static_cast<double>(d);
    const bool mesh = std::all_of(lay.domains.begin(), lay.domains.end(),
                                  [&](const auto &dom) { return fullMesh(dom); });
    std::vector<Flow> intra;
    for (const auto &dom : lay.domains) {
        if (mesh) {
            const std::vector<Flow> pairs = allPairs(dom, bytes / dm);
            intra.insert(intra.end(), pairs.begin(), pairs.end());
            continue;
        }
        for (std::size_t j = 0; m > 1 && j < m; ++j)
            intra.push_back(Flow {dom[j], dom[(j + 1) % m], (dm - 1) / dm * bytes});
    }
    std::vector<Flow> inter;
    for (std::size_t j = 0; j < m; ++j) {
        if (!sharp) {
            for (std::size_t i = 0; i < d; ++i)
                inter.push_back(Flow {lay.domains[i][j], lay.domains[(i + 1) % d][j],
                                      2 * (dd - 1) / dd * bytes / dm});
            continue;
        }
        std::vector<NodeId> rail;
        for (const auto &dom : lay.domains)
            rail.push_back(dom[j]);
        const auto [root, rate] = reductionRoot(rail);
        for (NodeId g : rail) {
            inter.push_back(Flow {g, root, bytes / dm, rate});
            inter.push_back(Flow {root, g, bytes / dm, rate});
        }
    }
    // Latency: ring hops inside the domains ((m-1) steps, one on a mesh) and across them
    // (2(d-1) steps); SHARP: NCCL's network NVLS/CollNet hop once up and once down. The first
    // chunk crosses the three stages one after the other.
    const ProtocolTimes intraLat
        = scaled(maxEdgeLatency(LatencyFamily::Ring, intra, true), mesh ? 1.0 : dm - 1);
    const ProtocolTimes interLat = sharp
        ? scaled(hopLatency(LatencyFamily::Nvls, HopClass::Net, true), 2.0)
        : scaled(maxEdgeLatency(LatencyFamily::Ring, inter, true), 2 * (dd - 1));
    // Chunked pipelining (as ASTRA-sim's hierarchical collectives): the buffer goes in K chunks,
    // chunk i's cross-domain all-reduce overlapping chunk i+1's reduce-scatter and chunk i-1's
    // all-gather. All stages' flows run as one coupled phase (the bottleneck's time T_b, the
    // reduce-scatter and all-gather sharing the scale-up links) plus a fill of
    // (T_rs + T_ar + T_ag - T_b) / K. The stage times for the fill are the closed forms over a
    // member's scale-up and scale-out egress; K = S / (m x 512 KiB), NCCL's Simple chunk
    // (4 MiB buffer / 8 steps) per channel, at least 1.
    const int first = m_router.nodeIndex(lay.domains.front().front());
    const double up = m_router.scaleUpEgress(first), out = m_router.scaleOutEgress(first);
    const double tIntra = up > 0 ? (mesh ? 1.0 : (dm - 1) / dm) * bytes / up : 0.0;
    const double tInter = out > 0 ? (sharp ? 1.0 : 2 * (dd - 1) / dd) * bytes / dm / out : 0.0;
    const double tBottleneck = std::max(2 * tIntra, tInter);
    const double chunks = std::max(1.0, std::floor(bytes / (dm * 512 * 1024)));
    if (tBottleneck > 0)
        plan.fill = (2 * tIntra + tInter - tBottleneck) / tBottleneck / chunks;
    std::vector<Flow> all = std::move(inter);
    for (Flow f : intra) {
        f.bytes *= 2; // reduce-scatter and all-gather over the same edges
        all.push_back(f);
    }
    plan.phases.push_back(coupledPhase(std::move(all), 0));
    plan.latency.push_back(baseLatency(LatencyFamily::Ring) + intraLat + interLat + intraLat);
    plan.channels = static_cast<int>(m);
    if (sharp)
        plan.protocols = kSimpleOnly;
}

// The scale-out switch adjacent to every member that reduces in the network (SHARP), with the
// smallest member's reduction bound (rate per port x lanes to it).
std::pair<NodeId, double> CollectivePlanner::reductionRoot(const std::vector<NodeId> &members) const
{
    const Design &design = m_router.design();
    std::vector<std::pair<int, double>> common; // switch, bound
    for (std::size_t k = 0; k < members.size(); ++k) {
        std::vector<std::pair<int, double>> mine;
        for (const auto &[to, link] : m_router.neighbors(m_router.nodeIndex(members[k]))) {
            const Node &node = design.nodes()[static_cast<std::size_t>(to)];
            const SwitchSpec *spec
                = node.isSwitch() && !m_router.isScaleUp(link) ? design.switchSpec(node) : nullptr;
            if (spec && spec->inNetworkReduction && spec->reductionRate > 0)
                mine.emplace_back(to,
                                  spec->reductionRate * std::max(1, design.links()[link].lanes));
        }
        if (k == 0) {
            common = mine;
            continue;
        }
        std::erase_if(common, [&](auto &c) {
            auto it = std::find_if(mine.begin(), mine.end(),
                                   [&](const auto &x) { return x.first == c.first; });
            if (it != mine.end())
                c.second = std::min(c.second, it->second);
            return it == mine.end();
        });
    }
    if (common.empty())
        throw std::invalid_argument(
            "collective: in-network reduction across domains (SHARP) needs the "
            "members of each rail on one reduction-capable switch");
    return {design.nodes()[static_cast<std::size_t>(common.front().first)].id,
            common.front().second};
}

// NVLS (NVLink SHARP) traffic of one member of an n-member domain: reduce-scatter by in-switch
// reduction then all-gather by switch multicast, S + S/n up to the switch chips and S/n + S back,
// spread over its chips by lanes; a member's stream through chip c is bounded by the chip's
// reduction rate per port x the member's lanes to c.
std::vector<Flow> CollectivePlanner::nvlsFlows(NodeId g, double bytes, double n) const
{
    const double volume = bytes * (1 + 1 / n);
    std::vector<Flow> flows;
    const Design &design = m_router.design();
    std::vector<std::pair<NodeId, std::pair<int, double>>> chips; // chip, (lanes, rate/lane)
    int total = 0;
    for (const auto &[chip, lanes] : m_router.scaleUpSwitchLanes(m_router.nodeIndex(g))) {
        const Node &node = design.nodes()[static_cast<std::size_t>(chip)];
        const SwitchSpec *spec = design.switchSpec(node);
        if (!spec || !spec->inNetworkReduction || !(spec->reductionRate > 0))
            continue;
        chips.push_back({node.id, {lanes, spec->reductionRate}});
        total += lanes;
    }
    if (chips.empty()) {
        const Node *nd = design.node(g);
        throw std::invalid_argument("collective: accelerator '" + (nd ? nd->name : std::string())
                                    + "' has no scale-up switch with in-network reduction");
    }
    for (const auto &[chip, lr] : chips) {
        const double share = volume * lr.first / total;
        const double cap = lr.second * lr.first;
        flows.push_back(Flow {g, chip, share, cap});
        flows.push_back(Flow {chip, g, share, cap});
    }
    return flows;
}

bool CollectivePlanner::nvlsCapable(NodeId member) const
{
    try {
        nvlsFlows(member, 1.0, 2.0);
        return true;
    } catch (const std::invalid_argument &) {
        return false;
    }
}

// NVLS inside one domain, all members in lock-step (one coupled phase).
void CollectivePlanner::inNetwork(const Layout &lay, double bytes, CollectivePlan &plan) const
{
    if (lay.domains.size() > 1) {
        if (!lay.uniform())
            throw std::invalid_argument("collective: in-network reduction across domains needs the "
                                        "same number of members in each domain");
        hierarchical(lay, bytes, plan, true);
        return;
    }
    const double n = static_cast<double>(lay.size());
    std::vector<Flow> flows;
    for (NodeId g : lay.members) {
        std::vector<Flow> mine = nvlsFlows(g, bytes, n);
        flows.insert(flows.end(), mine.begin(), mine.end());
    }
    // NCCL: NVLS latency is its NVLink hop figure (25 us), Simple protocol only; the buffer goes
    // in loops of channels x heads x NCCL's chunk, two loops of pipeline fill (nvlsFill).
    plan.phases.push_back(coupledPhase(std::move(flows), 0));
    plan.latency.push_back(hopLatency(LatencyFamily::Nvls, HopClass::NVLink, false));
    plan.protocols = kSimpleOnly;
    const Node *first = m_router.design().node(lay.members.front());
    const GpuGeneration gen = first ? gpuGeneration(first->spec) : GpuGeneration::Hopper;
    plan.fill = nvlsFill(bytes, n, nvlsChannels(gen >= GpuGeneration::Blackwell));
    plan.channels = 1;
}

// NCCL's NVLS-Tree all-reduce (NCCL_ALGO_NVLS_TREE, NCCL 2.18+), what NCCL runs across nodes of
// NVLS-capable scale-up domains (NVIDIA/nccl-tests issue 309, maintainer's reply: "NVLS being used
// with single-node runs, NVLSTree with multi-node"). Inside each domain of m members an NVLS
// reduce-scatter (nvlsFlows), each member then all-reduces its reduced shard S/m with the members
// of its rail in the other domains over NCCL's double binary tree (two complementary trees of
// S/2m each, reduce up and broadcast down over the member's NIC), and an NVLS multicast
// all-gather. On two domains each NIC carries S/m per direction where a ring's carries
// 2(d-1)/d S/m... (n-1)/n S: why two-node all-reduce busbw exceeds the network's rate (nccl-tests
// issue 196).
// All flows in one coupled phase (the stages are pipelined). Latency (NCCL tuning.cc): the NVLink
// NVLS-Tree hop (25 us) + 2 log2(domains) network NVLS-Tree hops (20.9 us).
// Pipeline (priceStages): NCCL moves the buffer in loops of 16 (Blackwell 32) channels x m heads
// x a chunk (nvlsTreeLoopBytes: 128 KiB, 64 KiB from 4 domains on, less for small buffers). A
// loop crosses the NVLS scatter and reduce, each network hop of the tree up (reduce from the
// children, send to the parent) and down (receive from the parent, send to the children), and
// the NVLS multicast and gather, each a store-and-forward stage of the loop: with K loops
// T = lat + S/B + (sum of the stage times of one loop - the bottleneck's) / K, i.e. the first
// loop's trip through the stages the others do not overlap. The stages' times come from their
// flows run alone: the NVLS stages one domain's NVLS flows (domains are alike and their NVLS
// traffic stays inside each), the network stages the trees' upward flows. The rate is at most
// the heads x NCCL's per-head busBw ceiling (nvlsTreeHeadBusBw; CollectivePlan::minBandwidthTime).
// Measured on two HGX H100 (8 x 400G IB, NCCL 2.26): 235 GB/s busbw at 32 MiB, 468 at 8 GiB.
void CollectivePlanner::nvlsTree(const Layout &lay, double bytes, CollectivePlan &plan) const
{
    const std::size_t d = lay.domains.size();
    if (d < 2 || !lay.uniform() || lay.domains.front().size() < 2)
        throw std::invalid_argument("collective: the NVLS-Tree all-reduce needs a group spanning "
                                    "several domains with the same number (2 or more) of members "
                                    "in each");
    const std::size_t m = lay.domains.front().size();
    const double dm = static_cast<double>(m);
    std::vector<Flow> flows;
    for (const auto &dom : lay.domains)
        for (NodeId g : dom) {
            std::vector<Flow> mine = nvlsFlows(g, bytes, dm);
            flows.insert(flows.end(), mine.begin(), mine.end());
        }
    std::vector<Flow> inter, upward;
    const double share = bytes / (2 * dm);
    for (std::size_t j = 0; j < m; ++j)
        for (int t = 0; t < 2; ++t)
            for (std::size_t i = 0; i < d; ++i) {
                const int parent = doubleTreeParent(static_cast<int>(d), static_cast<int>(i), t);
                if (parent < 0)
                    continue;
                const NodeId child = lay.domains[i][j],
                             up = lay.domains[static_cast<std::size_t>(parent)][j];
                inter.push_back(Flow {child, up, share});
                inter.push_back(Flow {up, child, share});
                upward.push_back(inter[inter.size() - 2]);
            }
    ProtocolTimes lat = hopLatency(LatencyFamily::NvlsTree, HopClass::NVLink, true);
    const double depth = std::floor(std::log2(static_cast<double>(d)));
    for (const Flow &f : inter) {
        ProtocolTimes net = hopLatency(LatencyFamily::NvlsTree, HopClass::Net, true);
        for (double &x : net)
            x += hop(f.src, f.dst).extra;
        lat = maxOf(lat,
                    hopLatency(LatencyFamily::NvlsTree, HopClass::NVLink, true)
                        + scaled(net, 2 * depth));
    }
    // The stages of a loop: NCCL's NVLS-Tree kernel (device/all_reduce.h, NVLS_TREE: scatter,
    // reduce + send up, receive down + broadcast, gather warps) moves a loop through the NVLS
    // scatter (S up to the switch), reduce (S/m back), multicast (S/m up) and gather (S back):
    // of the S(1 + 1/m) each way one domain's NVLS flows carry, the four take twice their time
    // together; and 2 x the trees' depth network hops (NCCL's double binary tree: the longest
    // path to the root of either tree), a hop up priced as the trees' upward flows alone (a
    // loop's reduction moving up every level at once), a hop down as the same flows reversed
    // over the same full-duplex links.
    int treeDepth = 0;
    for (int t = 0; t < 2; ++t)
        for (int i = 0; i < static_cast<int>(d); ++i) {
            int hops = 0;
            for (int x = doubleTreeParent(static_cast<int>(d), i, t); x >= 0;
                 x = doubleTreeParent(static_cast<int>(d), x, t))
                ++hops;
            treeDepth = std::max(treeDepth, hops);
        }
    const auto perDomain = static_cast<std::ptrdiff_t>(flows.size() / d);
    plan.stages.push_back(
        {std::vector<Flow>(flows.begin(), flows.begin() + perDomain), 2.0, false});
    plan.stages.push_back({std::move(upward), 2.0 * treeDepth, true, 0.5});
    const Node *first = m_router.design().node(lay.members.front());
    const GpuGeneration gen = first ? gpuGeneration(first->spec) : GpuGeneration::Hopper;
    const int channels = nvlsChannels(gen >= GpuGeneration::Blackwell);
    plan.loopBytes = nvlsTreeLoopBytes(bytes, dm, static_cast<int>(d), channels);
    // NCCL's per-head busBw ceiling: busBw = algbw x 2(n-1)/n (nccl-tests' all-reduce busbw).
    const double n = static_cast<double>(lay.size());
    const double ceiling = dm * nvlsTreeHeadBusBw(gen, static_cast<int>(d)) * n / (2 * (n - 1));
    plan.minBandwidthTime.fill(ceiling > 0 ? bytes / ceiling : 0.0);
    flows.insert(flows.end(), inter.begin(), inter.end());
    plan.phases.push_back(coupledPhase(std::move(flows), 0));
    plan.latency.push_back(lat);
    plan.protocols = kSimpleOnly;
    plan.channels = static_cast<int>(m);
    plan.bytes = bytes;
}

std::vector<double> CollectivePlanner::priceStages(CollectivePlan &plan, double bandwidthTime) const
{
    std::vector<double> times(plan.stages.size(), 0.0);
    if (plan.stages.empty())
        return times;
    // Off-network stages first; a network stage with a known share of a network-bound whole
    // is not simulated (on large fabrics its flows cost as much as the whole's).
    double slowest = 0;
    for (std::size_t i = 0; i < plan.stages.size(); ++i)
        if (!plan.stages[i].network) {
            times[i] = simulate({coupledPhase(plan.stages[i].flows, 0)});
            slowest = std::max(slowest, times[i]);
        }
    const bool networkBound = slowest < bandwidthTime * (1 - 1e-6);
    for (std::size_t i = 0; i < plan.stages.size(); ++i) {
        const CollectivePlan::Stage &st = plan.stages[i];
        if (st.network)
            times[i] = networkBound && st.shareWhenBottleneck > 0
                ? st.shareWhenBottleneck * bandwidthTime
                : simulate({coupledPhase(st.flows, 0)});
    }
    double path = 0;
    for (std::size_t i = 0; i < plan.stages.size(); ++i)
        path += plan.stages[i].count * times[i];
    const double loops
        = plan.bytes > 0 && plan.loopBytes > 0 ? std::ceil(plan.bytes / plan.loopBytes) : 1.0;
    plan.fill = bandwidthTime > 0 ? std::max(0.0, path / bandwidthTime - 1) / loops : 0.0;
    plan.stages.clear();
    return times;
}

std::vector<CollectiveAlgorithm> CollectivePlanner::candidates(const CollectiveSpec &spec) const
{
    using A = CollectiveAlgorithm;
    const bool gatherOrScatter
        = spec.kind == CollectiveKind::AllGather || spec.kind == CollectiveKind::ReduceScatter;
    if (spec.kind != CollectiveKind::AllReduce) {
        if (gatherOrScatter && fullMesh(spec.members))
            return {A::Ring, A::Direct};
        return {gatherOrScatter || spec.kind == CollectiveKind::Broadcast ? A::Ring : A::Auto};
    }
    const Layout lay = layout(spec.members);
    std::vector<A> out {A::Ring, A::Tree};
    if (fullMesh(spec.members))
        out.push_back(A::Direct);
    // NCCL's tuner chooses among ring, tree, NVLS, NVLS-Tree and CollNet (SHARP): the
    // hierarchical algorithm (reduce-scatter, all-reduce across, all-gather) is not one of NCCL's,
    // so it runs only when asked for.
    if (lay.domains.size() > 1 && lay.uniform() && lay.domains.front().size() > 1) {
        try {
            CollectivePlan probe;
            nvlsTree(lay, 1.0, probe);
            out.push_back(A::NvlsTree);
        } catch (const std::invalid_argument &) {
        }
    }
    // Across domains in-network reduction is SHARP (NCCL's CollNet): only when enabled.
    if (lay.size() > 1 && (lay.domains.size() == 1 || spec.collNet)) {
        try {
            CollectivePlan probe;
            inNetwork(lay, 1.0, probe);
            out.push_back(A::InNetwork);
        } catch (const std::invalid_argument &) {
        }
    }
    return out;
}

CollectivePlan CollectivePlanner::build(const CollectiveSpec &spec, CollectiveAlgorithm algo) const
{
    CollectivePlan plan;
    plan.algorithm = algo;
    const Layout lay = layout(spec.members);
    const double n = static_cast<double>(lay.size());
    // All-to-all and send/recv are NCCL's grouped point-to-point sends, all at once: one hop of
    // latency, LL up to 16 KiB per peer and Simple above (NCCL_P2P_LL_THRESHOLD).
    auto pointToPoint = [&](std::vector<Flow> flows, double perPeer) {
        const Protocol proto = pointToPointProtocol(perPeer);
        plan.latency.push_back(maxEdgeLatency(LatencyFamily::Ring, flows, lay.domains.size() > 1));
        plan.phases.push_back(Phase {std::move(flows), 0, false});
        plan.protocols = 1u << static_cast<unsigned>(proto);
        plan.channels = static_cast<int>(plan.phases.back().flows.size());
    };
    switch (spec.kind) {
    case CollectiveKind::AllToAll:
        pointToPoint(allPairs(lay.members, spec.bytes / n), spec.bytes / n);
        return plan;
    case CollectiveKind::SendRecv:
    case CollectiveKind::PointToPoint: {
        std::vector<Flow> flows;
        const std::size_t count = spec.kind == CollectiveKind::PointToPoint ? 1 : lay.size();
        for (std::size_t i = 0; i < count; ++i)
            flows.push_back(Flow {lay.members[i], lay.members[(i + 1) % lay.size()], spec.bytes});
        pointToPoint(std::move(flows), spec.bytes);
        return plan;
    }
    default:
        break;
    }
    if (spec.kind != CollectiveKind::AllReduce && algo != CollectiveAlgorithm::Ring
        && !(algo == CollectiveAlgorithm::Direct && spec.kind != CollectiveKind::Broadcast))
        throw std::invalid_argument(std::string("collective: ") + toString(spec.kind)
                                    + " is implemented with the ring (or, on a full mesh, the "
                                      "direct) algorithm only");
    switch (algo) {
    case CollectiveAlgorithm::Direct:
        direct(lay, spec.kind, spec.bytes, plan);
        break;
    case CollectiveAlgorithm::Tree:
        tree(lay, spec.bytes, plan);
        break;
    case CollectiveAlgorithm::Hierarchical:
        if (lay.domains.size() < 2 || !lay.uniform())
            throw std::invalid_argument(
                "collective: hierarchical all-reduce needs a group spanning "
                "several domains with the same number of members in each");
        hierarchical(lay, spec.bytes, plan, false);
        break;
    case CollectiveAlgorithm::InNetwork:
        inNetwork(lay, spec.bytes, plan);
        break;
    case CollectiveAlgorithm::NvlsTree:
        nvlsTree(lay, spec.bytes, plan);
        break;
    default:
        ring(lay, spec.kind, spec.bytes, plan);
        break;
    }
    return plan;
}

double CollectivePlanner::simulate(const std::vector<Phase> &phases) const
{
    if (!m_scratch) {
        NetworkOptions o;
        o.recordStats = false;
        m_scratch = std::make_unique<FlowNetwork>(m_router, o);
    }
    m_scratch->reset();
    const JobId j = m_scratch->submit(phases, 0.0);
    m_scratch->runUntilIdle();
    return m_scratch->jobFinishTime(j);
}

std::size_t CollectivePlanner::hardwareHash(int index) const
{
    if (m_hardware.empty()) {
        // Per accelerator: its model, then the technology and capacity of every link it drives
        // in a fixed order, folded into one hash (0 for the router's other nodes).
        const Design &d = m_router.design();
        std::vector<std::vector<std::pair<std::size_t, double>>> drives(m_router.nodeCount());
        for (const Link &l : d.links())
            for (const NodeId end : {l.a, l.b})
                if (const int i = m_router.nodeIndex(end); i >= 0 && m_router.isAccelerator(i))
                    drives[static_cast<std::size_t>(i)].emplace_back(
                        std::hash<std::string> {}(l.tech), l.capacity());
        m_hardware.assign(drives.size() + 1, 0);
        for (const Node &n : d.nodes()) {
            const int i = m_router.nodeIndex(n.id);
            if (i < 0 || !m_router.isAccelerator(i))
                continue;
            auto &links = drives[static_cast<std::size_t>(i)];
            std::sort(links.begin(), links.end());
            std::size_t h = std::hash<std::string> {}(n.spec);
            for (const auto &[tech, capacity] : links)
                h = (h * 1000003u ^ tech) * 1000003u ^ std::hash<double> {}(capacity);
            m_hardware[static_cast<std::size_t>(i)] = h;
        }
    }
    return index >= 0 && static_cast<std::size_t>(index) < m_hardware.size()
        ? m_hardware[static_cast<std::size_t>(index)]
        : 0;
}

std::size_t CollectivePlanner::shapeHash(const CollectiveSpec &spec, std::size_t cands) const
{
    const Layout lay = layout(spec.members);
    std::size_t h = lay.domains.size();
    for (const auto &dom : lay.domains) {
        h = h * 1000003u ^ dom.size();
        for (NodeId id : dom) {
            const int idx = m_router.nodeIndex(id);
            h = (h * 1000003u ^ static_cast<std::size_t>(m_router.railOf(idx) + 1)) * 1000003u
                ^ hardwareHash(idx);
        }
    }
    return h * 1000003u ^ cands; // full mesh or not, in-network reduction or not
}

namespace {

// Bandwidth time per Simple bandwidth time of `plan` with protocol p: the wire factor, over the
// tree's medium-size factor where it applies.
double bandwidthScale(const CollectivePlan &plan, Protocol proto)
{
    return wireFactor(proto) / (plan.treeCorrection ? treeBandwidthFactor(proto, plan.bytes) : 1.0);
}

// What the bandwidth time with protocol p (from the Simple `bandwidthTime`) falls short of the
// plan's kernel-paced minimum (CollectivePlan::minBandwidthTime), seconds.
double paced(const CollectivePlan &plan, Protocol proto, double bandwidthTime)
{
    return std::max(0.0,
                    plan.minBandwidthTime[static_cast<std::size_t>(proto)]
                        - bandwidthTime * bandwidthScale(plan, proto));
}

} // namespace

void CollectivePlanner::finalize(CollectivePlan &plan, Protocol proto, double bandwidthTime) const
{
    const auto p = static_cast<std::size_t>(proto);
    const double scale = bandwidthScale(plan, proto);
    for (std::size_t i = 0; i < plan.phases.size(); ++i) {
        Phase &ph = plan.phases[i];
        ph.latency = i < plan.latency.size() ? plan.latency[i][p] : 0.0;
        if (i == 0)
            ph.latency += bandwidthTime * plan.fill + paced(plan, proto, bandwidthTime);
        for (Flow &f : ph.flows)
            f.bytes *= scale;
    }
    plan.protocol = proto;
}

// Time of `plan` with protocol p given its bandwidth time (Simple, no latency): the phases'
// latencies, the bandwidth time x the protocol's wire factor, the pipeline fill.
double CollectivePlanner::timeWith(const CollectivePlan &plan, Protocol proto, double bw) const
{
    double t = bw * bandwidthScale(plan, proto);
    for (const ProtocolTimes &l : plan.latency)
        t += l[static_cast<std::size_t>(proto)];
    t += bw * plan.fill + paced(plan, proto, bw);
    return t;
}

CollectivePlan CollectivePlanner::plan(const CollectiveSpec &spec) const
{
    using A = CollectiveAlgorithm;
    if (spec.members.size() < 2)
        throw std::invalid_argument("collective: a collective needs 2 or more ranks (the group has "
                                    + std::to_string(spec.members.size())
                                    + "); with one rank there is nothing to move");
    if (!(spec.bytes >= 0) || !std::isfinite(spec.bytes))
        throw std::invalid_argument("collective: size must be finite and >= 0 bytes");
    const bool pointToPoint = spec.kind == CollectiveKind::AllToAll
        || spec.kind == CollectiveKind::SendRecv || spec.kind == CollectiveKind::PointToPoint;
    if (pointToPoint && spec.algorithm != A::Auto && spec.algorithm != A::Direct)
        throw std::invalid_argument(
            std::string("collective: ") + toString(spec.kind) + " has no "
            + toString(spec.algorithm)
            + " algorithm: NCCL runs it as point-to-point sends between the peers, all at once "
              "(the 'direct' algorithm; use --algorithm auto or direct)");
    std::vector<A> cands;
    if (pointToPoint)
        cands = {A::Direct};
    else if (spec.algorithm != A::Auto)
        cands = {spec.algorithm};
    else
        cands = candidates(spec);
    if (cands.size() == 1 && cands.front() == A::Auto)
        cands.front() = A::Ring;
    // NCCL's tuner decides from the topology's shape, so do we: groups of the same shape
    // (ranks per domain, rails, accelerator model) share the choice of algorithm and protocol.
    const int how = (spec.ncclTuner ? 1 : 0) + (spec.collNet ? 2 : 0);
    const auto key = std::make_tuple(
        (static_cast<int>(spec.kind) * 16 + static_cast<int>(spec.algorithm)) * 4 + how, spec.bytes,
        spec.members.size(), shapeHash(spec, cands.size()));
    if (auto it = m_autoCache.find(key); it != m_autoCache.end()) {
        try {
            CollectivePlan p = build(spec, it->second.algorithm);
            p.stages.clear();
            p.fill = it->second.fill;
            finalize(p, it->second.protocol, it->second.bandwidthTime);
            return p;
        } catch (const std::invalid_argument &) {
            // same shape but not the same switches: decide afresh below
        }
    }
    if (spec.ncclTuner && !pointToPoint) {
        CollectivePlan best;
        const Decision chosen = tunerDecision(spec, cands, best);
        m_autoCache[key] = chosen;
        finalize(best, chosen.protocol, chosen.bandwidthTime);
        return best;
    }
    CollectivePlan best;
    Decision chosen;
    double bestTime = std::numeric_limits<double>::infinity();
    for (A a : cands) {
        CollectivePlan p = build(spec, a);
        const bool one = std::popcount(p.protocols) == 1;
        const bool needBw = !one || p.fill > 0 || !p.stages.empty() || cands.size() > 1;
        const double bw = needBw ? simulate(p.phases) : 0.0;
        priceStages(p, bw);
        for (int k = 0; k < kProtocolCount; ++k) {
            if (!(p.protocols & (1u << static_cast<unsigned>(k))))
                continue;
            const auto proto = static_cast<Protocol>(k);
            const double t = timeWith(p, proto, bw);
            if (t < bestTime * (1 - 1e-9)) {
                bestTime = t;
                chosen = Decision {a, proto, bw, p.fill};
                best = p;
            }
        }
    }
    m_autoCache[key] = chosen;
    finalize(best, chosen.protocol, chosen.bandwidthTime);
    return best;
}

// NCCL's decision (collectivestuning.h) over the candidates' simulated Simple bandwidths: each
// candidate's plan is built and simulated without latency once, then NCCL's model time of every
// usable protocol picks the algorithm and protocol; `best` receives the chosen plan.
CollectivePlanner::Decision
CollectivePlanner::tunerDecision(const CollectiveSpec &spec,
                                 const std::vector<CollectiveAlgorithm> &cands,
                                 CollectivePlan &best) const
{
    using A = CollectiveAlgorithm;
    const Layout lay = layout(spec.members);
    TunerTopology topo;
    topo.kind = spec.kind;
    topo.ranks = static_cast<int>(lay.size());
    topo.nodes = static_cast<int>(lay.domains.size());
    topo.collNet = spec.collNet;
    if (const Node *first = m_router.design().node(lay.members.front()))
        topo.generation = gpuGeneration(first->spec);
    const auto &dom = lay.domains.front();
    if (dom.size() > 1 && hop(dom[0], dom[1]).cls == HopClass::PCI)
        topo.intra = HopClass::PCI;
    std::vector<CollectivePlan> plans;
    std::vector<TunerOption> options;
    std::vector<double> bandwidthTimes;
    for (A a : cands) {
        plans.push_back(build(spec, a));
        const CollectivePlan &p = plans.back();
        const double bw = simulate(p.phases);
        std::vector<bool> network;
        for (const CollectivePlan::Stage &st : p.stages)
            network.push_back(st.network);
        const std::vector<double> stageTimes = priceStages(plans.back(), bw);
        bandwidthTimes.push_back(bw);
        TunerOption o;
        o.simpleAlgbw = bw > 0 ? spec.bytes / bw : std::numeric_limits<double>::infinity();
        o.channels = p.channels;
        o.protocols = p.protocols;
        switch (a) {
        case A::Tree:
            o.algorithm = NcclAlgorithm::Tree;
            if (lay.domains.size() > 1) {
                // NCCL's tree graph across nodes: one channel per NIC at the NIC's rate (search.cc
                // speedArrayInter from 48 GB/s; no duplication on sm80+ below 50 GB/s, l.902),
                // where Weft runs two trees per NIC; its per-channel caps count those.
                o.channels = std::max(1, p.channels / 2);
                o.graphChannels = true;
            }
            if (lay.domains.size() > 2) {
                // NCCL prices the tree beyond two nodes by its graph's channels x bwInter (one
                // channel per NIC, tuning.cc l.250-253), as if each node's NICs carried 2 x S/k
                // each way, whatever the concurrent reduction and broadcast load them with
                // (tree(): 1.5 x S/k on three nodes): its busBw is the NICs' rate, the
                // bottleneck of each channel's path to the next domain (bytes/s).
                const auto &from = lay.domains[0], &to = lay.domains[1];
                double nics = 0;
                for (int c = 0; c < o.channels; ++c) {
                    const auto i = static_cast<std::size_t>(c);
                    const Route &r = m_router.route(from[i % from.size()], to[i % to.size()]);
                    double rate = std::numeric_limits<double>::infinity();
                    for (const RouteEntry &e : r.entries)
                        if (e.fraction > 0)
                            rate = std::min(rate, m_router.capacity(e.linkDir) / e.fraction);
                    nics += std::isfinite(rate) ? rate : 0.0;
                }
                o.ncclBusBw = nics;
            }
            break;
        case A::NvlsTree:
            o.algorithm = NcclAlgorithm::NvlsTree;
            // NCCL's busBw of NVLS-Tree is its heads x NIC rate (halved beyond two nodes,
            // tuning.cc l.252): the trees' flows alone, up and down (twice the upward stage).
            for (std::size_t i = 0; i < network.size(); ++i)
                if (network[i] && stageTimes[i] > 0)
                    o.ncclBusBw = spec.bytes / (2 * stageTimes[i]);
            break;
        case A::InNetwork:
            // Across domains: NVLS + SHARP where the domains reduce in NVLink switches (NCCL's
            // multi-node NVLS), CollNet Direct otherwise.
            o.algorithm = lay.domains.size() == 1 || nvlsCapable(lay.members.front())
                ? NcclAlgorithm::Nvls
                : NcclAlgorithm::CollNetDirect;
            break;
        case A::Ring:
            // NCCL's ring graph across nodes: one channel per NIC at the NIC's rate (as the tree,
            // search.cc); Weft runs one ring per rail, the same count.
            o.graphChannels = lay.domains.size() > 1;
            break;
        case A::Direct: // all-pairs: one hop per pass (see direct())
            o.steps = spec.kind == CollectiveKind::AllReduce ? 2.0 : 1.0;
            break;
        default: // ring; hierarchical (asked for explicitly) is costed as NCCL's ring
            break;
        }
        options.push_back(o);
    }
    TunerChoice c = chooseNccl(topo, options, spec.bytes);
    if (c.index < 0) {
        // An explicit SHARP all-reduce with CollNet off: run it, as asked.
        topo.collNet = true;
        c = chooseNccl(topo, options, spec.bytes);
    }
    if (c.index < 0)
        c = TunerChoice {0, Protocol::Simple, 0};
    const auto i = static_cast<std::size_t>(c.index);
    best = std::move(plans[i]);
    return Decision {cands[i], c.protocol, bandwidthTimes[i], best.fill};
}

double CollectivePlanner::isolatedTime(const CollectiveSpec &spec) const
{
    return simulate(plan(spec).phases);
}

std::vector<Phase> planCollective(const Design &design, const CollectiveSpec &spec)
{
    const Router router(design);
    return CollectivePlanner(router).plan(spec).phases;
}

} // namespace weft
