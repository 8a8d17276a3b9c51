#include "plan/planjson.h"

#include "io/csv.h"
#include "io/jsonreader.h"
#include "io/workloadjson.h"
#include "plan/planidentity.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace weft {

namespace {

// A breakdown part as written: a rounding error below zero (-1.8e-16 s for a hidden DP
// reduction) as 0; a real negative stays, for the reader to refuse.
double shownDuration(double seconds, double step)
{
    return seconds < 0 && -seconds <= 1e-9 * std::max(step, 1e-30) ? 0.0 : seconds;
}

constexpr const char *kFormat = "weft.plan";
constexpr int kVersion = 1;

using Json = nlohmann::ordered_json;

struct Part
{
    const char *key;
    double Breakdown::*field;
};
constexpr Part kParts[] = {
    {"compute_s", &Breakdown::compute},      {"tp_exposed_s", &Breakdown::tpExposed},
    {"cp_exposed_s", &Breakdown::cpExposed}, {"ep_exposed_s", &Breakdown::epExposed},
    {"pp_exposed_s", &Breakdown::ppExposed}, {"bubble_s", &Breakdown::bubble},
    {"dp_exposed_s", &Breakdown::dpExposed}, {"optimizer_s", &Breakdown::optimizer},
};

// Knob values: numbers where the knob prints as a number, else its name ("selective").
Json knobValue(const PlanKnob &k, int v)
{
    const std::string s = k.format(v);
    return s == std::to_string(v) ? Json(v) : Json(s);
}

Json rowJson(const PlanRow &r)
{
    Json j;
    j["index"] = r.index;
    for (const PlanKnob &k : planKnobs())
        j[k.name] = knobValue(k, k.get(r.config));
    j["dp"] = r.config.dp;
    j["placement"] = r.order;
    j["step_time_s"] = r.stepTime;
    j["tokens_per_s"] = r.tokensPerSecond;
    j["mfu"] = r.mfu;
    j["peak_memory_bytes_per_gpu"] = r.peakMemoryPerGpu;
    j["memory_capacity_bytes_per_gpu"] = r.memoryCapacityPerGpu;
    j["fits"] = r.fits;
    j["over_headroom"] = r.overHeadroom();
    j["lower_bound_s"] = r.lowerBound;
    Json b;
    for (const Part &p : kParts)
        b[p.key] = shownDuration(r.breakdown.*p.field, r.stepTime);
    j["breakdown"] = std::move(b);
    return j;
}

Json configKnobs(const TrainingConfig &c)
{
    Json j;
    for (const PlanKnob &k : planKnobs())
        j[k.name] = knobValue(k, k.get(c));
    j["dp"] = c.dp;
    return j;
}

void readKnobs(const JsonReader &x, TrainingConfig &c)
{
    for (const PlanKnob &k : planKnobs()) {
        int value = 0;
        if (!x.has(k.name.c_str())) {
            if (k.absentValue.empty() || !k.parse(k.absentValue, value))
                x.fail(k.name.c_str(), "missing");
            k.set(c, value); // a plan written before the knob existed
            continue;
        }
        const nlohmann::json &v = x.raw().at(k.name);
        const bool ok = v.is_number_integer()
            ? k.parse(std::to_string(v.get<long long>()), value)
            : v.is_string() && k.parse(v.get<std::string>(), value);
        if (!ok)
            x.fail(k.name.c_str(), "bad value for the " + k.title);
        k.set(c, value);
    }
    c.dp = static_cast<int>(x.integer("dp", 0, 1 << 30));
}

PlanRow readRow(const JsonReader &x)
{
    PlanRow r;
    r.index = x.integer("index", 0, 1LL << 60);
    readKnobs(x, r.config);
    r.order = x.string("placement");
    r.stepTime = x.nonNegative("step_time_s", 0);
    r.tokensPerSecond = x.nonNegative("tokens_per_s", 0);
    r.mfu = x.nonNegative("mfu", 0);
    r.peakMemoryPerGpu = x.nonNegative("peak_memory_bytes_per_gpu", 0);
    r.memoryCapacityPerGpu = x.nonNegative("memory_capacity_bytes_per_gpu", 0);
    r.fits = x.boolean("fits", false);
    r.lowerBound = x.nonNegative("lower_bound_s", 0);
    const JsonReader b = x.object("breakdown");
    for (const Part &p : kParts) {
        // Kept exactly as written (a merged plan.csv is byte-identical): the simulator can give
        // a part a rounding error below zero (-1e-17 s of DP exposed), which is no error.
        const double v = b.number(p.key, 0);
        if (v < -1e-9)
            b.fail(p.key, "must not be negative (found " + std::to_string(v) + ")");
        r.breakdown.*p.field = v;
    }
    return r;
}

} // namespace

