#include "sim/flowsolver.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>

namespace weft {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kClassItem = std::numeric_limits<std::uint32_t>::max();

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull; // FNV-1a's initial value

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull; // FNV-1a step on 64-bit words
}

std::uint64_t hashUnit(std::span<const RouteEntry> entries, double maxRate)
{
    std::uint64_t h = mix(kFnvOffset, std::bit_cast<std::uint64_t>(maxRate));
    for (const RouteEntry &e : entries)
        h = mix(mix(h, e.linkDir), std::bit_cast<std::uint64_t>(e.fraction));
    return h;
}

bool sameEntries(const std::vector<RouteEntry> &a, std::span<const RouteEntry> b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const RouteEntry &x, const RouteEntry &y) {
                          return x.linkDir == y.linkDir && x.fraction == y.fraction;
                      });
}

} // namespace

MaxMinSolver::MaxMinSolver(std::vector<double> capacity)
{
    const std::size_t n = capacity.size();
    m_links.resize(n);
    for (std::size_t ld = 0; ld < n; ++ld)
        m_links[ld].cap = capacity[ld];
    m_load.assign(n, 0);
    m_onLink.resize(n);
    m_liveUses.assign(n, 0);
    m_linkMark.assign(n, 0);
    m_weight.assign(n, 0);
    m_frozenLoad.assign(n, 0);
    m_count.assign(n, 0);
    m_critical.assign(n, 0);
}

MaxMinSolver::UnitId MaxMinSolver::add(std::span<const RouteEntry> entries, double maxRate,
                                       std::uint64_t classKey, std::uint32_t group,
                                       std::span<const std::uint32_t> cells)
{
    if (!(maxRate > 0))
        throw std::invalid_argument("flow solver: a unit's rate cap must be positive");
    if (entries.empty() && maxRate == kInf)
        throw std::invalid_argument("flow solver: a unit needs a link or a rate cap");
    if (group != 0 && classKey == 0)
        throw std::invalid_argument("flow solver: an aggregate unit needs a class key");
    if (!cells.empty() && (cells.size() != entries.size() || group == 0))
        throw std::invalid_argument("flow solver: link classes need an aggregate, one per entry");
    ClassId c = findClass(entries, maxRate, classKey, group);
    if (c == kNoClass) {
        double bound = maxRate;
        for (const RouteEntry &e : entries) {
            if (e.linkDir >= m_links.size() || !(m_links[e.linkDir].cap > 0) || !(e.fraction > 0))
                throw std::invalid_argument("flow solver: unit crosses a link of zero capacity");
            bound = std::min(bound, m_links[e.linkDir].cap / e.fraction);
        }
        c = createClass(entries, maxRate, bound, classKey, group);
        if (!cells.empty())
            setCells(m_classes[c], cells);
    }
    UnitId id;
    if (!m_freeUnits.empty()) {
        id = m_freeUnits.back();
        m_freeUnits.pop_back();
    } else {
        id = static_cast<UnitId>(m_unitClass.size());
        m_unitClass.push_back(0);
        m_unitAlive.push_back(0);
    }
    Class &k = m_classes[c];
    const bool first = k.units.empty(); // new or woken: live on its links again
    k.units.push_back(id);
    m_unitClass[id] = c;
    m_unitAlive[id] = 1;
    ++m_live;
    for (const RouteEntry &e : k.entries) {
        m_links[e.linkDir].live += first ? 1 : 0;
        addDemand(e.linkDir, e.fraction * k.bound);
    }
    m_dirtyClasses.push_back(c);
    return id;
}

void MaxMinSolver::setCells(Class &k, std::span<const std::uint32_t> cells)
{
    // Any one-to-one numbering will do: certified() only asks which entries share a cell.
    if (++m_cellCall == 0) { // the stamps wrapped: forget them all
        std::fill(m_cellStamp.begin(), m_cellStamp.end(), 0u);
        m_cellCall = 1;
    }
    k.cells.resize(cells.size());
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::uint32_t x = cells[i];
        if (x >= m_cellStamp.size()) {
            m_cellStamp.resize(std::size_t(x) + 1, 0u);
            m_cellNumber.resize(m_cellStamp.size(), 0u);
        }
        if (m_cellStamp[x] != m_cellCall) {
            m_cellStamp[x] = m_cellCall;
            m_cellNumber[x] = count++;
        }
        k.cells[i] = m_cellNumber[x];
    }
    k.cellCount = count;
    std::uint64_t h = kFnvOffset;
    for (std::uint32_t x : k.cells)
        h = mix(h, x);
    k.cellsHash = h;
}

