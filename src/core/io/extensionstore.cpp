#include "io/extensionstore.h"

#include "io/jsontext.h"

#include <algorithm>

namespace weft {

ExtensionStore ExtensionStore::fromText(const std::string &text)
{
    ExtensionStore s;
    // Bounded like every file (io/jsontext.h): the copies below recurse per level.
    const nlohmann::json j = parseJsonTextOrDiscard(text, std::size_t(64) << 20);
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it.value().is_object() && !it.value().empty())
                s.m_entries.emplace(it.key(), it.value());
    return s;
}

std::string ExtensionStore::toText() const
{
    return nlohmann::json(m_entries).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void ExtensionStore::collectIf(const std::string &locator, const nlohmann::json &object,
                               const std::function<bool(const std::string &)> &isKnown)
{
    if (!object.is_object())
        return;
    bool any = false;
    for (auto it = object.begin(); it != object.end() && !any; ++it)
        any = it.key() == "extensions" || !isKnown(it.key());
    if (!any) // the common case: no allocation
        return;
    nlohmann::json extra = nlohmann::json::object();
    if (auto it = object.find("extensions"); it != object.end() && it->is_object())
        extra = *it;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (it.key() != "extensions" && !isKnown(it.key()))
            extra[it.key()] = it.value();
    if (!extra.empty())
        m_entries[locator] = std::move(extra);
}

void ExtensionStore::collect(const std::string &locator, const nlohmann::json &object,
                             std::span<const char *const> known)
{
    collectIf(locator, object, [&known](const std::string &key) {
        return std::any_of(known.begin(), known.end(), [&key](const char *k) { return key == k; });
    });
}

void ExtensionStore::collectUnwritten(const std::string &locator, const nlohmann::json &object,
                                      const nlohmann::ordered_json &written)
{
    collectIf(locator, object,
              [&written](const std::string &key) { return written.contains(key); });
}

const nlohmann::json *ExtensionStore::find(const std::string &locator) const
{
    auto it = m_entries.find(locator);
    return it == m_entries.end() ? nullptr : &it->second;
}

void ExtensionStore::attach(const std::string &locator, nlohmann::ordered_json &out) const
{
    if (const nlohmann::json *e = find(locator))
        out["extensions"] = nlohmann::ordered_json(*e);
}

bool ExtensionStore::hasPrefix(const std::string &prefix) const
{
    auto it = m_entries.lower_bound(prefix);
    return it != m_entries.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

} // namespace weft
