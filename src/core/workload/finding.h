#pragma once
// Coded findings about a workload or a simulation: invalid configurations, placement problems,
// memory over capacity, unroutable pairs. They are reported, never thrown.

#include <string>
#include <vector>

namespace weft {

enum class Severity { Info, Warning, Error };

/// One coded message. `code` is stable (e.g. "heads-not-divisible-by-tp"); `subjects` name the
/// objects concerned as "node:<id>", "link:<id>", "rank:<r>", "stage:<s>" or "group:<kind>/<i>".
struct Finding
{
    Severity severity = Severity::Warning;
    std::string code;
    std::string message;
    std::vector<std::string> subjects;
};

/// True when any finding is an error.
bool hasError(const std::vector<Finding> &findings);

const char *toString(Severity s);

} // namespace weft
