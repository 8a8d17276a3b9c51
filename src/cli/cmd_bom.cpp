// weft-cli bom: prints the bill of materials of a design file (issue 2, Command line).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "generate/bom.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace weft::cli {

namespace {

int runBom(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print the bill of materials of a design: accelerators, switches per "
                       "tier and model, links, cables and transceivers per tier (counted from "
                       "the graph, so hand-edited designs work too).\n\nExit codes: 0 printed, 1 "
                       "the design is invalid (its errors are printed), 2 bad usage or an "
                       "unreadable file."));
    const QCommandLineOption csvOption(QStringLiteral("csv"),
                                       QStringLiteral("Print CSV (one row per accelerator model, "
                                                      "switch role and model, link tier) instead "
                                                      "of a table (default: table)."));
    parser.addOption(csvOption);
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Design file (.weft)."));
    if (const auto code = parseCommandLine(parser, args, QStringLiteral("bom"),
                                           QStringLiteral("weft-cli bom [--csv] FILE")))
        return *code;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("weft-cli bom: expected exactly one design FILE"));
        return ExitUsage;
    }
    int readCode = ExitUsage; // reads only: no .bak beside an older file
    const std::optional<Design> design = readDesignArgument(
        QStringLiteral("bom"), parser.positionalArguments().first(), &readCode);
    if (!design)
        return readCode;
    const BillOfMaterials bom = computeBom(*design);
    if (parser.isSet(csvOption))
        outText(QString::fromStdString(formatBomCsv(bom)));
    else
        outText(QStringLiteral("Bill of materials: %1\n\n%2")
                    .arg(QString::fromStdString(design->name),
                         QString::fromStdString(formatBomTable(bom))));
    return ExitOk;
}

const CliCommandRegistration reg {{"bom", "print the bill of materials of a design", runBom}};

} // namespace

} // namespace weft::cli
