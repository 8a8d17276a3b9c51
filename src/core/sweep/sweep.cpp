#include "sweep/sweep.h"

#include "generate/fabricgenerator.h"
#include "generate/fabricplan.h"
#include "sim/simulator.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace weft {

namespace {

const char *const kCancelled = "cancelled";

struct ParamInfo
{
    SweepParam param;
    const char *name;
    const char *title;
    const char *unit;
    bool integer;
    const char *held;
};

const ParamInfo kParams[] = {
    {SweepParam::ScaleUpDomain, "scale-up-domain", "scale-up domain size", "GPUs", true,
     "accelerator model, NVSwitch chip and NVLink lanes per accelerator, NIC rate, scale-out "
     "fabric (kind, tiers, switch, oversubscription, planes) and the workload; the number of "
     "domains is chosen to keep the accelerator count (rounded up to whole domains)"},
    {SweepParam::Tp, "tp", "TP degree", "", true,
     "world size (DP = world / (TP x PP x CP)), global batch, micro-batch and the fabric"},
    {SweepParam::Pp, "pp", "PP degree", "", true,
     "world size (DP = world / (TP x PP x CP)), global batch, micro-batch and the fabric"},
    {SweepParam::Dp, "dp", "DP degree", "", true,
     "TP, PP, CP, micro-batch, micro-batches per replica (the global batch scales with DP: weak "
     "scaling) and the fabric"},
    {SweepParam::MicroBatch, "micro-batch", "micro-batch size", "sequences", true,
     "global batch, parallel degrees and the fabric"},
    {SweepParam::GlobalBatch, "global-batch", "global batch size", "sequences", true,
     "micro-batch, parallel degrees and the fabric"},
    {SweepParam::Oversubscription, "oversubscription", "leaf oversubscription", "downlink:uplink",
     false, "scale-up domains, NIC rate, switch model, tiers, planes and the workload"},
    {SweepParam::NicRate, "nic-gbps", "NIC rate", "Gb/s", false,
     "scale-up domains, switch model, tiers, oversubscription, planes and the workload"},
};

const ParamInfo &info(SweepParam p)
{
    for (const ParamInfo &i : kParams)
        if (i.param == p)
            return i;
    return kParams[0];
}

std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

/// The variant's fabric, regenerated from `params` with the base's workload (explicit rank map
/// dropped: its node ids belong to the old fabric).
SweepVariant regenerate(const Design &base, const FabricParams &params, const Catalog &catalog,
                        std::string note)
{
    SweepVariant v;
    GenerateResult g = generateFabric(params, catalog);
    if (!g.ok()) {
        std::string e;
        for (const std::string &m : g.errors)
            e += (e.empty() ? "" : "; ") + m;
        v.error = "the fabric does not fit: " + e;
        return v;
    }
    Design d = std::move(*g.design);
    d.name = base.name;
    d.description = base.description;
    d.workload = base.workload;
    if (d.workload && !d.workload->placement.explicitMap.empty()) {
        d.workload->placement.explicitMap.clear();
        note += (note.empty() ? "" : "; ")
            + std::string("explicit rank map replaced by the order " + d.workload->placement.order);
    }
    v.design = std::move(d);
    v.note = std::move(note);
    return v;
}

/// A preset of `size` accelerators for the domain-size sweep (see buildSweepVariant).
std::optional<ScaleUpPreset> presetOfSize(const ScaleUpPreset &base, const Catalog &catalog,
                                          int size, std::string &note, std::string &error)
{
    if (base.accelerators == size)
        return base;
    for (const auto &[key, p] : catalog.scaleUpPresets)
        if (p.accelerators == size && p.accelerator == base.accelerator) {
            note = "preset " + key;
            return p;
        }
    if (base.scaleUpSwitch.empty()) {
        error = "no preset of " + std::to_string(size) + " " + base.accelerator
            + " accelerators in the catalog, and the switchless mesh of '" + base.key
            + "' cannot be resized";
        return std::nullopt;
    }
    const auto sw = catalog.hardware.switches.find(base.scaleUpSwitch);
    if (sw == catalog.hardware.switches.end()) {
        error = "unknown scale-up switch '" + base.scaleUpSwitch + "'";
        return std::nullopt;
    }
    const int lanes = base.lanesPerAccelerator;
    for (int chips = 1; chips <= lanes; ++chips) {
        const int busiest = (lanes + chips - 1) / chips;
        if (static_cast<long long>(busiest) * size <= sw->second.radix) {
            ScaleUpPreset p = base;
            p.key = base.key + "-x" + std::to_string(size);
            p.name = base.name + " resized to " + std::to_string(size);
            p.accelerators = size;
            p.scaleUpSwitches = chips;
            p.source = "derived by weft sweep from " + base.key + ": " + std::to_string(size)
                + " accelerators, " + std::to_string(chips) + " x " + base.scaleUpSwitch + ", "
                + std::to_string(lanes) + " lanes per accelerator (hypothetical)";
            note = "derived preset: " + std::to_string(chips) + " x " + base.scaleUpSwitch;
            return p;
        }
    }
    error = std::to_string(size) + " accelerators with " + std::to_string(lanes)
        + " lanes each do not fit one level of " + base.scaleUpSwitch + " (radix "
        + std::to_string(sw->second.radix) + ")";
    return std::nullopt;
}

SweepVariant domainVariant(const Design &base, Catalog catalog, int size)
{
    SweepVariant v;
    FabricParams params = *base.generator;
    const auto it = catalog.scaleUpPresets.find(params.scaleUpPreset);
    if (it == catalog.scaleUpPresets.end()) {
        v.error
            = "the design's scale-up preset '" + params.scaleUpPreset + "' is not in the catalog";
        return v;
    }
    const long long total = static_cast<long long>(it->second.accelerators) * params.domains;
    std::string note;
    const std::optional<ScaleUpPreset> preset
        = presetOfSize(it->second, catalog, size, note, v.error);
    if (!preset)
        return v;
    catalog.scaleUpPresets[preset->key] = *preset;
    params.scaleUpPreset = preset->key;
    params.domains = static_cast<int>((total + size - 1) / size);
    if (params.suSize > params.domains)
        params.suSize = params.domains;
    note += (note.empty() ? "" : "; ") + std::to_string(params.domains) + " domains";
    SweepVariant r = regenerate(base, params, catalog, note);
    if (!r.design && params.suSize != 0) {
        params.suSize = 0; // the base's scalable unit may not fit the larger domains
        r = regenerate(base, params, catalog, note + ", scalable unit sized automatically");
    }
    return r;
}

} // namespace

