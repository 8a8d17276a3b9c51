#include "io/catalogfile.h"

#include "io/hardwarejson.h"
#include "io/jsontext.h"

#include <fstream>
#include <sstream>

namespace weft {

namespace {

// Values in one catalog file (the built-in one has a few thousand).
constexpr std::size_t kMaxCatalogJsonValues = std::size_t(1) << 22;

void checkPresetRefs(const JsonReader &arr, const Catalog &c, const Catalog &base)
{
    auto known = [&](const auto &mine, const auto &theirs, const std::string &key) {
        return mine.count(key) || theirs.count(key);
    };
    for (std::size_t i = 0; i < arr.size(); ++i) {
        const JsonReader r = arr.at(i);
        const ScaleUpPreset &p = c.scaleUpPresets.at(r.string("key"));
        // "key@variant,...": a power/clock or memory variant of a catalog accelerator.
        const std::string accKey = p.accelerator.substr(0, p.accelerator.find('@'));
        if (!known(c.hardware.accelerators, base.hardware.accelerators, accKey))
            r.fail("accelerator", "unknown accelerator '" + p.accelerator + "'");
        const auto &accs = c.hardware.accelerators.count(accKey) ? c.hardware.accelerators
                                                                 : base.hardware.accelerators;
        AcceleratorSpec resolved;
        std::string error;
        if (!applyVariants(accs.at(accKey), p.accelerator, resolved, error))
            r.fail("accelerator", error);
        if (!p.scaleUpSwitch.empty()
            && !known(c.hardware.switches, base.hardware.switches, p.scaleUpSwitch))
            r.fail("scale_up_switch", "unknown switch '" + p.scaleUpSwitch + "'");
        if (!known(c.hardware.linkTechs, base.hardware.linkTechs, p.scaleUpTech))
            r.fail("scale_up_tech", "unknown link technology '" + p.scaleUpTech + "'");
        if (!p.nicTech.empty() && !known(c.hardware.linkTechs, base.hardware.linkTechs, p.nicTech))
            r.fail("nic_tech", "unknown link technology '" + p.nicTech + "'");
    }
}

} // namespace

std::variant<Catalog, FileError> parseCatalog(std::string_view text, const std::string &sourceName,
                                              const Catalog &base)
{
    nlohmann::json doc;
    try {
        doc = parseJsonText(text, kMaxCatalogJsonValues, "a catalog"); // io/jsontext.h
    } catch (const JsonFieldError &e) {
        return FileError {sourceName, e.path(), e.what()};
    }
    try {
        const JsonReader root(doc, "");
        if (!doc.is_object())
            root.fail(std::string("expected a JSON object, found ") + jsonTypeName(doc));
        if (root.string("format") != "weft.catalog")
            root.fail("format", "not a Weft catalog (expected \"weft.catalog\")");
        const auto version = root.integer("version", 1, 1000000);
        if (version > 1)
            root.fail("version",
                      "catalog version " + std::to_string(version)
                          + " is newer than this Weft understands (1)");
        Catalog c;
        c.hardware = hardwareFromJson(root);
        if (const auto presets = root.optional("scale_up_presets")) {
            for (std::size_t i = 0; i < presets->size(); ++i) {
                ScaleUpPreset p = scaleUpPresetFromJson(presets->at(i));
                if (c.scaleUpPresets.count(p.key))
                    presets->at(i).fail("key", "duplicate key '" + p.key + "'");
                c.scaleUpPresets.emplace(p.key, std::move(p));
            }
            checkPresetRefs(*presets, c, base);
        }
        return c;
    } catch (const JsonFieldError &e) {
        return FileError {sourceName, e.path(), e.what()};
    } catch (const std::exception &e) { // bad_alloc, or a reader bug: an error, never a crash
        return FileError {sourceName, "", std::string("could not read the catalog: ") + e.what()};
    }
}

std::string serializeCatalog(const Catalog &catalog)
{
    nlohmann::ordered_json j;
    j["format"] = "weft.catalog";
    j["version"] = 1;
    j.update(toJson(catalog.hardware));
    j["scale_up_presets"] = nlohmann::ordered_json::array();
    for (const auto &[key, p] : catalog.scaleUpPresets)
        j["scale_up_presets"].push_back(toJson(p));
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::variant<Catalog, FileError> loadCatalogFile(const std::string &path, const Catalog &base)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileError {path, "", "cannot open the file for reading"};
    std::ostringstream ss;
    ss << in.rdbuf();
    return parseCatalog(ss.str(), path, base);
}

const Catalog &builtinCatalog()
{
    static const Catalog catalog = [] {
        Catalog all;
        // Specs first, then presets (which refer to specs from any file).
        for (int pass = 0; pass < 2; ++pass) {
            for (const auto &[name, text] : builtinCatalogFiles()) {
                auto parsed = parseCatalog(text, std::string("builtin:") + name, all);
                if (auto *err = std::get_if<FileError>(&parsed)) {
                    if (pass == 1)
                        throw std::runtime_error("built-in catalog is broken: " + err->toString());
                    continue;
                }
                all.merge(std::get<Catalog>(parsed));
            }
        }
        return all;
    }();
    return catalog;
}

} // namespace weft
