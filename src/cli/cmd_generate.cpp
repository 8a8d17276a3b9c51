// weft-cli generate: builds a fabric from parameters and writes it as a design file
// (product.md, Generators and Command line).
#include "command.h"
#include "commandparser.h"
#include "fabricoptions.h"
#include "generate/bom.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "storage/designstorage.h"
#include "workloadoptions.h"

#include <QCommandLineParser>

namespace weft::cli {

namespace {

int runGenerate(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Generate a cluster fabric (scale-up domains and a scale-out fat-tree) "
                       "and write it to a design file. Port budgets are checked first: when the "
                       "fabric does not fit, the problems are printed and the exit code is 1."));
    QString catalogError;
    // The presets named in --help come from the built-in catalog; --catalog can add more.
    addFabricOptions(parser, builtinCatalog());
    addWorkloadOptions(parser);
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("output")},
                                       QStringLiteral("Design file to write (.weft). Required."),
                                       QStringLiteral("FILE"));
    parser.addOption(outOption);
    if (const auto code = parseCommandLine(parser, args, QStringLiteral("generate"),
                                           QStringLiteral("weft-cli generate [options] -o FILE")))
        return *code;
    if (!parser.positionalArguments().isEmpty()) {
        err(QStringLiteral("weft-cli generate: unexpected argument '%1'")
                .arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    if (!parser.isSet(outOption)) {
        err(QStringLiteral("weft-cli generate: -o FILE is required"));
        return ExitUsage;
    }
    const Catalog catalog = fabricCatalog(parser, catalogError);
    if (!catalogError.isEmpty()) {
        err(QStringLiteral("weft-cli generate: %1").arg(catalogError));
        return ExitUsage;
    }
    FabricParams params;
    if (const QString e = readFabricOptions(parser, params); !e.isEmpty()) {
        err(QStringLiteral("weft-cli generate: %1").arg(e));
        return ExitUsage;
    }
    GenerateResult result = generateFabric(params, catalog);
    if (!result.ok()) {
        err(QStringLiteral("weft-cli generate: the fabric does not fit:"));
        for (const std::string &e : result.errors)
            err(QStringLiteral("  - %1").arg(QString::fromStdString(e)));
        return ExitInvalid;
    }
    QString workloadError;
    const auto workload = workloadFromOptions(
        parser, static_cast<long long>(result.design->acceleratorCount()), workloadError);
    if (!workloadError.isEmpty()) {
        err(QStringLiteral("weft-cli generate: %1").arg(workloadError));
        return ExitUsage;
    }
    result.design->workload = workload;
    const QString path = parser.value(outOption);
    if (const auto e = saveDesignFile(*result.design, path)) {
        err(QStringLiteral("weft-cli generate: %1").arg(QString::fromStdString(e->toString())));
        return ExitUsage;
    }
    const BillOfMaterials bom = computeBom(*result.design);
    out(QStringLiteral("Wrote %1: %2 (%3 accelerators, %4 switches, %5 links, %6 cables)")
            .arg(path, QString::fromStdString(result.design->name))
            .arg(bom.totalAccelerators)
            .arg(bom.totalSwitches)
            .arg(result.design->links().size())
            .arg(bom.totalCables));
    return ExitOk;
}

const CliCommandRegistration reg {
    {"generate", "build a cluster fabric from parameters and write a design file", runGenerate}};

} // namespace

} // namespace weft::cli
