#include "sim/collectivesmoe.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace weft {

namespace {

// Members grouped by scale-up domain (first appearance order), each sorted by rail.
std::vector<std::vector<NodeId>> domainsOf(const Router &router, const std::vector<NodeId> &members)
{
    std::vector<std::vector<NodeId>> out;
    std::unordered_map<int, std::size_t> slot;
    for (NodeId id : members) {
        const int idx = router.nodeIndex(id);
        if (idx < 0 || !router.isAccelerator(idx))
            throw std::invalid_argument("moe dispatch: member " + std::to_string(id.value)
                                        + " is not an accelerator of the design");
        const int dom = router.domainOf(idx);
        auto [it, fresh] = slot.emplace(dom >= 0 ? dom : -2 - idx, out.size());
        if (fresh)
            out.emplace_back();
        out[it->second].push_back(id);
    }
    for (auto &d : out)
        std::stable_sort(d.begin(), d.end(), [&](NodeId a, NodeId b) {
            return router.railOf(router.nodeIndex(a)) < router.railOf(router.nodeIndex(b));
        });
    return out;
}

// Probability that none of k experts drawn without replacement from N falls among K of them;
// N = 0 (many experts): drawn independently, (1 - share)^k with share = K / N given as `share`.
double miss(double experts, double share, int k)
{
    if (!(experts > 0))
        return std::pow(std::max(0.0, 1 - share), k);
    const double pool = experts, hits = experts * share;
    double p = 1;
    for (int i = 0; i < k; ++i) {
        const double left = pool - i;
        if (left <= 0)
            return 0;
        p *= std::max(0.0, left - hits) / left;
    }
    return p;
}

// Factor on the NVLink volumes of one domain's ranks that makes them take as long as the
// dispatcher's kernels do where the kernels, not the links, are the bound: DeepEP's multi-node
// NVLink kernels (kDeepEpMnnvlDispatchRate / CombineRate) with more than kDeepEpMaxNvlinkPeers
// ranks in the domain, and DeepEP's and HybridEP's forwarding across servers
// (kHierarchicalForwardRate) when the group spans several domains of at most that many GPUs.
// The slowest member's scale-up egress at the dispatcher's NVLink efficiency (`nvl`, the volume
// factor already applied) over the kernels' rate; 1 when the links are the slower.
double nvlinkKernelLimit(const Router &router, const std::vector<NodeId> &dom, MoeDispatcher d,
                         bool combine, bool multiDomain, double nvl)
{
    double rate = 0;
    if (d == MoeDispatcher::DeepEP && dom.size() > std::size_t(kDeepEpMaxNvlinkPeers))
        rate = combine ? kDeepEpMnnvlCombineRate : kDeepEpMnnvlDispatchRate;
    else if (d != MoeDispatcher::AllToAll && multiDomain && dom.size() > 1
             && dom.size() <= std::size_t(kDeepEpMaxNvlinkPeers))
        // the kernels' rate counts a rank's own tokens too, which cross no link
        rate = kHierarchicalForwardRate * double(dom.size() - 1) / double(dom.size());
    if (rate <= 0)
        return 1;
    double egress = 0;
    for (NodeId id : dom) {
        const double e = router.scaleUpEgress(router.nodeIndex(id));
        egress = egress > 0 ? std::min(egress, e) : e;
    }
    return std::max(1.0, egress / (nvl * rate));
}

} // namespace

MoeTraffic moeTraffic(const Router &router, const std::vector<NodeId> &members,
                      const MoeRouting &routing)
{
    if (routing.topK < 1)
        throw std::invalid_argument("moe dispatch: top-k must be 1 or more (got "
                                    + std::to_string(routing.topK) + ")");
    if (routing.maxNodes < 0)
        throw std::invalid_argument("moe dispatch: the node limit must be 0 (none) or more");
    if (routing.experts > 0 && routing.topK > routing.experts)
        throw std::invalid_argument("moe dispatch: top-" + std::to_string(routing.topK) + " of "
                                    + std::to_string(routing.experts) + " experts");
    MoeTraffic t;
    t.ranks = static_cast<int>(members.size());
    t.domains = static_cast<int>(domainsOf(router, members).size());
    const double d = t.domains, n = t.ranks;
    const double m = routing.maxNodes > 0 ? std::min<double>(routing.maxNodes, d) : d;
    // the pool of experts a token chooses from: those of its m domains
    const double pool = routing.experts > 0 ? routing.experts * m / d : 0.0;
    t.domainHit = m / d * (1 - miss(pool, 1 / m, routing.topK));
    t.rankHit = m / d * (1 - miss(pool, d / (n * m), routing.topK));
    return t;
}

