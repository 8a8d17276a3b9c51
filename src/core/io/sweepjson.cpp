#include "io/sweepjson.h"

#include "io/csv.h"
#include "io/jsonreader.h"
#include "io/jsontext.h"

#include <nlohmann/json.hpp>

namespace weft {

namespace {

constexpr const char *kFormat = "weft.sweep";
constexpr int kVersion = 1;
constexpr std::size_t kMaxSweepJsonValues = std::size_t(1) << 24; ///< values in one table file

} // namespace

std::string sweepToJson(const SweepTable &t)
{
    nlohmann::ordered_json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["design"] = t.design;
    j["parameter"] = toString(t.param);
    j["parameter_title"] = sweepParamTitle(t.param);
    j["parameter_unit"] = sweepParamUnit(t.param);
    j["held_fixed"] = sweepHeldFixed(t.param);
    j["values"] = t.values;
    j["shard"] = t.shard;
    j["shards"] = t.shards;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const SweepRow &r : t.rows) {
        nlohmann::ordered_json row {{"index", r.index},
                                    {"value", r.value},
                                    {"ok", r.ok},
                                    {"reason", r.reason},
                                    {"note", r.note},
                                    {"accelerators", r.accelerators},
                                    {"tp", r.tp},
                                    {"pp", r.pp},
                                    {"dp", r.dp},
                                    {"micro_batch", r.microBatch},
                                    {"global_batch", r.globalBatch}};
        if (r.ok) { // a variant that cannot run has no step time to report
            row["step_time_s"] = r.stepTime;
            row["tokens_per_s"] = r.tokensPerSecond;
            row["mfu"] = r.mfu;
        }
        row["peak_bytes_per_gpu"] = r.peakMemoryPerGpu;
        row["capacity_bytes_per_gpu"] = r.memoryCapacityPerGpu;
        rows.push_back(std::move(row));
    }
    j["rows"] = std::move(rows);
    return j.dump(2) + "\n";
}

std::variant<SweepTable, FileError> parseSweepJson(std::string_view text,
                                                   const std::string &sourceName)
{
    nlohmann::json doc;
    try {
        doc = parseJsonText(text, kMaxSweepJsonValues, "a sweep table"); // io/jsontext.h
    } catch (const JsonFieldError &e) {
        return FileError {sourceName, e.path(), e.what()};
    }
    try {
        const JsonReader root(doc, "");
        if (root.string("format") != kFormat)
            root.fail("format",
                      std::string("expected \"") + kFormat
                          + "\" (a file written by weft-cli sweep)");
        if (root.integer("version", 1, 1000) != kVersion)
            root.fail("version", "version " + std::to_string(kVersion) + " is the only one known");
        SweepTable t;
        t.design = root.string("design");
        if (!fromString(root.string("parameter"), t.param))
            root.fail("parameter", "unknown sweep parameter '" + root.string("parameter") + "'");
        const JsonReader values = root.array("values");
        for (std::size_t i = 0; i < values.size(); ++i) {
            const JsonReader v = values.at(i);
            if (!v.raw().is_number())
                v.fail("must be a number");
            t.values.push_back(v.raw().get<double>());
        }
        t.shards = static_cast<int>(root.integer("shards", 1, 1'000'000));
        t.shard = static_cast<int>(root.integer("shard", 0, t.shards - 1));
        const JsonReader rows = root.array("rows");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const JsonReader x = rows.at(i);
            SweepRow r;
            r.index = static_cast<int>(
                x.integer("index", 0, static_cast<long long>(t.values.size()) - 1));
            r.value = x.number("value");
            r.ok = x.boolean("ok", false);
            r.reason = x.string("reason", {});
            r.note = x.string("note", {});
            r.accelerators = x.integer("accelerators", 0, 1LL << 40, 0);
            r.tp = static_cast<int>(x.integer("tp", 0, 1 << 30, 0));
            r.pp = static_cast<int>(x.integer("pp", 0, 1 << 30, 0));
            r.dp = static_cast<int>(x.integer("dp", 0, 1 << 30, 0));
            r.microBatch = static_cast<int>(x.integer("micro_batch", 0, 1 << 30, 0));
            r.globalBatch = static_cast<int>(x.integer("global_batch", 0, 1 << 30, 0));
            r.stepTime = x.nonNegative("step_time_s", 0);
            r.tokensPerSecond = x.nonNegative("tokens_per_s", 0);
            r.mfu = x.nonNegative("mfu", 0);
            r.peakMemoryPerGpu = x.nonNegative("peak_bytes_per_gpu", 0);
            r.memoryCapacityPerGpu = x.nonNegative("capacity_bytes_per_gpu", 0);
            t.rows.push_back(std::move(r));
        }
        return t;
    } catch (const JsonFieldError &e) {
        return FileError {sourceName, e.path(), e.what()};
    } catch (const std::exception &e) { // bad_alloc, or a reader bug: an error, never a crash
        return FileError {sourceName, "",
                          std::string("could not read the sweep table: ") + e.what()};
    }
}

std::string sweepToCsv(const SweepTable &t)
{
    // The variant's degrees and batch; the one named like the swept parameter (tp, pp, dp) is
    // left out, as the value column already holds it under that name (one header per name, so
    // csv.DictReader and pandas read every column).
    struct Column
    {
        const char *name;
        long long (*get)(const SweepRow &);
    };
    static constexpr Column kColumns[] = {
        {"accelerators", [](const SweepRow &r) { return r.accelerators; }},
        {"tp", [](const SweepRow &r) { return static_cast<long long>(r.tp); }},
        {"pp", [](const SweepRow &r) { return static_cast<long long>(r.pp); }},
        {"dp", [](const SweepRow &r) { return static_cast<long long>(r.dp); }},
        {"micro_batch", [](const SweepRow &r) { return static_cast<long long>(r.microBatch); }},
        {"global_batch", [](const SweepRow &r) { return static_cast<long long>(r.globalBatch); }},
    };
    const std::string param = toString(t.param);
    std::vector<const Column *> columns;
    for (const Column &c : kColumns)
        if (param != c.name)
            columns.push_back(&c);
    std::string s = "index," + csvField(param) + ",ok,reason,note";
    for (const Column *c : columns)
        s += std::string(",") + c->name;
    s += ",step_time_s,tokens_per_s,mfu,peak_bytes_per_gpu,capacity_bytes_per_gpu\n";
    for (const SweepRow &r : t.rows) {
        s += std::to_string(r.index) + "," + csvNumber(r.value) + "," + (r.ok ? "true" : "false")
            + "," + csvField(r.reason) + "," + csvField(r.note);
        for (const Column *c : columns)
            s += "," + std::to_string(c->get(r));
        // Empty step time, tokens/s and MFU for a variant that cannot run (memory over HBM:
        // the simulator's figures describe a step that would not happen).
        for (double v : {r.stepTime, r.tokensPerSecond, r.mfu})
            s += "," + (r.ok ? csvNumber(v) : std::string());
        for (double v : {r.peakMemoryPerGpu, r.memoryCapacityPerGpu})
            s += "," + csvNumber(v);
        s += "\n";
    }
    return s;
}

} // namespace weft
