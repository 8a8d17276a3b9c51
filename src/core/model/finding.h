#pragma once
// Coded findings: problems in a design, a workload or a simulation (invalid values, port budgets,
// placement problems, memory over capacity, unroutable pairs). Reported, never thrown. One type
// for the whole core, so the GUI's warnings panel and the CLI show them all alike.

#include "model/ids.h"

#include <string>
#include <vector>

namespace weft {

enum class Severity { Info, Warning, Error };

/// One coded message. `code` is stable (tests, scripts and the warnings panel key on it);
/// `message` is a readable sentence naming the objects. Subjects: the nodes, links and groups
/// concerned by id, plus other subjects as text ("rank:<r>", "stage:<s>", "group:<kind>/<i>",
/// "node:<id>").
struct Finding
{
    Finding() = default;
    Finding(Severity sev, std::string c, std::string msg, std::vector<std::string> subj = {})
        : severity(sev)
        , code(std::move(c))
        , message(std::move(msg))
        , subjects(std::move(subj))
    {
    }

    Severity severity = Severity::Warning;
    std::string code;
    std::string message;
    std::vector<std::string> subjects;
    std::vector<NodeId> nodes;
    std::vector<LinkId> links;
    std::vector<GroupId> groups;
};

/// True when any finding is an error.
bool hasError(const std::vector<Finding> &findings);

/// "info", "warning", "error".
const char *toString(Severity s);

} // namespace weft
