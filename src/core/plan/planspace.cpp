#include "plan/planspace.h"

#include "model/design.h"
#include "sim/pipelineorder.h"
#include "workload/placement.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

namespace weft {

namespace {

bool parseInt(const std::string &s, int &out)
{
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit))
        return false;
    out = std::stoi(s);
    return out >= 0;
}

PlanKnob intKnob(std::string name, std::string title, int TrainingConfig::*field)
{
    return {std::move(name),
            std::move(title),
            [field](const TrainingConfig &c) { return c.*field; },
            [field](TrainingConfig &c, int v) { c.*field = v; },
            [](int v) { return std::to_string(v); },
            [](const std::string &s, int &v) { return parseInt(s, v) && v >= 1; },
            {},
            "a whole number >= 1"};
}

template<typename E>
PlanKnob enumKnob(std::string name, std::string title, E TrainingConfig::*field, int count)
{
    std::string names;
    for (int i = 0; i < count; ++i)
        names += std::string(i == 0               ? ""
                                 : i + 1 == count ? " or "
                                                  : ", ")
            + toString(static_cast<E>(i));
    return {std::move(name),
            std::move(title),
            [field](const TrainingConfig &c) { return static_cast<int>(c.*field); },
            [field](TrainingConfig &c, int v) { c.*field = static_cast<E>(v); },
            [](int v) { return std::string(toString(static_cast<E>(v))); },
            [count](const std::string &s, int &v) {
                E e {};
                if (fromString(s, e)) {
                    v = static_cast<int>(e);
                    return true;
                }
                return parseInt(s, v) && v < count;
            },
            {},
            names};
}

// A switch: "off" (0) and "on" (1); parses those, 0 and 1, no and yes, false and true.
PlanKnob switchKnob(std::string name, std::string title, bool TrainingConfig::*field)
{
    return {std::move(name),
            std::move(title),
            [field](const TrainingConfig &c) { return c.*field ? 1 : 0; },
            [field](TrainingConfig &c, int v) { c.*field = v != 0; },
            [](int v) { return std::string(v != 0 ? "on" : "off"); },
            [](const std::string &s, int &v) {
                if (s == "on" || s == "1" || s == "yes" || s == "true")
                    v = 1;
                else if (s == "off" || s == "0" || s == "no" || s == "false")
                    v = 0;
                else
                    return false;
                return true;
            },
            {},
            "on or off (yes or no)"};
}

PlanKnob withAbsent(PlanKnob k, std::string absent)
{
    k.absentValue = std::move(absent);
    return k;
}

std::vector<int> powersOfTwo(int upTo)
{
    std::vector<int> v;
    for (int x = 1; x <= upTo; x *= 2)
        v.push_back(x);
    return v;
}

void addValue(std::vector<int> &v, int x)
{
    if (std::find(v.begin(), v.end(), x) == v.end())
        v.push_back(x);
    std::sort(v.begin(), v.end());
}

int smallestDomain(const Design &d)
{
    int best = 0;
    for (const Group &g : d.groups()) {
        if (g.kind != GroupKind::ScaleUpDomain)
            continue;
        int n = 0;
        for (NodeId id : g.members)
            if (const Node *node = d.node(id); node && node->isAccelerator())
                ++n;
        if (n > 0 && (best == 0 || n < best))
            best = n;
    }
    return std::max(1, best);
}

