#include "generate/fabricgenerator.h"

#include "io/designfile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace weft {

namespace {

// Canvas layout, scene units: accelerators and chips on a grid of kPitch, at most kCols wide
// per domain; the domains of a scalable unit in rows (the unit's block about twice as wide as
// tall, so a fitted view reads well; up to kOneRowDomains in a single row); each unit with its own
// leaves (and spines with 3 tiers) above it is a pod, and the pods form a grid about 1.6 times as
// wide as tall (a 2,048-domain fabric at Fit shows its pods, not a strip); tiers kTierGap apart
// upwards from the domains, planes kPlaneGap apart per tier; the shared top tier (spines with 2
// tiers, cores with 3) spans the grid above it, wrapped into rows of at most one switch per
// kTopPitch.
constexpr double kPitch = 40;
/// Rows of accelerators: a 34-unit box and its 14-unit label under it, with air (at 40 the
/// next row covered half of an expanded rack's GPU labels).
constexpr double kAccelRowPitch = 52;
constexpr int kCols = 8;
constexpr double kDomainGap = 60;
constexpr double kRowGap = 80;
constexpr double kSuGap = 240;
constexpr double kTierGap = 250;
constexpr double kPlaneGap = 80;
constexpr double kPodGap = 320; ///< between rows of pods
constexpr double kTopPitch = 64; ///< least distance between switches of the shared top tier
constexpr double kTopRowGap = 56; ///< between rows of the shared top tier
constexpr double kGridAspect = 1.6; ///< width : height of the grid of pods
/// A unit of at most this many domains stands in one row: in two rows the leaves' cables to
/// the second row pass the first row's boxes (8 NVL72 racks looked cabled to each other) and
/// the collapsed boxes left a band as tall as an expanded rack between the rows (issue 18).
constexpr int kOneRowDomains = 8;
/// Rows of domains whose expanded frame is taller than two rows of collapsed boxes (NVL72
/// racks) stand as far apart as the collapsed boxes (62 units, document/tieredlayout.h) plus
/// kRowGap: reserving the expanded height left empty bands between rows of racks (issue 18).
/// An expanded rack is drawn over the boxes below it.
constexpr double kCollapsedRowPitch = 62 + kRowGap;

std::string idx(const char *prefix, std::int64_t i)
{
    return prefix + std::to_string(i);
}

class Builder
{
public:
    Builder(Design &d, const FabricParams &p, const FabricPlan &plan)
        : m_d(d)
        , m_p(p)
        , m_plan(plan)
    {
        const int n = plan.preset.accelerators;
        m_cols = std::min(n, kCols);
        m_chipRows = (plan.preset.scaleUpSwitches + m_cols - 1) / m_cols;
        m_domainWidth = m_cols * kPitch;
        const int accelRows = (n + m_cols - 1) / m_cols;
        const double height
            = (m_chipRows + 2) * kPitch + std::max(0, accelRows - 1) * kAccelRowPitch;
        m_suDomains = static_cast<int>(std::max<std::int64_t>(
            1, plan.suSize > 0 ? std::min<std::int64_t>(plan.suSize, plan.domains) : plan.domains));
        m_rowPitch
            = height + kRowGap > 2 * kCollapsedRowPitch ? kCollapsedRowPitch : height + kRowGap;
        // Rows about twice as wide as the block is tall, balanced (16 racks: 4 x 4, not 3 + 3 +
        // 3 + 3 + 3 + 1).
        const double perRow
            = std::sqrt(2.0 * m_suDomains * m_rowPitch / (m_domainWidth + kDomainGap));
        const int wanted
            = std::clamp(static_cast<int>(std::round(m_suDomains / perRow)), 1, m_suDomains);
        const int unitRows = evenSplit(m_suDomains, wanted, 1);
        m_perRow
            = m_suDomains <= kOneRowDomains ? m_suDomains : (m_suDomains + unitRows - 1) / unitRows;
        // Pods: the unit's rows of domains and the tiers of the unit above them.
        const int podTiers = p.tiers == 3 ? 2 : 1;
        const int planes = std::max(1, p.planes);
        const double rows = std::ceil(double(m_suDomains) / m_perRow);
        m_podTop = podTiers * kTierGap + podTiers * (planes - 1) * kPlaneGap;
        m_podPitch = rows * m_rowPitch + m_podTop + kPodGap;
        const int units = static_cast<int>(std::max<std::int64_t>(1, plan.suCount));
        const double cols
            = std::round(std::sqrt(kGridAspect * units * m_podPitch / (blockWidth() + kSuGap)));
        m_gridCols = evenSplit(units, std::clamp(static_cast<int>(cols), 1, units), 2);
    }

