#pragma once
// The error every file reader of Weft reports: which file, where in it, what is wrong.

#include <stdexcept>
#include <string>

namespace weft {

/// A problem in a file: `file` is the path (or a source name), `jsonPath` a JSON Pointer
/// ("/nodes/12/rate_gbps"; empty for whole-file problems such as a parse error, which gives
/// line and column in `message`), `message` says what is wrong in words a user understands.
struct FileError
{
    std::string file;
    std::string jsonPath;
    std::string message;

    /// "file: at /nodes/12/rate_gbps: must be greater than 0".
    [[nodiscard]] std::string toString() const;
};

/// Thrown inside the readers of core/io when a JSON value is wrong; never crosses the public
/// API of core/io, which returns FileError instead.
class JsonFieldError : public std::runtime_error
{
public:
    JsonFieldError(std::string path, const std::string &message)
        : std::runtime_error(message)
        , m_path(std::move(path))
    {
    }
    [[nodiscard]] const std::string &path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace weft
