#pragma once
// Reading the design FILE argument of a weft-cli command, with the reader's error (path and
// JSON location) printed under the command's name.

#include "model/design.h"

#include <QCommandLineParser>
#include <QString>
#include <optional>

namespace weft::cli {

/// Loads `path` (no migration backup: commands only read) and checks it with validateDesign(),
/// the check of `weft-cli validate`, so that no command computes on a design validate rejects.
/// An unreadable file prints "weft-cli <command>: <file>: at <json pointer>: <problem>" and
/// sets *exitCode to ExitUsage; a design with errors (self-links, unknown link technology or
/// switch model, group cycles, ...) prints its errors and sets ExitInvalid. Returns nullopt then.
std::optional<Design> readDesignArgument(const QString &command, const QString &path,
                                         int *exitCode = nullptr);

/// True when `design` (read from `path`) has a workload; otherwise prints "weft-cli <command>:
/// <path> has no workload to simulate" with how to add one, and returns false.
bool requireWorkload(const QString &command, const QString &path, const Design &design);

/// readDesignArgument() and requireWorkload() together: the design, or nullopt with
/// *exitCode set to ExitUsage (unreadable file, bad workload flag) or ExitInvalid (invalid
/// design, no workload), message printed. With `workloadFlags` (a parser that took
/// addWorkloadOptions()) the workload the flags describe replaces the file's, so an imported
/// fabric without one can be simulated: `simulate cluster.weft --model llama3-70b --tp 8`.
std::optional<Design> readWorkloadDesign(const QString &command, const QString &path, int *exitCode,
                                         const QCommandLineParser *workloadFlags = nullptr);

/// Creates directory `dir` if needed and checks that a file can be written in it. On failure
/// prints "weft-cli <command>: cannot write to <dir>: <cause>" and returns false.
bool prepareOutputDirectory(const QString &command, const QString &dir);

/// Writes `text` to `path` whole (QSaveFile). On failure prints the path and cause.
bool writeTextFile(const QString &command, const QString &path, const std::string &text);

} // namespace weft::cli