    /// About `wanted` parts of `n` items (rows of domains, columns of pods) such that the parts
    /// are full: a number of parts within `slack` of `wanted` that divides `n` (the fewer parts
    /// on a tie; one part only when one is wanted), else `wanted` parts evened out. 64 pods in 9
    /// columns left one pod alone in an eighth row (issue 18); now 8 x 8. Rows of domains take a
    /// slack of 1 only: the unit's block stays about twice as wide as tall (32 domains stay 6 rows,
    /// not 4 of 8).
    [[nodiscard]] static int evenSplit(int n, int wanted, int slack)
    {
        for (int d = 0; d <= slack; ++d)
            for (const int parts : {wanted - d, wanted + d})
                if (parts >= std::min(wanted, 2) && parts <= n && n % parts == 0)
                    return parts;
        const int size = (n + wanted - 1) / wanted; // items per part
        return (n + size - 1) / size;
    }

    void build()
    {
        reserve();
        const bool fabric = m_p.fabric != FabricKind::None;
        if (fabric) {
            m_suGroups.reserve(static_cast<std::size_t>(m_plan.suCount));
            for (int su = 0; su < m_plan.suCount; ++su) {
                Group g;
                g.kind = GroupKind::ScalableUnit;
                g.name = idx("su", su);
                m_suGroups.push_back(m_d.addGroup(std::move(g)));
            }
        }
        m_firstAccel.reserve(static_cast<std::size_t>(m_plan.domains));
        for (std::int64_t g = 0; g < m_plan.domains; ++g) {
            const GroupId parent
                = fabric ? m_suGroups[static_cast<std::size_t>(g / m_plan.suSize)] : GroupId();
            buildDomain(g, parent);
        }
        if (!fabric)
            return;
        for (int k = 0; k < m_p.planes; ++k)
            buildPlane(k);
    }

private:
    void reserve()
    {
        const FabricPlan &pl = m_plan;
        const std::int64_t n = pl.preset.accelerators;
        const std::int64_t chips = pl.preset.scaleUpSwitches;
        const std::int64_t switches
            = m_p.fabric == FabricKind::None ? 0 : m_p.planes * (pl.leaves + pl.spines + pl.cores);
        const std::int64_t upLinks = chips > 0 ? n * chips : n * (n - 1) / 2;
        std::int64_t links = pl.domains * upLinks;
        if (m_p.fabric != FabricKind::None) {
            const std::int64_t perLeaf = std::min<std::int64_t>(
                pl.leafUplinks, m_p.tiers == 2 ? pl.spines : pl.spinesPerSu);
            links += m_p.planes
                * (pl.domains * pl.railsPerDomain + pl.leaves * perLeaf
                   + pl.spines * std::min(pl.spineUplinks, pl.coresPerGroup));
        }
        m_d.reserve(static_cast<std::size_t>(pl.accelerators + pl.domains * chips + switches),
                    static_cast<std::size_t>(links),
                    static_cast<std::size_t>(pl.domains + pl.suCount));
    }

    [[nodiscard]] double blockWidth() const
    {
        return m_perRow * (m_domainWidth + kDomainGap) - kDomainGap;
    }
    [[nodiscard]] double domainX(std::int64_t g) const
    {
        const std::int64_t inSu = g % m_suDomains;
        return suSpan(static_cast<int>(g / m_suDomains)).first
            + static_cast<double>(inSu % m_perRow) * (m_domainWidth + kDomainGap);
    }
    [[nodiscard]] double domainY(std::int64_t g) const
    {
        return suY(static_cast<int>(g / m_suDomains))
            + static_cast<double>((g % m_suDomains) / m_perRow) * m_rowPitch;
    }
    /// Top of the domains of unit `su` (its row of pods).
    [[nodiscard]] double suY(int su) const { return (su / m_gridCols) * m_podPitch; }
    /// Position of switch `i` of the `n` of the shared top tier of plane `k` of `planes`:
    /// spread over `all` in rows above the pods.
    [[nodiscard]] std::pair<double, double> topTierPos(std::int64_t i, std::int64_t n, int k,
                                                       std::pair<double, double> all) const
    {
        const auto perRow = std::max<std::int64_t>(
            1, static_cast<std::int64_t>((all.second - all.first) / kTopPitch));
        const std::int64_t rows = (n + perRow - 1) / perRow;
        const double band = static_cast<double>(rows - 1) * kTopRowGap + kPlaneGap;
        const std::int64_t row = i / perRow;
        const std::int64_t inRow = std::min(perRow, n - row * perRow);
        return {spread(all, i % perRow, inRow),
                -m_podTop - kTierGap - k * band - static_cast<double>(row) * kTopRowGap};
    }

