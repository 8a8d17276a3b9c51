#include "sim/collectives.h"

#include <algorithm>
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
constexpr AlgoName kAlgos[] = {
    {CollectiveAlgorithm::Auto, "auto"},       {CollectiveAlgorithm::Ring, "ring"},
    {CollectiveAlgorithm::Tree, "tree"},       {CollectiveAlgorithm::Hierarchical, "hierarchical"},
    {CollectiveAlgorithm::InNetwork, "nvls"},  {CollectiveAlgorithm::InNetwork, "in_network"},
    {CollectiveAlgorithm::InNetwork, "sharp"}, {CollectiveAlgorithm::Direct, "direct"}};

// A coupled phase of flows `edges` each carrying `bytes`, after `steps` step latencies.
Phase coupledPhase(std::vector<Flow> flows, double latency)
{
    Phase p;
    p.flows = std::move(flows);
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

double CollectivePlanner::stepLatency(const std::vector<Flow> &flows) const
{
    double alpha = 0;
    for (const Flow &f : flows)
        if (f.src != f.dst) {
            const Route &r = m_router.route(f.src, f.dst);
            alpha = std::max(alpha, r.alpha + r.propagation);
        }
    return alpha;
}

// NCCL-style rings. Inside one domain: members by rail. Across domains: one ring (channel) per
// local position c, each crossing between domains on one rail: even domains are walked forward
// from position c (leaving on rail c-1), odd domains backward from c-1 (leaving on rail c), so
// every NIC carries one channel and every crossing is rail-matched (an odd domain count leaves
// one mismatched wrap-around, which PXN or the spine absorbs).
void CollectivePlanner::ring(const Layout &lay, CollectiveKind kind, double bytes,
                             CollectivePlan &plan) const
{
    const std::size_t n = lay.size();
    if (n < 2)
        return;
    std::vector<std::vector<NodeId>> rings;
    if (lay.domains.size() == 1) {
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
    std::vector<Flow> flows;
    for (const auto &r : rings)
        for (std::size_t j = 0; j < r.size(); ++j)
            if (!chain || j + 1 < r.size())
                flows.push_back(Flow {r[j], r[(j + 1) % r.size()], perEdge});
    const double lat = steps * stepLatency(flows);
    plan.phases.push_back(coupledPhase(std::move(flows), lat));
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
    const double lat = passes * stepLatency(flows);
    plan.phases.push_back(coupledPhase(std::move(flows), lat));
    plan.channels = static_cast<int>(lay.size()) - 1;
}

// NCCL double binary tree: a chain inside each domain, two complementary binary trees over the
// domains (the second mirrored, so a leaf of one is inner in the other), S/2 on each; reduce up
// then broadcast down, each pipelined (one coupled phase per direction).
void CollectivePlanner::tree(const Layout &lay, double bytes, CollectivePlan &plan) const
{
    if (lay.size() < 2)
        return;
    const std::size_t d = lay.domains.size();
    std::vector<Flow> up;
    std::size_t chainLen = 0;
    for (int t = 0; t < 2; ++t) {
        for (std::size_t i = 0; i < d; ++i) {
            const auto &dom = lay.domains[i];
            chainLen = std::max(chainLen, dom.size() - 1);
            for (std::size_t j = 0; j + 1 < dom.size(); ++j)
                up.push_back(t == 0 ? Flow {dom[j + 1], dom[j], bytes / 2}
                                    : Flow {dom[j], dom[j + 1], bytes / 2});
            const std::size_t pos = t == 0 ? i : d - 1 - i; // position in tree t
            if (pos == 0)
                continue;
            const std::size_t parentPos = (pos - 1) / 2;
            const std::size_t parent = t == 0 ? parentPos : d - 1 - parentPos;
            const NodeId from = t == 0 ? dom.front() : dom.back();
            const NodeId to = t == 0 ? lay.domains[parent].front() : lay.domains[parent].back();
            up.push_back(Flow {from, to, bytes / 2});
        }
    }
    const double depth = d > 1 ? std::floor(std::log2(static_cast<double>(d))) : 0.0;
    const double lat = (static_cast<double>(chainLen) + depth) * stepLatency(up);
    std::vector<Flow> down = up;
    for (Flow &f : down)
        std::swap(f.src, f.dst);
    plan.phases.push_back(coupledPhase(std::move(up), lat));
    plan.phases.push_back(coupledPhase(std::move(down), lat));
    plan.channels = 2;
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
    const double intraLat = (mesh ? 1.0 : dm - 1) * stepLatency(intra);
    if (!intra.empty())
        plan.phases.push_back(coupledPhase(intra, intraLat));
    const double interLat = (sharp ? 2.0 : 2 * (dd - 1)) * stepLatency(inter);
    plan.phases.push_back(coupledPhase(std::move(inter), interLat));
    if (!intra.empty())
        plan.phases.push_back(coupledPhase(std::move(intra), intraLat));
    plan.channels = static_cast<int>(m);
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

// NVLS (NVLink SHARP): reduce-scatter by in-switch reduction then all-gather by switch
// multicast. Each member sends S + S/n up to the switch chips and receives S/n + S back, spread
// over its chips by lanes; a member's stream through chip c is bounded by the chip's reduction
// rate per port x the member's lanes to c. All in lock-step (one coupled phase).
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
    const double volume = bytes * (1 + 1 / n);
    std::vector<Flow> flows;
    const Design &design = m_router.design();
    for (NodeId g : lay.members) {
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
            throw std::invalid_argument("collective: accelerator '"
                                        + (nd ? nd->name : std::string())
                                        + "' has no scale-up switch with in-network reduction");
        }
        for (const auto &[chip, lr] : chips) {
            const double share = volume * lr.first / total;
            const double cap = lr.second * lr.first;
            flows.push_back(Flow {g, chip, share, cap});
            flows.push_back(Flow {chip, g, share, cap});
        }
    }
    const double lat = 2 * stepLatency(flows);
    plan.phases.push_back(coupledPhase(std::move(flows), lat));
    plan.channels = 1;
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
    if (lay.domains.size() > 1 && lay.uniform() && lay.domains.front().size() > 1)
        out.push_back(A::Hierarchical);
    if (lay.size() > 1) {
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
    switch (spec.kind) {
    case CollectiveKind::AllToAll: {
        Phase p;
        for (NodeId a : lay.members)
            for (NodeId b : lay.members)
                if (a != b)
                    p.flows.push_back(Flow {a, b, spec.bytes / n});
        p.latency = stepLatency(p.flows);
        if (!p.flows.empty())
            plan.phases.push_back(std::move(p));
        return plan;
    }
    case CollectiveKind::SendRecv:
    case CollectiveKind::PointToPoint: {
        Phase p;
        const std::size_t count = spec.kind == CollectiveKind::PointToPoint ? 1 : lay.size();
        for (std::size_t i = 0; lay.size() > 1 && i < count; ++i)
            p.flows.push_back(Flow {lay.members[i], lay.members[(i + 1) % lay.size()], spec.bytes});
        p.latency = stepLatency(p.flows);
        if (!p.flows.empty())
            plan.phases.push_back(std::move(p));
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

CollectivePlan CollectivePlanner::plan(const CollectiveSpec &spec) const
{
    if (spec.members.empty())
        throw std::invalid_argument("collective: the group has no member");
    if (!(spec.bytes >= 0) || !std::isfinite(spec.bytes))
        throw std::invalid_argument("collective: size must be finite and >= 0 bytes");
    if (spec.algorithm != CollectiveAlgorithm::Auto)
        return build(spec, spec.algorithm);
    const std::vector<CollectiveAlgorithm> cands = candidates(spec);
    if (cands.size() == 1)
        return build(spec,
                     cands.front() == CollectiveAlgorithm::Auto ? CollectiveAlgorithm::Ring
                                                                : cands.front());
    // NCCL's tuner decides from the topology's shape, so do we: groups of the same shape
    // (ranks per domain, rails, accelerator model) share the choice.
    const Layout lay = layout(spec.members);
    std::size_t h = lay.domains.size();
    for (const auto &dom : lay.domains) {
        h = h * 1000003u ^ dom.size();
        for (NodeId id : dom)
            h = h * 1000003u
                ^ static_cast<std::size_t>(m_router.railOf(m_router.nodeIndex(id)) + 1);
    }
    if (const Node *first = m_router.design().node(spec.members.front()))
        h = h * 1000003u ^ std::hash<std::string> {}(first->spec);
    h = h * 1000003u ^ cands.size(); // full mesh or not, in-network reduction or not
    const auto key
        = std::make_tuple(static_cast<int>(spec.kind), spec.bytes, spec.members.size(), h);
    if (auto it = m_autoCache.find(key); it != m_autoCache.end()) {
        try {
            return build(spec, it->second);
        } catch (const std::invalid_argument &) {
            // same shape but not the same switches: decide afresh below
        }
    }
    CollectivePlan best;
    double bestTime = std::numeric_limits<double>::infinity();
    for (CollectiveAlgorithm a : cands) {
        CollectivePlan p = build(spec, a);
        const double t = simulate(p.phases);
        if (t < bestTime * (1 - 1e-9)) {
            bestTime = t;
            best = std::move(p);
        }
    }
    m_autoCache[key] = best.algorithm;
    return best;
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
