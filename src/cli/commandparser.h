#pragma once
// Shared option parsing of weft-cli sub-commands: --help and usage errors the same way everywhere.

#include <QCommandLineParser>
#include <QStringList>
#include <optional>

namespace weft::cli {

/// Adds --help to `parser` (with its options already added) and parses `args` for sub-command
/// `name`. Prints the help (with `usage` as its first line) and returns ExitOk when --help is
/// given, prints the problem and returns ExitUsage on a parse error; nullopt means carry on.
std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &args,
                                    const QString &name, const QString &usage);

} // namespace weft::cli