    void buildDomain(std::int64_t g, GroupId parent)
    {
        const ScaleUpPreset &ps = m_plan.preset;
        Group grp;
        grp.kind = GroupKind::ScaleUpDomain;
        grp.name = ps.key + "-" + std::to_string(g);
        grp.preset = ps.key;
        grp.parent = parent;
        const GroupId gid = m_d.addGroup(std::move(grp));
        const std::string prefix = idx("d", g) + ".";
        const double x0 = domainX(g) + kPitch / 2;
        const double y0 = domainY(g);
        std::vector<NodeId> chips;
        for (int c = 0; c < ps.scaleUpSwitches; ++c) {
            Node sw;
            sw.kind = NodeKind::Switch;
            sw.name = prefix + idx("nvs", c);
            sw.spec = ps.scaleUpSwitch;
            sw.role = SwitchRole::ScaleUp;
            sw.group = gid;
            sw.x = x0 + (c % m_cols) * kPitch;
            sw.y = y0 + (c / m_cols) * kPitch;
            chips.push_back(m_d.addNode(std::move(sw)));
        }
        const double accelY = m_chipRows > 0 ? (m_chipRows + 1) * kPitch : 0;
        const std::uint32_t first = m_d.nextNodeId();
        m_firstAccel.push_back(NodeId(first));
        for (int i = 0; i < ps.accelerators; ++i) {
            Node a;
            a.kind = NodeKind::Accelerator;
            a.name = prefix + idx("gpu", i);
            a.spec = m_plan.accelerator.key;
            a.group = gid;
            a.rail = i;
            a.x = x0 + (i % m_cols) * kPitch;
            a.y = y0 + accelY + (i / m_cols) * kAccelRowPitch;
            const NodeId id = m_d.addNode(std::move(a));
            for (std::size_t c = 0; c < chips.size(); ++c)
                addLink(id, chips[c], m_plan.scaleUpTech, m_plan.scaleUpTech.laneRate,
                        m_plan.lanesToChip[c]);
        }
        if (chips.empty())
            for (int i = 0; i < ps.accelerators; ++i)
                for (int j = i + 1; j < ps.accelerators; ++j)
                    addLink(NodeId(first + i), NodeId(first + j), m_plan.scaleUpTech,
                            m_plan.scaleUpTech.laneRate, m_plan.meshLanes);
    }

    void addLink(NodeId a, NodeId b, const LinkTechSpec &tech, double rate, int lanes)
    {
        Link l;
        l.a = a;
        l.b = b;
        l.tech = tech.key;
        l.rate = rate;
        l.lanes = lanes;
        l.latency = tech.latency;
        m_d.addLink(std::move(l));
    }

    NodeId addSwitch(std::string name, SwitchRole role, int plane, GroupId group, double x,
                     double y)
    {
        Node sw;
        sw.kind = NodeKind::Switch;
        sw.name = std::move(name);
        sw.spec = m_plan.fabricSwitch.key;
        sw.role = role;
        sw.plane = plane;
        sw.group = group;
        sw.x = x;
        sw.y = y;
        return m_d.addNode(std::move(sw));
    }

    /// Span of scalable unit `su` on the canvas, [first domain left, last domain right].
    [[nodiscard]] std::pair<double, double> suSpan(int su) const
    {
        const double left = (su % m_gridCols) * (blockWidth() + kSuGap);
        return {left, left + blockWidth()};
    }

    static double spread(std::pair<double, double> span, std::int64_t i, std::int64_t n)
    {
        return span.first
            + (static_cast<double>(i) + 0.5) * (span.second - span.first) / static_cast<double>(n);
    }

    /// Trunk links from `from` to targets[first + t] with counts[t] cables each.
    void addTrunks(NodeId from, const std::vector<NodeId> &targets, std::size_t first,
                   const std::vector<int> &counts)
    {
        const double rate = m_plan.fabricSwitch.portRate;
        for (std::size_t t = 0; t < counts.size(); ++t)
            if (counts[t] > 0)
                addLink(from, targets[first + t], m_plan.trunkTech, rate, counts[t]);
    }