// Whether `c` is a configuration of its own: virtual stages only with interleaving (and then
// more than one stage and one virtual stage); an explicit expert TP equal to TP only when "as
// TP" (0) is not searched too; a dispatcher other than the first searched only with EP > 1
// (without EP there is no dispatch).
bool meaningful(const PlanSpace &space, const TrainingConfig &c)
{
    const bool interleaved = c.schedule == PipelineSchedule::Interleaved;
    if (interleaved ? (c.pp <= 1 || c.vpp <= 1) : c.vpp != 1)
        return false;
    const auto &etp = space.values[static_cast<std::size_t>(planKnobIndex("etp"))];
    if (c.etp > 0 && c.etp == c.tp && std::find(etp.begin(), etp.end(), 0) != etp.end())
        return false;
    const auto &disp = space.values[static_cast<std::size_t>(planKnobIndex("dispatcher"))];
    if (c.ep <= 1 && static_cast<int>(c.dispatcher) != disp.front())
        return false;
    // TP overlap changes nothing without TP collectives, EP overlap nothing without an EP
    // exchange.
    const auto &overlap = space.values[static_cast<std::size_t>(planKnobIndex("overlap_tp"))];
    if (c.tp <= 1 && (c.overlapTp ? 1 : 0) != overlap.front())
        return false;
    const auto &overlapEp = space.values[static_cast<std::size_t>(planKnobIndex("overlap_ep"))];
    if ((c.overlapEp ? 1 : 0) == overlapEp.front())
        return true;
    if (c.ep <= 1)
        return false;
    // Nor with no steady pair to run the exchanges beside (every forward a warm-up one: as
    // many micro-batches as the schedule's warm-up holds), where it is the other value's twin.
    const long long inner = 1LL * c.tp * c.cp * c.pp;
    if (inner <= 0 || space.gpus % inner != 0)
        return true;
    TrainingConfig t = c;
    t.dp = static_cast<int>(space.gpus / inner);
    const int m = t.microBatches();
    const int v = c.schedule == PipelineSchedule::Interleaved ? c.vpp : 1;
    return m <= 0 || 1LL * m * v > warmupForwards(c.schedule, c.pp, m, v, c.pp - 1, true);
}

} // namespace

const std::vector<PlanKnob> &planKnobs()
{
    static const std::vector<PlanKnob> knobs {
        intKnob("tp", "tensor parallel degree", &TrainingConfig::tp),
        intKnob("cp", "context parallel degree", &TrainingConfig::cp),
        intKnob("pp", "pipeline parallel degree", &TrainingConfig::pp),
        intKnob("ep", "expert parallel degree", &TrainingConfig::ep),
        // Expert TP: 0 is Megatron-Core's default, the same as TP.
        {"etp", "expert tensor parallel degree", [](const TrainingConfig &c) { return c.etp; },
         [](TrainingConfig &c, int v) { c.etp = v; },
         [](int v) { return v == 0 ? std::string("tp") : std::to_string(v); },
         [](const std::string &s, int &v) {
             if (s == "tp") {
                 v = 0;
                 return true;
             }
             return parseInt(s, v);
         },
         "tp", // plans written before MoE folding (session 7) have no etp: as TP
         "tp (as TP) or a whole number >= 1"},
        withAbsent(enumKnob("dispatcher", "MoE token dispatcher", &TrainingConfig::dispatcher, 3),
                   toString(TokenDispatcher::AllToAll)),
        enumKnob("schedule", "pipeline schedule", &TrainingConfig::schedule, 3),
        intKnob("vpp", "virtual stages per pipeline rank", &TrainingConfig::vpp),
        intKnob("micro_batch", "micro-batch size (sequences)", &TrainingConfig::microBatch),
        enumKnob("recompute", "activation recomputation", &TrainingConfig::recompute, 3),
        {"zero_stage",
         "ZeRO stage",
         [](const TrainingConfig &c) { return c.effectiveZero(); },
         [](TrainingConfig &c, int v) {
             c.zeroStage = v;
             c.distributedOptimizer = false;
         },
         [](int v) { return std::to_string(v); },
         [](const std::string &s, int &v) { return parseInt(s, v) && v <= 3; },
         {},
         "0, 1, 2 or 3"},
        // Plans written before this knob (session 20) kept the base workload's setting, which
        // was off in every example.
        withAbsent(switchKnob("overlap_tp", "TP communication overlapped with compute",
                              &TrainingConfig::overlapTp),
                   "off"),
        // Plans written before this knob (session 34) kept the base workload's setting.
        withAbsent(switchKnob("overlap_ep",
                              "EP all-to-all overlapped with another micro-batch's compute",
                              &TrainingConfig::overlapEp),
                   "off"),
    };
    return knobs;
}