const char *toString(SweepParam p)
{
    return info(p).name;
}

bool fromString(const std::string &s, SweepParam &out)
{
    for (const ParamInfo &i : kParams)
        if (s == i.name) {
            out = i.param;
            return true;
        }
    return false;
}

const std::vector<SweepParam> &allSweepParams()
{
    static const std::vector<SweepParam> all = [] {
        std::vector<SweepParam> v;
        for (const ParamInfo &i : kParams)
            v.push_back(i.param);
        return v;
    }();
    return all;
}

std::string sweepParamTitle(SweepParam p)
{
    return info(p).title;
}
std::string sweepParamUnit(SweepParam p)
{
    return info(p).unit;
}
std::string sweepHeldFixed(SweepParam p)
{
    return info(p).held;
}

std::vector<double> parseSweepValues(SweepParam p, const std::string &text)
{
    std::vector<double> values;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(item, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used == 0 || used != item.size() || !std::isfinite(v) || v <= 0)
            throw std::invalid_argument("'" + item + "' is not a positive number");
        if (info(p).integer && v != std::floor(v))
            throw std::invalid_argument("'" + item + "': " + info(p).title
                                        + " must be a whole number");
        values.push_back(v);
    }
    if (values.empty())
        throw std::invalid_argument("the value list is empty");
    return values;
}

