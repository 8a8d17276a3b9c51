#include "plan/planbound.h"

#include "model/design.h"
#include "plan/planschedulebound.h"
#include "sim/schedule.h"
#include "workload/costmodel.h"
#include "workload/placement.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace weft {

namespace {

// Least time of `calls` collectives of `bytes` each over `n` ranks: (n-1)/n of the buffer
// into each rank at its total link rate (see the header).
double collectiveTime(double calls, double bytes, int n, double rate)
{
    if (n <= 1 || calls <= 0 || bytes <= 0 || rate <= 0)
        return 0;
    return calls * bytes * (n - 1) / n / rate;
}

// Least time of `calls` all-reduces of `bytes` over `n` ranks: the whole buffer into each rank
// (see stepLowerBound) at its total link rate.
double allReduceTime(double calls, double bytes, int n, double rate)
{
    if (n <= 1 || calls <= 0 || bytes <= 0 || rate <= 0)
        return 0;
    return calls * bytes / rate;
}

// Least bytes that a collective of `bytes` per rank over `n` ranks imports into the scale-up
// domains, per rank, when at most `perDomain` of its ranks share a domain: each domain it spans
// holds its own members' shards and must receive the rest once, at least ceil(n / perDomain)
// domains, so (ceil(n / perDomain) - 1) x bytes per group (the all-gather half of any
// algorithm; reduce-scatter exports the same).
double crossDomainShare(double bytes, int n, int perDomain)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    const int d = std::clamp(perDomain, 1, n);
    return bytes * (std::ceil(double(n) / d) - 1) / n;
}

// Least fraction of a MoE dispatch's (or combine's) `bytes` per rank that enters each rank of
// an EP group of n: all-to-all, (n - 1) / n (every duplicated token); DeepEP and HybridEP send a
// token once per destination rank, so (n - 1) x P_rank / k of it (collectivesmoe.h: P_rank =
// M/D (1 - (1 - D/(n M))^k) with M of the D domains spanned, the simulator's routing over many
// experts), at the least over the D a placement can give (ceil(n / domain size) to n).
double epShare(const TransformerSpec &m, const TrainingConfig &c, int domainSize)
{
    const int n = c.ep, k = std::max(1, m.topK);
    if (n <= 1)
        return 0;
    if (c.dispatcher == TokenDispatcher::AllToAll)
        return double(n - 1) / n;
    double least = 1;
    const int fewest = (n + std::max(1, domainSize) - 1) / std::max(1, domainSize);
    for (int D = std::max(1, fewest); D <= n; ++D) {
        const double M = m.routerGroupTopK > 0 ? std::min(m.routerGroupTopK, D) : D;
        const double hit = M / D * (1 - std::pow(std::max(0.0, 1 - D / (n * M)), k));
        least = std::min(least, hit);
    }
    return (n - 1) * least / k;
}

// The DP x CP collectives of one pipeline stage, started together (schedule.cpp submitDp
// issues a stage's gradient buckets, ZeRO-3 gathers and ZeRO-1/2 parameter gather over all
// of its c.tp groups at once), of `bytes` per rank: no sooner than each group's (n-1)/n into
// a rank at its link rate (links()), nor than what the groups must import into the scale-up
// domains over the scale-out capacity of the domains that can hold the stage's ranks
// (domainTime(): a group spans at least ceil(n / perDomain) domains and imports bytes x
// (D - 1), crossDomainShare(); at most `domains` domains, each at most `domainOut`).
struct StageDp
{
    int n = 1; ///< ranks of a DP x CP group
    int perDomain = 1; ///< most of them in one scale-up domain
    double groups = 1; ///< DP x CP groups per stage (one per TP rank)
    double domains = 0; ///< most scale-up domains holding the stage's ranks
    double rate = 0; ///< link capacity of a rank, bytes/s
    double domainOut = 0; ///< most scale-out capacity of one domain, bytes/s
    [[nodiscard]] double links(double bytes) const { return collectiveTime(1, bytes, n, rate); }
    [[nodiscard]] double domainTime(double bytes) const
    {
        if (n <= 1 || bytes <= 0 || domains <= 0 || domainOut <= 0)
            return 0;
        const double spans = std::ceil(double(n) / std::clamp(perDomain, 1, n)) - 1;
        return groups * bytes * spans / (domains * domainOut);
    }
    [[nodiscard]] double time(double bytes) const
    {
        return std::max(links(bytes), domainTime(bytes));
    }
};

struct OpBound
{
    double forward = 0, backward = 0;
};

} // namespace