int planKnobIndex(const std::string &name)
{
    std::string n = name;
    std::replace(n.begin(), n.end(), '-', '_');
    if (n == "zero")
        n = "zero_stage";
    const auto &k = planKnobs();
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k[i].name == n)
            return static_cast<int>(i);
    return -1;
}

PlanSpace defaultPlanSpace(const Design &design, const Workload &base, long long gpus)
{
    PlanSpace s;
    s.base = base;
    s.gpus = gpus > 0 ? gpus : static_cast<long long>(design.acceleratorCount());
    s.domainSize = smallestDomain(design);
    const TransformerSpec &m = base.model;
    std::vector<int> pp;
    for (int d = 1; d <= m.layers; ++d)
        if (s.gpus % d == 0)
            pp.push_back(d);
    // MoE: EP may span TP, CP and DP ranks (parallel folding), so any power of two dividing
    // the experts up to the GPUs of a stage; validate() keeps those dividing tp * cp * dp.
    std::vector<int> ep {1}, etp {0}, dispatcher {static_cast<int>(TokenDispatcher::AllToAll)};
    std::vector<int> overlapEp; // dense: the base workload's (below)
    if (m.isMoe()) {
        overlapEp = {0, 1};
        for (int e = 2; e <= m.experts && e <= s.gpus; e *= 2)
            if (m.experts % e == 0)
                ep.push_back(e);
        etp = {0, 1};
        dispatcher = {static_cast<int>(TokenDispatcher::AllToAll),
                      static_cast<int>(TokenDispatcher::DeepEP),
                      static_cast<int>(TokenDispatcher::HybridEP)};
    }
    s.values = {
        powersOfTwo(s.domainSize),
        {1, 2, 4, 8},
        pp,
        ep,
        etp,
        dispatcher,
        {static_cast<int>(PipelineSchedule::OneFOneB),
         static_cast<int>(PipelineSchedule::Interleaved)},
        {1, 2, 4, 8},
        {1, 2, 4, 8},
        {static_cast<int>(Recompute::None), static_cast<int>(Recompute::Selective),
         static_cast<int>(Recompute::Full)},
        {0, 1, 2, 3},
        {}, // overlap_tp: the base workload's (below)
        overlapEp,
    };
    const auto &knobs = planKnobs();
    for (std::size_t i = 0; i < knobs.size(); ++i)
        addValue(s.values[i], knobs[i].get(base.config));
    return s;
}

namespace {

// Pinned parallel degrees that no candidate can take on the space's GPUs: TP x CP x PP must
// divide the GPU count (DP takes the rest) and EP must divide GPUs / PP (Megatron-Core's expert
// groups: ETP x EP x expert-DP x PP = the world); EP > 1 needs experts. Without this every
// candidate is infeasible and the plan says only "gpus-not-divisible" / "ep-without-experts".
void refuseIndivisible(const PlanSpace &space, const std::map<int, std::string> &pinned)
{
    if (space.gpus <= 0)
        return;
    const auto value = [&](const char *name, int &v, std::string &item) {
        const int i = planKnobIndex(name);
        const auto it = pinned.find(i);
        if (it == pinned.end())
            return false;
        v = space.values[static_cast<std::size_t>(i)].front();
        item = it->second;
        return true;
    };
    const std::string gpus = std::to_string(space.gpus) + " GPUs";
    long long product = 1;
    std::string items, terms;
    for (const char *name : {"tp", "cp", "pp"}) {
        int v = 1;
        std::string item;
        if (!value(name, v, item) || v == 1) // a degree of 1 divides anything
            continue;
        product *= v;
        items += (items.empty() ? "'" : ", '") + item + "'";
        std::string upper(name);
        for (char &ch : upper)
            ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        terms += (terms.empty() ? "" : " x ") + upper + " " + std::to_string(v);
    }
    if (space.gpus % product != 0)
        throw std::invalid_argument(
            items + ": " + terms
            + (terms.find(" x ") != std::string::npos ? " = " + std::to_string(product)
                                                      : std::string())
            + " does not divide the " + gpus + " (TP x CP x PP must divide the GPU count; "
            + "DP takes the rest)");
    int ep = 1, pp = 1;
    std::string epItem, ppItem;
    if (value("ep", ep, epItem) && ep > 1 && space.base.model.experts <= 0)
        throw std::invalid_argument("'" + epItem + "': EP " + std::to_string(ep)
                                    + " needs a mixture-of-experts model; '" + space.base.model.name
                                    + "' has no experts");
    if (ep > 1) {
        const bool ppPinned = value("pp", pp, ppItem);
        if ((space.gpus / pp) % ep != 0)
            throw std::invalid_argument(
                "'" + epItem + "': EP " + std::to_string(ep) + " does not divide the "
                + (ppPinned ? std::to_string(space.gpus / pp) + " GPUs of a pipeline stage (" + gpus
                           + " / PP " + std::to_string(pp) + ")"
                            : gpus)
                + " (expert TP x EP x expert DP x PP must make the GPU count)");
    }
}

} // namespace

