#pragma once
// Unknown members of a design file, kept per object so that a save writes them back
// (layout documented in io/designfile.h). Internal to core/io.

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <span>
#include <string>

namespace weft {

class ExtensionStore
{
public:
    /// Reads Design::extensions text; anything that is not a JSON object gives an empty store.
    static ExtensionStore fromText(const std::string &text);
    /// JSON object text for Design::extensions ("{}" when empty).
    [[nodiscard]] std::string toText() const;

    /// Records the members of `object` not named in `known`, merged over its own `extensions`
    /// member, under `locator`. Does nothing when there are none (or `object` is no object).
    void collect(const std::string &locator, const nlohmann::json &object,
                 std::span<const char *const> known);
    /// Same, with the known names taken from the keys of `written` (what the writer emits).
    void collectUnwritten(const std::string &locator, const nlohmann::json &object,
                          const nlohmann::ordered_json &written);

    /// The entry for `locator`, or nullptr.
    [[nodiscard]] const nlohmann::json *find(const std::string &locator) const;
    /// Adds the entry of `locator` (if any) to `out` as its "extensions" member.
    void attach(const std::string &locator, nlohmann::ordered_json &out) const;
    [[nodiscard]] bool empty() const { return m_entries.empty(); }
    /// True if some entry's locator starts with `prefix` (skips per-object lookups otherwise).
    [[nodiscard]] bool hasPrefix(const std::string &prefix) const;

private:
    void collectIf(const std::string &locator, const nlohmann::json &object,
                   const std::function<bool(const std::string &)> &isKnown);
    std::map<std::string, nlohmann::json> m_entries; ///< locator -> non-empty object
};

} // namespace weft
