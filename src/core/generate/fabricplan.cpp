#include "generate/fabricplan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace weft {

namespace {

constexpr double kEps = 1e-9;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string gbps(double bytesPerSecond)
{
    return num(bytesPerSecond * 8 / 1e9) + "G";
}

std::string ratio(double r)
{
    return num(r) + ":1";
}

std::string switchLabel(const SwitchSpec &s)
{
    return s.key + " (radix " + std::to_string(s.radix) + ")";
}

/// Uplink cables a leaf needs for `nics` NIC links of `nicRate` at oversubscription `r`.
int uplinksFor(int nics, double nicRate, double r, double portRate)
{
    const double up = nics * nicRate / (r * portRate);
    return std::max(1, static_cast<int>(std::ceil(up - kEps)));
}

/// The link technology for `rate` on `tech` switches: `preferred` if it matches, else the
/// slowest catalog entry of that technology at least as fast, else the fastest one.
const LinkTechSpec *pickTech(const Catalog &catalog, Technology tech, double rate,
                             const std::string &preferred)
{
    const auto &techs = catalog.hardware.linkTechs;
    if (auto it = techs.find(preferred); it != techs.end() && it->second.technology == tech
        && it->second.laneRate >= rate * (1 - kEps))
        return &it->second;
    const LinkTechSpec *best = nullptr;
    const LinkTechSpec *fastest = nullptr;
    for (const auto &[key, t] : techs) {
        if (t.technology != tech)
            continue;
        if (!fastest || t.laneRate > fastest->laneRate)
            fastest = &t;
        if (t.laneRate >= rate * (1 - kEps) && (!best || t.laneRate < best->laneRate))
            best = &t;
    }
    return best ? best : fastest;
}

struct Sizing
{
    int nicsPerLeaf = 0;
    int leavesPerRail = 0;
    int leafUplinks = 0;
};

/// Leaf sizing of a full scalable unit of `su` domains given at most `nmax` NIC links a leaf.
Sizing sizeLeaves(const FabricParams &p, const FabricPlan &plan, int su, int nmax)
{
    Sizing s;
    if (p.fabric == FabricKind::RailOptimized) {
        const std::int64_t railNics = std::int64_t(su) * plan.trays; // one per tray of the unit
        const auto perRail = ceilDiv(railNics, nmax);
        s.nicsPerLeaf = static_cast<int>(ceilDiv(railNics, perRail));
        s.leavesPerRail = static_cast<int>(ceilDiv(railNics, s.nicsPerLeaf));
    } else {
        const std::int64_t nics = std::int64_t(su) * plan.railsPerDomain;
        s.nicsPerLeaf = static_cast<int>(ceilDiv(nics, ceilDiv(nics, nmax)));
    }
    s.leafUplinks = uplinksFor(s.nicsPerLeaf, plan.nicLinkRate, p.oversubscription,
                               plan.fabricSwitch.portRate);
    return s;
}

void planScaleUp(const ScaleUpPreset &preset, const Catalog &catalog, FabricPlan &plan,
                 std::vector<std::string> &errors)
{
    const int n = preset.accelerators;
    const auto &hw = catalog.hardware;
    // "key@variant,..." selects a power/clock or memory variant of a catalog entry.
    const std::string baseKey = preset.accelerator.substr(0, preset.accelerator.find('@'));
    if (auto it = hw.accelerators.find(baseKey); it != hw.accelerators.end()) {
        std::string error;
        if (!applyVariants(it->second, preset.accelerator, plan.accelerator, error))
            errors.push_back("scale-up preset '" + preset.key + "': " + error);
    } else
        errors.push_back("scale-up preset '" + preset.key + "' names accelerator '"
                         + preset.accelerator + "', which is not in the catalog");
    const bool needsLinks = n > 1 || preset.scaleUpSwitches > 0;
    if (needsLinks) {
        if (auto it = hw.linkTechs.find(preset.scaleUpTech); it != hw.linkTechs.end())
            plan.scaleUpTech = it->second;
        else
            errors.push_back("scale-up preset '" + preset.key + "' names link technology '"
                             + preset.scaleUpTech + "', which is not in the catalog");
    }
    if (preset.scaleUpSwitches > 0) {
        auto it = hw.switches.find(preset.scaleUpSwitch);
        if (it == hw.switches.end()) {
            errors.push_back("scale-up preset '" + preset.key + "' names switch '"
                             + preset.scaleUpSwitch + "', which is not in the catalog");
            return;
        }
        plan.scaleUpSwitch = it->second;
        if (preset.lanesPerAccelerator < preset.scaleUpSwitches) {
            errors.push_back("scale-up preset '" + preset.key + "' has "
                             + std::to_string(preset.lanesPerAccelerator)
                             + " lanes per accelerator for "
                             + std::to_string(preset.scaleUpSwitches)
                             + " switch chips: every chip needs at least one lane");
            return;
        }
        plan.lanesToChip = spreadLanes(preset.lanesPerAccelerator, preset.scaleUpSwitches);
        const int busiest = *std::max_element(plan.lanesToChip.begin(), plan.lanesToChip.end());
        if (std::int64_t(busiest) * n > plan.scaleUpSwitch.radix)
            errors.push_back("scale-up preset '" + preset.key + "': " + std::to_string(n)
                             + " accelerators x " + std::to_string(busiest) + " lanes need "
                             + std::to_string(busiest * n) + " ports on one "
                             + switchLabel(plan.scaleUpSwitch) + "; use more switch chips");
    } else if (n > 1) {
        if (preset.lanesPerAccelerator < n - 1)
            errors.push_back("scale-up preset '" + preset.key + "': a full mesh of "
                             + std::to_string(n) + " accelerators needs " + std::to_string(n - 1)
                             + " lanes per accelerator, the preset has "
                             + std::to_string(preset.lanesPerAccelerator));
        plan.meshLanes = std::max(1, preset.lanesPerAccelerator / (n - 1));
    }
}

bool checkParams(const FabricParams &p, const Catalog &catalog, FabricPlan &plan,
                 std::vector<std::string> &errors)
{
    if (p.domains < 1)
        errors.push_back("the number of scale-up domains must be at least 1 (got "
                         + std::to_string(p.domains) + ")");
    auto preset = catalog.scaleUpPresets.find(p.scaleUpPreset);
    if (preset == catalog.scaleUpPresets.end()) {
        errors.push_back("unknown scale-up preset '" + p.scaleUpPreset
                         + "' (known: " + catalogKeys(catalog.scaleUpPresets) + ")");
    } else {
        plan.preset = preset->second;
        if (plan.preset.accelerators < 1 || plan.preset.accelerators > 4096)
            errors.push_back("scale-up preset '" + p.scaleUpPreset + "' has "
                             + std::to_string(plan.preset.accelerators)
                             + " accelerators per domain (1 to 4096 supported)");
    }
    if (p.fabric != FabricKind::None) {
        if (p.tiers != 2 && p.tiers != 3)
            errors.push_back("tiers must be 2 or 3 (got " + std::to_string(p.tiers) + ")");
        if (p.planes < 1 || p.planes > 64)
            errors.push_back("planes must be between 1 and 64 (got " + std::to_string(p.planes)
                             + ")");
        if (!(p.oversubscription >= 1) || !std::isfinite(p.oversubscription))
            errors.push_back("oversubscription must be a finite ratio >= 1 (got "
                             + num(p.oversubscription) + ")");
        if (!(p.nicRate >= 0) || !std::isfinite(p.nicRate))
            errors.push_back("NIC rate must be positive (got " + gbps(p.nicRate) + ")");
        if (p.suSize < 0)
            errors.push_back("scalable-unit size must be >= 0, 0 meaning automatic (got "
                             + std::to_string(p.suSize) + ")");
        auto sw = catalog.hardware.switches.find(p.switchModel);
        if (sw == catalog.hardware.switches.end())
            errors.push_back("unknown switch model '" + p.switchModel + "'");
        else if (sw->second.radix < 2 || !(sw->second.portRate > 0))
            errors.push_back("switch model '" + p.switchModel
                             + "' needs a radix >= 2 and a positive port rate");
        else
            plan.fabricSwitch = sw->second;
    }
    if (!errors.empty())
        return false;
    plan.domains = p.domains;
    plan.accelerators = std::int64_t(p.domains) * plan.preset.accelerators;
    if (plan.accelerators > kMaxGeneratedAccelerators) {
        errors.push_back(std::to_string(plan.accelerators)
                         + " accelerators requested; the generator builds at most "
                         + std::to_string(kMaxGeneratedAccelerators));
        return false;
    }
    return true;
}

void planTwoTiers(const FabricParams &p, FabricPlan &plan, int nmax,
                  std::vector<std::string> &errors)
{
    const int radix = plan.fabricSwitch.radix;
    plan.spines = ceilDiv(plan.leaves * plan.leafUplinks, radix);
    if (plan.spines <= plan.leafUplinks)
        return;
    // Every leaf must reach every spine: at most `radix` leaves.
    errors.push_back("2 tiers of " + switchLabel(plan.fabricSwitch) + " reach at most "
                     + std::to_string(std::int64_t(radix) * nmax) + " NICs per plane at "
                     + ratio(p.oversubscription) + " (" + std::to_string(radix) + " leaves of "
                     + std::to_string(nmax) + "); "
                     + std::to_string(plan.domains * plan.railsPerDomain)
                     + " NICs per plane requested need " + std::to_string(plan.leaves) + " leaves");
}

void planThreeTiers(const FabricParams &p, FabricPlan &plan, std::vector<std::string> &errors)
{
    const int radix = plan.fabricSwitch.radix;
    const int down = radix / 2;
    const int leavesSu = plan.leavesInSu(0, p.fabric);
    plan.spinesPerSu = static_cast<int>(ceilDiv(std::int64_t(leavesSu) * plan.leafUplinks, down));
    if (plan.spinesPerSu > plan.leafUplinks) {
        // Each spine must reach every leaf of its unit.
        errors.push_back("a scalable unit of " + std::to_string(plan.suSize) + " domains needs "
                         + std::to_string(leavesSu) + " leaves per plane, more than a "
                         + switchLabel(plan.fabricSwitch) + " spine with " + std::to_string(down)
                         + " downlink ports can reach");
        return;
    }
    plan.spineUplinks
        = static_cast<int>(ceilDiv(std::int64_t(leavesSu) * plan.leafUplinks, plan.spinesPerSu));
    plan.coresPerGroup
        = static_cast<int>(ceilDiv(std::int64_t(plan.suCount) * plan.spineUplinks, radix));
    plan.spines = std::int64_t(plan.suCount) * plan.spinesPerSu;
    plan.cores = std::int64_t(plan.spinesPerSu) * plan.coresPerGroup;
    if (plan.coresPerGroup <= plan.spineUplinks)
        return;
    // Each core group must reach spine j of every unit: at most `radix` units.
    const std::int64_t perSu = std::int64_t(plan.suSize) * plan.railsPerDomain;
    errors.push_back("3 tiers of " + switchLabel(plan.fabricSwitch) + " connect at most "
                     + std::to_string(radix) + " scalable units of " + std::to_string(plan.suSize)
                     + " domains (" + std::to_string(radix * perSu) + " NICs per plane at "
                     + ratio(p.oversubscription) + "); " + std::to_string(plan.suCount)
                     + " requested");
}

PlanResult planImpl(const FabricParams &p, const Catalog &catalog, bool suggest);

/// The flags that make a fabric which does not fit fit, found by planning variants: the
/// fabric kind, tier count, scalable-unit size and (higher-radix) switch model, changing as
/// little as possible. `suSize` is the effective size of the failed plan.
std::string suggestFix(const FabricParams &p, const Catalog &catalog, int suSize,
                       std::int64_t domains)
{
    constexpr int kMaxSuCandidates = 4096;
    std::vector<std::string> switches {p.switchModel};
    std::vector<const SwitchSpec *> bigger;
    const int radix = catalog.hardware.switches.at(p.switchModel).radix;
    for (const auto &[key, s] : catalog.hardware.switches)
        if (s.technology != Technology::NVLink && s.radix > radix)
            bigger.push_back(&s);
    std::stable_sort(bigger.begin(), bigger.end(),
                     [](const SwitchSpec *a, const SwitchSpec *b) { return a->radix < b->radix; });
    for (const SwitchSpec *s : bigger)
        switches.push_back(s->key);
    // Unit sizes a designer would pick first: those that split the domains into equal units,
    // then multiples of 8, then the rest; nearer the failed size first within each kind (a
    // suggestion such as "--su-size 695" fits but no one would build it).
    std::vector<int> sizes;
    for (int s = std::max(1, suSize - kMaxSuCandidates);
         s <= domains && s <= suSize + kMaxSuCandidates; ++s)
        sizes.push_back(s);
    const auto kind = [domains](int s) { return domains % s == 0 ? 0 : s % 8 == 0 ? 1 : 2; };
    std::stable_sort(sizes.begin(), sizes.end(), [&](int a, int b) {
        if (kind(a) != kind(b))
            return kind(a) < kind(b);
        return std::abs(a - suSize) < std::abs(b - suSize);
    });
    // One scale-up domain talks over its own scale-up links only: a scale-out fabric is
    // optional there (what a single NVL72 rack needs), so say so before any other fix.
    const std::string none = "--fabric none (one scale-up domain needs no scale-out fabric)";
    for (const std::string &sw : switches)
        for (FabricKind kind : {p.fabric, FabricKind::FatTree})
            for (int tiers : {p.tiers, 3})
                for (int su : sizes) {
                    FabricParams q = p;
                    q.switchModel = sw;
                    q.fabric = kind;
                    q.tiers = tiers;
                    q.suSize = su;
                    if (!planImpl(q, catalog, false).ok())
                        continue;
                    std::string fix = domains == 1 ? "use " + none + " or" : "use";
                    if (sw != p.switchModel)
                        fix += " --switch " + sw;
                    if (kind != p.fabric)
                        fix += std::string(" --fabric ") + toString(kind);
                    if (tiers != p.tiers)
                        fix += " --tiers " + std::to_string(tiers);
                    if (su != suSize)
                        fix += " --su-size " + std::to_string(su);
                    return fix;
                }
    return (domains == 1 ? "use " + none + "; otherwise " : std::string())
        + "no tier count, scalable-unit size or switch model of the catalog makes it fit at "
        + ratio(p.oversubscription);
}

} // namespace

