#include "sim/collectivesweep.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace weft {

namespace {

std::vector<std::string> splitComma(const std::string &text)
{
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
        const auto b = item.find_first_not_of(" \t");
        const auto e = item.find_last_not_of(" \t");
        out.push_back(b == std::string::npos ? std::string() : item.substr(b, e - b + 1));
    }
    return out;
}

bool parseIndex(const std::string &s, long long &out)
{
    if (s.empty()
        || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    try {
        out = std::stoll(s);
    } catch (const std::exception &) {
        return false;
    }
    return true;
}

} // namespace

std::vector<CollectiveSweepRow> sweepCollective(const Design &design, CollectiveKind kind,
                                                const std::vector<NodeId> &members,
                                                const std::vector<double> &sizes,
                                                CollectiveAlgorithm algorithm)
{
    CollectiveSpec base;
    base.kind = kind;
    base.members = members;
    base.algorithm = algorithm;
    return sweepCollective(design, base, sizes);
}

std::vector<CollectiveSweepRow> sweepCollective(const Design &design, const CollectiveSpec &base,
                                                const std::vector<double> &sizes)
{
    const Router router(design);
    const CollectivePlanner planner(router);
    const CollectiveKind kind = base.kind;
    const std::vector<NodeId> &members = base.members;
    std::vector<CollectiveSweepRow> rows;
    for (double bytes : sizes) {
        CollectiveSpec spec = base;
        spec.bytes = bytes;
        const CollectivePlan plan = planner.plan(spec);
        CollectiveSweepRow row;
        row.bytes = bytes;
        row.seconds = planner.isolatedTime(plan);
        row.protocol = plan.protocol;
        row.algbw = row.seconds > 0 ? bytes / row.seconds : 0.0;
        row.busbw = row.algbw * busBandwidthFactor(kind, members.size());
        row.algorithm = plan.algorithm;
        row.channels = plan.channels;
        rows.push_back(row);
    }
    return rows;
}

std::vector<double> parseSizeList(const std::string &text)
{
    std::vector<double> out;
    for (const std::string &item : splitComma(text)) {
        std::string s = item;
        if (!s.empty() && (s.back() == 'B' || s.back() == 'b'))
            s.pop_back();
        double mult = 1;
        if (!s.empty() && std::isalpha(static_cast<unsigned char>(s.back()))) {
            switch (std::toupper(static_cast<unsigned char>(s.back()))) {
            case 'K':
                mult = 1024.0;
                break;
            case 'M':
                mult = 1024.0 * 1024;
                break;
            case 'G':
                mult = 1024.0 * 1024 * 1024;
                break;
            case 'T':
                mult = 1024.0 * 1024 * 1024 * 1024;
                break;
            default:
                mult = 0;
                break;
            }
            s.pop_back();
        }
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(s, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (s.empty() || used != s.size() || mult == 0 || !(v >= 0) || !std::isfinite(v * mult))
            throw std::invalid_argument("bad size '" + item
                                        + "' (expected e.g. 1024, 64K, 8M, 8G)");
        out.push_back(v * mult);
    }
    if (out.empty())
        throw std::invalid_argument("no size given");
    return out;
}

std::vector<NodeId> parseRankList(const Design &design, const std::string &text)
{
    std::vector<NodeId> acc;
    for (const Node &n : design.nodes())
        if (n.isAccelerator())
            acc.push_back(n.id);
    if (text == "all")
        return acc;
    std::vector<NodeId> out;
    std::set<std::uint32_t> seen;
    auto add = [&](NodeId id, const std::string &item) {
        if (!seen.insert(id.value).second)
            throw std::invalid_argument("rank '" + item + "' is listed twice");
        out.push_back(id);
    };
    for (const std::string &item : splitComma(text)) {
        long long a = 0, b = 0;
        const auto dash = item.find('-');
        if (parseIndex(item, a)) {
            b = a;
        } else if (dash != std::string::npos && parseIndex(item.substr(0, dash), a)
                   && parseIndex(item.substr(dash + 1), b) && a <= b) {
        } else {
            auto it
                = std::find_if(design.nodes().begin(), design.nodes().end(),
                               [&](const Node &n) { return n.isAccelerator() && n.name == item; });
            if (it == design.nodes().end())
                throw std::invalid_argument("rank '" + item
                                            + "' is neither an accelerator index, a range a-b nor "
                                              "an accelerator name");
            add(it->id, item);
            continue;
        }
        if (b >= static_cast<long long>(acc.size()))
            throw std::invalid_argument("rank '" + item + "' is out of range: the design has "
                                        + std::to_string(acc.size()) + " accelerators");
        for (long long i = a; i <= b; ++i)
            add(acc[static_cast<std::size_t>(i)], item);
    }
    if (out.empty())
        throw std::invalid_argument("no rank given");
    return out;
}

} // namespace weft
