#pragma once
// Sub-command registry of weft-cli. Each command lives in its own cmd_*.cpp and registers itself
// with a static CliCommandRegistration.

#include <QCoreApplication>
#include <QStringList>
#include <functional>
#include <memory>
#include <vector>

namespace weft::cli {

/// Exit codes (product.md, Command line).
enum ExitCode { ExitOk = 0, ExitInvalid = 1, ExitUsage = 2 };

struct CliCommand
{
    const char *name; ///< sub-command, e.g. "generate"
    const char *summary; ///< one line for `weft-cli --help`
    /// Runs the command; `args` are argv with the sub-command name in place of argv[0].
    std::function<int(const QStringList &args)> run;
    /// The application object the command needs; empty: a QCoreApplication. Commands that
    /// render (report, export) create a QApplication on the offscreen platform.
    std::function<std::unique_ptr<QCoreApplication>(int &argc, char **argv)> makeApplication {};
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
/// `text` to stdout as it is (no newline added).
void outText(const QString &text);
/// Why writing to stdout failed ("No space left on device"), or empty: main() turns it into an
/// error and exit code 2 (a full disk or a closed pipe behind a redirection went unnoticed,
/// exit 0).
QString outputProblem();
void err(const QString &line);

} // namespace weft::cli
