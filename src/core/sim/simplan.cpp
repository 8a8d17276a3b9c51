#include "sim/simplan.h"

#include "sim/lockstepshare.h"
#include "workload/costmodel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

namespace weft {

namespace {

// How far apart two accelerators are: 0 same node, 1 same scale-up domain, 2 behind a common
// scale-out switch (one leaf), 3 further (traffic crosses spine or core links shared with others).
class Distance
{
public:
    explicit Distance(const Design &d)
        : m_d(d)
    {
        for (const Link &l : d.links()) {
            const Node *a = d.node(l.a);
            const Node *b = d.node(l.b);
            if (!a || !b)
                continue;
            if (a->isAccelerator() && b->isSwitch() && b->role != SwitchRole::ScaleUp)
                m_leaves[a->id].push_back(b->id);
            if (b->isAccelerator() && a->isSwitch() && a->role != SwitchRole::ScaleUp)
                m_leaves[b->id].push_back(a->id);
        }
        for (auto &[n, v] : m_leaves)
            std::sort(v.begin(), v.end());
    }
    int operator()(NodeId a, NodeId b) const
    {
        if (a == b)
            return 0;
        const Node *na = m_d.node(a);
        const Node *nb = m_d.node(b);
        if (na && nb && na->group.valid() && na->group == nb->group)
            return 1;
        auto ia = m_leaves.find(a);
        auto ib = m_leaves.find(b);
        if (ia != m_leaves.end() && ib != m_leaves.end())
            for (NodeId x : ia->second)
                if (std::binary_search(ib->second.begin(), ib->second.end(), x))
                    return 2;
        return 3;
    }

private:
    const Design &m_d;
    std::unordered_map<NodeId, std::vector<NodeId>> m_leaves;
};

// Scale-out switches (below the top tier) with less capacity towards the tier above than
// towards the tier below, with that ratio (> 1). With none, and ECMP splitting flows evenly over
// equal-cost paths, traffic of disjoint accelerators meets only at their own NICs, so merging
// identically placed replicas changes no rate.
std::vector<std::pair<NodeId, double>> oversubscribedSwitches(const Design &d)
{
    std::unordered_map<NodeId, std::pair<double, double>> cap; // down, up
    bool hasCore = false;
    for (const Node &n : d.nodes())
        hasCore = hasCore || (n.isSwitch() && n.role == SwitchRole::Core);
    for (const Link &l : d.links()) {
        const Node *a = d.node(l.a);
        const Node *b = d.node(l.b);
        if (!a || !b)
            continue;
        const int la = tierLevel(*a), lb = tierLevel(*b);
        if (la == lb)
            continue;
        const Node *lo = la < lb ? a : b;
        const Node *hi = la < lb ? b : a;
        if (hi->isSwitch() && tierLevel(*hi) >= 1)
            cap[hi->id].first += l.capacity();
        if (lo->isSwitch() && tierLevel(*lo) >= 1)
            cap[lo->id].second += l.capacity();
    }
    std::vector<std::pair<NodeId, double>> out;
    for (const auto &[id, c] : cap) {
        const Node *n = d.node(id);
        const bool top = n->role == SwitchRole::Core || (n->role == SwitchRole::Spine && !hasCore);
        if (!top && c.second < c.first * (1 - 1e-9))
            out.emplace_back(
                id, c.second > 0 ? c.first / c.second : std::numeric_limits<double>::infinity());
    }
    std::sort(out.begin(), out.end(), [](const auto &x, const auto &y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
    });
    return out;
}

std::string ratioText(double r)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f:1", r);
    return buf;
}

// "leaf a (1.03:1), leaf b (1.03:1) and 30 more"
std::string switchList(const Design &d, const std::vector<std::pair<NodeId, double>> &sw)
{
    std::string out;
    const std::size_t shown = std::min<std::size_t>(sw.size(), 3);
    for (std::size_t i = 0; i < shown; ++i) {
        const Node *n = d.node(sw[i].first);
        out += (i ? ", " : "") + (n ? n->name : std::string("?")) + " (" + ratioText(sw[i].second)
            + ")";
    }
    if (sw.size() > shown)
        out += " and " + std::to_string(sw.size() - shown) + " more";
    return out;
}

// Log-scale key of a rate cap for the replica signature (equal to 1e-6 relative).
int capKey(double cap)
{
    return std::isinf(cap) ? std::numeric_limits<int>::min()
                           : static_cast<int>(std::lround(std::log2(cap) * 1e6));
}

// Classes of accelerators by model and attached links (technology, capacity per link, sorted):
// accelerators of one class are interchangeable for the network and the compute.
class HardwareClasses
{
public:
    explicit HardwareClasses(const Design &d)
    {
        std::unordered_map<NodeId, std::vector<std::pair<std::string, double>>> attached;
        for (const Link &l : d.links())
            for (const NodeId end : {l.a, l.b})
                attached[end].emplace_back(l.tech, l.capacity());
        std::map<std::pair<std::string, std::vector<std::pair<std::string, double>>>, int> ids;
        for (const Node &n : d.nodes()) {
            if (!n.isAccelerator())
                continue;
            auto links = std::move(attached[n.id]);
            std::sort(links.begin(), links.end());
            auto key = std::make_pair(n.spec, std::move(links));
            const auto it = ids.emplace(std::move(key), static_cast<int>(ids.size())).first;
            m_class.emplace(n.id, it->second);
        }
    }
    [[nodiscard]] int of(NodeId n) const
    {
        const auto it = m_class.find(n);
        return it == m_class.end() ? -1 : it->second;
    }

private:
    std::unordered_map<NodeId, int> m_class;
};

// A job over different accelerator models: which DP replica is the slowest and why.
std::optional<Finding> heterogeneityFinding(const Design &d, const RankMap &rk,
                                            const AcceleratorSpec &slowest, DataType dtype)
{
    std::map<std::string, int> models;
    int slowReplica = -1;
    for (int r = 0; r < rk.worldSize(); ++r) {
        const Node *n = d.node(rk.node(r));
        if (!n)
            continue;
        ++models[n->spec];
        if (slowReplica < 0 && n->spec == slowest.key)
            slowReplica = rk.coord(r).dp;
    }
    if (models.size() < 2)
        return std::nullopt;
    std::string mix;
    for (const auto &[key, count] : models)
        mix += (mix.empty() ? "" : ", ") + key + " x" + std::to_string(count);
    return Finding {Severity::Warning,
                    "replicas-heterogeneous",
                    "accelerators differ (" + mix
                        + "): replicas are simulated on their own hardware and links; DP replica "
                        + std::to_string(slowReplica) + " is the slowest (" + slowest.name + ", "
                        + std::to_string(static_cast<int>(slowest.peakFlops(dtype) / 1e12 + 0.5))
                        + " TFLOP/s peak) and sets the pace of every step: the others wait "
                          "for it at each gradient reduction; MFU is taken against each GPU's "
                          "own peak",
                    {}};
}

MoeDispatcher moeDispatcher(TokenDispatcher d)
{
    switch (d) {
    case TokenDispatcher::AllToAll:
        return MoeDispatcher::AllToAll;
    case TokenDispatcher::DeepEP:
        return MoeDispatcher::DeepEP;
    case TokenDispatcher::HybridEP:
        return MoeDispatcher::HybridEP;
    }
    return MoeDispatcher::AllToAll;
}

// The EP traffic of `moe` MoE layers for one micro-batch: forward, each layer dispatches (FP8
// where the dispatcher and the linears allow) and combines (BF16); backward, the combine's
// gradient goes out as a dispatch and the dispatch's gradient comes back as a combine, both
// BF16; full recomputation repeats the forward's pair.
void epCalls(ChunkWork &cw, const TransformerSpec &m, const TrainingConfig &c,
             const CommVolumes &vol, int moe, bool full)
{
    const MoeRouting routing {moeDispatcher(c.dispatcher), std::max(1, m.topK), m.routerGroupTopK};
    auto call = [&](CollectiveOp op, double bytes, int n) {
        return CollectiveCall {op, bytes, n, routing};
    };
    cw.epForward = {call(CollectiveOp::MoeDispatch, vol.epDispatchBytes, moe),
                    call(CollectiveOp::MoeCombine, vol.epCombineBytes, moe)};
    cw.epBackward = {call(CollectiveOp::MoeDispatch, vol.epCombineBytes, moe),
                     call(CollectiveOp::MoeCombine, vol.epCombineBytes, moe)};
    if (full) {
        cw.epBackward.push_back(call(CollectiveOp::MoeDispatch, vol.epDispatchBytes, moe));
        cw.epBackward.push_back(call(CollectiveOp::MoeCombine, vol.epCombineBytes, moe));
    }
}

// Fraction of the bytes of `calls` in the first call (EpSlots::firstShare).
double firstShare(const std::vector<CollectiveCall> &calls)
{
    double all = 0;
    for (const CollectiveCall &c : calls)
        all += c.bytes * c.repeat;
    return calls.empty() || all <= 0 ? 0.5 : calls.front().bytes * calls.front().repeat / all;
}

std::vector<CollectiveCall> calls(bool sp, CollectiveOp plain, double bytes, int count)
{
    if (count <= 0 || bytes <= 0)
        return {};
    if (sp && plain == CollectiveOp::AllReduce) // SP: each all-reduce becomes an RS/AG pair
        return {{CollectiveOp::AllGather, bytes, count},
                {CollectiveOp::ReduceScatter, bytes, count}};
    return {{plain, bytes, count}};
}

std::string pipelineCount(std::size_t n)
{
    return std::to_string(n) + (n == 1 ? " pipeline" : " pipelines");
}

// Says why replicas are simulated one by one, or that merged replicas' sends were capped.
void replicaFindings(const Design &d, SimPlan &plan,
                     const std::vector<std::pair<NodeId, double>> &oversubscribed,
                     const std::optional<LockstepShares> &shares, int units, bool groupsCrossLeaves,
                     bool exploitSymmetry, std::size_t pipelines)
{
    if (!exploitSymmetry || oversubscribed.empty())
        return;
    std::vector<std::string> subjects;
    for (std::size_t i = 0; i < oversubscribed.size() && i < 16; ++i)
        subjects.push_back("node:" + std::to_string(oversubscribed[i].first.value));
    const std::string where = switchList(d, oversubscribed);
    if (!shares) {
        plan.findings.push_back(
            {Severity::Info, "replicas-simulated-separately",
             "each of the " + std::to_string(units)
                 + " DP replicas is simulated on its own (slower than one per placement): "
                 + (groupsCrossLeaves ? "their TP, CP or EP groups" : "their pipeline sends")
                 + " cross leaf switches, and oversubscribed switches (downlinks : uplinks) could "
                   "make replicas slow each other down: "
                 + where,
             subjects});
        return;
    }
    if (shares->overDemanded.empty()) {
        plan.findings.push_back(
            {Severity::Info, "replicas-merged",
             "the pipeline sends of the " + std::to_string(units)
                 + " DP replicas cross oversubscribed switches (" + where
                 + ") but stay within every link's capacity when all replicas send at once: "
                   "simulated as "
                 + pipelineCount(pipelines),
             subjects});
        return;
    }
    const double worst = *std::max_element(shares->excess.begin(), shares->excess.end());
    plan.findings.push_back(
        {Severity::Info, "replica-sends-share-links",
         "the pipeline sends of the " + std::to_string(units) + " DP replicas, in lockstep, "
             + "over-demand " + std::to_string(shares->overDemanded.size())
             + " link directions (counted once per pass; up to " + ratioText(worst)
             + " demand : capacity) at oversubscribed switches (" + where
             + "): each send there gets its proportional share, and the replicas are simulated "
               "as "
             + pipelineCount(pipelines),
         subjects});
}

} // namespace