std::uint64_t MaxMinSolver::content(ClassId c) const
{
    const Class &k = m_classes[c];
    if (!k.contentKnown) {
        k.content = hashUnit(k.entries, k.maxRate);
        k.contentKnown = true;
    }
    return k.content;
}

void MaxMinSolver::addDemand(LinkDir ld, double delta, bool clearToZero)
{
    const bool was = critical(ld);
    m_links[ld].demand = clearToZero ? 0.0 : m_links[ld].demand + delta;
    if (critical(ld) != was)
        for (const LinkUse &x : liveOn(ld)) // a dormant class is marked when woken
            m_classes[x.cls].criticalStale = true;
}

const std::vector<std::uint32_t> &MaxMinSolver::criticalEntries(ClassId c)
{
    Class &k = m_classes[c];
    if (k.criticalStale) {
        k.criticalEntries.clear();
        for (std::uint32_t i = 0; i < k.entries.size(); ++i)
            if (critical(k.entries[i].linkDir))
                k.criticalEntries.push_back(i);
        k.criticalStale = false;
    }
    return k.criticalEntries;
}

MaxMinSolver::ClassId MaxMinSolver::findClass(std::span<const RouteEntry> entries, double maxRate,
                                              std::uint64_t classKey, std::uint32_t group)
{
    if (group != 0) { // an aggregate: never a live class, a dormant one of its key
        const auto it = m_dormantAggregates.find(classKey);
        if (it == m_dormantAggregates.end())
            return kNoClass;
        const ClassId c = it->second;
        Class &k = m_classes[c];
        if (k.maxRate != maxRate || !sameEntries(k.entries, entries))
            return kNoClass; // not the caller's promise: leave it to its key's next use
        m_dormantAggregates.erase(it);
        wake(c);
        k.group = group;
        return c;
    }
    if (classKey != 0) {
        const auto it = m_byKey.find(classKey);
        if (it == m_byKey.end())
            return kNoClass;
        if (m_dormant[it->second])
            wake(it->second);
        return it->second;
    }
    for (auto [it, end] = m_byHash.equal_range(hashUnit(entries, maxRate)); it != end; ++it) {
        const Class &k = m_classes[it->second];
        if (k.maxRate == maxRate && sameEntries(k.entries, entries))
            return it->second;
    }
    return kNoClass;
}

MaxMinSolver::ClassId MaxMinSolver::createClass(std::span<const RouteEntry> entries, double maxRate,
                                                double bound, std::uint64_t classKey,
                                                std::uint32_t group)
{
    const std::uint64_t h = classKey != 0 ? classKey : hashUnit(entries, maxRate);
    ClassId c;
    if (!m_freeClasses.empty()) {
        c = m_freeClasses.back();
        m_freeClasses.pop_back();
    } else {
        c = static_cast<ClassId>(m_classes.size());
        m_classes.emplace_back();
        m_classMark.push_back(0);
        m_frozen.push_back(0);
        m_dormant.push_back(0);
    }
    Class &k = m_classes[c];
    k.entries.assign(entries.begin(), entries.end());
    k.use.resize(k.entries.size());
    k.maxRate = maxRate;
    k.bound = bound;
    k.rate = 0;
    k.hash = h;
    k.content = h;
    k.contentKnown = classKey == 0;
    k.keyed = classKey != 0;
    k.byKey = classKey != 0 && group == 0;
    k.group = group;
    k.criticalStale = true;
    for (std::uint32_t i = 0; i < k.entries.size(); ++i) {
        const RouteEntry &e = k.entries[i];
        auto &v = m_onLink[e.linkDir];
        k.use[i] = static_cast<std::uint32_t>(v.size());
        v.push_back({c, i, e.fraction});
    }
    makeLive(c);
    if (k.byKey)
        m_byKey.emplace(h, c);
    else if (!k.keyed)
        m_byHash.emplace(h, c);
    return c;
}

