#pragma once
// Max-min fair bandwidth sharing (simulator.md, Communication: Bandwidth sharing).
//
// Progressive filling (Bertsekas & Gallager, "Data Networks", 2nd ed., sec. 6.5.2): every
// unfrozen unit's rate grows at the same pace; when a link direction saturates, the units
// crossing it freeze at the current level; repeat until every unit is frozen. A unit is one flow
// or a coupled set of flows (a pipelined ring) that advances at one rate; it loads a link
// direction with `rate x weight` (the weight is the fraction of its bytes routed there, summed
// over its member flows). A unit may also have its own rate cap (in-switch reduction throughput).
//
// The solver is incremental, and it leaves out work that cannot change a rate:
//  - Identical units (the same link directions with the same weights and the same cap, such as
//    the gradient buckets of one DP ring in flight together) get the same max-min rate by
//    symmetry, so they are solved as one class of k units: weight k x w on each of its links.
//  - A unit's rate never exceeds its bound, its rate alone on the fabric: min(cap, min over its
//    links of capacity / weight). A link direction whose demand (sum over its units of weight x
//    bound) stays within its capacity can never saturate and constrains no rate: only
//    *critical* link directions (demand > capacity) take part in progressive filling.
//  - The allocation decomposes over connected components of the class / critical-link incidence
//    graph, so after adding or removing units only the components they touch are recomputed,
//    each in O(C + L log L) for its C (class, critical link) incidences and L critical links
//    (each class keeps the list of its critical entries; a link's heap key is refreshed only
//    when it surfaces), plus O(E) for the loads of all its E incidences when loads are kept
//    (setTrackLoads). On a non-blocking fat tree the spine and core links of a collective
//    are not critical, so collectives on different NICs stay in different components.
//
//  - Components recur: the same phases of the same collectives meet the same traffic with every
//    micro-batch (a 256-GPU MoE step solves ~300k components, of which ~800 are distinct). The
//    rates of a component are a function of its classes' contents (entries and cap, a 64-bit
//    hash), their unit counts and, for aggregates, their link classes (see below): the critical
//    link directions are those of its classes whose demand exceeds capacity, and every class
//    crossing one is in the component. So solve() keeps the rates of each component it solved
//    and certified, keyed by those signatures sorted, and gives a recurring component the same
//    rates without progressive filling or certificates (setMemoLimit; the key is compared whole,
//    so only a collision of two classes' 64-bit content hashes could mislead it).
//  - A class whose last unit leaves stays registered on its link directions, *dormant* (no
//    units, rate 0, no demand), when the caller may add it again: a class found by the caller's
//    key, or an aggregate (below) whose key names it (the same phase's classes come back with
//    every micro-batch). Adding it again then costs its demand only, not the registration on
//    each of its directions (most of the solver's time on a wide fabric). The least recently
//    retired dormant classes are dropped past setDormantLimit() entries in all. Dormant classes
//    take no part in any solve: the rates are the same with any limit.
//
// Aggregated units (FlowNetwork's symmetry classes of a phase, flowclasses.h) carry a non-zero
// *group* and, per entry, the class of its link direction (`cells`). Their rate is the rate of
// each member flow if the per-flow expansion is max-min fair, which solve() certifies after
// every fill: the unit is at its cap, or for some link class it touches, every direction of
// that class is saturated and carries no faster unit (then each member, which crosses one of
// them, has a bottleneck; the other units keep theirs; and the max-min fair allocation is the
// unique one where every flow has a bottleneck: Bertsekas & Gallager sec. 6.5.2). Without a
// certificate the group is reported for the caller to split into single flows.

#include "sim/routing.h"

#include <cstdint>
#include <deque>
#include <limits>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace weft {

class MaxMinSolver
{
public:
    using UnitId = std::uint32_t;

    /// `capacity[ld]`: achievable bytes/s of each link direction (> 0 for any that is used).
    explicit MaxMinSolver(std::vector<double> capacity);

