#include "io/jsontext.h"

#include "io/fileerror.h"

#include <string>
#include <vector>

namespace weft {

namespace {

// "line L, column C" of the 1-based byte offset `byte` (as nlohmann reports it).
std::string lineColumn(std::string_view text, std::size_t byte)
{
    const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < end; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return "line " + std::to_string(line) + ", column " + std::to_string(end - lineStart + 1);
}

// One open array or object during the scan.
struct Frame
{
    bool object = false;
    std::size_t index = 0; ///< arrays: position of the current element
    std::string_view key; ///< objects: the current member's key, as written (escapes kept)
};

std::string pointerOf(const std::vector<Frame> &frames)
{
    std::string out;
    for (const Frame &f : frames) {
        out += '/';
        if (!f.object) {
            out += std::to_string(f.index);
            continue;
        }
        for (char c : f.key)
            out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    }
    return out;
}

} // namespace

JsonTextShape scanJsonText(std::string_view text)
{
    JsonTextShape shape;
    std::vector<Frame> frames;
    std::string_view lastString;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        switch (c) {
        case '"': {
            const std::size_t start = ++i;
            while (i < text.size() && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            lastString = text.substr(start, std::min(i, text.size()) - start);
            break;
        }
        case '{':
        case '[':
            ++shape.values;
            if (frames.size() >= kMaxJsonDepth) {
                shape.tooDeep = true;
                shape.deepPath = pointerOf(frames);
                return shape;
            }
            frames.push_back({c == '{', 0, {}});
            break;
        case '}':
        case ']':
            if (!frames.empty())
                frames.pop_back();
            break;
        case ',':
            ++shape.values;
            if (!frames.empty() && !frames.back().object)
                ++frames.back().index;
            break;
        case ':':
            if (!frames.empty() && frames.back().object)
                frames.back().key = lastString;
            break;
        default:
            break;
        }
    }
    return shape;
}

/// nlohmann's "...; last read: '<token>'" quotes the whole token, a truncated file's last
/// string to its end (a catalog source of 1,800 characters): only its last `kQuoted`
/// characters are kept, after "...", cut at a UTF-8 character boundary.
std::string shortenLastRead(std::string why)
{
    constexpr std::size_t kQuoted = 60;
    const std::string marker = "last read: '";
    const auto open = why.find(marker);
    if (open == std::string::npos)
        return why;
    const std::size_t from = open + marker.size();
    const std::size_t close = why.rfind('\'');
    if (close == std::string::npos || close < from || close - from <= kQuoted)
        return why;
    std::size_t keep = close - kQuoted;
    while (keep < close && (static_cast<unsigned char>(why[keep]) & 0xC0) == 0x80)
        ++keep; // not inside a multi-byte character
    return why.substr(0, from) + "..." + why.substr(keep);
}

nlohmann::json parseJsonText(std::string_view text, std::size_t maxValues, const char *what)
{
    const JsonTextShape shape = scanJsonText(text);
    if (shape.tooDeep)
        throw JsonFieldError(shape.deepPath,
                             "arrays and objects nested deeper than "
                                 + std::to_string(kMaxJsonDepth) + " levels (the limit for " + what
                                 + ")");
    if (shape.values > maxValues)
        throw JsonFieldError("",
                             "the file holds more than " + std::to_string(maxValues)
                                 + " JSON values, above the limit for " + what);
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::out_of_range &e) { // e.g. "number overflow parsing '1e400'"
        std::string why = e.what();
        if (const auto bracket = why.find("] "); bracket != std::string::npos)
            why = why.substr(bracket + 2);
        throw JsonFieldError("", "not valid JSON: " + why);
    } catch (const nlohmann::json::parse_error &e) {
        std::string why = e.what();
        // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 2: <why>"
        if (const auto col = why.find("column "); col != std::string::npos)
            if (const auto colon = why.find(": ", col); colon != std::string::npos)
                why = why.substr(colon + 2);
        const bool atEnd = e.byte >= text.size();
        throw JsonFieldError("",
                             std::string(atEnd ? "the file ends too early (truncated?): " : "")
                                 + "not valid JSON at " + lineColumn(text, e.byte) + ": "
                                 + shortenLastRead(why));
    }
}

nlohmann::json parseJsonTextOrDiscard(std::string_view text, std::size_t maxValues)
{
    const JsonTextShape shape = scanJsonText(text);
    if (shape.tooDeep || shape.values > maxValues)
        return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

} // namespace weft
