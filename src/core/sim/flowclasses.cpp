#include "sim/flowclasses.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <unordered_map>

namespace weft {

namespace {

struct WordsHash
{
    std::size_t operator()(const std::vector<std::uint64_t> &v) const
    {
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (std::uint64_t x : v)
            h = (h ^ x) * 0x100000001b3ull;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

/// Exact colour table: a signature (list of words) to a dense colour number.
class Palette
{
public:
    std::uint32_t colour(const std::vector<std::uint64_t> &signature)
    {
        auto [it, added] = m_ids.try_emplace(signature, static_cast<std::uint32_t>(m_ids.size()));
        return it->second;
    }
    [[nodiscard]] std::size_t size() const { return m_ids.size(); }

private:
    std::unordered_map<std::vector<std::uint64_t>, std::uint32_t, WordsHash> m_ids;
};

/// Compressed sparse rows: the (neighbour, fraction) pairs of each item.
struct Csr
{
    std::vector<std::uint32_t> offset {0};
    std::vector<std::uint32_t> other;
    std::vector<double> fraction;
};

/// New colours of the items of `rows`: (old colour, multiset of (neighbour colour, fraction)),
/// the multiset sorted and run-length encoded. Returns the number of colours.
std::size_t refine(const Csr &rows, const std::vector<std::uint32_t> &neighbourColour,
                   std::vector<std::uint32_t> &colour)
{
    Palette palette;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> pairs;
    std::vector<std::uint64_t> sig;
    for (std::size_t i = 0; i + 1 < rows.offset.size(); ++i) {
        pairs.clear();
        for (std::uint32_t k = rows.offset[i]; k < rows.offset[i + 1]; ++k)
            pairs.emplace_back(neighbourColour[rows.other[k]],
                               std::bit_cast<std::uint64_t>(rows.fraction[k]));
        std::sort(pairs.begin(), pairs.end());
        sig.assign(1, colour[i]);
        for (std::size_t k = 0; k < pairs.size();) {
            std::size_t j = k;
            while (j < pairs.size() && pairs[j] == pairs[k])
                ++j;
            sig.push_back(pairs[k].first);
            sig.push_back(pairs[k].second);
            sig.push_back(j - k);
            k = j;
        }
        colour[i] = palette.colour(sig);
    }
    return palette.size();
}

} // namespace

FlowClasses symmetricFlowClasses(const Router &router, std::span<const Flow> flows,
                                 const FlowSeeds &seeds)
{
    if (!seeds.flow.empty() && seeds.flow.size() != flows.size())
        throw std::invalid_argument("flow classes: one seed per flow");
    FlowClasses out;
    std::vector<std::uint32_t> moving;
    for (std::uint32_t i = 0; i < flows.size(); ++i)
        if (flows[i].bytes > 0 && flows[i].src != flows[i].dst)
            moving.push_back(i);
    out.flows = moving.size();
    if (moving.empty())
        return out;

    // Incidences, with the link directions numbered locally in order of first use.
    std::unordered_map<LinkDir, std::uint32_t> local;
    std::vector<LinkDir> dirs;
    Csr byFlow;
    for (std::uint32_t i : moving) {
        for (const RouteEntry &e : router.route(flows[i].src, flows[i].dst).entries) {
            auto [it, added]
                = local.try_emplace(e.linkDir, static_cast<std::uint32_t>(dirs.size()));
            if (added)
                dirs.push_back(e.linkDir);
            byFlow.other.push_back(it->second);
            byFlow.fraction.push_back(e.fraction);
        }
        byFlow.offset.push_back(static_cast<std::uint32_t>(byFlow.other.size()));
    }
    Csr byDir;
    byDir.offset.assign(dirs.size() + 1, 0);
    for (std::uint32_t l : byFlow.other)
        ++byDir.offset[l + 1];
    for (std::size_t l = 0; l < dirs.size(); ++l)
        byDir.offset[l + 1] += byDir.offset[l];
    byDir.other.resize(byFlow.other.size());
    byDir.fraction.resize(byFlow.other.size());
    {
        std::vector<std::uint32_t> at(byDir.offset.begin(), byDir.offset.end() - 1);
        for (std::uint32_t f = 0; f < moving.size(); ++f)
            for (std::uint32_t k = byFlow.offset[f]; k < byFlow.offset[f + 1]; ++k) {
                const std::uint32_t l = byFlow.other[k];
                byDir.other[at[l]] = f;
                byDir.fraction[at[l]++] = byFlow.fraction[k];
            }
    }

    // Initial colours: flows by (bytes, cap, seed), link directions by (capacity, seed).
    std::vector<std::uint32_t> flowColour(moving.size()), dirColour(dirs.size());
    std::size_t flowColours = 0, dirColours = 0;
    {
        Palette pf, pd;
        for (std::size_t f = 0; f < moving.size(); ++f)
            flowColour[f]
                = pf.colour({std::bit_cast<std::uint64_t>(flows[moving[f]].bytes),
                             std::bit_cast<std::uint64_t>(flows[moving[f]].maxRate),
                             seeds.flow.empty() ? std::uint64_t(0) : seeds.flow[moving[f]]});
        std::vector<std::uint64_t> sig;
        for (std::size_t l = 0; l < dirs.size(); ++l) {
            sig.assign(1, std::bit_cast<std::uint64_t>(router.capacity(dirs[l])));
            if (seeds.link)
                seeds.link(dirs[l], sig);
            dirColour[l] = pd.colour(sig);
        }
        flowColours = pf.size();
        dirColours = pd.size();
    }
    for (;;) {
        ++out.rounds;
        const std::size_t f = refine(byFlow, dirColour, flowColour);
        const std::size_t d = refine(byDir, flowColour, dirColour);
        if (f == flowColours && d == dirColours)
            break;
        flowColours = f;
        dirColours = d;
    }

    // One class per flow colour, its directions weighted by the sum of its members' fractions.
    out.classes.resize(flowColours);
    for (std::uint32_t f = 0; f < moving.size(); ++f)
        out.classes[flowColour[f]].members.push_back(moving[f]);
    std::vector<double> weight(dirs.size(), 0.0);
    std::vector<char> seen(dirs.size(), 0);
    std::vector<std::uint32_t> order;
    std::uint32_t f = 0;
    std::vector<std::uint32_t> flowOf(flows.size(), 0);
    for (std::uint32_t k = 0; k < moving.size(); ++k)
        flowOf[moving[k]] = k;
    for (FlowClass &c : out.classes) {
        order.clear();
        for (std::uint32_t i : c.members) {
            f = flowOf[i];
            for (std::uint32_t k = byFlow.offset[f]; k < byFlow.offset[f + 1]; ++k) {
                const std::uint32_t l = byFlow.other[k];
                if (!seen[l]) {
                    seen[l] = 1;
                    order.push_back(l);
                }
                weight[l] += byFlow.fraction[k];
            }
        }
        c.entries.reserve(order.size());
        c.cells.reserve(order.size());
        for (std::uint32_t l : order) {
            c.entries.push_back({dirs[l], weight[l]});
            c.cells.push_back(dirColour[l]);
            weight[l] = 0;
            seen[l] = 0;
        }
    }
    return out;
}

} // namespace weft
