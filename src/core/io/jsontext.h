#pragma once
// Parsing JSON text with bounds checked before anything is built: nesting depth and number of
// values. The check is one iterative pass over the text (no recursion), so a file nested
// 100,000 levels deep is refused with the JSON Pointer where it passes the limit, instead of
// overflowing the stack in a recursive copy, dump or comparison of the parsed value.
// Internal to core/io.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

namespace weft {

/// Deepest nesting of arrays and objects accepted in any JSON file Weft reads (a design needs 5;
/// unknown members kept under "extensions" may use the rest).
inline constexpr std::size_t kMaxJsonDepth = 200;

/// What a one-pass scan of JSON text finds (strings are skipped, so brackets in them do not
/// count). Invalid JSON gives approximate figures; the parser reports the syntax error.
struct JsonTextShape
{
    std::size_t values = 1; ///< upper bound of the number of values (commas and openers + 1)
    bool tooDeep = false; ///< some array or object opens at depth kMaxJsonDepth
    std::string deepPath; ///< JSON Pointer of the first value that opens too deep
};
JsonTextShape scanJsonText(std::string_view text);

/// Parses `text`: throws JsonFieldError naming the JSON Pointer when it nests deeper than
/// kMaxJsonDepth, a whole-file error when it holds more than `maxValues` values ("... above the
/// limit for <what>"), or one with line and column for a syntax error ("the file ends too
/// early (truncated?)" when it stops mid-value).
nlohmann::json parseJsonText(std::string_view text, std::size_t maxValues, const char *what);

/// Same as parseJsonText(), returning a discarded (JSON "discarded" type) value instead of
/// throwing.
nlohmann::json parseJsonTextOrDiscard(std::string_view text, std::size_t maxValues);

} // namespace weft
