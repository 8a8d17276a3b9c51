// weft-cli validate FILE: reads a design and checks it (product.md, Command line).
// Exit 0: valid (warnings allowed); 1: readable but invalid or its workload cannot run (the
// simulator's preflight), findings printed; 2: unreadable file or bad usage, with the file, the
// JSON location and the problem.
#include "command.h"
#include "commandparser.h"
#include "findingtext.h"
#include "model/validate.h"
#include "sim/simulator.h"
#include "storage/designstorage.h"

#include <QCommandLineParser>

namespace weft::cli {

namespace {

int run(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Reads a .weft design and checks it: file structure (types, required fields, ids, "
        "references, value ranges and size limits) and the fabric (switch port budgets against "
        "their radix, link ends, self links, rates and lanes, hardware keys, accelerators with no "
        "path to the others, group membership and nesting). When the fabric has no errors and the "
        "design has a workload, the workload is checked as 'weft-cli simulate' checks it before "
        "running: parallel degrees and divisibility, world size against the accelerators, "
        "placement, memory per GPU against HBM, TP groups spanning scale-up domains.\n"
        "Older file versions are upgraded in memory only (the file is not changed).\n\n"
        "Exit codes: 0 valid (warnings may be printed), 1 the design is invalid or its workload "
        "cannot run (findings are printed as 'error [code] message (subjects)'), 2 the file cannot "
        "be read or bad usage "
        "(the error names the file, the JSON location and the problem)."));
    const QCommandLineOption quiet(QStringList {QStringLiteral("q"), QStringLiteral("quiet")},
                                   QStringLiteral("Print errors only (no warnings, no summary)."));
    parser.addOption(quiet);
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 QStringLiteral("The .weft design to check."));
    if (const auto code = parseCommandLine(parser, args, QStringLiteral("validate"),
                                           QStringLiteral("weft-cli validate [options] FILE")))
        return *code;
    const QStringList files = parser.positionalArguments();
    if (files.size() != 1) {
        err(QStringLiteral(
            "weft-cli validate: expected one FILE (see 'weft-cli validate --help')"));
        return ExitUsage;
    }
    const QString path = files.first();
    const LoadResult loaded = loadDesignFile(path, MigrationBackup::Skip);
    if (!loaded.ok()) {
        err(QStringLiteral("weft-cli validate: %1")
                .arg(QString::fromStdString(loaded.error.toString())));
        return ExitUsage;
    }
    const bool loud = !parser.isSet(quiet);
    if (loud)
        for (const QString &m : loaded.migrations)
            out(QStringLiteral("note: %1 is an older file format, read after upgrading (%2)")
                    .arg(path, m));
    const Design &d = *loaded.design;
    std::vector<Finding> findings = validateDesign(d);
    // The workload findings presuppose a sound fabric (the plan walks its links and groups).
    const bool checkWorkload = d.workload && !hasError(findings);
    if (checkWorkload) {
        const std::vector<Finding> workload = preflight(d);
        findings.insert(findings.end(), workload.begin(), workload.end());
    }
    const auto [errors, warnings] = countFindings(findings);
    for (const Finding &f : findings)
        if (loud || f.severity == Severity::Error)
            out(describeFinding(f, d));
    if (loud && d.workload && !checkWorkload)
        out(QStringLiteral("note: the workload is checked once the errors above are fixed"));
    if (loud) {
        const QString counts = QStringLiteral("%1 nodes (%2 accelerators), %3 links, %4 groups")
                                   .arg(d.nodes().size())
                                   .arg(d.acceleratorCount())
                                   .arg(d.links().size())
                                   .arg(d.groups().size())
            + (d.workload ? QStringLiteral("; workload %1 on %2 accelerators (tp %3, pp %4, dp %5)")
                                .arg(QString::fromStdString(d.workload->model.name))
                                .arg(d.workload->config.worldSize())
                                .arg(d.workload->config.tp)
                                .arg(d.workload->config.pp)
                                .arg(d.workload->config.dp)
                          : QString());
        out(errors ? QStringLiteral("%1: invalid: %2, %3; %4")
                         .arg(path, countText(errors, "error", "errors"),
                              countText(warnings, "warning", "warnings"), counts)
                   : QStringLiteral("%1: valid, %2; %3")
                         .arg(path, countText(warnings, "warning", "warnings"), counts));
    }
    return errors ? ExitInvalid : ExitOk;
}

const CliCommandRegistration reg {
    {"validate", "check a design file (exit 0 valid, 1 invalid, 2 unreadable)", run}};

} // namespace

} // namespace weft::cli