std::vector<int> spreadLanes(int lanes, int chips)
{
    std::vector<int> out(static_cast<std::size_t>(std::max(chips, 0)),
                         chips > 0 ? lanes / chips : 0);
    if (chips <= 0)
        return out;
    const int extra = lanes % chips;
    for (int k = 0; k < extra; ++k) {
        // Outer chips first, alternating ends: 0, last, 1, last-1, ...
        const int idx = k % 2 == 0 ? k / 2 : chips - 1 - k / 2;
        ++out[static_cast<std::size_t>(idx)];
    }
    return out;
}

std::vector<int> dealUplinks(std::int64_t index, int uplinks, int targets)
{
    std::vector<int> out(static_cast<std::size_t>(targets), uplinks / targets);
    const int extra = uplinks % targets;
    const int start = static_cast<int>((index * uplinks) % targets);
    for (int k = 0; k < extra; ++k)
        ++out[static_cast<std::size_t>((start + k) % targets)];
    return out;
}

int FabricPlan::domainsInSu(int su) const
{
    return su < suCount - 1 ? suSize : static_cast<int>(domains - std::int64_t(su) * suSize);
}

int FabricPlan::leavesPerRailFor(int d) const
{
    return static_cast<int>(ceilDiv(std::int64_t(d) * trays, nicsPerLeaf));
}