void MaxMinSolver::retireClass(ClassId c)
{
    Class &k = m_classes[c];
    // A class of the caller's key, or an aggregate whose key has no dormant class yet, may
    // come back; classes found by content seldom do.
    const bool keep = m_dormantLimit > 0 && !k.entries.empty()
        && (k.byKey || (k.group != 0 && m_dormantAggregates.emplace(k.hash, c).second));
    if (!keep) {
        dropClass(c);
        return;
    }
    m_dormant[c] = 1;
    makeDormant(c);
    k.rate = 0;
    m_frozen[c] = 1; // fill() freezes no class that is not in its component
    k.retired = ++m_retireStamp;
    m_dormantQueue.emplace_back(c, k.retired);
    ++m_dormantClasses;
    m_dormantEntries += k.entries.size();
    evictDormant(m_dormantLimit);
    if (m_dormantQueue.size() > 2 * m_dormantClasses + 1024) // woken ones leave stale pairs
        std::erase_if(m_dormantQueue, [this](const std::pair<ClassId, std::uint32_t> &x) {
            return !m_dormant[x.first] || m_classes[x.first].retired != x.second;
        });
}

void MaxMinSolver::wake(ClassId c)
{
    Class &k = m_classes[c];
    m_dormant[c] = 0;
    makeLive(c);
    k.criticalStale = true; // addDemand() passed it by while it slept
    --m_dormantClasses;
    m_dormantEntries -= k.entries.size();
}

void MaxMinSolver::evictDormant(std::size_t entries)
{
    while (m_dormantEntries > entries && !m_dormantQueue.empty()) {
        const auto [c, stamp] = m_dormantQueue.front();
        m_dormantQueue.pop_front();
        if (m_dormant[c] && m_classes[c].retired == stamp)
            dropClass(c);
    }
    if (m_dormantClasses == 0)
        m_dormantQueue.clear();
}

void MaxMinSolver::setDormantLimit(std::size_t entries)
{
    m_dormantLimit = entries;
    evictDormant(entries);
}

void MaxMinSolver::remove(UnitId id)
{
    if (id >= m_unitAlive.size())
        throw std::out_of_range("flow solver: unknown unit");
    if (!m_unitAlive[id])
        return;
    const ClassId c = m_unitClass[id];
    Class &k = m_classes[c];
    const bool last = k.units.size() == 1;
    for (const RouteEntry &e : k.entries) {
        const LinkDir ld = e.linkDir;
        // The other units of a link that could bind may speed up; elsewhere only the load drops
        // (nothing to do when loads are not kept: the rates do not change).
        if (critical(ld))
            m_dirtyLinks.push_back(ld);
        else if (m_trackLoads)
            m_loadLinks.push_back(ld);
        // The last live class leaving a direction leaves it no demand (no rounding residue).
        const bool empty = last && m_links[ld].live == 1;
        m_links[ld].live -= last ? 1 : 0;
        addDemand(ld, -e.fraction * k.bound, empty);
    }
    auto it = std::find(k.units.begin(), k.units.end(), id);
    *it = k.units.back();
    k.units.pop_back();
    if (last)
        retireClass(c);
    else
        m_dirtyClasses.push_back(c);
    m_unitAlive[id] = 0;
    --m_live;
    m_freeUnits.push_back(id);
}

void MaxMinSolver::swapUses(LinkDir ld, std::uint32_t a, std::uint32_t b)
{
    if (a == b)
        return;
    auto &v = m_onLink[ld];
    std::swap(v[a], v[b]);
    m_classes[v[a].cls].use[v[a].entry] = a;
    m_classes[v[b].cls].use[v[b].entry] = b;
}

void MaxMinSolver::makeLive(ClassId c)
{
    const Class &k = m_classes[c];
    for (std::uint32_t i = 0; i < k.entries.size(); ++i) {
        const LinkDir ld = k.entries[i].linkDir;
        swapUses(ld, k.use[i], m_liveUses[ld]++);
    }
}

void MaxMinSolver::makeDormant(ClassId c)
{
    const Class &k = m_classes[c];
    for (std::uint32_t i = 0; i < k.entries.size(); ++i) {
        const LinkDir ld = k.entries[i].linkDir;
        swapUses(ld, k.use[i], --m_liveUses[ld]);
    }
}