    void buildPlane(int k)
    {
        const FabricPlan &pl = m_plan;
        const FabricKind kind = m_p.fabric;
        const bool three = m_p.tiers == 3;
        const std::string pre = m_p.planes > 1 ? idx("p", k) + "." : std::string();
        const double leafY = -kTierGap - k * kPlaneGap;
        const double spineY = -2 * kTierGap - (m_p.planes - 1 + k) * kPlaneGap;
        const std::pair<double, double> all {0,
                                             suSpan(std::min(pl.suCount, m_gridCols) - 1).second};

        std::vector<NodeId> spines;
        if (!three)
            for (std::int64_t s = 0; s < pl.spines; ++s) {
                const auto [x, y] = topTierPos(s, pl.spines, k, all);
                spines.push_back(addSwitch(pre + idx("spine", s), SwitchRole::Spine, k, {}, x, y));
            }
        std::int64_t leafIndex = 0;
        for (int su = 0; su < pl.suCount; ++su) {
            const GroupId sg = m_suGroups[static_cast<std::size_t>(su)];
            const auto span = suSpan(su);
            const std::string suPre = pre + idx("su", su) + ".";
            const int nl = pl.leavesInSu(su, kind);
            std::vector<NodeId> leaves;
            for (int l = 0; l < nl; ++l)
                leaves.push_back(addSwitch(suPre + idx("leaf", l), SwitchRole::Leaf, k, sg,
                                           spread(span, l, nl), suY(su) + leafY));
            connectNics(su, leaves);
            if (three) {
                for (int s = 0; s < pl.spinesPerSu; ++s)
                    spines.push_back(addSwitch(suPre + idx("spine", s), SwitchRole::Spine, k, sg,
                                               spread(span, s, pl.spinesPerSu), suY(su) + spineY));
                const std::size_t first = spines.size() - pl.spinesPerSu;
                for (int l = 0; l < nl; ++l)
                    addTrunks(leaves[l], spines, first,
                              dealUplinks(l, pl.leafUplinks, pl.spinesPerSu));
            } else {
                for (int l = 0; l < nl; ++l)
                    addTrunks(
                        leaves[l], spines, 0,
                        dealUplinks(leafIndex + l, pl.leafUplinks, static_cast<int>(pl.spines)));
            }
            leafIndex += nl;
        }
        if (!three)
            return;
        std::vector<NodeId> cores;
        for (std::int64_t c = 0; c < pl.cores; ++c) {
            const auto [x, y] = topTierPos(c, pl.cores, k, all);
            cores.push_back(addSwitch(pre + idx("core", c), SwitchRole::Core, k, {}, x, y));
        }
        // Spine j of every unit goes to core group j (cores [j*cg, (j+1)*cg)).
        for (int su = 0; su < pl.suCount; ++su)
            for (int j = 0; j < pl.spinesPerSu; ++j)
                addTrunks(spines[std::size_t(su) * pl.spinesPerSu + j], cores,
                          std::size_t(j) * pl.coresPerGroup,
                          dealUplinks(su, pl.spineUplinks, pl.coresPerGroup));
    }

    /// NIC links of the domains of unit `su` to its `leaves`.
    void connectNics(int su, const std::vector<NodeId> &leaves)
    {
        const FabricPlan &pl = m_plan;
        const int nics = std::max(1, pl.preset.nicsPerAccelerator);
        const int d = pl.domainsInSu(su);
        const int leavesPerRail = pl.leavesPerRailFor(d);
        const double laneRate = pl.nicLinkRate / pl.nicLinkLanes;
        for (int ld = 0; ld < d; ++ld) {
            const std::int64_t g = std::int64_t(su) * pl.suSize + ld;
            const NodeId first = m_firstAccel[static_cast<std::size_t>(g)];
            for (int r = 0; r < pl.railsPerDomain; ++r) {
                // NIC link r is on tray r / rails, rail r % rails; a rail's leaves take the
                // unit's trays in order.
                const std::size_t tray = std::size_t(ld) * pl.trays + r / pl.rails;
                const std::size_t leaf = m_p.fabric == FabricKind::RailOptimized
                    ? std::size_t(r % pl.rails) * leavesPerRail + tray / pl.nicsPerLeaf
                    : (std::size_t(ld) * pl.railsPerDomain + r) / pl.nicsPerLeaf;
                addLink(NodeId(first.value + r / nics), leaves[leaf], pl.nicTech, laneRate,
                        pl.nicLinkLanes);
            }
        }
    }