int FabricPlan::leavesInSu(int su, FabricKind kind) const
{
    const int d = domainsInSu(su);
    if (kind == FabricKind::RailOptimized)
        return rails * leavesPerRailFor(d);
    return static_cast<int>(ceilDiv(std::int64_t(d) * railsPerDomain, nicsPerLeaf));
}

PlanResult planFabric(const FabricParams &p, const Catalog &catalog)
{
    return planImpl(p, catalog, true);
}

namespace {

PlanResult planImpl(const FabricParams &p, const Catalog &catalog, bool suggest)
{
    PlanResult r;
    FabricPlan &plan = r.plan;
    if (!checkParams(p, catalog, plan, r.errors))
        return r;
    planScaleUp(plan.preset, catalog, plan, r.errors);
    const int nics = std::max(1, plan.preset.nicsPerAccelerator);
    const double perAccelerator = p.nicRate > 0 ? p.nicRate : plan.preset.nicRate * nics;
    plan.nicRatePerAccelerator = perAccelerator;
    if (p.fabric == FabricKind::None || !r.errors.empty())
        return r;

    const SwitchSpec &sw = plan.fabricSwitch;
    plan.railsPerDomain = plan.preset.accelerators * nics;
    plan.trays = plan.preset.accelerators / plan.preset.trayAccelerators();
    plan.rails = plan.preset.trayAccelerators() * nics;
    if (!(perAccelerator > 0)) {
        r.errors.push_back("no NIC rate given and preset '" + plan.preset.key + "' has none");
        return r;
    }
    plan.nicLinkRate = perAccelerator / (nics * p.planes);
    plan.nicLinkLanes
        = std::max(1, static_cast<int>(std::ceil(plan.nicLinkRate / sw.portRate - kEps)));
    const LinkTechSpec *nicTech = pickTech(
        catalog, sw.technology, plan.nicLinkRate / plan.nicLinkLanes, plan.preset.nicTech);
    const LinkTechSpec *trunkTech = pickTech(catalog, sw.technology, sw.portRate, {});
    if (!nicTech || !trunkTech) {
        r.errors.push_back(std::string("the catalog has no link technology of kind ")
                           + toString(sw.technology) + " for " + switchLabel(sw));
        return r;
    }
    plan.nicTech = *nicTech;
    plan.trunkTech = *trunkTech;

    // Most NIC links a leaf can take with its uplinks at the requested oversubscription.
    int nmax = 0;
    for (int n = sw.radix; n >= 1 && !nmax; --n)
        if (n * plan.nicLinkLanes + uplinksFor(n, plan.nicLinkRate, p.oversubscription, sw.portRate)
            <= sw.radix)
            nmax = n;
    if (!nmax) {
        r.errors.push_back("a " + switchLabel(sw) + " leaf cannot take even one "
                           + gbps(plan.nicLinkRate) + " NIC link plus its uplinks");
        return r;
    }
    plan.suSize
        = static_cast<int>(std::min<std::int64_t>(p.suSize > 0 ? p.suSize : nmax, plan.domains));
    plan.suCount = static_cast<int>(ceilDiv(plan.domains, plan.suSize));
    const Sizing z = sizeLeaves(p, plan, plan.suSize, nmax);
    plan.nicsPerLeaf = z.nicsPerLeaf;
    plan.leavesPerRail = z.leavesPerRail;
    plan.leafUplinks = z.leafUplinks;
    plan.leaves = std::int64_t(plan.suCount - 1) * plan.leavesInSu(0, p.fabric)
        + plan.leavesInSu(plan.suCount - 1, p.fabric);
    if (p.tiers == 2)
        planTwoTiers(p, plan, nmax, r.errors);
    else
        planThreeTiers(p, plan, r.errors);
    if (suggest && !r.errors.empty())
        r.errors.back() += "; " + suggestFix(p, catalog, plan.suSize, plan.domains);
    return r;
}

} // namespace

} // namespace weft
