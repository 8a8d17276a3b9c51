// MaxMinSolver's progressive filling (lazy re-keying of the saturation heap, flowsolver.cpp)
// against a textbook water-filling written out here (Bertsekas & Gallager, "Data Networks",
// 2nd ed., sec. 6.5.2): every unit grows at the same pace until a link direction saturates or
// it reaches its cap. Random instances with many units per link (cascades of freezes, the case
// the lazy heap changes), identical units and caps, added and removed incrementally: the
// solver's rates equal the reference's to 1e-9 relative.
#include "seededdraws.h"
#include "sim/flowsolver.h"

#include <QtTest>
#include <cmath>
#include <limits>

using namespace weft;

namespace {

struct RefUnit
{
    std::vector<RouteEntry> entries;
    double cap = std::numeric_limits<double>::infinity();
};

// Max-min fair rates of `units` on link directions of capacity `cap`, bytes/s.
std::vector<double> waterFill(const std::vector<double> &cap, const std::vector<RefUnit> &units)
{
    const std::size_t n = units.size();
    std::vector<double> rate(n, 0);
    std::vector<char> frozen(n, 0);
    std::size_t left = n;
    double level = 0;
    while (left > 0) {
        // The next level: the lowest at which a link saturates or an unfrozen unit hits its cap.
        double next = std::numeric_limits<double>::infinity();
        std::vector<double> frozenLoad(cap.size(), 0), weight(cap.size(), 0);
        for (std::size_t u = 0; u < n; ++u)
            for (const RouteEntry &e : units[u].entries)
                (frozen[u] ? frozenLoad[e.linkDir] += e.fraction * rate[u]
                           : weight[e.linkDir] += e.fraction);
        for (std::size_t ld = 0; ld < cap.size(); ++ld)
            if (weight[ld] > 0)
                next = std::min(next, (cap[ld] - frozenLoad[ld]) / weight[ld]);
        for (std::size_t u = 0; u < n; ++u)
            if (!frozen[u])
                next = std::min(next, units[u].cap);
        level = std::max(level, next);
        // Freeze every unit on a link saturated at that level (to rounding) or at its cap.
        std::vector<char> full(cap.size(), 0);
        for (std::size_t ld = 0; ld < cap.size(); ++ld)
            full[ld]
                = weight[ld] > 0 && frozenLoad[ld] + weight[ld] * level >= cap[ld] * (1 - 1e-12);
        for (std::size_t u = 0; u < n; ++u) {
            if (frozen[u])
                continue;
            bool stop = units[u].cap <= level * (1 + 1e-12);
            for (const RouteEntry &e : units[u].entries)
                stop = stop || full[e.linkDir];
            if (stop) {
                frozen[u] = 1;
                rate[u] = level;
                --left;
            }
        }
    }
    return rate;
}

} // namespace

class TestFlowSolverFill : public QObject
{
    Q_OBJECT
private slots:
    void matchesWaterFilling()
    {
        test::SeededDraws next(20261205);
        int compared = 0;
        for (int round = 0; round < 60; ++round) {
            const int links = 4 + next(20);
            std::vector<double> cap;
            for (int i = 0; i < links; ++i) // few distinct capacities: many ties
                cap.push_back(next(3) == 0 ? 4.0 : 1.0 + next(2));
            MaxMinSolver solver(cap);
            solver.setTrackLoads(next(2) == 0);
            std::vector<MaxMinSolver::UnitId> ids;
            std::vector<RefUnit> ref;
            for (int step = 0; step < 60; ++step) {
                if (!ids.empty() && next(4) == 0) {
                    const std::size_t k = static_cast<std::size_t>(next(int(ids.size())));
                    solver.remove(ids[k]);
                    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(k));
                    ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(k));
                } else {
                    RefUnit u;
                    if (!ref.empty() && next(4) == 0) {
                        u = ref[static_cast<std::size_t>(next(int(ref.size())))]; // identical
                    } else {
                        for (int ld = 0; ld < links; ++ld)
                            if (next(3) == 0) // wide units: many links each, as a DP ring
                                u.entries.push_back(
                                    {static_cast<LinkDir>(ld), 0.25 * (1 + next(4))});
                        if (u.entries.empty() || next(5) == 0)
                            u.cap = 0.25 + 0.25 * next(8);
                    }
                    ids.push_back(solver.add(u.entries, u.cap));
                    ref.push_back(u);
                }
                std::vector<MaxMinSolver::UnitId> units;
                std::vector<LinkDir> dirs;
                solver.solve(units, dirs);
                const std::vector<double> expected = waterFill(cap, ref);
                for (std::size_t i = 0; i < ids.size(); ++i) {
                    const double got = solver.rate(ids[i]);
                    if (std::abs(got - expected[i]) > 1e-9 * expected[i])
                        QFAIL(qPrintable(QStringLiteral("round %1 step %2 unit %3: %4 vs %5")
                                             .arg(round)
                                             .arg(step)
                                             .arg(i)
                                             .arg(got, 0, 'g', 17)
                                             .arg(expected[i], 0, 'g', 17)));
                    ++compared;
                }
            }
        }
        QVERIFY(compared > 10000);
    }
};

QTEST_GUILESS_MAIN(TestFlowSolverFill)
#include "tst_flowsolverfill.moc"
