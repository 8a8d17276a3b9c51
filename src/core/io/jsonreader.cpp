#include "io/jsonreader.h"

#include <cmath>
#include <sstream>

namespace weft {

namespace {

/// A number as the file would write it ("-100", "0.5"), not std::to_string's "-100.000000".
std::string numberText(double d)
{
    std::ostringstream s;
    s << d;
    return s.str();
}

} // namespace

std::string FileError::toString() const
{
    std::string s = file;
    if (!jsonPath.empty())
        s += ": at " + jsonPath;
    return s + ": " + message;
}

const char *jsonTypeName(const nlohmann::json &v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "a number";
    default:
        return "binary data";
    }
}

std::string JsonReader::childPath(const std::string &key) const
{
    std::string escaped;
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return m_path + "/" + escaped;
}

void JsonReader::fail(const std::string &message) const
{
    throw JsonFieldError(m_path, message);
}

void JsonReader::fail(const char *key, const std::string &message) const
{
    throw JsonFieldError(childPath(key), message);
}

bool JsonReader::has(const char *key) const
{
    return m_value->is_object() && m_value->contains(key) && !(*m_value)[key].is_null();
}

const nlohmann::json &JsonReader::member(const char *key) const
{
    if (!m_value->is_object())
        fail(std::string("expected an object, found ") + jsonTypeName(*m_value));
    auto it = m_value->find(key);
    if (it == m_value->end() || it->is_null())
        fail(key, "required field is missing");
    return *it;
}

JsonReader JsonReader::object(const char *key) const
{
    const auto &v = member(key);
    if (!v.is_object())
        fail(key, std::string("expected an object, found ") + jsonTypeName(v));
    return JsonReader(v, childPath(key));
}

JsonReader JsonReader::array(const char *key) const
{
    const auto &v = member(key);
    if (!v.is_array())
        fail(key, std::string("expected an array, found ") + jsonTypeName(v));
    return JsonReader(v, childPath(key));
}

std::optional<JsonReader> JsonReader::optional(const char *key) const
{
    if (!has(key))
        return std::nullopt;
    return JsonReader((*m_value)[key], childPath(key));
}

std::size_t JsonReader::size() const
{
    if (!m_value->is_array())
        fail(std::string("expected an array, found ") + jsonTypeName(*m_value));
    return m_value->size();
}

JsonReader JsonReader::at(std::size_t i) const
{
    if (!m_value->is_array() || i >= m_value->size())
        fail("array index " + std::to_string(i) + " out of range");
    return JsonReader((*m_value)[i], m_path + "/" + std::to_string(i));
}

std::string JsonReader::string(const char *key) const
{
    const auto &v = member(key);
    if (!v.is_string())
        fail(key, std::string("expected a string, found ") + jsonTypeName(v));
    return v.get<std::string>();
}

std::string JsonReader::string(const char *key, const std::string &fallback) const
{
    return has(key) ? string(key) : fallback;
}

double JsonReader::number(const char *key) const
{
    const auto &v = member(key);
    if (!v.is_number())
        fail(key, std::string("expected a number, found ") + jsonTypeName(v));
    const double d = v.get<double>();
    if (!std::isfinite(d))
        fail(key, "must be a finite number");
    return d;
}

double JsonReader::number(const char *key, double fallback) const
{
    return has(key) ? number(key) : fallback;
}

double JsonReader::positive(const char *key) const
{
    const double d = number(key);
    if (d <= 0)
        fail(key, "must be greater than 0 (found " + numberText(d) + ")");
    return d;
}

double JsonReader::positive(const char *key, double max, const char *unit) const
{
    const double d = positive(key);
    if (d > max) {
        std::ostringstream s;
        s << "must be at most " << max << " " << unit << " (found " << d << ")";
        fail(key, s.str());
    }
    return d;
}

double JsonReader::nonNegative(const char *key, double fallback) const
{
    const double d = number(key, fallback);
    if (d < 0)
        fail(key, "must not be negative (found " + numberText(d) + ")");
    return d;
}

long long JsonReader::integer(const char *key, long long lo, long long hi) const
{
    const auto &v = member(key);
    // A whole number written with an exponent or beyond 64 bits (1e30) parses as a float: say
    // what is expected rather than "expected an integer, found a number".
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d))
            fail(key,
                 "must be a whole number between " + std::to_string(lo) + " and "
                     + std::to_string(hi) + " (found " + numberText(d) + ")");
    }
    if (!v.is_number_integer() && !v.is_number_unsigned())
        fail(key, std::string("expected an integer, found ") + jsonTypeName(v));
    if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
        fail(key,
             "must be at most " + std::to_string(hi) + " (found "
                 + std::to_string(v.get<unsigned long long>()) + ")");
    const long long x = v.get<long long>();
    if (x < lo || x > hi)
        fail(key,
             "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " (found "
                 + std::to_string(x) + ")");
    return x;
}

long long JsonReader::integer(const char *key, long long lo, long long hi, long long fallback) const
{
    return has(key) ? integer(key, lo, hi) : fallback;
}

bool JsonReader::boolean(const char *key, bool fallback) const
{
    if (!has(key))
        return fallback;
    const auto &v = member(key);
    if (!v.is_boolean())
        fail(key, std::string("expected true or false, found ") + jsonTypeName(v));
    return v.get<bool>();
}

} // namespace weft
