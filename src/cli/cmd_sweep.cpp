// weft-cli sweep FILE --param NAME --values LIST [--jobs N] [--shard I/N] [--out DIR]: variants
// of a design differing in one parameter, simulated in parallel (issue 6); shards for job arrays.
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "guiapplication.h"
#include "io/catalogfile.h"
#include "shards.h"
#include "sweep/sweep.h"
#include "sweepoutput.h"

#include <QCommandLineParser>
#include <QDir>
#include <algorithm>
#include <stdexcept>
#include <thread>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("sweep");

QString paramList()
{
    QStringList names;
    for (SweepParam p : allSweepParams())
        names << QStringLiteral("%1 (%2%3)")
                     .arg(QString::fromLatin1(toString(p)),
                          QString::fromStdString(sweepParamTitle(p)),
                          sweepParamUnit(p).empty()
                              ? QString()
                              : QStringLiteral(", ") + QString::fromStdString(sweepParamUnit(p)));
    return names.join(QStringLiteral(", "));
}

void printTable(const SweepTable &t)
{
    const QString unit = QString::fromStdString(sweepParamUnit(t.param));
    out(QStringLiteral("%1 %2 %3 %4 %5  %6")
            .arg(QString::fromLatin1(toString(t.param)).rightJustified(16))
            .arg(QStringLiteral("step time ms").rightJustified(13))
            .arg(QStringLiteral("MFU %").rightJustified(6))
            .arg(QStringLiteral("tokens/s").rightJustified(11))
            .arg(QStringLiteral("GPUs").rightJustified(6))
            .arg(QStringLiteral("notes")));
    for (const SweepRow &r : t.rows) {
        const QString value = QString::number(r.value) + (unit.isEmpty() ? QString() : u' ' + unit);
        if (r.ok)
            out(QStringLiteral("%1 %2 %3 %4 %5  %6")
                    .arg(value.rightJustified(16))
                    .arg(r.stepTime * 1e3, 13, 'f', 2)
                    .arg(r.mfu * 100, 6, 'f', 1)
                    .arg(r.tokensPerSecond, 11, 'f', 0)
                    .arg(r.accelerators, 6)
                    .arg(QString::fromStdString(r.note)));
        else
            out(QStringLiteral("%1 %2  %3")
                    .arg(value.rightJustified(16))
                    .arg(QStringLiteral("FAILED").rightJustified(13 + 1 + 6 + 1 + 11 + 1 + 6))
                    .arg(QString::fromStdString(r.reason)));
    }
}