void fixKnobs(PlanSpace &space, const std::string &spec)
{
    const auto &knobs = planKnobs();
    std::string known;
    for (const PlanKnob &k : knobs)
        known += (known.empty() ? "" : ", ") + k.name;
    std::stringstream ss(spec);
    std::string item;
    std::map<int, std::string> pinned; // knob -> the item that pinned it
    while (std::getline(ss, item, ',')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        const std::string name = item.substr(0, eq);
        const int i = planKnobIndex(name);
        if (eq == std::string::npos || i < 0)
            throw std::invalid_argument("'" + item + "': expected KNOB=VALUE with KNOB one of "
                                        + known);
        int v = 0;
        if (!knobs[static_cast<std::size_t>(i)].parse(item.substr(eq + 1), v))
            throw std::invalid_argument("'" + item + "': bad value for the "
                                        + knobs[static_cast<std::size_t>(i)].title + " (expected "
                                        + knobs[static_cast<std::size_t>(i)].accepts + ")");
        // Pinned twice (--fix tp=8 with --tp 4): one of them would be ignored silently.
        if (const auto [at, fresh] = pinned.emplace(i, item);
            !fresh && space.values[static_cast<std::size_t>(i)] != std::vector<int> {v})
            throw std::invalid_argument("'" + item + "' contradicts '" + at->second + "'");
        space.values[static_cast<std::size_t>(i)] = {v};
    }
    refuseIndivisible(space, pinned);
}

namespace {

// The sizes placementOrders() and effectiveOrder() weigh (placement.h), expert DP at least 1.
std::array<int, 5> expertSizes(const TrainingConfig &c)
{
    std::array<int, 5> e = expertDimSizes(c);
    e[3] = std::max(1, e[3]);
    return e;
}

} // namespace

std::string effectiveOrder(const TrainingConfig &c, const std::string &order)
{
    const std::array<int, 5> size = attentionDimSizes(c), expertSize = expertSizes(c);
    std::string out, dim;
    std::stringstream ss(order);
    while (std::getline(ss, dim, '-'))
        for (std::size_t i = 0; i < kPlacementDims.size(); ++i)
            if (dim == kPlacementDims[i] && std::max(size[i], expertSize[i]) > 1)
                out += (out.empty() ? "" : "-") + dim;
    return out.empty() ? std::string("tp") : out;
}