SimPlan buildPlan(const Design &d, const Workload &w, bool exploitSymmetry)
{
    SimPlan plan;
    const TransformerSpec &m = w.model;
    const TrainingConfig &c = w.config;
    plan.findings = validate(m, c, d.acceleratorCount());
    if (hasError(plan.findings))
        return plan;
    plan.ranks = std::make_unique<RankMap>(d, c, w.placement, plan.findings);
    if (hasError(plan.findings) || !plan.ranks->valid()) {
        if (!hasError(plan.findings))
            plan.findings.push_back(
                {Severity::Error, "placement-invalid", "no valid placement", {}});
        return plan;
    }
    const RankMap &rk = *plan.ranks;
    // The slowest accelerator sets the pace of a synchronous step.
    const AcceleratorSpec *slowest = nullptr;
    double peakSum = 0;
    for (int r = 0; r < rk.worldSize(); ++r) {
        const Node *n = d.node(rk.node(r));
        const AcceleratorSpec *s = n ? d.acceleratorSpec(*n) : nullptr;
        if (!s) {
            plan.findings.push_back({Severity::Error,
                                     "accelerator-spec-missing",
                                     "accelerator '" + (n ? n->name : std::string("?"))
                                         + "' has unknown spec '" + (n ? n->spec : std::string())
                                         + "'",
                                     {"node:" + std::to_string(rk.node(r).value)}});
            return plan;
        }
        peakSum += s->peakFlops(c.dtype);
        if (!slowest
            || s->peakFlops(c.dtype) * s->matmulEfficiency
                < slowest->peakFlops(c.dtype) * slowest->matmulEfficiency)
            slowest = s;
    }
    plan.accelerator = *slowest;
    plan.meanPeakFlops = rk.worldSize() > 0 ? peakSum / rk.worldSize() : 0;
    if (auto f = heterogeneityFinding(d, rk, *slowest, c.dtype))
        plan.findings.push_back(std::move(*f));
    const AcceleratorSpec &acc = plan.accelerator;

    ScheduleSpec &s = plan.schedule;
    s.p = c.pp;
    s.v = c.schedule == PipelineSchedule::Interleaved ? c.vpp : 1;
    s.m = c.microBatches();
    s.schedule = c.schedule;
    s.overlapTp = c.overlapTp;
    s.overlapPp = c.overlapPp;
    s.overlapDp = c.overlapDpGrad;
    s.overlapEp = combinedEpOverlap(m, c);
    // DeepEP's normal kernels hold 24 SMs (DeepEP README: Buffer.set_num_sms(24), measured on
    // H800 with 132 SMs); HybridEP is taken to hold as many (not published; stated). NCCL's
    // all-to-all holds one CTA per p2p channel (kNcclP2pChannels). The fraction is of this
    // accelerator's SMs (132 when the catalog gives none).
    const double sms = acc.sms > 0 ? acc.sms : 132;
    s.epSmFraction = (c.dispatcher == TokenDispatcher::AllToAll ? kNcclP2pChannels : 24.0) / sms;
    s.shardedGrads = c.effectiveZero() >= 1;
    s.gatherParams = c.effectiveZero() >= 3;
    s.dpBucketBytes = c.dpBucketBytes;
    const CommVolumes vol = commVolumes(m, c);
    s.ppBytes = c.pp > 1 ? vol.ppBytes : 0;
    const bool sp = c.sequenceParallel && c.tp > 1;
    const bool full = c.recompute == Recompute::Full;
    // MoE parallel folding: experts over ETP x EP x expert-DP (RankMap).
    const int etp = m.isMoe() ? c.expertTp() : c.tp;
    const bool separateExperts = m.isMoe() && (c.ep > 1 || etp != c.tp);
    const bool etpGroups = m.isMoe() && etp > 1 && etp != c.tp;
    const double gradBytesPerParam = c.gradReduceFp32 ? 4 : 2;

    // Work of each model chunk (virtual stage k = chunk * p + stage).
    const std::vector<int> split = splitLayers(m, c);
    const int n = static_cast<int>(split.size());
    plan.stageComputeTime.assign(static_cast<std::size_t>(c.pp), 0);
    int first = 0;
    for (int k = 0; k < n; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        const bool emb = k == 0, logits = k == n - 1;
        const ChunkCost cost = chunkCost(m, c, acc, first, count, emb, logits);
        ChunkWork cw;
        cw.forwardTime = cost.forwardTime;
        cw.backwardTime = cost.backwardTime;
        cw.sideForward = cost.sharedExpertForward;
        cw.sideBackward = cost.sharedExpertBackward;
        cw.hostForward = cost.hostBoundForward;
        cw.hostBackward = cost.hostBoundBackward;
        cw.layers = count;
        int moe = 0;
        double dense = 0, expert = 0; // parameters per GPU
        for (int i = first; i < first + count; ++i) {
            moe += m.isMoeLayer(i) ? 1 : 0;
            dense += (m.layerParams(i) - m.layerExpertParams(i)) / c.tp;
            expert += m.layerExpertParams(i) / (double(etp) * c.ep);
        }
        if (emb)
            dense += m.embeddingParams() / c.tp;
        if (logits && (!m.tiedEmbeddings || c.pp > 1))
            dense += m.embeddingParams() / c.tp;
        if (!separateExperts) { // the expert-DP group is the DP group
            dense += expert;
            expert = 0;
        }
        cw.gradBytes = (dense + expert) * gradBytesPerParam;
        cw.expertGradBytes = expert * gradBytesPerParam;
        if (s.gatherParams) {
            cw.gatherBytes = 2 * dense;
            cw.expertGatherBytes = 2 * expert;
        }
        if (c.tp > 1) {
            // Korthikanti 2022 sec. 4: 2 all-reduces (or RS+AG pairs) per layer forward and 2
            // backward, 2 more with full recomputation; embedding and logits add one each.
            // A MoE layer whose experts are not split over the same TP group keeps only the
            // attention's pair on TP (its tokens stay sequence-parallel into the dispatch).
            const int perLayer = 2 * count - (etp == c.tp ? 0 : moe);
            cw.tpForward
                = calls(sp, CollectiveOp::AllReduce, vol.tpBytes, perLayer + (emb ? 1 : 0));
            cw.tpBackward = calls(sp, CollectiveOp::AllReduce, vol.tpBytes,
                                  perLayer * (full ? 2 : 1) + (logits ? 1 : 0));
        }
        if (etpGroups && moe > 0) {
            // Expert TP (Megatron-Core alltoall dispatcher): the dispatched tokens are
            // all-gathered over ETP before the experts and reduce-scattered after them.
            const double bytes = vol.epCombineBytes * etp;
            cw.etpForward = {{CollectiveOp::AllGather, bytes, moe},
                             {CollectiveOp::ReduceScatter, bytes, moe}};
            cw.etpBackward = cw.etpForward;
            if (full)
                cw.etpBackward.insert(cw.etpBackward.end(), cw.etpForward.begin(),
                                      cw.etpForward.end());
        }
        if (c.cp > 1) {
            // Ring CP hides its cp - 1 K/V steps behind the attention of the blocks at hand (the
            // last block's attention has no step beside it); the all-gather kind (Llama 3) has
            // the whole K/V before its attention starts, so nothing hides it.
            if (c.cpKind == CpKind::Ring) {
                const double hidden = double(c.cp - 1) / c.cp;
                cw.cpWindowForward = cost.attentionCoreForward * hidden;
                cw.cpWindowBackward = cost.attentionCoreBackward * hidden;
            }
            cw.cpForward = {{CollectiveOp::AllGather, vol.cpBytes, count}};
            cw.cpBackward = {{CollectiveOp::ReduceScatter, vol.cpBytes, count}};
            if (full)
                cw.cpBackward.push_back({CollectiveOp::AllGather, vol.cpBytes, count});
        }
        if (c.ep > 1 && moe > 0) {
            epCalls(cw, m, c, vol, moe, full);
            // 1F1B EP overlap slots: a forward's dispatch beside the partner backward's MLP,
            // its combine beside the partner's attention; a backward's combine-gradient beside
            // the partner forward's attention, its dispatch-gradient beside its MLP.
            cw.epSlotsForward
                = {firstShare(cw.epForward), cost.moeMlpBackward, cost.moeAttentionBackward};
            cw.epSlotsBackward
                = {firstShare(cw.epBackward), cost.moeAttentionForward, cost.moeMlpForward};
        }
        s.chunks.push_back(std::move(cw));
        plan.stageComputeTime[static_cast<std::size_t>(k % c.pp)] += cost.forwardTime
            + cost.backwardTime + cost.sharedExpertForward + cost.sharedExpertBackward;
        first += count;
    }

    // Memory and optimizer per stage; expert states are sharded over the expert-DP group.
    const bool sharded = c.effectiveZero() >= 1;
    const double shard = sharded ? double(c.dp) * c.cp : 1;
    const double expertShard = sharded ? std::max(1.0, double(c.expertDp())) : 1;
    plan.stageMemory = stageMemories(m, c, acc);
    for (int st = 0; st < c.pp; ++st) {
        const StageParams sp2 = stageParams(m, c, st);
        const double expert = separateExperts ? sp2.expert : 0;
        const double dense = sp2.total() - expert;
        s.optimizerTime.push_back(optimizerTime(dense / shard + expert / expertShard, acc));
        s.paramBytes.push_back(2 * dense);
        s.expertParamBytes.push_back(2 * expert);
    }

    // DP groups of every stage (all replicas take part).
    auto addGroup = [&plan](const char *kind, int index, std::vector<NodeId> members) {
        const int tag = static_cast<int>(plan.groups.size());
        plan.groups.push_back({kind, index, members});
        return CommGroup {std::move(members), tag};
    };
    s.dpGroups.resize(static_cast<std::size_t>(c.pp));
    // Gradients reduce over DP x CP (CP ranks hold the same weights).
    if (c.dp * c.cp > 1)
        for (int st = 0; st < c.pp; ++st)
            for (int tp = 0; tp < c.tp; ++tp)
                s.dpGroups[static_cast<std::size_t>(st)].push_back(addGroup(
                    "dp", static_cast<int>(plan.groups.size()), rk.dpGroup({tp, 0, 0, st})));
    // Expert-DP groups (Megatron-Core folding): the ranks holding the same expert shard (same
    // expert TP and EP index) reduce their experts' gradients; one group per ETP x EP position.
    s.expertDpGroups.resize(static_cast<std::size_t>(c.pp));
    auto stageRanks = [&](int st) { // the ranks of stage st, in rank order
        std::vector<int> out;
        for (int r = 0; r < rk.worldSize(); ++r)
            if (rk.coord(r).pp == st)
                out.push_back(r);
        return out;
    };
    if (separateExperts && c.expertDp() > 1)
        for (int st = 0; st < c.pp; ++st)
            for (int r : stageRanks(st))
                if (rk.expertCoord(r).edp == 0)
                    s.expertDpGroups[static_cast<std::size_t>(st)].push_back(
                        addGroup("expert-dp", static_cast<int>(plan.groups.size()),
                                 rk.expertDpGroup(rk.coord(r))));

    // Units of EP-coupled replicas (RankMap::replicasPerUnit consecutive DP indices); merge
    // identically placed ones when that is exact.
    const Distance dist(d);
    const int perUnit = rk.replicasPerUnit();
    const int units = c.dp / perUnit;
    // The ranks of unit u at stage st, in rank order.
    auto unitRanks = [&](int u, int st) {
        std::vector<int> out;
        for (int dpi = u * perUnit; dpi < (u + 1) * perUnit; ++dpi)
            for (int cp = 0; cp < c.cp; ++cp)
                for (int tp = 0; tp < c.tp; ++tp)
                    out.push_back(rk.rank(RankCoord {tp, cp, dpi, st}));
        std::sort(out.begin(), out.end());
        return out;
    };
    std::vector<std::vector<int>> signature(static_cast<std::size_t>(units));
    bool groupsCrossLeaves = false; // a TP, CP, EP or expert-TP group leaves its leaf
    bool ppCrossesLeaves = false;
    // Identical means identical hardware, links and placement: besides the distances, each
    // member's accelerator model and the links it drives (technology and capacity) enter the
    // signature, so a DGX H100 replica is never merged into a GB200 NVL72 one.
    const HardwareClasses hardware(d);
    auto ringSig = [&](const std::vector<NodeId> &g, std::vector<int> &sig, bool &crosses) {
        for (std::size_t i = 0; i < g.size(); ++i) {
            sig.push_back(-1 - hardware.of(g[i]));
            if (g.size() < 2)
                continue;
            const int dd = dist(g[i], g[(i + 1) % g.size()]);
            crosses = crosses || dd >= 3;
            sig.push_back(dd);
        }
    };
    for (int u = 0; u < units; ++u)
        for (int st = 0; st < c.pp; ++st) {
            auto &sig = signature[static_cast<std::size_t>(u)];
            for (int dpi = u * perUnit; dpi < (u + 1) * perUnit; ++dpi)
                for (int cp = 0; cp < c.cp; ++cp) {
                    ringSig(rk.tpGroup({0, cp, dpi, st}), sig, groupsCrossLeaves);
                    for (int tp = 0; tp < c.tp; ++tp) {
                        const RankCoord x {tp, cp, dpi, st};
                        if (cp == 0)
                            ringSig(rk.cpGroup(x), sig, groupsCrossLeaves);
                        if (c.pp > 1)
                            ringSig({rk.node(x), rk.node(RankCoord {tp, cp, dpi, (st + 1) % c.pp})},
                                    sig, ppCrossesLeaves);
                    }
                }
            if (c.ep > 1 || etpGroups)
                for (int r : unitRanks(u, st)) {
                    const ExpertCoord e = rk.expertCoord(r);
                    if (c.ep > 1 && e.ep == 0)
                        ringSig(rk.epGroup(rk.coord(r)), sig, groupsCrossLeaves);
                    if (etpGroups && e.etp == 0)
                        ringSig(rk.expertTpGroup(rk.coord(r)), sig, groupsCrossLeaves);
                }
        }
    const auto oversubscribed = (groupsCrossLeaves || ppCrossesLeaves) && units > 1
        ? oversubscribedSwitches(d)
        : std::vector<std::pair<NodeId, double>> {};
    plan.symmetric = exploitSymmetry && oversubscribed.empty();
    // Pipeline sends alone leave their leaves on an oversubscribed fabric: replicas still merge,
    // each send capped at its lockstep share where the sends of all replicas over-demand a link.
    std::vector<std::vector<std::vector<double>>> capF, capB; // [unit][stage][pair]
    std::optional<LockstepShares> shares;
    if (exploitSymmetry && !oversubscribed.empty() && !groupsCrossLeaves) {
        // The forward sends (activations, stage s -> s+1) of all stages go out together, and
        // so do the backward ones (gradients, s+1 -> s); the two alternate in 1F1B.
        std::vector<PipelineHop> forward, backward;
        for (int u = 0; u < units; ++u)
            for (int st = 0; st < c.pp; ++st)
                if (st + 1 < c.pp || c.vpp > 1) // the last stage sends to the first only when
                    for (int dpi = u * perUnit; dpi < (u + 1) * perUnit; ++dpi) // interleaved
                        for (int cp = 0; cp < c.cp; ++cp)
                            for (int tp = 0; tp < c.tp; ++tp) {
                                const NodeId a = rk.node({tp, cp, dpi, st});
                                const NodeId b = rk.node({tp, cp, dpi, (st + 1) % c.pp});
                                forward.push_back({a, b, u});
                                backward.push_back({b, a, u});
                            }
        try {
            const Router router(d);
            shares = lockstepShares(router, forward);
            const LockstepShares back = lockstepShares(router, backward);
            std::vector<double> both;
            for (std::size_t h = 0; h < forward.size(); ++h) {
                both.push_back(shares->cap[h]);
                both.push_back(back.cap[h]);
            }
            shares->cap = std::move(both);
            shares->overDemanded.insert(shares->overDemanded.end(), back.overDemanded.begin(),
                                        back.overDemanded.end());
            shares->excess.insert(shares->excess.end(), back.excess.begin(), back.excess.end());
        } catch (const std::exception &) {
            shares.reset(); // unroutable: every replica is simulated and the network says why
        }
        if (shares) {
            plan.symmetric = true;
            capF.assign(static_cast<std::size_t>(units), {});
            capB.assign(static_cast<std::size_t>(units), {});
            std::size_t h = 0;
            for (int u = 0; u < units; ++u) {
                const std::size_t ui = static_cast<std::size_t>(u);
                capF[ui].resize(static_cast<std::size_t>(c.pp));
                capB[ui].resize(static_cast<std::size_t>(c.pp));
                for (int st = 0; st < c.pp; ++st) {
                    if (!(st + 1 < c.pp || c.vpp > 1))
                        continue;
                    auto &f = capF[ui][static_cast<std::size_t>(st)];
                    auto &b = capB[ui][static_cast<std::size_t>(st)];
                    for (int k = 0; k < perUnit * c.cp * c.tp; ++k, h += 2) {
                        f.push_back(shares->cap[h]);
                        b.push_back(shares->cap[h + 1]);
                        signature[ui].push_back(capKey(shares->cap[h]));
                        signature[ui].push_back(capKey(shares->cap[h + 1]));
                    }
                    auto uncapped = [](const std::vector<double> &v) {
                        return std::all_of(v.begin(), v.end(),
                                           [](double x) { return std::isinf(x); });
                    };
                    if (uncapped(f) && uncapped(b)) {
                        f.clear();
                        b.clear();
                    }
                }
            }
        }
    }
    std::map<std::vector<int>, int> classes;
    plan.unitPipeline.assign(static_cast<std::size_t>(units), -1);
    for (int u = 0; u < units; ++u) {
        if (plan.symmetric) {
            auto it = classes.find(signature[static_cast<std::size_t>(u)]);
            if (it != classes.end()) {
                plan.unitPipeline[static_cast<std::size_t>(u)] = it->second;
                continue;
            }
            classes.emplace(signature[static_cast<std::size_t>(u)],
                            static_cast<int>(s.pipelines.size()));
        }
        plan.unitPipeline[static_cast<std::size_t>(u)] = static_cast<int>(s.pipelines.size());
        PipelineGroups g;
        g.tp.resize(static_cast<std::size_t>(c.pp));
        g.cp.resize(static_cast<std::size_t>(c.pp));
        g.ep.resize(static_cast<std::size_t>(c.pp));
        g.etp.resize(static_cast<std::size_t>(c.pp));
        g.ppPairs.resize(static_cast<std::size_t>(c.pp));
        for (int st = 0; st < c.pp; ++st) {
            const std::size_t si = static_cast<std::size_t>(st);
            std::vector<NodeId> pairs;
            for (int dpi = u * perUnit; dpi < (u + 1) * perUnit; ++dpi)
                for (int cp = 0; cp < c.cp; ++cp) {
                    if (c.tp > 1)
                        g.tp[si].push_back(addGroup("tp", u, rk.tpGroup({0, cp, dpi, st})));
                    for (int tp = 0; tp < c.tp; ++tp) {
                        const RankCoord x {tp, cp, dpi, st};
                        if (cp == 0 && c.cp > 1)
                            g.cp[si].push_back(addGroup("cp", u, rk.cpGroup(x)));
                        if (c.pp > 1) {
                            pairs.push_back(rk.node(x));
                            pairs.push_back(rk.node(RankCoord {tp, cp, dpi, (st + 1) % c.pp}));
                        }
                    }
                }
            if (c.ep > 1 || etpGroups)
                for (int r : unitRanks(u, st)) {
                    const ExpertCoord e = rk.expertCoord(r);
                    if (c.ep > 1 && e.ep == 0)
                        g.ep[si].push_back(addGroup("ep", u, rk.epGroup(rk.coord(r))));
                    if (etpGroups && e.etp == 0)
                        g.etp[si].push_back(addGroup("etp", u, rk.expertTpGroup(rk.coord(r))));
                }
            if (!pairs.empty())
                g.ppPairs[si] = addGroup("pp", u, std::move(pairs));
        }
        if (!capF.empty()) {
            g.ppForwardCap = capF[static_cast<std::size_t>(u)];
            g.ppBackwardCap = capB[static_cast<std::size_t>(u)];
        }
        s.pipelines.push_back(std::move(g));
    }
    replicaFindings(d, plan, oversubscribed, shares, units, groupsCrossLeaves, exploitSymmetry,
                    s.pipelines.size());
    return plan;
}

} // namespace weft