void MaxMinSolver::dropClass(ClassId c)
{
    Class &k = m_classes[c];
    if (m_dormant[c]) {
        wake(c); // no longer kept
        if (const auto it = m_dormantAggregates.find(k.hash);
            k.group != 0 && it != m_dormantAggregates.end() && it->second == c)
            m_dormantAggregates.erase(it);
    }
    makeDormant(c); // out of the live prefixes, then off the directions
    for (std::uint32_t i = 0; i < k.entries.size(); ++i) {
        auto &v = m_onLink[k.entries[i].linkDir];
        const std::uint32_t at = k.use[i];
        v[at] = v.back();
        m_classes[v[at].cls].use[v[at].entry] = at;
        v.pop_back();
    }
    if (k.byKey)
        m_byKey.erase(k.hash);
    else if (!k.keyed)
        for (auto [it, end] = m_byHash.equal_range(k.hash); it != end; ++it)
            if (it->second == c) {
                m_byHash.erase(it);
                break;
            }
    k.rate = 0;
    // A small class's vectors keep their memory for the next class made in this slot (classes
    // come and go with every phase); a wide one's is given back.
    const auto empty = [](auto &v) {
        constexpr std::size_t kKeepBytes = 4096;
        if (v.capacity() * sizeof(v[0]) <= kKeepBytes)
            v.clear();
        else
            v = {};
    };
    empty(k.entries);
    empty(k.use);
    empty(k.cells);
    empty(k.criticalEntries);
    k.cellCount = 0;
    k.cellsHash = 0;
    k.criticalStale = true;
    m_freeClasses.push_back(c);
}

void MaxMinSolver::clear()
{
    for (UnitId id = 0; id < m_unitAlive.size(); ++id)
        if (m_unitAlive[id])
            remove(id);
    evictDormant(0);
    m_dirtyLinks.clear();
    m_loadLinks.clear();
    m_dirtyClasses.clear();
    std::fill(m_load.begin(), m_load.end(), 0.0);
}

// Gathers the components reachable from the dirty classes and links over critical links, and
// every link direction their classes cross (their loads change with the rates).
void MaxMinSolver::collectComponent(std::vector<ClassId> &classes, std::vector<LinkDir> &linkDirs)
{
    const std::uint32_t mark = ++m_mark;
    m_stack.clear();
    auto visitLink = [&](LinkDir ld, bool expand) {
        if (m_linkMark[ld] == mark)
            return;
        m_linkMark[ld] = mark;
        linkDirs.push_back(ld);
        m_critical[ld] = critical(ld);
        if (expand || m_critical[ld])
            m_stack.push_back(ld);
    };
    auto visitClass = [&](ClassId c) {
        if (m_classMark[c] == mark || m_dormant[c] || m_classes[c].units.empty())
            return;
        m_classMark[c] = mark;
        classes.push_back(c);
        // Without loads to keep, the directions that cannot saturate play no part: only the
        // critical ones are visited (the component and the rates are the same).
        const Class &k = m_classes[c];
        if (m_trackLoads)
            for (const RouteEntry &e : k.entries)
                visitLink(e.linkDir, false);
        else
            for (std::uint32_t i : criticalEntries(c))
                visitLink(k.entries[i].linkDir, false);
    };
    for (LinkDir ld : m_dirtyLinks)
        visitLink(ld, true);
    for (LinkDir ld : m_loadLinks)
        visitLink(ld, false);
    for (ClassId c : m_dirtyClasses)
        visitClass(c);
    while (!m_stack.empty()) {
        const LinkDir ld = m_stack.back();
        m_stack.pop_back();
        for (const LinkUse &x : liveOn(ld))
            visitClass(x.cls);
    }
    m_dirtyClasses.clear();
    m_dirtyLinks.clear();
    m_loadLinks.clear();
}

bool MaxMinSolver::certified(ClassId c)
{
    const Class &k = m_classes[c];
    constexpr double kSlack = 1e-9; // relative, against rounding
    if (k.rate >= k.maxRate * (1 - kSlack))
        return true;
    m_cellOk.assign(k.cellCount, 1);
    for (std::size_t i = 0; i < k.entries.size(); ++i) {
        const std::uint32_t cell = k.cells[i];
        if (!m_cellOk[cell])
            continue;
        const LinkDir ld = k.entries[i].linkDir;
        // fill() left the loads of the directions that cannot saturate to be summed here when
        // they are not kept (the same sum over the same classes).
        const double load = m_trackLoads || critical(ld) ? m_load[ld] : summedLoad(ld);
        bool ok = load >= m_links[ld].cap * (1 - kSlack);
        for (const LinkUse &x : liveOn(ld)) {
            if (!ok)
                break;
            ok = m_classes[x.cls].rate <= k.rate * (1 + kSlack);
        }
        m_cellOk[cell] = ok ? 1 : 0;
    }
    return std::any_of(m_cellOk.begin(), m_cellOk.end(), [](char ok) { return ok != 0; });
}

