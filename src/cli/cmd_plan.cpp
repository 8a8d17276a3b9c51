// weft-cli plan DESIGN [...]: the fastest parallelism and placement of the design's model on its
// fabric (issue 16): every knob searched, memory and an admissible lower bound prune, the rest
// simulated on --jobs threads; shardable for job arrays (--shard I/N, then plan-merge).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "guiapplication.h"
#include "plan/planjson.h"
#include "plan/planprogressmeter.h"
#include "planoutput.h"
#include "shards.h"
#include "workloadoptions.h"

#include <QCommandLineParser>
#include <QDir>
#include <atomic>
#include <chrono>
#include <csignal>
#include <stdexcept>
#include <thread>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("plan");

std::atomic<bool> g_interrupted {false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

// Workload flags that pin a knob of the search (as --fix would).
const std::pair<const char *, const char *> kKnobFlags[] = {
    {"tp", "tp"},
    {"pp", "pp"},
    {"cp", "cp"},
    {"ep", "ep"},
    {"etp", "etp"},
    {"dispatcher", "dispatcher"},
    {"vpp", "vpp"},
    {"micro-batch", "micro_batch"},
    {"schedule", "schedule"},
    {"recompute", "recompute"},
    {"zero", "zero_stage"},
};
const char *const kModelFlags[]
    = {"model",     "layers", "hidden", "heads",   "kv-heads", "ffn",
       "gated-mlp", "vocab",  "seq",    "experts", "top-k",    "moe-ffn"};

QString knobList()
{
    QStringList names;
    for (const PlanKnob &k : planKnobs())
        names << QString::fromStdString(k.name);
    return names.join(QStringLiteral(", "));
}

int runPlanCommand(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral(
            "Finds the fastest way to train the design's model on its fabric: searches TP, CP, "
            "PP, EP, the pipeline schedule and virtual stages, the micro-batch, recomputation "
            "and the ZeRO stage (DP fills --gpus), each with the domain-aware rank orders of "
            "its parallel dimensions (TP inside a scale-up domain). Candidates that fail the "
            "workload checks or the exact memory model are counted by reason; the others are "
            "simulated in the order of an admissible lower bound (compute at the sustained "
            "peak plus the communication the candidate's placement cannot avoid, at the rates "
            "the simulator's links carry) until the "
            "bound exceeds the K-th best step time, so the ranking equals an exhaustive one. "
            "Prints the top K, the counts and, for the best, how much the well-known losing "
            "layouts (TP across scale-up domains, no interleaving, full recomputation) lose "
            "and why. Knobs: %1. Workload flags such as --tp 8 pin that knob like --fix "
            "tp=8; --model and the model flags replace the design's model. Progress on "
            "stderr; Ctrl-C stops and prints what was simulated.\n\n"
            "Cluster job arrays: --shard I/N takes the candidates whose index % N == I and "
            "writes plan-shard-I-of-N.json/.csv to --out; 'weft-cli plan-merge' gives the "
            "same table as the unsharded plan.\n\n"
            "Exit codes: 0 a candidate runs (or a shard's file was written); 1 none runs (the "
            "reason is printed), the design has no workload and the flags do not give one (a "
            "model and a global batch) or the plan was cancelled; 2 bad "
            "usage, an unreadable file or an output that cannot be written.")
            .arg(knobList()));
    p.addPositionalArgument(QStringLiteral("DESIGN"), QStringLiteral("Design file (.weft)."));
    WorkloadHelp workloadHelp;
    workloadHelp.fromDesign = true;
    workloadHelp.required = {QStringLiteral("model"), QStringLiteral("global-batch")};
    workloadHelp.refused
        = {{QStringLiteral("dp"), QStringLiteral("DP is --gpus / (TP x CP x PP)")},
           {QStringLiteral("placement"),
            QStringLiteral("plan searches the domain-aware rank orders of every layout")}};
    for (const auto &[flag, knob] : kKnobFlags)
        workloadHelp.searched << QString::fromLatin1(flag);
    addWorkloadOptions(p, workloadHelp);
    const QCommandLineOption gpusOption(QStringLiteral("gpus"),
                                        QStringLiteral("World size (default: all accelerators)."),
                                        QStringLiteral("N"));
    const QCommandLineOption objectiveOption(
        QStringLiteral("objective"),
        QStringLiteral("Ranking: step-time (s, lowest first) or tokens-per-s (highest first); "
                       "the same order at a fixed batch and GPU count. Default step-time."),
        QStringLiteral("NAME"), QStringLiteral("step-time"));
    const QCommandLineOption topOption(QStringLiteral("top"),
                                       QStringLiteral("Candidates ranked (default 10)."),
                                       QStringLiteral("K"), QStringLiteral("10"));
    const QCommandLineOption jobsOption(
        QStringLiteral("jobs"),
        QStringLiteral("Candidates simulated at once (default: the number of cores)."),
        QStringLiteral("J"));
    const QCommandLineOption fixOption(
        QStringLiteral("fix"), QStringLiteral("Pin knobs, e.g. tp=8,pp=16,recompute=selective."),
        QStringLiteral("LIST"));
    const QCommandLineOption jsonOption(QStringLiteral("json"),
                                        QStringLiteral("Print the plan as JSON."));
    const QCommandLineOption csvOption(QStringLiteral("csv"),
                                       QStringLiteral("Print the ranked table as CSV."));
    const QCommandLineOption outOption(
        QStringLiteral("out"),
        QStringLiteral("Write plan.json, plan.csv and the charts plan-pareto and "
                       "plan-breakdown (.png, .pdf, .svg) to DIR; with --shard only "
                       "plan-shard-I-of-N.json/.csv."),
        QStringLiteral("DIR"));
    const QCommandLineOption shardOption(
        QStringLiteral("shard"),
        QStringLiteral("Take only the candidates with index % N == I (0 <= I < N)."),
        QStringLiteral("I/N"));
    const QCommandLineOption headroomOption(
        QStringLiteral("headroom"),
        QStringLiteral("Leave out the candidates above 90% of HBM, which 'simulate' warns about "
                       "(memory-headroom); by default they are ranked and flagged with '!'."));
    p.addOptions({gpusOption, objectiveOption, topOption, jobsOption, fixOption, jsonOption,
                  csvOption, outOption, shardOption, headroomOption});
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli plan DESIGN [--model NAME | model flags] [--gpus N] "
                           "[--global-batch B] [--objective tokens-per-s|step-time] [--top K] "
                           "[--jobs J] [--fix LIST] [--headroom] [--json | --csv] [--out DIR] "
                           "[--shard I/N]")))
        return *code;
    const auto usage = [](const QString &message) {
        err(QStringLiteral("weft-cli plan: %1").arg(message));
        return ExitUsage;
    };
    if (p.positionalArguments().size() != 1)
        return usage(QStringLiteral("expected one DESIGN file (see 'weft-cli plan --help')"));
    if (p.isSet(jsonOption) && p.isSet(csvOption))
        return usage(QStringLiteral("--json and --csv exclude each other"));
    if (const QString refused = refusedFlag(p, workloadHelp); !refused.isEmpty())
        return usage(refused);
    PlanOptions options;
    options.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    bool ok = true;
    if (p.isSet(jobsOption) && ((options.jobs = p.value(jobsOption).toInt(&ok)) < 1 || !ok))
        return usage(QStringLiteral("--jobs must be a whole number >= 1 (got '%1')")
                         .arg(p.value(jobsOption)));
    options.keepHeadroom = p.isSet(headroomOption);
    options.top = p.value(topOption).toInt(&ok);
    if (!ok || options.top < 1)
        return usage(
            QStringLiteral("--top must be a whole number >= 1 (got '%1')").arg(p.value(topOption)));
    if (!fromString(p.value(objectiveOption).toStdString(), options.objective))
        return usage(QStringLiteral("--objective must be step-time or tokens-per-s (got '%1')")
                         .arg(p.value(objectiveOption)));
    if (p.isSet(shardOption)
        && !parseShard(kName, p.value(shardOption), options.shard, options.shards))
        return ExitUsage;
    long long gpus = 0;
    if (p.isSet(gpusOption) && ((gpus = p.value(gpusOption).toLongLong(&ok)) < 1 || !ok))
        return usage(QStringLiteral("--gpus must be a whole number >= 1 (got '%1')")
                         .arg(p.value(gpusOption)));

    const QString path = p.positionalArguments().front();
    int readCode = ExitUsage;
    std::optional<Design> design = readDesignArgument(kName, path, &readCode);
    if (!design)
        return readCode; // unreadable: 2; a design validate rejects: 1, as every command
    const auto accelerators = static_cast<long long>(design->acceleratorCount());
    if (gpus > accelerators)
        return usage(QStringLiteral("--gpus %1 is more than the %2 accelerators of %3")
                         .arg(gpus)
                         .arg(accelerators)
                         .arg(path));
    // The base workload: the design's, with the model of the flags when given.
    Workload base = design->workload.value_or(Workload {});
    bool modelGiven = false;
    for (const char *f : kModelFlags)
        modelGiven = modelGiven || p.isSet(QString::fromLatin1(f));
    if (modelGiven) {
        QString error;
        const std::optional<Workload> w
            = workloadFromOptions(p, gpus > 0 ? gpus : accelerators, error);
        if (!w)
            return usage(error.isEmpty() ? QStringLiteral("the model flags describe no model")
                                         : error);
        base.model = w->model;
        if (!design->workload)
            base.config = w->config;
    } else if (!design->workload) {
        err(QStringLiteral("weft-cli plan: %1 has no workload: give --model NAME (or the model "
                           "flags) and --global-batch B")
                .arg(path));
        return ExitInvalid;
    }
    if (p.isSet(QStringLiteral("global-batch"))) {
        base.config.globalBatch = p.value(QStringLiteral("global-batch")).toInt(&ok);
        if (!ok || base.config.globalBatch < 1)
            return usage(QStringLiteral("--global-batch must be a whole number >= 1 (got '%1')")
                             .arg(p.value(QStringLiteral("global-batch"))));
    } else if (!design->workload) { // as a design without a model: the input lacks a workload
        err(QStringLiteral("weft-cli plan: %1 has no workload: give --global-batch B too")
                .arg(path));
        return ExitInvalid;
    }
    PlanSpace space = defaultPlanSpace(*design, base, gpus);
    try {
        QStringList fixes;
        for (const auto &[flag, knob] : kKnobFlags)
            if (p.isSet(QString::fromLatin1(flag)))
                fixes << QStringLiteral("%1=%2").arg(QString::fromLatin1(knob),
                                                     p.value(QString::fromLatin1(flag)));
        fixes << p.values(fixOption); // every --fix given (value() keeps only the last)
        fixKnobs(space, fixes.join(u',').toStdString());
    } catch (const std::invalid_argument &e) {
        return usage(QStringLiteral("--fix: %1").arg(QString::fromUtf8(e.what())));
    }
    if (p.isSet(outOption) && !prepareOutputDirectory(kName, p.value(outOption)))
        return ExitUsage;

    std::signal(SIGINT, onInterrupt);
    options.cancel = &g_interrupted;
    // Progress on stderr at most every 10 s (and when done), with the time left.
    PlanProgressMeter meter;
    const auto started = std::chrono::steady_clock::now();
    options.progress = [&meter, started](const PlanProgress &pr) {
        const double elapsed
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (const std::string line = meter.update(pr, elapsed); !line.empty())
            err(QStringLiteral("weft-cli plan: %1").arg(QString::fromStdString(line)));
    };
    TrainingPlan result;
    try {
        result = runPlan(*design, space, options);
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli plan: %1").arg(QString::fromUtf8(e.what())));
        return ExitInvalid;
    }
    std::signal(SIGINT, SIG_DFL);
    if (p.isSet(jsonOption))
        out(QString::fromStdString(planToJson(result)).trimmed());
    else if (p.isSet(csvOption))
        out(QString::fromStdString(planToCsv(result)).trimmed());
    else
        printPlan(result);
    if (p.isSet(jsonOption) || p.isSet(csvOption)) {
        if (result.ranked.empty())
            err(QStringLiteral("weft-cli plan: no candidate runs: %1")
                    .arg(QString::fromStdString(infeasibleExplanation(result))));
    }
    const bool sharded = options.shards > 1;
    if (p.isSet(outOption)) {
        const QString fileBase = sharded
            ? QStringLiteral("plan-shard-%1-of-%2").arg(options.shard).arg(options.shards)
            : QStringLiteral("plan");
        if (const int code
            = writePlanOutputs(kName, result, QDir(p.value(outOption)), fileBase, !sharded))
            return code;
    }
    if (result.cancelled)
        return ExitInvalid;
    if (result.ranked.empty())
        return sharded && p.isSet(outOption) ? ExitOk : ExitInvalid;
    return ExitOk;
}

const CliCommandRegistration reg {{"plan", "find the fastest parallelism and placement (shardable)",
                                   runPlanCommand, makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