StepBound stepLowerBound(const TransformerSpec &m, const TrainingConfig &c, const PlanHardware &hw,
                         const PlacementGroups *placement)
{
    // Seconds per byte of one call of an operation's collectives (or per byte of a PP send)
    // across the domain boundaries of this placement, per stage (or boundary); 0 without one.
    const auto domainRate = [placement](const std::vector<double> PlacementGroups::*kind, int st) {
        if (!placement || !placement->valid)
            return 0.0;
        const std::vector<double> &v = placement->*kind;
        return static_cast<std::size_t>(st) < v.size() ? v[static_cast<std::size_t>(st)] : 0.0;
    };
    StepBound b;
    const double rate = hw.linkBytesPerSecond;
    const CommVolumes vol = commVolumes(m, c);
    const bool full = c.recompute == Recompute::Full;
    // Sequence parallelism turns each all-reduce into an all-gather and a reduce-scatter, each
    // (n-1)/n of the buffer into (or out of) a rank. An all-reduce brings into each rank, for
    // every element, the others' contributions or the result: the whole buffer, whatever the
    // algorithm (ring 2(n-1)/n, NVLS S(1 + 1/n), direct 2(n-1)/n: collectives.cpp).
    const bool sp = c.sequenceParallel && c.tp > 1;
    const double tpPerCall = sp ? 2 : 1;
    const auto tpTime = [&](double calls) {
        return sp ? collectiveTime(calls * tpPerCall, vol.tpBytes, c.tp, rate)
                  : allReduceTime(calls, vol.tpBytes, c.tp, rate);
    };
    // MoE parallel folding (simplan.cpp): experts over ETP x EP x expert-DP.
    const int etp = m.isMoe() ? c.expertTp() : c.tp;
    const bool separateExperts = m.isMoe() && (c.ep > 1 || etp != c.tp);
    const double share = epShare(m, c, hw.domainAccelerators);
    const std::vector<int> split = splitLayers(m, c);
    const int chunks = static_cast<int>(split.size());
    std::vector<OpBound> op(static_cast<std::size_t>(chunks));
    int first = 0;
    for (int k = 0; k < chunks; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        const ChunkCost cost
            = chunkCost(m, c, hw.bestFor(m), first, count, k == 0, k == chunks - 1);
        const int st = k % std::max(1, c.pp);
        const double tpDomain = domainRate(&PlacementGroups::tpDomain, st) * vol.tpBytes;
        // What the CP groups bring into (or send out of) the worst domain over its NICs, per
        // call; the forward's all-gather (an import) also over the members' own scale-out
        // links there (PlacementGroups::cpOwn). Not the backward's reduce-scatter: its export
        // may leave through any NIC of the domain (PXN).
        const double cpDomain = domainRate(&PlacementGroups::cpDomain, st) * vol.cpBytes;
        const double cpImport
            = std::max(cpDomain, domainRate(&PlacementGroups::cpOwn, st) * vol.cpBytes);
        int moe = 0;
        for (int i = first; i < first + count; ++i)
            moe += m.isMoeLayer(i) ? 1 : 0;
        // Korthikanti et al. 2022 sec. 4: two TP all-reduces per layer forward, two backward
        // (two more with full recomputation); a MoE layer whose experts are not on the TP group
        // keeps only the attention's; embedding and logits are left out (a bound).
        const double tpCalls = 2.0 * count - (etp != c.tp ? moe : 0);
        const double tpF = std::max(tpTime(tpCalls), tpCalls * tpPerCall * tpDomain);
        const double tpB = std::max(tpTime(tpCalls * (full ? 2 : 1)),
                                    tpCalls * (full ? 2 : 1) * tpPerCall * tpDomain);
        const double cpF = std::max(collectiveTime(count, vol.cpBytes, c.cp, rate),
                                    c.cp > 1 ? count * cpImport : 0.0);
        const double cpCallsB = count * (full ? 2.0 : 1.0);
        const double cpB = std::max(collectiveTime(cpCallsB, vol.cpBytes, c.cp, rate),
                                    c.cp > 1 ? cpCallsB * cpDomain : 0.0);
        // Expert TP: an all-gather and a reduce-scatter of the dispatched tokens per MoE layer.
        const bool etpGroups = m.isMoe() && etp > 1 && etp != c.tp && moe > 0;
        const double etpF
            = etpGroups ? collectiveTime(2.0 * moe, vol.epCombineBytes * etp, etp, rate) : 0;
        const double etpB = etpF * (full ? 2 : 1);
        // EP: forward a dispatch (FP8 where allowed) and a BF16 combine per MoE layer, backward
        // two BF16 ones (and the forward's again with full recomputation).
        const bool ep = c.ep > 1 && moe > 0 && rate > 0;
        const double epF = ep ? moe * (vol.epDispatchBytes + vol.epCombineBytes) * share / rate : 0;
        const double epB = ep ? moe * 2 * vol.epCombineBytes * share / rate + (full ? epF : 0) : 0;
        // Overlapped collectives start with the compute (schedule.cpp); the others follow it.
        // The EP exchange of a combined 1F1B pair hides behind the partner's compute as well
        // as its own (a pair lasts at least F + B), so an overlapped exchange bounds nothing
        // per operation.
        const double tpBeside = c.overlapTp ? 1 : 0;
        const double epBeside = c.overlapEp && ep ? 1 : 0;
        // The shared experts' side compute (overlapSharedExperts) runs beside the latter.
        // CP: the compute beyond the attention the K/V exchange hides behind (ring: (cp-1)/cp
        // of the attention core; all-gather: none) follows the exchange (schedule.cpp
        // commDone, simplan.cpp cpWindowForward), so the compute ends no sooner than the
        // exchange plus that part.
        const double hidden = c.cpKind == CpKind::Ring ? double(c.cp - 1) / c.cp : 0;
        const double cpFwd
            = cpF > 0 ? cpF + cost.forwardTime - hidden * cost.attentionCoreForward : 0;
        const double cpBwd
            = cpB > 0 ? cpB + cost.backwardTime - hidden * cost.attentionCoreBackward : 0;
        op[static_cast<std::size_t>(k)].forward
            = std::max({cost.forwardTime, cpFwd, tpBeside * tpF})
            + std::max(cost.sharedExpertForward,
                       (1 - tpBeside) * tpF + etpF + (1 - epBeside) * epF);
        op[static_cast<std::size_t>(k)].backward
            = std::max({cost.backwardTime, cpBwd, tpBeside * tpB})
            + std::max(cost.sharedExpertBackward,
                       (1 - tpBeside) * tpB + etpB + (1 - epBeside) * epB);
        first += count;
    }
    const int p = c.pp;
    const int mb = c.microBatches();
    const double hop = p > 1 && rate > 0 ? vol.ppBytes / rate : 0;
    // Gradients reduce over DP x CP from no earlier than the start of a chunk's last backward
    // on its stage (the buckets of a chunk fill during it); ZeRO-3 all-gathers each chunk's
    // bf16 parameters before every forward and backward (Rajbhandari et al. 2020 sec. 5.3,
    // 7.2.2; schedule.cpp askGather).
    const int n = c.dp * c.cp;
    const double gradBytesPerParam = c.gradReduceFp32 ? 4 : 2;
    const bool zero3 = c.effectiveZero() >= 3;
    // Ranks of one DP x CP group in a scale-up domain: the searched placements keep TP inside
    // a domain when it fits (planspace.h), and TP ranks are in different DP groups.
    const bool tpInside = hw.smallestDomain == hw.domainAccelerators && c.tp > 0
        && hw.domainAccelerators % c.tp == 0;
    const int dpPerDomain = std::max(1, hw.domainAccelerators / (tpInside ? c.tp : 1));
    StageDp dp;
    dp.n = n;
    dp.perDomain = dpPerDomain;
    dp.groups = c.tp;
    // A domain holding one of the stage's ranks holds its whole TP group when TP is inside.
    dp.domains = std::min(double(hw.domainsInUse), double(n) * (tpInside ? 1 : c.tp));
    dp.rate = rate;
    dp.domainOut = hw.domainScaleOutMax;
    std::vector<double> grad(static_cast<std::size_t>(chunks)), gather(grad.size());
    std::vector<double> gradLinks(grad.size()), gradDomains(grad.size());
    std::vector<double> gatherLinks(grad.size()), gatherDomains(grad.size());
    double imported = 0; // bytes per GPU across domain boundaries, summed over the stages
    first = 0;
    for (int k = 0; k < chunks; ++k) {
        const std::size_t kk = static_cast<std::size_t>(k);
        const int count = split[kk];
        double dense = 0;
        for (int i = first; i < first + count; ++i)
            dense += (m.layerParams(i) - m.layerExpertParams(i)) / c.tp;
        gradLinks[kk] = dp.links(dense * gradBytesPerParam);
        const double dpDomain = domainRate(&PlacementGroups::dpDomain, k % std::max(1, c.pp));
        // All-gathers (imports only) also over the members' own links (PlacementGroups::dpOwn).
        const double gatherDomain
            = std::max(dpDomain, domainRate(&PlacementGroups::dpOwn, k % std::max(1, c.pp)));
        gradDomains[kk] = std::max(dp.domainTime(dense * gradBytesPerParam),
                                   dense * gradBytesPerParam * dpDomain);
        grad[kk] = std::max(gradLinks[kk], gradDomains[kk]);
        imported += crossDomainShare(dense * gradBytesPerParam, n, dpPerDomain);
        if (zero3) {
            gatherLinks[kk] = dp.links(2 * dense);
            gatherDomains[kk] = std::max(dp.domainTime(2 * dense), 2 * dense * gatherDomain);
            gather[kk] = std::max(gatherLinks[kk], gatherDomains[kk]);
            imported += 2.0 * mb * crossDomainShare(2 * dense, n, dpPerDomain);
        }
        first += count;
    }
    // The schedule's longest path (planschedulebound.h); the closed form below when it has
    // none.
    ScheduleBoundInput in;
    in.schedule = c.schedule;
    in.p = p;
    in.m = mb;
    in.v = chunks / std::max(1, p);
    in.hop = hop;
    std::vector<double> hops(static_cast<std::size_t>(p), hop); // per boundary s -> s + 1
    for (int s = 0; s < p && p > 1; ++s)
        hops[static_cast<std::size_t>(s)]
            = std::max(hop, vol.ppBytes * domainRate(&PlacementGroups::ppDomain, s));
    in.hops = hops;
    in.overlapPp = c.overlapPp;
    in.overlapDp = c.overlapDpGrad;
    in.epOverlap = combinedEpOverlap(m, c);
    for (const OpBound &o : op) {
        in.forward.push_back(o.forward);
        in.backward.push_back(o.backward);
    }
    b.hops = hops;
    b.gradient = grad;
    b.forward = in.forward;
    b.backward = in.backward;
    if (zero3)
        in.gather = gather;
    const ScheduleBound sched = scheduleLowerBound(in);
    double head = 0, tail = 0; // chunk 0 of stages < s, forward and backward
    for (int s = 0; s < p; ++s) {
        const std::size_t si = static_cast<std::size_t>(s);
        // A chunk's gradients reduce after its last backward starts, which follows all its
        // other operations on the stage: head + m F + (m - 1) B. All chunks share the links.
        double work = 0, firstStart = -1;
        double links = 0, domains = 0; // the stage's DP x CP traffic, over links and domains
        double gradsLinks = 0, gradsDomains = 0;
        for (int k = s; k < chunks; k += p) {
            const std::size_t kk = static_cast<std::size_t>(k);
            const OpBound &o = op[kk];
            work += o.forward + o.backward;
            double start = head + mb * o.forward + (mb - 1) * o.backward;
            if (sched.valid)
                start = std::max(start,
                                 sched.lastBackwardStart[si][kk / static_cast<std::size_t>(p)]);
            b.pipeline = std::max(b.pipeline, start + grad[kk]);
            firstStart = firstStart < 0 ? start : std::min(firstStart, start);
            gradsLinks += gradLinks[kk];
            gradsDomains += gradDomains[kk];
            links += gradLinks[kk] + 2.0 * mb * gatherLinks[kk];
            domains += gradDomains[kk] + 2.0 * mb * gatherDomains[kk];
        }
        b.pipeline = std::max({b.pipeline, head + mb * work + tail,
                               firstStart + std::max(gradsLinks, gradsDomains), links, domains,
                               sched.valid ? sched.end[si] : 0.0});
        head += op[si].forward + hops[si];
        tail += op[si].backward + hops[si];
    }
    // Optimizer and, with ZeRO-1/2, the parameter all-gather after it (sharded over DP x CP).
    const int zero = c.effectiveZero();
    const double shard = zero >= 1 ? double(c.dp) * c.cp : 1;
    const double expertShard = zero >= 1 ? std::max(1.0, double(c.expertDp())) : 1;
    for (int s = 0; s < p; ++s) {
        const StageParams sp = stageParams(m, c, s);
        const double expert = separateExperts ? sp.expert : 0;
        const double dense = sp.total() - expert;
        b.optimizer
            = std::max(b.optimizer, optimizerTime(dense / shard + expert / expertShard, hw.best));
        if (zero == 1 || zero == 2) {
            b.parameterGather = std::max({b.parameterGather, dp.time(2 * dense),
                                          2 * dense * domainRate(&PlacementGroups::dpDomain, s),
                                          2 * dense * domainRate(&PlacementGroups::dpOwn, s)});
            imported += crossDomainShare(2 * dense, n, dpPerDomain);
        }
    }
    // Every GPU's share of what the step's DP x CP collectives import into the domains, over
    // the scale-out capacity of the domains in use per GPU (the stages' average).
    if (hw.scaleOutBytesPerSecond > 0)
        b.scaleOut = imported / p / hw.scaleOutBytesPerSecond;
    return b;
}

} // namespace weft