void MaxMinSolver::solve(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs,
                         std::vector<std::uint32_t> &mixedGroups)
{
    units.clear();
    linkDirs.clear();
    mixedGroups.clear();
    if (m_dirtyClasses.empty() && m_dirtyLinks.empty() && m_loadLinks.empty())
        return;
    m_scratchClasses.clear();
    collectComponent(m_scratchClasses, linkDirs);
    ++m_solves;
    if (recall(linkDirs)) {
        for (ClassId c : m_scratchClasses)
            units.insert(units.end(), m_classes[c].units.begin(), m_classes[c].units.end());
        return;
    }
    fill(m_scratchClasses, linkDirs);
    for (ClassId c : m_scratchClasses)
        if (!m_classes[c].cells.empty() && !certified(c))
            mixedGroups.push_back(m_classes[c].group);
    if (!mixedGroups.empty()) {
        std::sort(mixedGroups.begin(), mixedGroups.end());
        mixedGroups.erase(std::unique(mixedGroups.begin(), mixedGroups.end()), mixedGroups.end());
        // Keep the components pending: the caller splits the groups, then solves again.
        m_dirtyClasses = m_scratchClasses;
        m_loadLinks = linkDirs;
        linkDirs.clear();
        return;
    }
    remember(linkDirs);
    for (ClassId c : m_scratchClasses)
        units.insert(units.end(), m_classes[c].units.begin(), m_classes[c].units.end());
}

void MaxMinSolver::setMemoLimit(std::size_t entries)
{
    m_memoLimit = entries;
    if (m_memoEntries > m_memoLimit) {
        m_memo.clear();
        m_memoEntries = 0;
    }
}

bool MaxMinSolver::recall(const std::vector<LinkDir> &linkDirs)
{
    if (m_memoLimit == 0)
        return false;
    m_memoOrder.clear();
    for (ClassId c : m_scratchClasses) {
        const Class &k = m_classes[c];
        m_memoOrder.emplace_back(mix(mix(content(c), k.units.size()), k.cellsHash), c);
    }
    std::sort(m_memoOrder.begin(), m_memoOrder.end());
    m_memoKey.clear();
    std::uint64_t h = kFnvOffset;
    for (const auto &[signature, c] : m_memoOrder) {
        m_memoKey.push_back(signature);
        h = mix(h, signature);
    }
    m_memoHash = h;
    const auto it = m_memo.find(h);
    if (it == m_memo.end() || it->second.key != m_memoKey)
        return false;
    // Identical classes of one component get the same rate (max-min fairness treats identical
    // units alike), so the order among equal signatures does not matter.
    for (std::size_t i = 0; i < m_memoOrder.size(); ++i)
        m_classes[m_memoOrder[i].second].rate = it->second.rates[i];
    // A critical direction's classes are all in the component, so its load recurs with it; the
    // others' loads are summed over every class crossing them, as fill() leaves them.
    for (const auto &[ld, load] : it->second.criticalLoads)
        m_load[ld] = load;
    if (m_trackLoads)
        for (LinkDir ld : linkDirs)
            if (!m_critical[ld])
                m_load[ld] = summedLoad(ld);
    ++m_memoHits;
    return true;
}

void MaxMinSolver::remember(const std::vector<LinkDir> &linkDirs)
{
    if (m_memoLimit == 0 || m_memoKey.size() != m_scratchClasses.size())
        return;
    if (m_memoEntries + m_memoKey.size() > m_memoLimit) {
        m_memo.clear();
        m_memoEntries = 0;
    }
    Memo &memo = m_memo[m_memoHash];
    m_memoEntries -= memo.key.size() + memo.criticalLoads.size();
    memo.key = m_memoKey;
    memo.rates.clear();
    for (const auto &[signature, c] : m_memoOrder)
        memo.rates.push_back(m_classes[c].rate);
    memo.criticalLoads.clear();
    for (LinkDir ld : linkDirs)
        if (m_critical[ld])
            memo.criticalLoads.emplace_back(ld, m_load[ld]);
    m_memoEntries += memo.key.size() + memo.criticalLoads.size();
}