std::vector<std::string> placementOrders(const TrainingConfig &c, int domainSize)
{
    // Sizes per dimension (tp, cp, ep, dp, pp) as Megatron-Core's two rank generators see them.
    const auto &names = kPlacementDims;
    const std::array<int, 5> size = attentionDimSizes(c), expertSize = expertSizes(c);
    std::vector<int> dims;
    for (std::size_t i = 0; i < 5; ++i)
        if (std::max(size[i], expertSize[i]) > 1)
            dims.push_back(static_cast<int>(i));
    if (dims.empty())
        return {"tp"};
    // TP (and expert TP) inside one scale-up domain when it fits: the ranks placed before it
    // times its degree divide the domain size.
    const auto inside = [domainSize](int stride, int degree) {
        return degree <= 1 || domainSize % degree != 0 || domainSize % (stride * degree) == 0;
    };
    std::vector<std::string> out;
    std::set<std::pair<std::array<int, 5>, std::array<int, 5>>> seen;
    do {
        std::array<int, 5> stride {}, expertStride {};
        int st = 1, est = 1;
        for (int d : dims) {
            const std::size_t i = static_cast<std::size_t>(d);
            stride[i] = st;
            expertStride[i] = est;
            st *= size[i];
            est *= expertSize[i];
        }
        if (!inside(stride[0], c.tp) || !inside(expertStride[0], c.expertTp()))
            continue;
        // Both generators must put a rank on the same stage (RankMap refuses the order else).
        if (c.pp > 1 && stride[4] != expertStride[4])
            continue;
        // Orders giving the same groups in both generators are one placement.
        for (std::size_t i = 0; i < 5; ++i)
            if (size[i] == 1)
                stride[i] = 0;
        for (std::size_t i = 0; i < 5; ++i)
            if (expertSize[i] == 1)
                expertStride[i] = 0;
        if (!seen.insert({stride, expertStride}).second)
            continue;
        std::string o;
        for (int d : dims)
            o += (o.empty() ? "" : "-") + std::string(names[static_cast<std::size_t>(d)]);
        out.push_back(o);
    } while (std::next_permutation(dims.begin(), dims.end()));
    std::sort(out.begin(), out.end());
    return out;
}

long long forEachConfig(const PlanSpace &space,
                        const std::function<void(const TrainingConfig &, bool)> &visit)
{
    const auto &knobs = planKnobs();
    const std::size_t n = knobs.size();
    for (const auto &v : space.values)
        if (v.empty())
            return 0;
    std::vector<std::size_t> at(n, 0);
    long long visited = 0;
    while (true) {
        TrainingConfig c = space.base.config;
        c.stageLayers.clear();
        for (std::size_t i = 0; i < n; ++i)
            knobs[i].set(c, space.values[i][at[i]]);
        if (meaningful(space, c)) {
            const long long inner = 1LL * c.tp * c.cp * c.pp;
            const bool integral = inner > 0 && space.gpus % inner == 0;
            c.dp = integral ? static_cast<int>(space.gpus / inner) : 0;
            visit(c, integral);
            ++visited;
        }
        std::size_t i = n;
        while (i > 0) {
            --i;
            if (++at[i] < space.values[i].size())
                break;
            at[i] = 0;
            if (i == 0)
                return visited;
        }
    }
}

std::string describeCandidate(const TrainingConfig &c, const std::string &order)
{
    std::string s = "TP " + std::to_string(c.tp) + " · PP " + std::to_string(c.pp) + " · DP "
        + std::to_string(c.dp);
    if (c.cp > 1)
        s += " · CP " + std::to_string(c.cp);
    if (c.ep > 1)
        s += " · EP " + std::to_string(c.ep) + " " + toString(c.dispatcher);
    if (c.etp > 0 && c.etp != c.tp)
        s += " · ETP " + std::to_string(c.etp);
    if (c.schedule == PipelineSchedule::Interleaved)
        s += " · interleaved v" + std::to_string(c.vpp);
    else if (c.pp > 1)
        s += std::string(" · ") + toString(c.schedule);
    s += " · b " + std::to_string(c.microBatch) + " · recompute " + toString(c.recompute)
        + " · ZeRO " + std::to_string(c.effectiveZero());
    if (c.overlapTp && c.tp > 1)
        s += " · TP overlap";
    if (c.overlapEp && c.ep > 1)
        s += " · EP overlap";
    if (!order.empty())
        s += " · " + order;
    return s;
}

} // namespace weft