std::vector<Phase> planMoeHierarchical(const Router &router, const std::vector<NodeId> &members,
                                       double bytes, const MoeRouting &routing, bool combine)
{
    if (members.size() < 2)
        throw std::invalid_argument("moe dispatch: needs 2 or more ranks");
    if (!(bytes >= 0) || !std::isfinite(bytes))
        throw std::invalid_argument("moe dispatch: size must be finite and >= 0 bytes");
    const MoeTraffic t = moeTraffic(router, members, routing);
    const auto domains = domainsOf(router, members);
    const double x = bytes / routing.topK; // a rank's tokens, bytes
    // DeepEP V1 moves NVLink data with its own SMs (kDeepEpNvlinkEfficiency); HybridEP at NCCL's.
    const double nvl
        = routing.dispatcher == MoeDispatcher::DeepEP ? 1 / kDeepEpNvlinkEfficiency : 1.0;
    std::vector<Flow> flows;
    auto add = [&](NodeId a, NodeId b, double v) {
        if (a != b && v > 0)
            flows.push_back(combine ? Flow {b, a, v} : Flow {a, b, v});
    };
    for (std::size_t a = 0; a < domains.size(); ++a)
        for (std::size_t j = 0; j < domains[a].size(); ++j)
            for (std::size_t b = 0; b < domains.size(); ++b)
                if (b != a)
                    add(domains[a][j], domains[b][j % domains[b].size()], x * t.domainHit);
    for (const auto &dom : domains) {
        // tokens the rail-j GPU of this domain forwards: its rail's ranks in every domain
        std::vector<double> sources(dom.size(), 0.0);
        for (const auto &other : domains)
            for (std::size_t j = 0; j < other.size(); ++j)
                sources[j % dom.size()] += 1;
        const double f = nvl
            * nvlinkKernelLimit(router, dom, routing.dispatcher, combine, domains.size() > 1, nvl);
        for (std::size_t h = 0; h < dom.size(); ++h)
            for (std::size_t r = 0; r < dom.size(); ++r)
                add(dom[h], dom[r], sources[h] * x * t.rankHit * f);
    }
    Phase p;
    p.flows = std::move(flows);
    p.coupled = true;
    const bool multi = domains.size() > 1;
    const auto simple = static_cast<std::size_t>(Protocol::Simple);
    p.latency = baseLatency(LatencyFamily::Ring)[simple]
        + hopLatency(LatencyFamily::Ring, HopClass::NVLink, multi)[simple]
        + (multi ? hopLatency(LatencyFamily::Ring, HopClass::Net, true)[simple] : 0.0);
    return {std::move(p)};
}

MoeBenchmark benchmarkMoe(const Router &router, const std::vector<NodeId> &members, double bytes,
                          const MoeRouting &routing, bool combine)
{
    const MoeTraffic t = moeTraffic(router, members, routing);
    std::vector<Phase> phases;
    if (routing.dispatcher == MoeDispatcher::AllToAll) {
        CollectiveSpec spec;
        spec.kind = CollectiveKind::AllToAll;
        spec.members = members;
        spec.bytes = bytes;
        phases = CollectivePlanner(router).plan(spec).phases;
    } else {
        phases = planMoeHierarchical(router, members, bytes, routing, combine);
    }
    NetworkOptions o;
    o.recordStats = false;
    FlowNetwork net(router, o);
    const JobId j = net.submit(std::move(phases), 0.0);
    net.runUntilIdle();
    MoeBenchmark b;
    b.bytes = bytes;
    b.seconds = net.jobFinishTime(j);
    const double x = bytes / routing.topK;
    if (b.seconds > 0) {
        b.rdmaBandwidth = x * t.rdmaTokens() / b.seconds;
        b.nvlinkBandwidth = x * t.nvlinkTokens() / b.seconds;
    }
    b.rdmaBound = t.domains > 1;
    return b;
}

} // namespace weft
