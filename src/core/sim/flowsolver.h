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
// The solver is incremental: the allocation decomposes over connected components of the
// unit/link incidence graph, so after adding or removing units only the components they touch
// are recomputed, each in O(E log E) for its E (unit, link) incidences.

#include "sim/routing.h"

#include <cstdint>
#include <limits>
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
    UnitId add(std::vector<RouteEntry> entries,
               double maxRate = std::numeric_limits<double>::infinity());
    /// Removes a unit; its links are re-solved at the next solve().
    void remove(UnitId u);
    /// Recomputes the components touched since the last call. Fills `units` with every live
    /// unit whose rate was recomputed and `linkDirs` with every link direction whose load was.
    void solve(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs);
    /// Removes every unit.
    void clear();

    [[nodiscard]] double rate(UnitId u) const { return m_units[u].rate; }
    /// Current load of a link direction: sum over its units of rate x weight, bytes/s.
    [[nodiscard]] double load(LinkDir ld) const { return m_load[ld]; }
    [[nodiscard]] double capacity(LinkDir ld) const { return m_cap[ld]; }
    [[nodiscard]] const std::vector<RouteEntry> &entries(UnitId u) const
    {
        return m_units[u].entries;
    }
    [[nodiscard]] std::size_t liveUnits() const { return m_live; }

private:
    struct Unit
    {
        std::vector<RouteEntry> entries;
        double maxRate = 0;
        double rate = 0;
        bool alive = false;
    };

    void collectComponent(std::vector<UnitId> &units, std::vector<LinkDir> &linkDirs);
    void fill(const std::vector<UnitId> &units, const std::vector<LinkDir> &linkDirs);

    std::vector<double> m_cap;
    std::vector<double> m_load;
    std::vector<std::vector<UnitId>> m_onLink; ///< live units crossing each link direction
    std::vector<Unit> m_units;
    std::vector<UnitId> m_free;
    std::size_t m_live = 0;
    std::vector<LinkDir> m_dirtyLinks;
    std::vector<UnitId> m_dirtyUnits;
    // progressive-filling scratch, per link direction / unit
    std::vector<std::uint32_t> m_linkMark, m_unitMark;
    std::uint32_t m_mark = 0;
    std::vector<double> m_weight, m_frozenLoad;
    std::vector<std::uint32_t> m_count, m_version;
    std::vector<char> m_frozen;
};

} // namespace weft
