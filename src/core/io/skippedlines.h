#pragma once
// Lines a text importer skipped (a shell prompt or a tool's warning before the data), counted
// with the first of them, for a note in the import summary.

#include <string>
#include <string_view>
#include <vector>

namespace weft {

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
    /// Adds "skipped N line(s) ... (line L: "...")" to `notes` when any was skipped.
    void note(std::vector<std::string> &notes, const char *what = "before the first record") const
    {
        if (count > 0)
            notes.push_back("skipped " + std::to_string(count) + " line(s) " + what
                            + " that are not ibnetdiscover output (line "
                            + std::to_string(firstLine) + ": \"" + first + "\")");
    }
};

} // namespace weft