    /// Adds a unit loading `entries` (link direction, weight > 0; each direction once) with an
    /// optional rate cap (bytes/s, +inf for none). Its rate is 0 until the next solve().
    /// `classKey` (non-zero) is the caller's promise that every unit added with this key has the
    /// same entries and cap, so it joins their class without the entries being compared; with
    /// 0 the solver finds identical units itself.
    /// `group` (non-zero): the unit is an aggregate of that group (see above): it makes a
    /// class of its own, never shared with a live unit; its `classKey` names its entries, cap
    /// and cells, so a dormant class of that key (with the same entries and cap) is woken for
    /// it; `cells` (one per entry, or empty for a unit of one flow) the class of each entry's
    /// link direction. Throws std::invalid_argument for a cap that is not positive, a unit
    /// without links or cap, a link direction out of range or of zero capacity, a weight that
    /// is not positive, an aggregate without a key, or cells without an aggregate or not one
    /// per entry.
    UnitId add(std::span<const RouteEntry> entries,
               double maxRate = std::numeric_limits<double>::infinity(), std::uint64_t classKey = 0,
               std::uint32_t group = 0, std::span<const std::uint32_t> cells = {});
    /// Removes a unit; its links are re-solved at the next solve().
    void remove(UnitId u);
    /// Recomputes the components touched since the last call. Fills `units` with every live
    /// unit whose rate was recomputed and `linkDirs` with every link direction whose load was.
    /// If an aggregate unit of those components has no certificate (see above), the rates
    /// are not to be used: `mixedGroups` gets the groups of such units (sorted, once each),
    /// the components stay pending, and the caller splits the groups and solves again.
    void solve(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs,
               std::vector<std::uint32_t> &mixedGroups);
    void solve(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs)
    {
        std::vector<std::uint32_t> mixed;
        solve(units, linkDirs, mixed);
        if (!mixed.empty())
            throw std::logic_error("flow solver: aggregate units without a certificate");
    }
    /// Removes every unit (and forgets the dormant classes).
    void clear();
    /// Most entries (link directions, summed over the classes) kept in dormant classes; past
    /// it the least recently retired are dropped (0 keeps none). Default kDormantEntries.
    void setDormantLimit(std::size_t entries);
    static constexpr std::size_t kDormantEntries = std::size_t(1) << 21;
    /// Whether load() is kept for link directions that cannot saturate (default true). Off,
    /// load() is current only for critical ones (critical()): the rates never depend on the
    /// others, so a caller that reads no loads (a network without link statistics) saves the
    /// sum over every class crossing each of them at every solve. Rates are the same either way.
    void setTrackLoads(bool on) { m_trackLoads = on; }
    /// Most entries (class signatures and critical directions' loads, summed over the
    /// remembered components) kept for recurring components (see above); past it the memory is
    /// cleared and refilled. 0 turns the memory
    /// off (every component is filled; the rates agree to rounding). Default kMemoEntries.
    void setMemoLimit(std::size_t entries);
    static constexpr std::size_t kMemoEntries = std::size_t(1) << 20;
    /// Solves answered from the memory of recurring components, and all solves (benchmarks).
    [[nodiscard]] std::size_t memoHits() const { return m_memoHits; }
    [[nodiscard]] std::size_t solves() const { return m_solves; }