std::string planToJson(const TrainingPlan &r)
{
    Json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["design"] = r.design;
    j["gpus"] = r.gpus;
    j["global_batch"] = r.globalBatch;
    j["objective"] = toString(r.objective);
    j["top"] = r.top;
    j["shard"] = r.shard;
    j["shards"] = r.shards;
    j["space"] = r.space;
    j["weft_version"] = r.weftVersion;
    // The base workload as given (its own knobs and the plan's batch); files of Weft before
    // session 30 held the identity (knobs set to 1, batch 1) here.
    const std::string &shown = r.baseWorkload.empty() ? r.workload : r.baseWorkload;
    j["workload"] = shown.empty() ? Json(nullptr) : Json::parse(shown);
    j["cancelled"] = r.cancelled;
    Json counts;
    counts["enumerated"] = r.counts.enumerated;
    counts["infeasible"] = Json::object();
    for (const auto &[code, n] : r.counts.infeasible)
        counts["infeasible"][code] = n;
    counts["infeasible_total"] = r.counts.infeasibleTotal();
    counts["pruned_by_bound"] = r.counts.prunedByBound;
    counts["stopped_past_best"] = r.counts.stoppedPastBest;
    counts["simulated"] = r.counts.simulated;
    counts["deduplicated"] = r.counts.deduplicated;
    counts["failed"] = r.counts.failed;
    counts["cancelled"] = r.counts.cancelled;
    j["counts"] = std::move(counts);
    if (r.closest)
        j["closest"] = {{"config", configKnobs(r.closest->config)},
                        {"needed_bytes_per_gpu", r.closest->neededBytes},
                        {"capacity_bytes_per_gpu", r.closest->capacityBytes}};
    else
        j["closest"] = nullptr;
    Json ranked = Json::array();
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        Json row;
        row["rank"] = i + 1;
        row.update(rowJson(r.ranked[i]));
        ranked.push_back(std::move(row));
    }
    j["candidates"] = std::move(ranked);
    Json all = Json::array();
    for (const PlanRow &row : r.simulated)
        all.push_back(rowJson(row));
    j["simulated"] = std::move(all);
    Json losers = Json::array();
    for (const PlanLoser &l : r.losers)
        losers.push_back({{"title", l.title},
                          {"slowdown", l.slowdown},
                          {"why", l.why},
                          {"design_own", l.designOwn},
                          {"candidate", rowJson(l.row)}});
    j["losers"] = std::move(losers);
    return j.dump(2) + "\n";
}

