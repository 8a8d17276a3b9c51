#include "commandparser.h"

#include "command.h"

namespace weft::cli {

std::optional<int> parseCommandLine(QCommandLineParser &parser, const QStringList &args,
                                    const QString &name, const QString &usage)
{
    const QCommandLineOption helpOption = parser.addHelpOption();
    if (!parser.parse(args)) {
        err(QStringLiteral("weft-cli %1: %2 (see 'weft-cli %1 --help')")
                .arg(name, parser.errorText()));
        return ExitUsage;
    }
    if (parser.isSet(helpOption)) {
        QString help = parser.helpText(); // its first line names the binary, not the command
        out(help.replace(0, help.indexOf(u'\n'), QStringLiteral("Usage: ") + usage));
        return ExitOk;
    }
    return std::nullopt;
}

} // namespace weft::cli