void MaxMinSolver::pushItem(Item item)
{
    m_heap.push_back(item);
    std::push_heap(m_heap.begin(), m_heap.end(), std::greater<> {});
}

void MaxMinSolver::fill(const std::vector<ClassId> &classes, const std::vector<LinkDir> &linkDirs)
{
    for (LinkDir ld : linkDirs) {
        m_weight[ld] = 0;
        m_frozenLoad[ld] = 0;
        m_count[ld] = 0;
    }
    for (ClassId c : classes) {
        m_frozen[c] = 0;
        const Class &k = m_classes[c];
        const double n = static_cast<double>(k.units.size());
        for (std::uint32_t i : criticalEntries(c)) {
            const RouteEntry &e = k.entries[i];
            m_weight[e.linkDir] += e.fraction * n;
            ++m_count[e.linkDir];
        }
    }
    // Heap of saturation levels: a critical link direction saturates at (cap - frozen load) /
    // weight of its unfrozen classes; a class stops at its own cap. A link's level only rises
    // as classes freeze (a class freezes at a level no higher than the link's), so each link
    // has one heap item whose key is a lower bound of its level: when it comes out on top, its
    // level is recomputed, and it goes back in when that is higher (lazy re-keying: one push per
    // link per time it surfaces, not one per class frozen on it). The link on top with a
    // current key is then the lowest. Every class has a critical link or a cap (the one that
    // sets its bound), so every class freezes.
    m_heap.clear();
    for (LinkDir ld : linkDirs)
        if (m_critical[ld] && m_count[ld] > 0)
            pushItem({m_links[ld].cap / m_weight[ld], ld, 0});
    for (ClassId c : classes)
        if (m_classes[c].maxRate < kInf)
            pushItem({m_classes[c].maxRate, c, kClassItem});
    double level = 0;
    std::size_t unfrozen = classes.size();
    auto freeze = [&](ClassId c) {
        m_frozen[c] = 1;
        --unfrozen;
        Class &k = m_classes[c];
        k.rate = level;
        const double n = static_cast<double>(k.units.size());
        for (std::uint32_t i : k.criticalEntries) { // current: read by the loop above
            const RouteEntry &e = k.entries[i];
            const LinkDir ld = e.linkDir;
            m_frozenLoad[ld] += e.fraction * n * level;
            if (--m_count[ld] == 0)
                continue;
            m_weight[ld] -= e.fraction * n;
        }
    };
    while (unfrozen > 0 && !m_heap.empty()) {
        std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<> {});
        const Item it = m_heap.back();
        m_heap.pop_back();
        if (it.version == kClassItem) {
            if (m_frozen[it.index])
                continue;
            level = std::max(level, it.level);
            freeze(it.index);
            continue;
        }
        const LinkDir ld = it.index;
        if (m_count[ld] == 0)
            continue;
        const double w = std::max(m_weight[ld], 1e-300);
        const double current = std::max(level, (m_links[ld].cap - m_frozenLoad[ld]) / w);
        if (current > it.level) { // classes froze on it since it was keyed
            pushItem({current, ld, 0});
            continue;
        }
        level = std::max(level, it.level);
        for (const LinkUse &x : liveOn(it.index))
            if (!m_frozen[x.cls])
                freeze(x.cls);
    }
    // A critical link's classes are all in the component; a link that cannot bind may also
    // carry classes of other components, so its load is summed over all of them (when kept).
    for (LinkDir ld : linkDirs) {
        if (m_critical[ld])
            m_load[ld] = m_frozenLoad[ld];
        else if (m_trackLoads)
            m_load[ld] = summedLoad(ld);
    }
}

double MaxMinSolver::summedLoad(LinkDir ld) const
{
    double load = 0;
    for (const LinkUse &x : liveOn(ld)) {
        const Class &k = m_classes[x.cls];
        load += k.rate * x.weight * static_cast<double>(k.units.size());
    }
    return load;
}

} // namespace weft
