#include "sim/flowsolver.h"

#include <algorithm>
#include <queue>
#include <stdexcept>

namespace weft {

MaxMinSolver::MaxMinSolver(std::vector<double> capacity)
    : m_cap(std::move(capacity))
{
    const std::size_t n = m_cap.size();
    m_load.assign(n, 0);
    m_onLink.resize(n);
    m_linkMark.assign(n, 0);
    m_weight.assign(n, 0);
    m_frozenLoad.assign(n, 0);
    m_count.assign(n, 0);
    m_version.assign(n, 0);
}

MaxMinSolver::UnitId MaxMinSolver::add(std::vector<RouteEntry> entries, double maxRate)
{
    if (!(maxRate > 0))
        throw std::invalid_argument("flow solver: a unit's rate cap must be positive");
    for (const RouteEntry &e : entries)
        if (e.linkDir >= m_cap.size() || !(m_cap[e.linkDir] > 0) || !(e.fraction > 0))
            throw std::invalid_argument("flow solver: unit crosses a link of zero capacity");
    if (entries.empty() && maxRate == std::numeric_limits<double>::infinity())
        throw std::invalid_argument("flow solver: a unit needs a link or a rate cap");
    UnitId id;
    if (!m_free.empty()) {
        id = m_free.back();
        m_free.pop_back();
    } else {
        id = static_cast<UnitId>(m_units.size());
        m_units.emplace_back();
        m_unitMark.push_back(0);
        m_frozen.push_back(0);
    }
    Unit &u = m_units[id];
    u.entries = std::move(entries);
    u.maxRate = maxRate;
    u.rate = 0;
    u.alive = true;
    ++m_live;
    for (const RouteEntry &e : u.entries)
        m_onLink[e.linkDir].push_back(id);
    m_dirtyUnits.push_back(id);
    return id;
}

void MaxMinSolver::remove(UnitId id)
{
    Unit &u = m_units.at(id);
    if (!u.alive)
        return;
    for (const RouteEntry &e : u.entries) {
        auto &v = m_onLink[e.linkDir];
        auto it = std::find(v.begin(), v.end(), id);
        if (it != v.end()) {
            *it = v.back();
            v.pop_back();
        }
        m_dirtyLinks.push_back(e.linkDir);
    }
    u.alive = false;
    u.rate = 0;
    u.entries.clear();
    u.entries.shrink_to_fit();
    --m_live;
    m_free.push_back(id);
}

void MaxMinSolver::clear()
{
    for (UnitId id = 0; id < m_units.size(); ++id)
        if (m_units[id].alive)
            remove(id);
    m_dirtyLinks.clear();
    m_dirtyUnits.clear();
    std::fill(m_load.begin(), m_load.end(), 0.0);
}

// Gathers the connected components reachable from the dirty units and links.
void MaxMinSolver::collectComponent(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs)
{
    const std::uint32_t mark = ++m_mark;
    std::vector<LinkDir> stack;
    auto visitLink = [&](LinkDir ld) {
        if (m_linkMark[ld] != mark) {
            m_linkMark[ld] = mark;
            linkDirs.push_back(ld);
            stack.push_back(ld);
        }
    };
    auto visitUnit = [&](UnitId u) {
        if (m_unitMark[u] == mark || !m_units[u].alive)
            return;
        m_unitMark[u] = mark;
        units.push_back(u);
        for (const RouteEntry &e : m_units[u].entries)
            visitLink(e.linkDir);
    };
    for (UnitId u : m_dirtyUnits)
        visitUnit(u);
    for (LinkDir ld : m_dirtyLinks)
        visitLink(ld);
    while (!stack.empty()) {
        const LinkDir ld = stack.back();
        stack.pop_back();
        for (UnitId u : m_onLink[ld])
            visitUnit(u);
    }
    m_dirtyUnits.clear();
    m_dirtyLinks.clear();
}

void MaxMinSolver::solve(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs)
{
    units.clear();
    linkDirs.clear();
    if (m_dirtyUnits.empty() && m_dirtyLinks.empty())
        return;
    collectComponent(units, linkDirs);
    fill(units, linkDirs);
}

void MaxMinSolver::fill(const std::vector<UnitId> &units, const std::vector<LinkDir> &linkDirs)
{
    for (LinkDir ld : linkDirs) {
        m_weight[ld] = 0;
        m_frozenLoad[ld] = 0;
        m_count[ld] = 0;
    }
    for (UnitId u : units) {
        m_frozen[u] = 0;
        for (const RouteEntry &e : m_units[u].entries) {
            m_weight[e.linkDir] += e.fraction;
            ++m_count[e.linkDir];
        }
    }
    // Heap of saturation levels: a link direction saturates at (cap - frozen load) / weight of
    // its unfrozen units; a unit stops at its own cap. Levels only rise as units freeze, so
    // stale entries are skipped by version.
    struct Item
    {
        double level;
        std::uint32_t index;
        std::uint32_t version; // links: m_version at push; units: kUnitItem
        bool operator>(const Item &o) const { return level > o.level; }
    };
    constexpr std::uint32_t kUnitItem = std::numeric_limits<std::uint32_t>::max();
    std::vector<Item> storage;
    storage.reserve(linkDirs.size() + units.size());
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap(std::greater<> {},
                                                                      std::move(storage));
    for (LinkDir ld : linkDirs)
        if (m_count[ld] > 0)
            heap.push({m_cap[ld] / m_weight[ld], ld, ++m_version[ld]});
    for (UnitId u : units)
        if (m_units[u].maxRate < std::numeric_limits<double>::infinity())
            heap.push({m_units[u].maxRate, u, kUnitItem});
    double level = 0;
    std::size_t unfrozen = units.size();
    auto freeze = [&](UnitId u) {
        m_frozen[u] = 1;
        --unfrozen;
        m_units[u].rate = level;
        for (const RouteEntry &e : m_units[u].entries) {
            const LinkDir ld = e.linkDir;
            m_frozenLoad[ld] += e.fraction * level;
            if (--m_count[ld] == 0)
                continue;
            m_weight[ld] -= e.fraction;
            const double w = std::max(m_weight[ld], 1e-300);
            heap.push({std::max(level, (m_cap[ld] - m_frozenLoad[ld]) / w), ld, ++m_version[ld]});
        }
    };
    while (unfrozen > 0 && !heap.empty()) {
        const Item it = heap.top();
        heap.pop();
        if (it.version == kUnitItem) {
            if (m_frozen[it.index])
                continue;
            level = std::max(level, it.level);
            freeze(it.index);
            continue;
        }
        if (it.version != m_version[it.index] || m_count[it.index] == 0)
            continue;
        level = std::max(level, it.level);
        // Copy: freezing does not change the membership list, but keep the loop simple.
        for (UnitId u : m_onLink[it.index])
            if (!m_frozen[u])
                freeze(u);
    }
    for (LinkDir ld : linkDirs)
        m_load[ld] = m_frozenLoad[ld];
}

} // namespace weft