SweepVariant buildSweepVariant(const Design &base, const Catalog &catalogIn, SweepParam p,
                               double value)
{
    SweepVariant v;
    if (!base.workload) {
        v.error = "the design has no workload";
        return v;
    }
    const int n = static_cast<int>(value);
    switch (p) {
    case SweepParam::ScaleUpDomain:
    case SweepParam::Oversubscription:
    case SweepParam::NicRate: {
        if (!base.generator) {
            v.error = std::string("the design was not generated, so its fabric cannot be "
                                  "regenerated with another ")
                + info(p).title;
            return v;
        }
        Catalog catalog = catalogIn;
        Catalog own;
        own.hardware = base.hardware;
        catalog.merge(own);
        if (p == SweepParam::ScaleUpDomain)
            return domainVariant(base, std::move(catalog), n);
        FabricParams params = *base.generator;
        if (p == SweepParam::Oversubscription)
            params.oversubscription = value;
        else
            params.nicRate = value * 1e9 / 8;
        return regenerate(base, params, catalog, {});
    }
    default:
        break;
    }
    Design d = base;
    TrainingConfig &c = d.workload->config;
    const long long world = c.worldSize();
    auto keepWorld = [&](const char *what) {
        const long long rest = 1LL * c.tp * c.pp * c.cp;
        if (world % rest != 0) {
            v.error = "world size " + std::to_string(world) + " is not divisible by TP x PP x CP = "
                + std::to_string(rest) + " (" + what + " " + std::to_string(n) + ")";
            return false;
        }
        c.dp = static_cast<int>(world / rest);
        v.note = "dp " + std::to_string(c.dp);
        return true;
    };
    switch (p) {
    case SweepParam::Tp:
        c.tp = n;
        if (!keepWorld("TP"))
            return v;
        break;
    case SweepParam::Pp:
        c.pp = n;
        c.stageLayers.clear();
        if (!keepWorld("PP"))
            return v;
        break;
    case SweepParam::Dp: {
        const long long perReplica = c.dp > 0 ? c.globalBatch / c.dp : c.globalBatch;
        c.dp = n;
        c.globalBatch = static_cast<int>(perReplica * n);
        v.note = "global batch " + std::to_string(c.globalBatch);
        break;
    }
    case SweepParam::MicroBatch:
        c.microBatch = n;
        break;
    case SweepParam::GlobalBatch:
        c.globalBatch = n;
        break;
    default:
        break;
    }
    d.workload->placement.explicitMap.clear();
    v.design = std::move(d);
    return v;
}

namespace {

SweepRow runVariant(const Design &base, const Catalog &catalog, SweepParam p, int index,
                    double value, const std::atomic<bool> *cancel)
{
    SweepRow row;
    row.index = index;
    row.value = value;
    const SweepVariant v = buildSweepVariant(base, catalog, p, value);
    row.note = v.note;
    if (!v.design) {
        row.reason = v.error;
        return row;
    }
    const Design &d = *v.design;
    const TrainingConfig &c = d.workload->config;
    row.accelerators = static_cast<long long>(d.acceleratorCount());
    row.tp = c.tp;
    row.pp = c.pp;
    row.dp = c.dp;
    row.microBatch = c.microBatch;
    row.globalBatch = c.globalBatch;
    SimOptions options;
    options.cancel = cancel;
    const SimResult r = simulate(d, options);
    if (cancel && cancel->load()) {
        row.reason = kCancelled;
        return row;
    }
    row.stepTime = r.stepTime;
    row.tokensPerSecond = r.tokensPerSecond;
    row.mfu = r.mfu;
    row.peakMemoryPerGpu = r.peakMemoryPerGpu;
    row.memoryCapacityPerGpu = r.memoryCapacityPerGpu;
    if (!r.ok) {
        for (const Finding &f : r.warnings)
            if (f.severity == Severity::Error)
                row.reason += (row.reason.empty() ? "" : "; ") + f.message;
        if (row.reason.empty())
            row.reason = "the step could not be simulated";
        return row;
    }
    if (!r.memoryFits) {
        std::ostringstream s;
        s.precision(3);
        s << "peak memory " << r.peakMemoryPerGpu / 1e9 << " GB exceeds the HBM capacity of "
          << r.memoryCapacityPerGpu / 1e9 << " GB";
        row.reason = s.str();
        // The step would not run: no step time, throughput or MFU to report (the memory
        // figures stay: they are the reason).
        row.stepTime = row.tokensPerSecond = row.mfu = 0;
        return row;
    }
    row.ok = true;
    return row;
}

} // namespace

