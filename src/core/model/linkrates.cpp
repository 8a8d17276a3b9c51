#include "model/linkrates.h"

#include "model/validate.h"

#include <cmath>
#include <sstream>

namespace weft {

namespace {

constexpr double kTolerance = 1e-6;

bool over(double rate, double limit)
{
    return limit > 0 && rate > limit * (1 + kTolerance);
}

std::string gbps(double bytesPerSecond)
{
    std::ostringstream s;
    s << bytesPerSecond * 8 / 1e9 << " Gb/s";
    return s.str();
}

std::string linkName(const Design &d, const Link &l)
{
    const Node *a = d.node(l.a);
    const Node *b = d.node(l.b);
    return "link " + std::to_string(l.id.value) + " (" + (a ? a->name : "?") + " - "
        + (b ? b->name : "?") + ")";
}

} // namespace

std::vector<Finding> checkLinkRates(const Design &design)
{
    std::vector<Finding> out;
    std::size_t overPort = 0, overTech = 0;
    const auto add = [&out](const char *code, std::size_t &count, std::string message,
                            const Link &l, std::vector<NodeId> nodes) {
        if (++count > kMaxFindingsPerCode)
            return;
        Finding f;
        f.severity = Severity::Error;
        f.code = code;
        f.message = std::move(message);
        f.links = {l.id};
        f.nodes = std::move(nodes);
        out.push_back(std::move(f));
    };
    for (const Link &l : design.links()) {
        if (!(l.rate > 0) || !std::isfinite(l.rate))
            continue;
        for (const NodeId end : {l.a, l.b}) {
            const Node *n = design.node(end);
            const SwitchSpec *spec = n && n->isSwitch() ? design.switchSpec(*n) : nullptr;
            if (spec && over(l.rate, spec->portRate)) {
                add(findings::kRateOverPort, overPort,
                    linkName(design, l) + " runs " + gbps(l.rate) + " per lane x "
                        + std::to_string(l.lanes) + " = " + gbps(l.capacity()) + ", but a port of "
                        + n->name + " (" + spec->name + ") carries at most " + gbps(spec->portRate)
                        + ": lower the lane rate or add lanes",
                    l, {end});
                break; // one finding per link
            }
        }
        const LinkTechSpec *tech = design.linkTech(l);
        if (tech && over(l.rate, tech->laneRate))
            add(findings::kRateOverTechnology, overTech,
                linkName(design, l) + " runs " + gbps(l.rate) + " per lane, above the "
                    + gbps(tech->laneRate) + " lane rate of " + tech->name,
                l, {});
    }
    for (const auto &[code, count] : {std::pair {findings::kRateOverPort, overPort},
                                      std::pair {findings::kRateOverTechnology, overTech}})
        if (count > kMaxFindingsPerCode) {
            Finding f;
            f.severity = Severity::Warning;
            f.code = findings::kTooMany;
            f.message = std::to_string(count - kMaxFindingsPerCode) + " more \"" + code
                + "\" findings are not listed";
            out.push_back(std::move(f));
        }
    return out;
}

} // namespace weft