    [[nodiscard]] double rate(UnitId u) const { return m_classes[m_unitClass[u]].rate; }
    /// Current load of a link direction: sum over its units of rate x weight, bytes/s.
    [[nodiscard]] double load(LinkDir ld) const { return m_load[ld]; }
    [[nodiscard]] double capacity(LinkDir ld) const { return m_links[ld].cap; }
    [[nodiscard]] const std::vector<RouteEntry> &entries(UnitId u) const
    {
        return m_classes[m_unitClass[u]].entries;
    }
    [[nodiscard]] std::size_t liveUnits() const { return m_live; }
    /// One class of identical live units crossing a link direction: its number (stable while
    /// it lives), a hash of its content (entries and cap: equal for identical units of any
    /// class), the weight of one unit and the number of units.
    struct ClassOnLink
    {
        std::uint32_t cls;
        std::uint64_t content;
        double weight;
        std::uint32_t units;
    };
    /// Appends the live classes crossing `ld` to `out`.
    void classesOn(LinkDir ld, std::vector<ClassOnLink> &out) const
    {
        for (const LinkUse &x : liveOn(ld))
            out.push_back({x.cls, content(x.cls), x.weight,
                           static_cast<std::uint32_t>(m_classes[x.cls].units.size())});
    }
    /// Class number of a live unit (as in classesOn).
    [[nodiscard]] std::uint32_t classOf(UnitId u) const { return m_unitClass[u]; }
    /// Classes of identical live units (for tests and benchmarks).
    [[nodiscard]] std::size_t liveClasses() const
    {
        return m_classes.size() - m_freeClasses.size() - m_dormantClasses;
    }
    /// Dormant classes kept (see above), and their entries in all.
    [[nodiscard]] std::size_t dormantClasses() const { return m_dormantClasses; }
    [[nodiscard]] std::size_t dormantEntries() const { return m_dormantEntries; }
    /// Whether a link direction may saturate: the demand of its units at their bounds exceeds
    /// its capacity (with a relative slack of 1e-9 against rounding, which only keeps more).
    [[nodiscard]] bool critical(LinkDir ld) const
    {
        return m_links[ld].demand > m_links[ld].cap * (1 - 1e-9);
    }

private:
    using ClassId = std::uint32_t;
    /// Identical live units, solved as one.
    struct Class
    {
        std::vector<RouteEntry> entries;
        std::vector<std::uint32_t> use; ///< per entry: position in m_onLink[entry.linkDir]
        std::vector<UnitId> units; ///< members; their count multiplies the weights
        double maxRate = 0;
        double bound = 0; ///< rate alone: min(maxRate, capacity / weight over its links)
        double rate = 0;
        std::uint64_t hash = 0; ///< of the entries and cap, or the caller's class key
        /// Of the entries and cap: `hash` for a class found by content, else hashed when first
        /// asked for (content()), since only classesOn() reads it.
        mutable std::uint64_t content = 0;
        mutable bool contentKnown = false;
        bool keyed = false; ///< `hash` is a caller's class key
        bool byKey = false; ///< registered in m_byKey (a keyed class that is not an aggregate)
        std::uint32_t group = 0; ///< aggregate group, 0 for none
        std::vector<std::uint32_t> cells; ///< per entry: link class (dense), aggregates only
        std::uint32_t cellCount = 0;
        std::uint64_t cellsHash = 0; ///< of `cells` (the memory of recurring components)
        /// Indices of the entries on critical link directions, ascending; rebuilt when one of
        /// its directions changes criticality (`criticalStale`). Progressive filling reads
        /// only these, so a wide unit (a DP ring over thousands of directions) costs its few
        /// critical ones per solve.
        std::vector<std::uint32_t> criticalEntries;
        bool criticalStale = true;
        std::uint32_t retired = 0; ///< stamp of its retirement, for the dormant queue
    };
    /// A live class crossing a link direction with the weight of one of its units.
    struct LinkUse
    {
        ClassId cls;
        std::uint32_t entry; ///< index in the class's entries
        double weight;
    };
    struct Item
    {
        double level;
        std::uint32_t index;
        std::uint32_t version; // links: 0; classes: kClassItem
        bool operator>(const Item &o) const { return level > o.level; }
    };

    static constexpr ClassId kNoClass = std::numeric_limits<ClassId>::max();
    /// The live or dormant class a unit with these entries, cap, key and group joins (woken if
    /// dormant), or kNoClass.
    ClassId findClass(std::span<const RouteEntry> entries, double maxRate, std::uint64_t classKey,
                      std::uint32_t group);
    ClassId createClass(std::span<const RouteEntry> entries, double maxRate, double bound,
                        std::uint64_t classKey, std::uint32_t group);
    /// Its last unit has left: dormant if it may come back (see above), else dropped.
    void retireClass(ClassId c);
    void wake(ClassId c);
    /// Drops the least recently retired dormant classes until at most `entries` are kept.
    void evictDormant(std::size_t entries);
    /// Class::content of `c`, hashed on first use.
    [[nodiscard]] std::uint64_t content(ClassId c) const;
    /// Numbers `cells` (link classes) densely into `k.cells` in order of first appearance and
    /// sets `k.cellCount`.
    void setCells(Class &k, std::span<const std::uint32_t> cells);
    [[nodiscard]] bool certified(ClassId c);
    /// Sum over the live classes crossing `ld` of rate x weight x units, bytes/s.
    [[nodiscard]] double summedLoad(LinkDir ld) const;
    void dropClass(ClassId c);
    /// Entries of class `c` on critical link directions (Class::criticalEntries), current.
    const std::vector<std::uint32_t> &criticalEntries(ClassId c);
    /// Adds `delta` to the demand of `ld`; when that changes whether it is critical, the
    /// critical entries of the classes crossing it are rebuilt before their next use.
    void addDemand(LinkDir ld, double delta, bool clearToZero = false);
    void collectComponent(std::vector<ClassId> &classes, std::vector<LinkDir> &linkDirs);
    /// The remembered rates of the component in m_scratchClasses, if it recurs: sets them and
    /// the loads of `linkDirs`. Otherwise leaves m_memoKey / m_memoOrder for remember().
    bool recall(const std::vector<LinkDir> &linkDirs);
    /// Keeps the rates of the component just filled and certified, and the loads of its
    /// critical link directions among `linkDirs`.
    void remember(const std::vector<LinkDir> &linkDirs);
    void fill(const std::vector<ClassId> &classes, const std::vector<LinkDir> &linkDirs);
    void pushItem(Item item);

