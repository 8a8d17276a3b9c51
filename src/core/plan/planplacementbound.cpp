#include "plan/planbound.h"
#include "workload/costmodel.h"
#include "workload/placement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

namespace weft {

namespace {

// Strides of (tp, cp, ep, dp, pp) under `order` for both rank generators, as RankMap forms them
// (dimensions left out of the order follow in that order). False for an unknown or repeated
// dimension.
bool strides(const TrainingConfig &c, const std::string &order, std::array<int, 5> &att,
             std::array<int, 5> &exp)
{
    const auto &names = kPlacementDims;
    const std::array<int, 5> size = attentionDimSizes(c), expertSize = expertDimSizes(c);
    std::vector<std::size_t> dims;
    std::stringstream ss(order);
    std::string tok;
    while (std::getline(ss, tok, '-')) {
        std::size_t i = 0;
        while (i < names.size() && tok != names[i])
            ++i;
        if (i == names.size() || std::find(dims.begin(), dims.end(), i) != dims.end())
            return false;
        dims.push_back(i);
    }
    for (std::size_t i = 0; i < names.size(); ++i)
        if (std::find(dims.begin(), dims.end(), i) == dims.end())
            dims.push_back(i);
    int a = 1, e = 1;
    for (std::size_t i : dims) {
        att[i] = a;
        exp[i] = e;
        a *= size[i];
        e *= expertSize[i];
    }
    return true;
}

// One group kind: the dimensions (index into the strides) spanning a group and their sizes.
struct Kind
{
    std::array<int, 2> stride {1, 1};
    std::array<int, 2> size {1, 1};
    [[nodiscard]] int members() const { return size[0] * size[1]; }
};

// Per stage: sum over the stage's groups of (D - 1), of sum_i d_i (n - d_i) / n, and of
// n (D - 1) P_dom(D) (see the header).
struct Spread
{
    std::vector<double> gather, allToAll, deepEp;
};

Spread spread(const Kind &k, const std::array<int, 5> &stride, const TrainingConfig &c,
              const PlanHardware &hw, const TransformerSpec &m)
{
    Spread out;
    const std::size_t p = static_cast<std::size_t>(c.pp);
    out.gather.assign(p, 0);
    out.allToAll.assign(p, 0);
    out.deepEp.assign(p, 0);
    const int n = k.members();
    const int world = static_cast<int>(hw.rankDomain.size());
    if (n <= 1)
        return out;
    int domains = 0;
    for (int d : hw.rankDomain)
        domains = std::max(domains, d + 1);
    std::vector<int> stamp(static_cast<std::size_t>(domains), -1), count(stamp.size(), 0);
    std::vector<int> seen;
    const int topK = std::max(1, m.topK);
    for (int r = 0; r < world; ++r) {
        // A group's first rank has zero coordinates along its dimensions.
        if ((r / k.stride[0]) % k.size[0] != 0 || (r / k.stride[1]) % k.size[1] != 0)
            continue;
        seen.clear();
        for (int a = 0; a < k.size[0]; ++a)
            for (int b = 0; b < k.size[1]; ++b) {
                const int member = r + a * k.stride[0] + b * k.stride[1];
                if (member >= world)
                    return Spread {}; // not a full placement: no claim
                const std::size_t d = static_cast<std::size_t>(hw.rankDomain[member]);
                if (stamp[d] != r) {
                    stamp[d] = r;
                    count[d] = 0;
                    seen.push_back(static_cast<int>(d));
                }
                ++count[d];
            }
        const std::size_t st = static_cast<std::size_t>((r / stride[4]) % c.pp);
        const double D = static_cast<double>(seen.size());
        out.gather[st] += D - 1;
        for (int d : seen) {
            const double di = count[static_cast<std::size_t>(d)];
            out.allToAll[st] += di * (n - di) / n;
        }
        // collectivesmoe.cpp: P_dom = M/D (1 - (1 - 1/M)^k) over many experts.
        const double M = m.routerGroupTopK > 0 ? std::min<double>(m.routerGroupTopK, D) : D;
        out.deepEp[st] += n * (D - 1) * (M / D) * (1 - std::pow(1 - 1 / M, topK));
    }
    return out;
}

// The per-operation terms of PlacementGroups (tpDomain, cpDomain, ppDomain): over each DP
// replica's stage, what its TP groups, CP groups and PP pairs bring into (or send out of) each
// scale-up domain, per byte of one call, over that domain's scale-out capacity; the worst
// domain, the least replica.
struct Lockstep
{
    std::vector<double> tp, cp, pp, dp, cpOwn, dpOwn;
};

Lockstep lockstep(const TrainingConfig &c, const std::array<int, 5> &att, const PlanHardware &hw)
{
    const std::size_t p = static_cast<std::size_t>(c.pp);
    constexpr double kUnset = std::numeric_limits<double>::infinity();
    Lockstep out {std::vector<double>(p, kUnset), std::vector<double>(p, kUnset),
                  std::vector<double>(p, kUnset), std::vector<double>(p, 0.0),
                  std::vector<double>(p, kUnset), std::vector<double>(p, 0.0)};
    std::vector<double> in(hw.domainScaleOut.size(), 0.0), away(in);
    // Per domain: the scale-out capacity of the members of the groups importing into it
    // (PlanHardware::rankScaleOut; 0 without it), and of one group's members, summed.
    std::vector<double> importCap(in.size(), 0.0), groupCap(in.size(), 0.0);
    const auto ownCap = [&hw](int r) {
        return hw.rankScaleOut.empty() ? 0.0 : hw.rankScaleOut[static_cast<std::size_t>(r)];
    };
    std::vector<int> count(in.size(), 0), touched;
    const auto rank = [&att](int tp, int cp, int dp, int pp) {
        return tp * att[0] + cp * att[1] + dp * att[3] + pp * att[4];
    };
    const auto domain = [&hw](int r) { return hw.rankDomain[static_cast<std::size_t>(r)]; };
    const auto touch = [&](int d) {
        if (in[static_cast<std::size_t>(d)] == 0 && away[static_cast<std::size_t>(d)] == 0)
            touched.push_back(d);
    };
    // One group of `n` ranks (S (n - d_i) / n into each domain i it spans, per byte of S).
    std::vector<int> members;
    const auto group = [&](int n) {
        for (int r : members) {
            ++count[static_cast<std::size_t>(domain(r))];
            groupCap[static_cast<std::size_t>(domain(r))] += ownCap(r);
        }
        for (int r : members) {
            const std::size_t d = static_cast<std::size_t>(domain(r));
            if (count[d] == 0)
                continue; // counted
            if (count[d] < n) {
                touch(static_cast<int>(d));
                in[d] += double(n - count[d]) / n;
                importCap[d] += groupCap[d];
            }
            count[d] = 0;
            groupCap[d] = 0;
        }
    };
    // The worst domain of what has been added since the last call, seconds per byte; `own`
    // that of the imports of groups over their members' own links.
    double own = 0;
    const auto worst = [&] {
        double w = 0;
        own = 0;
        for (int d : touched) {
            const std::size_t di = static_cast<std::size_t>(d);
            const double cap = hw.domainScaleOut[di];
            if (cap > 0)
                w = std::max(w, std::max(in[di], away[di]) / cap);
            if (importCap[di] > 0)
                own = std::max(own, in[di] / importCap[di]);
            in[di] = away[di] = importCap[di] = 0;
        }
        touched.clear();
        return w;
    };
    // The TP groups (along TP, one per CP rank) or the CP groups (along CP, one per TP rank)
    // of one DP replica's stage: the worst domain.
    const auto groupsOf = [&](bool alongTp, int dp, int st) {
        const int n = alongTp ? c.tp : c.cp, others = alongTp ? c.cp : c.tp;
        for (int o = 0; o < others; ++o) {
            members.clear();
            for (int i = 0; i < n; ++i)
                members.push_back(alongTp ? rank(i, o, dp, st) : rank(o, i, dp, st));
            group(n);
        }
        return worst();
    };
    for (int dp = 0; dp < c.dp; ++dp)
        for (int st = 0; st < c.pp; ++st) {
            const std::size_t si = static_cast<std::size_t>(st);
            if (c.tp > 1)
                out.tp[si] = std::min(out.tp[si], groupsOf(true, dp, st));
            if (c.cp > 1) {
                out.cp[si] = std::min(out.cp[si], groupsOf(false, dp, st));
                out.cpOwn[si] = std::min(out.cpOwn[si], own);
            }
            if (c.pp > 1) {
                for (int t = 0; t < c.tp; ++t)
                    for (int cp = 0; cp < c.cp; ++cp) {
                        const int from = domain(rank(t, cp, dp, st));
                        const int to = domain(rank(t, cp, dp, (st + 1) % c.pp));
                        if (from == to)
                            continue;
                        touch(from);
                        away[static_cast<std::size_t>(from)] += 1;
                        touch(to);
                        in[static_cast<std::size_t>(to)] += 1;
                    }
                out.pp[si] = std::min(out.pp[si], worst());
            }
        }
    // A stage's DP x CP groups, one per TP rank, all at once.
    if (c.dp * c.cp > 1)
        for (int st = 0; st < c.pp; ++st) {
            for (int t = 0; t < c.tp; ++t) {
                members.clear();
                for (int dp = 0; dp < c.dp; ++dp)
                    for (int cp = 0; cp < c.cp; ++cp)
                        members.push_back(rank(t, cp, dp, st));
                group(c.dp * c.cp);
            }
            out.dp[static_cast<std::size_t>(st)] = worst();
            out.dpOwn[static_cast<std::size_t>(st)] = own;
        }
    for (auto *v : {&out.tp, &out.cp, &out.pp, &out.cpOwn})
        for (double &x : *v)
            x = std::isinf(x) ? 0 : x;
    return out;
}

} // namespace

PlacementGroups placementGroups(const TransformerSpec &m, const TrainingConfig &c,
                                const std::string &order, const PlanHardware &hw)
{
    PlacementGroups g;
    const long long world = c.worldSize();
    if (hw.scaleOutBytesPerSecond <= 0 || world != static_cast<long long>(hw.rankDomain.size())
        || c.expertDp() <= 0)
        return g;
    std::array<int, 5> att {}, exp {};
    if (!strides(c, order, att, exp) || (att[4] != exp[4] && c.pp > 1))
        return g; // RankMap refuses the order
    // Group kinds: TP, CP and DP x CP over the attention generator, EP over the experts'.
    const Spread tp = spread(Kind {{att[0], 1}, {c.tp, 1}}, att, c, hw, m);
    const Spread cp = spread(Kind {{att[1], 1}, {c.cp, 1}}, att, c, hw, m);
    const Spread dp = spread(Kind {{att[1], att[3]}, {c.cp, c.dp}}, att, c, hw, m);
    const Spread ep = spread(Kind {{exp[2], 1}, {c.ep, 1}}, att, c, hw, m);
    if (tp.gather.empty() || cp.gather.empty() || dp.gather.empty() || ep.gather.empty())
        return g;
    g.tp = tp.gather;
    g.cp = cp.gather;
    g.dp = dp.gather;
    g.epAllToAll = ep.allToAll;
    g.epDeepEp = ep.deepEp;
    if (hw.domainScaleOut.size()
        > static_cast<std::size_t>(*std::max_element(hw.rankDomain.begin(), hw.rankDomain.end()))) {
        Lockstep l = lockstep(c, att, hw);
        g.tpDomain = std::move(l.tp);
        g.cpDomain = std::move(l.cp);
        g.ppDomain = std::move(l.pp);
        g.dpDomain = std::move(l.dp);
        if (!hw.rankScaleOut.empty()) {
            g.cpOwn = std::move(l.cpOwn);
            g.dpOwn = std::move(l.dpOwn);
        }
    }
    g.valid = true;
    return g;
}

double placementLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const PlacementGroups &g, const PlanHardware &hw)
{
    if (!g.valid || hw.scaleOutBytesPerSecond <= 0)
        return 0;
    const double world = static_cast<double>(c.worldSize());
    // Bytes per rank of each kind over the step, per stage (as simplan.cpp issues them).
    const CommVolumes vol = commVolumes(m, c);
    const bool full = c.recompute == Recompute::Full;
    const int etp = m.isMoe() ? c.expertTp() : c.tp;
    const int mb = c.microBatches();
    const int zero = c.effectiveZero();
    const double gradBytesPerParam = c.gradReduceFp32 ? 4 : 2;
    const std::vector<int> split = splitLayers(m, c);
    double imported = 0;
    int first = 0;
    for (std::size_t k = 0; k < split.size(); ++k) {
        const int count = split[k];
        const std::size_t st = k % static_cast<std::size_t>(c.pp);
        int moe = 0;
        double dense = 0;
        for (int i = first; i < first + count; ++i) {
            moe += m.isMoeLayer(i) ? 1 : 0;
            dense += (m.layerParams(i) - m.layerExpertParams(i)) / c.tp;
        }
        first += count;
        // All-reduces (or SP pairs) of TP per micro-batch, forward and backward.
        const double tpCalls = 2.0 * count - (etp != c.tp ? moe : 0);
        imported += g.tp[st] * mb * tpCalls * (1 + (full ? 2 : 1)) * vol.tpBytes;
        if (c.cpKind == CpKind::AllGather)
            imported += g.cp[st] * mb * count * (full ? 2 : 1) * vol.cpBytes;
        double dpBytes = dense * gradBytesPerParam;
        if (zero >= 3)
            dpBytes += 2.0 * mb * 2 * dense;
        else if (zero >= 1)
            dpBytes += 2 * dense;
        imported += g.dp[st] * dpBytes;
        if (c.ep > 1 && moe > 0) {
            const double fwd = vol.epDispatchBytes + vol.epCombineBytes;
            const double bytes = mb * moe * (fwd + 2 * vol.epCombineBytes + (full ? fwd : 0));
            imported += c.dispatcher == TokenDispatcher::AllToAll
                ? g.epAllToAll[st] * bytes
                : g.epDeepEp[st] * bytes / std::max(1, m.topK);
        }
    }
    return imported / (hw.scaleOutBytesPerSecond * world);
}

double placementLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const std::string &order, const PlanHardware &hw)
{
    return placementLowerBound(m, c, placementGroups(m, c, order, hw), hw);
}

double candidateLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const PlacementGroups &g, const PlanHardware &hw)
{
    return std::max(stepLowerBound(m, c, hw, &g).total(), placementLowerBound(m, c, g, hw));
}

double candidateLowerBound(const TransformerSpec &m, const TrainingConfig &c,
                           const std::string &order, const PlanHardware &hw)
{
    return candidateLowerBound(m, c, placementGroups(m, c, order, hw), hw);
}

} // namespace weft
