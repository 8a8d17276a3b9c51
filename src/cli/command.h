#pragma once
// Sub-command registry of weft-cli. Each command lives in its own cmd_*.cpp and registers itself
// with a static CliCommandRegistration.

#include <QStringList>

#include <functional>
#include <vector>

namespace weft::cli {

/// Exit codes (product.md, Command line).
enum ExitCode { ExitOk = 0, ExitInvalid = 1, ExitUsage = 2 };

struct CliCommand
{
    const char *name;     ///< sub-command, e.g. "generate"
    const char *summary;  ///< one line for `weft-cli --help`
    /// Runs the command; `args` are argv with the sub-command name in place of argv[0].
    std::function<int(const QStringList &args)> run;
};

/// All registered commands, sorted by name.
std::vector<CliCommand> &commands();

/// Registers a command at static-initialisation time.
struct CliCommandRegistration
{
    explicit CliCommandRegistration(CliCommand c);
};

/// Writes a line to stdout / stderr (UTF-8).
void out(const QString &line);
void err(const QString &line);

} // namespace weft::cli
