#pragma once
// Reading the design FILE argument of a weft-cli command, with the reader's error (path and
// JSON location) printed under the command's name.

#include "model/design.h"

#include <QString>
#include <optional>

namespace weft::cli {

/// Loads `path` (no migration backup: commands only read). On failure prints
/// "weft-cli <command>: <file>: at <json pointer>: <problem>" and returns nullopt.
std::optional<Design> readDesignArgument(const QString &command, const QString &path);

/// True when `design` (read from `path`) has a workload; otherwise prints "weft-cli <command>:
/// <path> has no workload to simulate" with how to add one, and returns false.
bool requireWorkload(const QString &command, const QString &path, const Design &design);

/// readDesignArgument() and requireWorkload() together: the design, or nullopt with
/// *exitCode set to ExitUsage (unreadable file) or ExitInvalid (no workload), message printed.
std::optional<Design> readWorkloadDesign(const QString &command, const QString &path,
                                         int *exitCode);

/// Creates directory `dir` if needed and checks that a file can be written in it. On failure
/// prints "weft-cli <command>: cannot write to <dir>: <cause>" and returns false.
bool prepareOutputDirectory(const QString &command, const QString &dir);

/// Writes `text` to `path` whole (QSaveFile). On failure prints the path and cause.
bool writeTextFile(const QString &command, const QString &path, const std::string &text);

} // namespace weft::cli