    Design &m_d;
    const FabricParams &m_p;
    const FabricPlan &m_plan;
    int m_cols = 1;
    int m_chipRows = 0;
    double m_domainWidth = 0;
    int m_suDomains = 1; ///< domains per scalable unit (all of them without a fabric)
    int m_perRow = 1; ///< domains per row inside a unit
    double m_rowPitch = 0; ///< vertical distance between rows of domains
    double m_podTop = 0; ///< height of a pod's own tiers above its domains
    double m_podPitch = 0; ///< vertical distance between rows of pods
    int m_gridCols = 1; ///< pods per row
    std::vector<GroupId> m_suGroups;
    std::vector<NodeId> m_firstAccel; ///< first accelerator id of each domain (ids consecutive)
};

std::string gbpsText(double bytesPerSecond)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gG", bytesPerSecond * 8 / 1e9);
    return buf;
}

} // namespace

std::string describeFabric(const FabricParams &p, const std::string &accelerator)
{
    std::string s = std::to_string(p.domains) + " x " + p.scaleUpPreset;
    if (!accelerator.empty())
        s += " with " + accelerator;
    if (p.fabric == FabricKind::None)
        return s + ", no scale-out fabric";
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%g:1", p.oversubscription);
    s += std::string(", ") + toString(p.fabric) + ", " + std::to_string(p.tiers) + " tiers of "
        + p.switchModel + ", " + (p.nicRate > 0 ? gbpsText(p.nicRate) : "default") + " NICs, "
        + ratio + ", " + std::to_string(p.planes) + (p.planes == 1 ? " plane" : " planes");
    return s;
}

GenerateResult generateFabric(const FabricParams &params, const Catalog &catalog)
{
    GenerateResult result;
    PlanResult pr = planFabric(params, catalog);
    if (!pr.ok()) {
        result.errors = std::move(pr.errors);
        return result;
    }
    const FabricPlan &plan = pr.plan;
    // What a design file can hold (io/designfile.h): a generated fabric beyond it was written
    // and then refused on open ("New Cluster" and `generate` made a 1.2 M-node design that
    // Weft could not read back). The accelerators and switches alone, before building it;
    // the exact counts after.
    const auto over
        = [&](std::int64_t n, std::size_t limit, const std::string &what, const char *bound = "") {
              if (n > static_cast<std::int64_t>(limit))
                  result.errors.push_back("the fabric would have " + std::string(bound)
                                          + std::to_string(n) + " " + what + ", more than the "
                                          + std::to_string(limit)
                                          + " a design file holds: use fewer domains");
              return n > static_cast<std::int64_t>(limit);
          };
    const std::int64_t planes = std::max(1, params.planes);
    if (over(plan.accelerators + plan.domains * static_cast<std::int64_t>(plan.lanesToChip.size())
                 + planes * (plan.leaves + plan.spines + plan.cores),
             kMaxNodes, "nodes (accelerators and switches)", "at least "))
        return result;
    Design d;
    FabricParams stored = params;
    stored.nicRate = plan.nicRatePerAccelerator; // resolved: regenerating gives the same rate
    d.name = describeFabric(stored);
    d.generator = stored;
    d.hardware.accelerators[plan.accelerator.key] = plan.accelerator;
    if (!plan.scaleUpSwitch.key.empty())
        d.hardware.switches[plan.scaleUpSwitch.key] = plan.scaleUpSwitch;
    if (!plan.scaleUpTech.key.empty())
        d.hardware.linkTechs[plan.scaleUpTech.key] = plan.scaleUpTech;
    if (params.fabric != FabricKind::None) {
        d.hardware.switches[plan.fabricSwitch.key] = plan.fabricSwitch;
        d.hardware.linkTechs[plan.nicTech.key] = plan.nicTech;
        d.hardware.linkTechs[plan.trunkTech.key] = plan.trunkTech;
    }
    Builder(d, params, plan).build();
    const auto count = [](std::size_t n) { return static_cast<std::int64_t>(n); };
    over(count(d.nodes().size()), kMaxNodes, "nodes");
    over(count(d.links().size()), kMaxLinks, "links");
    over(count(d.groups().size()), kMaxGroups, "groups");
    if (result.errors.empty())
        result.design = std::move(d);
    return result;
}

} // namespace weft