int runSweepCommand(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Simulates variants of the design that differ in one parameter, on N "
                       "threads, and prints step time and MFU per value. Parameters: %1. "
                       "Fabric parameters regenerate the fabric from the design's generator "
                       "settings. Variants that cannot run (invalid parallelism, memory over "
                       "HBM, a fabric that does not fit) are rows with the reason.\n\n"
                       "Cluster job arrays: --shard I/N runs only the variants whose index "
                       "(position in --values, from 0) satisfies index % N == I and writes "
                       "sweep-shard-I-of-N.json/.csv to --out; 'weft-cli sweep-merge' combines "
                       "the shard files into one table and chart (e.g. Slurm: --shard "
                       "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT).\n\n"
                       "Exit codes: 0 at least one variant ran, or a shard's file was written "
                       "with --shard and --out even if none of its variants ran (sweep-merge "
                       "judges the whole sweep); 1 no variant ran or the design has no "
                       "workload; 2 bad usage, an unreadable file or an output that cannot be "
                       "written.")
            .arg(paramList()));
    p.addPositionalArgument(QStringLiteral("FILE"),
                            QStringLiteral("Design file (.weft) with a workload."));
    const QCommandLineOption paramOption(QStringLiteral("param"),
                                         QStringLiteral("Parameter to vary (see above)."),
                                         QStringLiteral("NAME"));
    const QCommandLineOption valuesOption(
        QStringLiteral("values"),
        QStringLiteral("Comma-separated values, e.g. 8,16,32,72 (NIC rate in Gb/s)."),
        QStringLiteral("LIST"));
    const QCommandLineOption jobsOption(
        QStringLiteral("jobs"),
        QStringLiteral("Variants simulated at once (default: the number of cores)."),
        QStringLiteral("N"));
    const QCommandLineOption shardOption(
        QStringLiteral("shard"),
        QStringLiteral("Run only the variants with index % N == I (0 <= I < N)."),
        QStringLiteral("I/N"));
    const QCommandLineOption outOption(
        QStringLiteral("out"),
        QStringLiteral(
            "Write sweep.json, sweep.csv and the chart (sweep.png, .pdf, .svg) to DIR; with "
            "--shard only the table, as sweep-shard-I-of-N.json/.csv."),
        QStringLiteral("DIR"));
    p.addOptions({paramOption, valuesOption, jobsOption, shardOption, outOption});
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli sweep FILE --param NAME --values LIST [--jobs N] "
                           "[--shard I/N] [--out DIR]")))
        return *code;
    if (p.positionalArguments().size() != 1 || !p.isSet(paramOption) || !p.isSet(valuesOption)) {
        err(QStringLiteral("weft-cli sweep: expected one design FILE, --param NAME and --values "
                           "LIST (see 'weft-cli sweep --help')"));
        return ExitUsage;
    }
    SweepParam param = SweepParam::Tp;
    if (!fromString(p.value(paramOption).toStdString(), param)) {
        err(QStringLiteral("weft-cli sweep: unknown --param '%1' (known: %2)")
                .arg(p.value(paramOption), paramList()));
        return ExitUsage;
    }
    std::vector<double> values;
    try {
        values = parseSweepValues(param, p.value(valuesOption).toStdString());
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli sweep: --values: %1").arg(QString::fromUtf8(e.what())));
        return ExitUsage;
    }
    SweepRunOptions options;
    options.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (p.isSet(jobsOption)) {
        bool ok = false;
        options.jobs = p.value(jobsOption).toInt(&ok);
        if (!ok || options.jobs < 1) {
            err(QStringLiteral("weft-cli sweep: --jobs must be a whole number >= 1 (got '%1')")
                    .arg(p.value(jobsOption)));
            return ExitUsage;
        }
    }
    if (p.isSet(shardOption)
        && !parseShard(kName, p.value(shardOption), options.shard, options.shards))
        return ExitUsage;
    const QString path = p.positionalArguments().front();
    int readCode = ExitOk;
    const std::optional<Design> design = readWorkloadDesign(kName, path, &readCode);
    if (!design)
        return readCode;
    if (p.isSet(outOption) && !prepareOutputDirectory(kName, p.value(outOption)))
        return ExitUsage;

    out(QStringLiteral("%1: sweeping %2 over %3%4; held fixed: %5")
            .arg(QString::fromStdString(design->name),
                 QString::fromStdString(sweepParamTitle(param)), p.value(valuesOption),
                 options.shards > 1
                     ? QStringLiteral(" (shard %1/%2)").arg(options.shard).arg(options.shards)
                     : QString(),
                 QString::fromStdString(sweepHeldFixed(param))));
    options.progress = [](int done, int total) {
        err(QStringLiteral("weft-cli sweep: %1/%2 variants done").arg(done).arg(total));
    };
    const SweepTable table = runSweep(*design, builtinCatalog(), param, values, options);
    printTable(table);
    const bool anyRan
        = std::any_of(table.rows.begin(), table.rows.end(), [](const SweepRow &r) { return r.ok; });
    if (p.isSet(outOption)) {
        const QString base = options.shards > 1
            ? QStringLiteral("sweep-shard-%1-of-%2").arg(options.shard).arg(options.shards)
            : QStringLiteral("sweep");
        if (const int code
            = writeSweepOutputs(kName, table, QDir(p.value(outOption)), base, options.shards == 1))
            return code;
    }
    if (!anyRan) {
        // A shard's failures are rows of the sweep like any other: once its file is written the
        // job-array task did its part, and sweep-merge judges the whole sweep.
        const bool shardWritten = options.shards > 1 && p.isSet(outOption);
        err(QStringLiteral("weft-cli sweep: no variant %1ran (see the reasons above)%2")
                .arg(options.shards > 1 ? QStringLiteral("of this shard ") : QString(),
                     shardWritten ? QStringLiteral("; the shard file is written for sweep-merge")
                                  : QString()));
        return shardWritten ? ExitOk : ExitInvalid;
    }
    return ExitOk;
}

const CliCommandRegistration reg {{"sweep",
                                   "simulate variants of a design over one parameter (shardable)",
                                   runSweepCommand, makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
