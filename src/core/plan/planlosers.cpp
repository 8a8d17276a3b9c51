#include "plan/planlosers.h"

#include "model/design.h"

#include <cstdio>
#include <sstream>

namespace weft {

std::string largestGrowth(const Breakdown &best, const Breakdown &loser)
{
    const auto a = breakdownParts(best);
    const auto b = breakdownParts(loser);
    std::size_t at = 0;
    for (std::size_t i = 1; i < a.size(); ++i)
        if (b[i].second - a[i].second > b[at].second - a[at].second)
            at = i;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s grows from %.1f ms to %.1f ms", a[at].first.c_str(),
                  a[at].second * 1e3, b[at].second * 1e3);
    return buf;
}

namespace {

// `order` with "tp" moved to the end (outermost), or empty when TP would still sit inside one
// domain there.
std::string tpOutermost(const TrainingConfig &c, const std::string &order, int domainSize)
{
    std::stringstream ss(order);
    std::string tok, rest;
    while (std::getline(ss, tok, '-'))
        if (tok != "tp")
            rest += (rest.empty() ? "" : "-") + tok;
    const long long others = c.worldSize() / c.tp;
    if (rest.empty() || others * c.tp <= domainSize) // TP's stride spreads it over the world
        return {};
    return rest + "-tp";
}

} // namespace

std::vector<PlanLoser> losingLayouts(const Design &design, const PlanSpace &space,
                                     const PlanRow &best, const std::atomic<bool> *cancel)
{
    struct Variant
    {
        std::string title;
        std::string cause;
        TrainingConfig config;
        std::string order;
        bool own = false; ///< the design's own layout
    };
    std::vector<Variant> variants;
    const TrainingConfig &c = best.config;
    if (c.tp > 1 && space.domainSize % c.tp == 0)
        if (const std::string o = tpOutermost(c, best.order, space.domainSize); !o.empty())
            variants.push_back({"TP across scale-up domains (" + o + ")",
                                "its all-reduces cross the scale-out fabric instead of the "
                                "scale-up links",
                                c, o});
    // Megatron-Core runs the EP all-to-all overlap neither with PP > 1 without virtual stages
    // nor with full recomputation: those variants lose it too, and say so.
    const bool epOverlap = c.overlapEp && c.ep > 1;
    const std::string noOverlap = " (and the EP all-to-all overlap, which Megatron-Core refuses "
                                  "with it)";
    if (c.schedule == PipelineSchedule::Interleaved) {
        TrainingConfig v = c;
        v.schedule = PipelineSchedule::OneFOneB;
        v.vpp = 1;
        const bool drop = epOverlap && c.pp > 1;
        v.overlapEp = v.overlapEp && !drop;
        variants.push_back({"no interleaving (1F1B)",
                            "the pipeline bubble is not divided by the " + std::to_string(c.vpp)
                                + " virtual stages" + (drop ? noOverlap : std::string()),
                            v, best.order});
    }
    if (c.recompute != Recompute::Full) {
        TrainingConfig v = c;
        v.recompute = Recompute::Full;
        v.overlapEp = false;
        variants.push_back(
            {"full recomputation",
             "every layer's forward pass runs twice" + (epOverlap ? noOverlap : std::string()), v,
             best.order});
    }
    if (design.workload) { // the user's current choice, at the plan's batch
        TrainingConfig own = design.workload->config;
        own.globalBatch = space.base.config.globalBatch;
        const std::string order = effectiveOrder(own, design.workload->placement.order);
        const std::string text = describeCandidate(own, order);
        if (text != describeCandidate(c, best.order))
            variants.push_back({"the design's own layout (" + text + ")",
                                "the layout the design has now", own, order, true});
    }
    std::vector<PlanLoser> out;
    Design scratch = design;
    for (const Variant &v : variants) {
        if (cancel && cancel->load())
            break;
        if (hasError(validate(space.base.model, v.config, design.acceleratorCount())))
            continue;
        PlanRow row = simulateCandidate(scratch, space.base, v.config, v.order, cancel);
        // The design's own layout faster than the best lies outside a pinned space (--fix), and
        // one as fast (another order giving the same groups) is the best's equal: not a loser.
        if (!row.fits || best.stepTime <= 0
            || (v.own && row.stepTime <= best.stepTime * (1 + 1e-9)))
            continue;
        PlanLoser l;
        l.title = v.title;
        l.row = row;
        l.slowdown = row.stepTime / best.stepTime - 1;
        l.why = v.cause + ": " + largestGrowth(best.breakdown, row.breakdown);
        l.designOwn = v.own;
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace weft