std::variant<TrainingPlan, FileError> parsePlanJson(std::string_view text,
                                                    const std::string &sourceName)
{
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        return FileError {sourceName, {}, std::string("not valid JSON: ") + e.what()};
    }
    try {
        const JsonReader root(doc, "");
        if (root.string("format") != kFormat)
            root.fail("format",
                      std::string("expected \"") + kFormat
                          + "\" (a file written by weft-cli plan)");
        if (root.integer("version", 1, 1000) != kVersion)
            root.fail("version", "version " + std::to_string(kVersion) + " is the only one known");
        TrainingPlan r;
        r.design = root.string("design");
        r.gpus = root.integer("gpus", 1, 1LL << 40);
        r.globalBatch = static_cast<int>(root.integer("global_batch", 1, 1 << 30));
        if (!fromString(root.string("objective"), r.objective))
            root.fail("objective", "unknown objective '" + root.string("objective") + "'");
        r.top = static_cast<int>(root.integer("top", 1, 1 << 30));
        r.shards = static_cast<int>(root.integer("shards", 1, 1'000'000));
        r.shard = static_cast<int>(root.integer("shard", 0, r.shards - 1));
        r.space = root.string("space");
        r.weftVersion = root.string("weft_version", {});
        if (root.raw().contains("workload") && root.raw().at("workload").is_object()) {
            // What plan-merge compares is derived from it (planWorkloadText), the same for a
            // file that holds the workload as given and for an older one holding the identity.
            r.baseWorkload = root.raw().at("workload").dump();
            r.workload = planWorkloadText(workloadFromJson(root.object("workload")));
        }
        r.cancelled = root.boolean("cancelled", false);
        const JsonReader counts = root.object("counts");
        r.counts.enumerated = counts.integer("enumerated", 0, 1LL << 60);
        const JsonReader inf = counts.object("infeasible");
        for (const auto &[code, n] : inf.raw().items()) {
            if (!n.is_number_integer() || n.get<long long>() < 0)
                inf.fail(code.c_str(), "must be a whole number >= 0");
            r.counts.infeasible[code] = n.get<long long>();
        }
        r.counts.prunedByBound = counts.integer("pruned_by_bound", 0, 1LL << 60);
        r.counts.stoppedPastBest = counts.integer("stopped_past_best", 0, 1LL << 60, 0);
        r.counts.simulated = counts.integer("simulated", 0, 1LL << 60);
        r.counts.deduplicated = counts.integer("deduplicated", 0, 1LL << 60, 0);
        r.counts.failed = counts.integer("failed", 0, 1LL << 60, 0);
        r.counts.cancelled = counts.integer("cancelled", 0, 1LL << 60, 0);
        if (const auto c = root.optional("closest")) {
            MemoryShortfall s;
            readKnobs(c->object("config"), s.config);
            s.neededBytes = c->nonNegative("needed_bytes_per_gpu", 0);
            s.capacityBytes = c->nonNegative("capacity_bytes_per_gpu", 0);
            r.closest = s;
        }
        const JsonReader ranked = root.array("candidates");
        for (std::size_t i = 0; i < ranked.size(); ++i)
            r.ranked.push_back(readRow(ranked.at(i)));
        const JsonReader all = root.array("simulated");
        for (std::size_t i = 0; i < all.size(); ++i)
            r.simulated.push_back(readRow(all.at(i)));
        if (const auto losers = root.optional("losers"))
            for (std::size_t i = 0; i < losers->size(); ++i) {
                const JsonReader l = losers->at(i);
                r.losers.push_back({l.string("title"), readRow(l.object("candidate")),
                                    l.number("slowdown"), l.string("why", {}),
                                    l.boolean("design_own", false)});
            }
        return r;
    } catch (const JsonFieldError &e) {
        return FileError {sourceName, e.path(), e.what()};
    }
}

std::string planToCsv(const TrainingPlan &r)
{
    std::string s = "rank";
    for (const PlanKnob &k : planKnobs())
        s += "," + k.name;
    s += ",dp,placement,step_time_s,tokens_per_s,mfu,peak_memory_bytes_per_gpu,"
         "memory_capacity_bytes_per_gpu,fits,lower_bound_s";
    for (const Part &p : kParts)
        s += std::string(",") + p.key;
    s += ",over_headroom\n";
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const PlanRow &row = r.ranked[i];
        s += std::to_string(i + 1);
        for (const PlanKnob &k : planKnobs())
            s += "," + csvField(k.format(k.get(row.config)));
        s += "," + std::to_string(row.config.dp) + "," + csvField(row.order) + ","
            + csvNumber(row.stepTime) + "," + csvNumber(row.tokensPerSecond) + ","
            + csvNumber(row.mfu) + "," + csvNumber(row.peakMemoryPerGpu) + ","
            + csvNumber(row.memoryCapacityPerGpu) + "," + (row.fits ? "true" : "false") + ","
            + csvNumber(row.lowerBound);
        for (const Part &p : kParts)
            s += "," + csvNumber(shownDuration(row.breakdown.*p.field, row.stepTime));
        s += row.overHeadroom() ? ",true\n" : ",false\n";
    }
    return s;
}

} // namespace weft
