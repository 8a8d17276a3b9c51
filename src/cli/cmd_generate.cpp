// weft-cli generate: builds a fabric from parameters and writes it as a design file
// (product.md, Generators and Command line).
#include "command.h"
#include "commandparser.h"
#include "fabricoptions.h"
#include "findingtext.h"
#include "generate/bom.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "sim/simulator.h"
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
                       "fabric does not fit, the problems are printed, nothing is written and the "
                       "exit code is 1.\n\n"
                       "Any workload flag (--model, --tp, ...) adds a training workload, which is "
                       "checked as 'weft-cli simulate' checks it before running (divisibility, "
                       "world size against the accelerators, placement, memory per GPU). Its "
                       "findings are printed on stderr as 'weft-cli generate: error [code] "
                       "message'. With errors the file is still written (to be fixed in the GUI "
                       "or regenerated) but the exit code is 1, as the design cannot simulate; "
                       "warnings alone keep exit code 0.\n\n"
                       "Exit codes: 0 written, 1 the fabric does not fit (nothing written) or the "
                       "workload cannot run (written), 2 bad usage or the file cannot be "
                       "written."));
    QString catalogError;
    // The presets named in --help come from the built-in catalog; --catalog can add more.
    addFabricOptions(parser, builtinCatalog());
    addWorkloadOptions(parser);
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("output")},
                                       QStringLiteral("Design file to write (.weft). Required."),
                                       QStringLiteral("FILE"));
    parser.addOption(outOption);
    const QCommandLineOption accOption(
        QStringLiteral("accelerator"),
        QStringLiteral("Accelerator of the scale-up preset instead of its own: a catalog key, "
                       "optionally with variants after '@' (h100-sxm@500w,96gb: a power/clock "
                       "and a memory setting of the entry; the catalog lists each entry's)."),
        QStringLiteral("KEY"));
    parser.addOption(accOption);
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
    Catalog catalog = fabricCatalog(parser, catalogError);
    if (!catalogError.isEmpty()) {
        err(QStringLiteral("weft-cli generate: %1").arg(catalogError));
        return ExitUsage;
    }
    FabricParams params;
    if (const QString e = readFabricOptions(parser, catalog, params); !e.isEmpty()) {
        err(QStringLiteral("weft-cli generate: %1").arg(e));
        return ExitUsage;
    }
    if (parser.isSet(accOption)) { // the preset with another accelerator (or a variant)
        const std::string key = parser.value(accOption).toStdString();
        const std::string base = key.substr(0, key.find('@'));
        const auto it = catalog.hardware.accelerators.find(base);
        AcceleratorSpec resolved;
        std::string error;
        if (it == catalog.hardware.accelerators.end()) {
            err(QStringLiteral("weft-cli generate: --accelerator: unknown accelerator '%1'")
                    .arg(QString::fromStdString(base)));
            return ExitUsage;
        }
        if (!applyVariants(it->second, key, resolved, error)) {
            err(QStringLiteral("weft-cli generate: --accelerator: %1")
                    .arg(QString::fromStdString(error)));
            return ExitUsage;
        }
        catalog.scaleUpPresets.at(params.scaleUpPreset).accelerator = key;
    }
    GenerateResult result = generateFabric(params, catalog);
    if (result.ok() && parser.isSet(accOption)) // the name says the accelerator too
        result.design->name = describeFabric(params, parser.value(accOption).toStdString());
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
    const std::vector<Finding> findings = preflight(*result.design);
    for (const Finding &f : findings)
        err(QStringLiteral("weft-cli generate: %1").arg(describeFinding(f, *result.design)));
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
    if (const int errors = countFindings(findings).errors) {
        err(QStringLiteral("weft-cli generate: %1 was written, but its workload cannot be "
                           "simulated (%2 above): change the workload flags, or edit it in the "
                           "GUI's Partitions dock")
                .arg(path, countText(errors, "error", "errors")));
        return ExitInvalid;
    }
    return ExitOk;
}

const CliCommandRegistration reg {
    {"generate", "build a cluster fabric from parameters and write a design file", runGenerate}};

} // namespace

} // namespace weft::cli