SweepTable runSweep(const Design &base, const Catalog &catalog, SweepParam p,
                    const std::vector<double> &values, const SweepRunOptions &options)
{
    if (options.shards < 1 || options.shard < 0 || options.shard >= options.shards)
        throw std::invalid_argument("shard " + std::to_string(options.shard) + "/"
                                    + std::to_string(options.shards)
                                    + " is out of range (I/N needs 0 <= I < N)");
    if (options.jobs < 1)
        throw std::invalid_argument("jobs must be at least 1 (got " + std::to_string(options.jobs)
                                    + ")");
    SweepTable t;
    t.design = base.name;
    t.param = p;
    t.values = values;
    t.shard = options.shard;
    t.shards = options.shards;
    std::vector<int> mine;
    for (int i = 0; i < static_cast<int>(values.size()); ++i)
        if (i % options.shards == options.shard)
            mine.push_back(i);
    t.rows.resize(mine.size());
    std::atomic<std::size_t> next {0};
    std::mutex progressMutex;
    int done = 0;
    for (std::size_t k = 0; k < mine.size(); ++k) { // what a cancelled sweep leaves
        t.rows[k].index = mine[k];
        t.rows[k].value = values[static_cast<std::size_t>(mine[k])];
        t.rows[k].reason = kCancelled;
    }
    auto worker = [&] {
        for (std::size_t k = next++; k < mine.size(); k = next++) {
            if (options.cancel && options.cancel->load())
                return;
            const int i = mine[k];
            t.rows[k] = runVariant(base, catalog, p, i, values[static_cast<std::size_t>(i)],
                                   options.cancel);
            if (options.progress) {
                const std::lock_guard lock(progressMutex);
                options.progress(++done, static_cast<int>(mine.size()));
            }
        }
    };
    const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(mine.size())));
    std::vector<std::thread> pool;
    for (int j = 1; j < threads; ++j)
        pool.emplace_back(worker);
    worker();
    for (std::thread &th : pool)
        th.join();
    return t;
}

SweepTable mergeSweepTables(const std::vector<SweepTable> &shards)
{
    if (shards.empty())
        throw std::invalid_argument("no shard results to merge");
    const SweepTable &first = shards.front();
    SweepTable t;
    t.design = first.design;
    t.param = first.param;
    t.values = first.values;
    std::set<int> seenShards;
    for (const SweepTable &s : shards) {
        if (s.design != first.design || s.param != first.param || s.values != first.values
            || s.shards != first.shards)
            throw std::invalid_argument(
                "shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards)
                + " belongs to another sweep (design '" + s.design + "', parameter "
                + toString(s.param) + ") than shard " + std::to_string(first.shard) + "/"
                + std::to_string(first.shards) + " (design '" + first.design + "', parameter "
                + toString(first.param) + ")");
        if (!seenShards.insert(s.shard).second)
            throw std::invalid_argument("shard " + std::to_string(s.shard) + "/"
                                        + std::to_string(s.shards) + " is given twice");
        t.rows.insert(t.rows.end(), s.rows.begin(), s.rows.end());
    }
    std::sort(t.rows.begin(), t.rows.end(),
              [](const SweepRow &a, const SweepRow &b) { return a.index < b.index; });
    std::string missing;
    std::size_t r = 0;
    for (int i = 0; i < static_cast<int>(t.values.size()); ++i) {
        if (r < t.rows.size() && t.rows[r].index == i) {
            ++r;
            continue;
        }
        missing += (missing.empty() ? "" : ", ") + std::to_string(i) + " (value "
            + number(t.values[static_cast<std::size_t>(i)]) + ", shard "
            + std::to_string(i % first.shards) + ")";
    }
    if (!missing.empty())
        throw std::invalid_argument("variants missing from the shard results: " + missing);
    if (r != t.rows.size())
        throw std::invalid_argument("the shard results hold a variant twice");
    return t;
}

} // namespace weft
