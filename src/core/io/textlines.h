#pragma once
// The lines of an imported text file, and the lines an importer skipped.

#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// Calls fn(line, number) for each line of `text` (1-based numbers), without its '\n' or a
/// trailing '\r' (CRLF files), after a leading UTF-8 byte-order mark; stops when fn returns
/// false. Returns the number of the last line visited.
template<typename Fn> int forEachLine(std::string_view text, Fn &&fn)
{
    std::size_t pos = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    int number = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!fn(line, number))
            break;
    }
    return number;
}

/// Lines a text importer skipped (a shell prompt or a tool's warning before the data), counted
/// with the first of them, for a note in the import summary.
struct SkippedLines
{
    int count = 0;
    int firstLine = 0; ///< 1-based
    std::string first; ///< its first 60 characters, control characters as '?'

    void skip(int line, std::string_view text)
    {
        if (count++ > 0)
            return;
        firstLine = line;
        for (const char c : text.substr(0, 60))
            first += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    /// " (12 lines skipped, the first line 1: "...")", or empty.
    [[nodiscard]] std::string suffix() const
    {
        if (count == 0)
            return {};
        return " (" + std::to_string(count) + " line(s) skipped, the first line "
            + std::to_string(firstLine) + ": \"" + first + "\")";
    }
    /// Adds "skipped N line(s) before the first record ... (line L: "...")" to `notes` when
    /// any was skipped.
    void note(std::vector<std::string> &notes) const
    {
        if (count > 0)
            notes.push_back(
                "skipped " + std::to_string(count)
                + " line(s) before the first record that are not ibnetdiscover output (line "
                + std::to_string(firstLine) + ": \"" + first + "\")");
    }
};

} // namespace weft
