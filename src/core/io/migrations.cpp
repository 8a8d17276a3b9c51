#include "io/migrations.h"

#include "io/designfile.h"
#include "io/jsonreader.h"

namespace weft {

namespace {

// Version 0 (fabricated, see migrations.h) -> 1: `accelerators` + `switches` become `nodes`
// with a `kind`, accelerators first; links' `bandwidth_gbps` becomes `rate_gbps`.
void migrate0to1(nlohmann::json &doc)
{
    const JsonReader root(doc, "");
    if (root.has("nodes"))
        root.fail("nodes", "a version 0 file keeps nodes in \"accelerators\" and \"switches\"");
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto &[member, kind] : {std::pair{"accelerators", "accelerator"},
                                       std::pair{"switches", "switch"}}) {
        const auto arr = root.optional(member);
        if (!arr)
            continue;
        for (std::size_t i = 0; i < arr->size(); ++i) {
            const JsonReader item = arr->at(i);
            if (!item.raw().is_object())
                item.fail(std::string("expected an object, found ") + jsonTypeName(item.raw()));
            nlohmann::json node = item.raw();
            node["kind"] = kind;
            nodes.push_back(std::move(node));
        }
    }
    doc.erase("accelerators");
    doc.erase("switches");
    doc["nodes"] = std::move(nodes);
    if (const auto links = root.optional("links")) {
        for (std::size_t i = 0; i < links->size(); ++i) {
            nlohmann::json &l = doc["links"][i];
            if (l.is_object() && l.contains("bandwidth_gbps")) {
                l["rate_gbps"] = l["bandwidth_gbps"];
                l.erase("bandwidth_gbps");
            }
        }
    }
}

} // namespace

const std::vector<DesignMigration> &designMigrations()
{
    static const std::vector<DesignMigration> chain{
        {0, "merged \"accelerators\" and \"switches\" into \"nodes\"; renamed links' "
            "\"bandwidth_gbps\" to \"rate_gbps\"",
         migrate0to1},
    };
    return chain;
}

std::vector<std::string> upgradeDesign(nlohmann::json &doc, int version)
{
    std::vector<std::string> notes;
    for (const DesignMigration &m : designMigrations()) {
        if (m.from < version)
            continue;
        m.apply(doc);
        doc["version"] = m.from + 1;
        notes.push_back("version " + std::to_string(m.from) + " -> " + std::to_string(m.from + 1)
                        + ": " + m.summary);
    }
    return notes;
}

} // namespace weft
