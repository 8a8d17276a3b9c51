#include "sim/channels.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace weft {

namespace {

// Depth-first search for a Hamiltonian cycle through 0 over pairs with lanes left, the pairs
// with the most lanes left first; bounded by `budget` expansions (NCCL's search is bounded too).
class CycleSearch
{
public:
    CycleSearch(const std::vector<std::vector<int>> &lanes, long budget)
        : m_lanes(lanes)
        , m_n(lanes.size())
        , m_budget(budget)
    {
    }

    std::vector<std::size_t> find()
    {
        m_path.assign(1, 0);
        m_used.assign(m_n, 0);
        m_used[0] = 1;
        return extend() ? m_path : std::vector<std::size_t> {};
    }

private:
    bool extend()
    {
        const std::size_t at = m_path.back();
        if (m_path.size() == m_n)
            return m_lanes[at][0] > 0;
        if (--m_budget < 0)
            return false;
        std::vector<std::size_t> next;
        for (std::size_t j = 0; j < m_n; ++j)
            if (!m_used[j] && m_lanes[at][j] > 0)
                next.push_back(j);
        std::stable_sort(next.begin(), next.end(), [&](std::size_t a, std::size_t b) {
            return m_lanes[at][a] > m_lanes[at][b];
        });
        for (std::size_t j : next) {
            m_used[j] = 1;
            m_path.push_back(j);
            if (extend())
                return true;
            m_path.pop_back();
            m_used[j] = 0;
        }
        return false;
    }

    const std::vector<std::vector<int>> &m_lanes;
    std::size_t m_n;
    long m_budget;
    std::vector<std::size_t> m_path;
    std::vector<char> m_used;
};

} // namespace

std::vector<std::vector<NodeId>> meshRings(const Router &router, const std::vector<NodeId> &members,
                                           int maxRings)
{
    const std::size_t n = members.size();
    if (n < 3 || n > 64)
        return {};
    std::unordered_map<int, std::size_t> pos;
    for (std::size_t i = 0; i < n; ++i)
        pos.emplace(router.nodeIndex(members[i]), i);
    std::vector<std::vector<int>> lanes(n, std::vector<int>(n, 0));
    const auto &links = router.design().links();
    for (std::size_t i = 0; i < n; ++i)
        for (const auto &[to, link] : router.neighbors(router.nodeIndex(members[i]))) {
            auto it = pos.find(to);
            if (it != pos.end() && it->second != i)
                lanes[i][it->second] += std::max(1, links[link].lanes);
        }
    std::vector<std::vector<NodeId>> rings;
    while (static_cast<int>(rings.size()) + 2 <= maxRings) {
        const std::vector<std::size_t> cycle = CycleSearch(lanes, 20000).find();
        if (cycle.empty())
            break;
        std::vector<NodeId> ring;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t a = cycle[k], b = cycle[(k + 1) % n];
            --lanes[a][b];
            --lanes[b][a];
            ring.push_back(members[a]);
        }
        rings.push_back(ring);
        std::reverse(ring.begin(), ring.end());
        rings.push_back(std::move(ring));
    }
    return rings;
}

} // namespace weft
