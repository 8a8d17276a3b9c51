// The fabric figures of the planner's bound (PlanHardware, planbound.h): the best and slowest
// accelerator, link and scale-out capacities, the scale-up domain of every rank.
#include "model/design.h"
#include "plan/planbound.h"
#include "workload/placement.h"

#include <algorithm>
#include <unordered_map>

namespace weft {

const AcceleratorSpec &PlanHardware::bestFor(const TransformerSpec &m) const
{
    // KernelModel::headDimFactor is relative to head dimension 128, where it is 1 for any d0.
    return (m.qkHeadDim() + m.vHeadDimOf()) / 2 > 128 ? bestWide : best;
}

namespace {

// PlanHardware::rankScaleOut of the accelerators `used`: the router's scale-out links (its
// rule: a link is scale-up when both ends are in one scale-up domain group, or either end is
// a scale-up switch) of positive capacity; empty unless a search over them from the first,
// through switches only (accelerators are endpoints), reaches every one.
std::vector<double> rankScaleOut(const Design &d, const std::vector<NodeId> &used)
{
    const auto domainGroup = [&d](const Node &n) -> long long {
        const Group *g = d.group(n.group);
        const bool member = n.isAccelerator() || (n.isSwitch() && n.role == SwitchRole::ScaleUp);
        return member && g && g->kind == GroupKind::ScaleUpDomain
            ? static_cast<long long>(n.group.value)
            : -1LL;
    };
    std::unordered_map<NodeId, double> capacity;
    std::unordered_map<NodeId, std::vector<NodeId>> next;
    for (const Link &l : d.links()) {
        const Node *a = d.node(l.a), *b = d.node(l.b);
        if (!a || !b)
            continue;
        const long long da = domainGroup(*a), db = domainGroup(*b);
        const auto scaleUpSwitch
            = [](const Node &n) { return n.isSwitch() && n.role == SwitchRole::ScaleUp; };
        if ((da >= 0 && da == db) || scaleUpSwitch(*a) || scaleUpSwitch(*b))
            continue;
        const LinkTechSpec *tech = d.linkTech(l);
        const double cap = std::max(0.0, l.capacity() * (tech ? tech->efficiency : 1.0));
        if (!(cap > 0))
            continue;
        capacity[l.a] += cap;
        capacity[l.b] += cap;
        next[l.a].push_back(l.b);
        next[l.b].push_back(l.a);
    }
    if (used.empty())
        return {};
    std::unordered_map<NodeId, bool> seen {{used.front(), true}};
    std::vector<NodeId> stack {used.front()};
    while (!stack.empty()) {
        const NodeId u = stack.back();
        stack.pop_back();
        const Node *n = d.node(u);
        if (u != used.front() && n && n->isAccelerator())
            continue; // an endpoint, never a transit
        for (NodeId v : next[u])
            if (seen.emplace(v, true).second)
                stack.push_back(v);
    }
    std::vector<double> out;
    out.reserve(used.size());
    for (NodeId id : used) {
        if (used.size() > 1 && !seen.count(id))
            return {};
        out.push_back(capacity[id]);
    }
    return out;
}

} // namespace

PlanHardware planHardware(const Design &d, long long gpus)
{
    PlanHardware hw;
    // Scale-up domain of every node (accelerators outside any domain are a domain of one).
    std::unordered_map<NodeId, long long> domainOf;
    std::unordered_map<long long, int> accelerators; // per domain
    long long key = 0;
    for (const Group &g : d.groups()) {
        if (g.kind != GroupKind::ScaleUpDomain)
            continue;
        for (NodeId id : g.members) {
            domainOf.emplace(id, key);
            if (const Node *n = d.node(id); n && n->isAccelerator())
                ++accelerators[key];
        }
        ++key;
    }
    for (const Node &n : d.nodes())
        if (n.isAccelerator() && domainOf.emplace(n.id, key).second)
            accelerators[key++] = 1;
    hw.domainAccelerators = 0;
    hw.smallestDomain = 0;
    for (const auto &[dom, count] : accelerators) {
        hw.domainAccelerators = std::max(hw.domainAccelerators, count);
        hw.smallestDomain = hw.smallestDomain == 0 ? count : std::min(hw.smallestDomain, count);
    }
    std::unordered_map<NodeId, double> capacity;
    std::unordered_map<long long, double> crossing; // capacity leaving each domain
    for (const Link &l : d.links()) {
        // What the simulator's links carry at most: line rate x the technology's achievable
        // fraction (Router's link capacities).
        const LinkTechSpec *tech = d.linkTech(l);
        const double cap = std::max(0.0, l.capacity() * (tech ? tech->efficiency : 1.0));
        capacity[l.a] += cap;
        capacity[l.b] += cap;
        const auto da = domainOf.find(l.a), db = domainOf.find(l.b);
        const long long ka = da == domainOf.end() ? -1 : da->second;
        const long long kb = db == domainOf.end() ? -1 : db->second;
        if (ka == kb)
            continue;
        if (ka >= 0)
            crossing[ka] += cap;
        if (kb >= 0)
            crossing[kb] += cap;
    }
    hw.domainScaleOut.assign(static_cast<std::size_t>(key), 0.0);
    for (const auto &[dom, out] : crossing)
        hw.domainScaleOut[static_cast<std::size_t>(dom)] = out;
    const auto rate = [](const AcceleratorSpec &a) {
        return a.peakFlops(DataType::BF16) * a.matmulEfficiency
            * (a.sustainedClock > 0 ? a.sustainedClock : 1);
    };
    double widestD0[2] = {0, 0}; // fused, FlashAttention-2
    for (const Node &n : d.nodes()) {
        if (!n.isAccelerator())
            continue;
        const AcceleratorSpec *s = d.acceleratorSpec(n);
        if (!s)
            continue;
        if (!hw.valid) {
            hw.best = *s;
            hw.slowest = *s;
        }
        hw.uniform = hw.uniform && s->key == hw.slowest.key;
        AcceleratorSpec &b = hw.best;
        b.peakFlopsBf16 = std::max(b.peakFlopsBf16, s->peakFlopsBf16);
        b.peakFlopsFp8 = std::max(b.peakFlopsFp8, s->peakFlopsFp8);
        b.peakFlopsFp4 = std::max(b.peakFlopsFp4, s->peakFlopsFp4);
        b.hbmBandwidth = std::max(b.hbmBandwidth, s->hbmBandwidth);
        // The efficiencies in effect (0 falls back to the next wider type's).
        const double fp8
            = std::max(b.matmulEfficiencyFor(DataType::FP8), s->matmulEfficiencyFor(DataType::FP8));
        const double fp4
            = std::max(b.matmulEfficiencyFor(DataType::FP4), s->matmulEfficiencyFor(DataType::FP4));
        b.matmulEfficiency = std::max(b.matmulEfficiency, s->matmulEfficiency);
        b.matmulEfficiencyFp8 = fp8;
        b.matmulEfficiencyFp4 = fp4;
        b.memoryEfficiency = std::max(b.memoryEfficiency, s->memoryEfficiency);
        b.sustainedClock = std::max(b.sustainedClock, s->sustainedClock);
        for (auto [mine, theirs] : {std::pair {&b.attentionFused, &s->attentionFused},
                                    {&b.attentionFa2, &s->attentionFa2}}) {
            mine->forward = std::max(mine->forward, theirs->forward);
            mine->backward = std::max(mine->backward, theirs->backward);
            // The smaller d0 is the faster at head dimensions up to 128, the larger above.
            mine->softmaxHeadDim = std::min(mine->softmaxHeadDim, theirs->softmaxHeadDim);
            // The smaller tile overhead is the faster at every length (0: none).
            mine->forwardTileOverhead
                = std::min(mine->forwardTileOverhead, theirs->forwardTileOverhead);
            mine->backwardTileOverhead
                = std::min(mine->backwardTileOverhead, theirs->backwardTileOverhead);
        }
        for (auto [wide, theirs] :
             {std::pair {&widestD0[0], &s->attentionFused}, {&widestD0[1], &s->attentionFa2}})
            *wide = std::max(*wide, theirs->softmaxHeadDim);
        // Wave quantization only slows a GEMM: without a common SM count, leave it out.
        if (b.sms != s->sms || b.gemmTileM != s->gemmTileM || b.gemmTileN != s->gemmTileN)
            b.sms = 0;
        if (rate(*s) < rate(hw.slowest))
            hw.slowest = *s;
        hw.valid = true;
        hw.linkBytesPerSecond = std::max(hw.linkBytesPerSecond, capacity[n.id]);
    }
    hw.bestWide = hw.best;
    hw.bestWide.attentionFused.softmaxHeadDim = widestD0[0];
    hw.bestWide.attentionFa2.softmaxHeadDim = widestD0[1];
    // The domains of the ranks: the first `gpus` accelerators in placement order (RankMap).
    std::vector<NodeId> used = acceleratorsInOrder(d);
    if (gpus > 0 && gpus < static_cast<long long>(used.size()))
        used.resize(static_cast<std::size_t>(gpus));
    std::unordered_map<long long, bool> touched;
    for (NodeId id : used)
        touched[domainOf[id]] = true;
    double out = 0;
    for (const auto &[dom, yes] : touched) {
        out += crossing[dom];
        hw.domainScaleOutMax = std::max(hw.domainScaleOutMax, crossing[dom]);
    }
    hw.domainsInUse = static_cast<int>(touched.size());
    hw.scaleOutBytesPerSecond = used.empty() ? 0 : out / static_cast<double>(used.size());
    hw.rankDomain.reserve(used.size());
    for (NodeId id : used)
        hw.rankDomain.push_back(static_cast<int>(domainOf[id]));
    hw.rankScaleOut = rankScaleOut(d, used);
    return hw;
}

} // namespace weft
