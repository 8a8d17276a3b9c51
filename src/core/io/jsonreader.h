#pragma once
// Path-tracking access to a parsed JSON document: every failure names the JSON Pointer of the
// offending value. Internal to core/io (the only place that includes nlohmann).

#include "io/fileerror.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace weft {

/// A view of one JSON value and its JSON Pointer. Accessors throw JsonFieldError on a missing
/// required field or a value of the wrong type or range.
class JsonReader
{
public:
    JsonReader(const nlohmann::json &value, std::string path)
        : m_value(&value)
        , m_path(std::move(path))
    {
    }

    [[nodiscard]] const nlohmann::json &raw() const { return *m_value; }
    [[nodiscard]] const std::string &path() const { return m_path; }
    [[nodiscard]] bool has(const char *key) const;

    /// Required member that must be an object / an array.
    [[nodiscard]] JsonReader object(const char *key) const;
    [[nodiscard]] JsonReader array(const char *key) const;
    /// Optional member (absent or null gives nullopt).
    [[nodiscard]] std::optional<JsonReader> optional(const char *key) const;
    /// Array access; the value must be an array.
    [[nodiscard]] std::size_t size() const;
    [[nodiscard]] JsonReader at(std::size_t i) const;

    [[nodiscard]] std::string string(const char *key) const;
    [[nodiscard]] std::string string(const char *key, const std::string &fallback) const;
    [[nodiscard]] double number(const char *key) const;
    [[nodiscard]] double number(const char *key, double fallback) const;
    /// A number that must be > 0 (rates, capacities).
    [[nodiscard]] double positive(const char *key) const;
    /// A number in (0, max]; the error names the limit with `unit` ("Gb/s").
    [[nodiscard]] double positive(const char *key, double max, const char *unit) const;
    /// A number that must be >= 0.
    [[nodiscard]] double nonNegative(const char *key, double fallback) const;
    /// An integer within [lo, hi].
    [[nodiscard]] long long integer(const char *key, long long lo, long long hi) const;
    [[nodiscard]] long long integer(const char *key, long long lo, long long hi,
                                    long long fallback) const;
    [[nodiscard]] bool boolean(const char *key, bool fallback) const;

    /// Throws JsonFieldError at this value's path (or at `key` below it).
    [[noreturn]] void fail(const std::string &message) const;
    [[noreturn]] void fail(const char *key, const std::string &message) const;

    /// JSON Pointer of member `key` below this value (escapes '~' and '/').
    [[nodiscard]] std::string childPath(const std::string &key) const;

private:
    [[nodiscard]] const nlohmann::json &member(const char *key) const;
    const nlohmann::json *m_value;
    std::string m_path;
};

/// The JSON type name used in error messages ("string", "number", ...).
const char *jsonTypeName(const nlohmann::json &v);

} // namespace weft