    /// Per link direction, side by side since adding or removing a unit reads both of each
    /// direction it crosses.
    struct LinkState
    {
        double cap = 0;
        double demand = 0; ///< sum over live units of weight x bound
        std::uint32_t live = 0; ///< live classes crossing it (not dormant)
    };
    std::vector<LinkState> m_links;
    std::vector<double> m_load;
    /// The classes crossing each link direction: the live ones first (m_liveUses of them), the
    /// dormant ones after, so that the scans of a direction's classes pass no dormant one (on a
    /// wide fabric most of a direction's classes are dormant: ~90% in a 256-GPU MoE step).
    std::vector<std::vector<LinkUse>> m_onLink;
    std::vector<std::uint32_t> m_liveUses;
    /// The live uses of `ld` (the prefix of m_onLink[ld]).
    [[nodiscard]] std::span<const LinkUse> liveOn(LinkDir ld) const
    {
        return {m_onLink[ld].data(), m_liveUses[ld]};
    }
    /// Moves the uses of class `c` into the live prefix of their directions, or out of it.
    void makeLive(ClassId c);
    void makeDormant(ClassId c);
    /// Exchanges two uses of `ld` and tells their classes where they are.
    void swapUses(LinkDir ld, std::uint32_t a, std::uint32_t b);
    std::vector<Class> m_classes;
    std::vector<ClassId> m_freeClasses;
    /// Per class: dormant (see above). Apart from the classes, so that the scans of a link
    /// direction's classes pass the dormant ones without reading them.
    std::vector<char> m_dormant;
    std::unordered_multimap<std::uint64_t, ClassId> m_byHash; ///< classes by content hash
    std::unordered_map<std::uint64_t, ClassId> m_byKey; ///< classes by caller's key
    /// Dormant aggregates by their key (one per key), and every dormant class in the order
    /// retired with its stamp (stale pairs are skipped).
    std::unordered_map<std::uint64_t, ClassId> m_dormantAggregates;
    std::deque<std::pair<ClassId, std::uint32_t>> m_dormantQueue;
    std::size_t m_dormantClasses = 0, m_dormantEntries = 0;
    std::size_t m_dormantLimit = kDormantEntries;
    std::uint32_t m_retireStamp = 0;
    std::vector<ClassId> m_unitClass; ///< by unit id (stale for dead units)
    std::vector<char> m_unitAlive;
    std::vector<UnitId> m_freeUnits;
    std::size_t m_live = 0;
    bool m_trackLoads = true; ///< see setTrackLoads()
    std::vector<LinkDir> m_dirtyLinks; ///< critical links of removed units: re-solve their classes
    std::vector<LinkDir> m_loadLinks; ///< other links of removed units: recompute their load
    std::vector<ClassId> m_dirtyClasses;
    // progressive-filling scratch, per link direction / class
    std::vector<std::uint32_t> m_linkMark, m_classMark;
    std::uint32_t m_mark = 0;
    std::vector<double> m_weight, m_frozenLoad;
    std::vector<std::uint32_t> m_count;
    std::vector<char> m_frozen, m_critical;
    std::vector<LinkDir> m_stack;
    std::vector<Item> m_heap;
    std::vector<ClassId> m_scratchClasses;
    /// Remembered components (see above): the sorted class signatures, the rates in that order.
    struct Memo
    {
        std::vector<std::uint64_t> key;
        std::vector<double> rates;
        std::vector<std::pair<LinkDir, double>> criticalLoads;
    };
    std::unordered_map<std::uint64_t, Memo> m_memo;
    std::size_t m_memoEntries = 0, m_memoLimit = kMemoEntries;
    std::size_t m_memoHits = 0, m_solves = 0;
    std::vector<std::pair<std::uint64_t, ClassId>> m_memoOrder; ///< signature, class; sorted
    std::vector<std::uint64_t> m_memoKey;
    std::uint64_t m_memoHash = 0;
    std::vector<char> m_cellOk;
    /// setCells() scratch, per link class: the stamp of the call that numbered it, and its number.
    std::vector<std::uint32_t> m_cellStamp, m_cellNumber;
    std::uint32_t m_cellCall = 0;
};

} // namespace weft
