// weft-cli simulate FILE [--json [--links all|top-N|none]|--csv] [--out DIR]: simulates one
// training step of the design's workload and prints a summary, the result JSON
// (docs/simulate-json.md) or CSV.
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "failoptions.h"
#include "findingtext.h"
#include "io/resultcsv.h"
#include "io/resultjson.h"
#include "sim/memoryheadroom.h"
#include "sim/simulator.h"
#include "workloadoptions.h"

#include <QCommandLineParser>
#include <QDir>
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("simulate");

// Relative to the step time, below which a negative breakdown part is rounding noise.
constexpr double kRoundingTolerance = 1e-9;

// "all" -> -1, "none" -> 0, "top-N" -> N; nothing for anything else.
std::optional<long long> parseLinks(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("all"))
        return -1;
    if (t == QLatin1String("none"))
        return 0;
    if (t.startsWith(QLatin1String("top-"))) {
        bool ok = false;
        const long long n = t.mid(4).toLongLong(&ok);
        if (ok && n >= 1)
            return n;
    }
    return std::nullopt;
}

QString seconds(double s)
{
    return s >= 1 ? QStringLiteral("%1 s").arg(s, 0, 'f', 3)
                  : QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', 2);
}

void printSummary(const SimResult &r, const Design &d)
{
    const Workload &w = *d.workload;
    out(QStringLiteral("%1: %2 on %3 accelerators (tp %4, pp %5, dp %6, cp %7, ep %8)")
            .arg(QString::fromStdString(d.name), QString::fromStdString(w.model.name))
            .arg(w.config.worldSize())
            .arg(w.config.tp)
            .arg(w.config.pp)
            .arg(w.config.dp)
            .arg(w.config.cp)
            .arg(w.config.ep));
    if (r.ok) {
        out(QStringLiteral("step time        %1").arg(seconds(r.stepTime)));
        out(QStringLiteral("tokens/s         %1").arg(r.tokensPerSecond, 0, 'f', 0));
        // MFU and HFU are of the dense peak of the workload's datatype (simulator.cpp): an FP8
        // run's MFU is of the FP8 peak, half the figure papers quoting the BF16 peak give.
        const QString peak = QString::fromLatin1(toString(w.config.dtype)).toUpper();
        out(QStringLiteral("model TFLOP/s    %1 per GPU (MFU %2% of the %3 peak)")
                .arg(r.modelTflopsPerGpu, 0, 'f', 1)
                .arg(r.mfu * 100, 0, 'f', 1)
                .arg(peak));
        out(QStringLiteral("hardware TFLOP/s %1 per GPU (HFU %2% of the %3 peak)")
                .arg(r.hardwareTflopsPerGpu, 0, 'f', 1)
                .arg(r.hfu * 100, 0, 'f', 1)
                .arg(peak));
        const Breakdown &b = r.breakdown;
        const std::pair<const char *, double> parts[] = {
            {"compute", b.compute},      {"TP exposed", b.tpExposed}, {"CP exposed", b.cpExposed},
            {"EP exposed", b.epExposed}, {"PP exposed", b.ppExposed}, {"bubble", b.bubble},
            {"DP exposed", b.dpExposed}, {"optimizer", b.optimizer}};
        out(QStringLiteral("breakdown:"));
        for (const auto &[name, v] : parts) {
            // A part is a difference of event times: rounding leaves e.g. -1e-17 s where
            // nothing is exposed, which would print as "-0.00 ms (-0.0%)".
            const double shown = v < 0 && -v <= kRoundingTolerance * r.stepTime ? 0.0 : v;
            out(QStringLiteral("  %1 %2 (%3%)")
                    .arg(QString::fromLatin1(name).leftJustified(11))
                    .arg(seconds(shown), 10)
                    .arg(r.stepTime > 0 ? shown / r.stepTime * 100 : 0, 0, 'f', 1));
        }
        if (b.hostBound >= 5e-6) // what rounds to 0.00 ms is not worth a line (and its hint)
            out(QStringLiteral("  of compute, host-bound %1 (%2%): the GPU waits for the host to "
                               "launch kernels (--launch-overhead-us; --cuda-graphs layers or "
                               "full-iteration lifts it)")
                    .arg(seconds(b.hostBound))
                    .arg(r.stepTime > 0 ? b.hostBound / r.stepTime * 100 : 0, 0, 'f', 1));
    }
    if (r.memoryCapacityPerGpu > 0) // computed once the workload passed its checks
        out(QStringLiteral("memory           %1 of %2 GB per GPU%3")
                .arg(r.peakMemoryPerGpu / 1e9, 0, 'f', 1)
                .arg(r.memoryCapacityPerGpu / 1e9, 0, 'f', 1)
                .arg(r.memoryFits ? QString() : QStringLiteral(" - DOES NOT FIT")));
    for (const Finding &f : r.warnings)
        out(describeFinding(f, d));
    if (r.ok)
        out(QStringLiteral("simulated in %1").arg(seconds(r.simulationWallSeconds)));
    else
        out(QStringLiteral("not simulated: %1 above")
                .arg(countText(countFindings(r.warnings).errors, "error", "errors")));
}

// Progress on stderr, in steps of 10%: always with --progress, otherwise only once the
// simulation has run for a second (a 131,072-GPU design takes several), so quick runs and
// scripts that read stderr see nothing.
std::function<bool(double)> progressPrinter(bool always)
{
    return [always, start = std::chrono::steady_clock::now(), shown = -1](double f) mutable {
        const double elapsed
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int tenth = static_cast<int>(f * 10 + 1e-9);
        if (tenth > shown && (always || elapsed >= 1.0)) {
            shown = tenth;
            err(QStringLiteral("weft-cli %1: %2% done after %3 s")
                    .arg(kName)
                    .arg(tenth * 10)
                    .arg(elapsed, 0, 'f', 1));
        }
        return true;
    };
}

int run(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Simulates one training step of the design's workload and prints a summary "
                       "(default), the result as JSON or the summary as CSV. Workload flags "
                       "change the design's workload for this run (--model or a model flag its "
                       "model, each other flag the knob it names; DP keeps the workload's GPU "
                       "count unless --dp is given), or give one to a design without.\n\n"
                       "Exit codes: 0 simulated and the memory fits, 1 the workload cannot run, "
                       "its memory does not fit or the design has no workload, 2 bad usage or "
                       "an unreadable file."));
    p.addPositionalArgument(QStringLiteral("FILE"),
                            QStringLiteral("Design file (.weft) with a workload."));
    const QCommandLineOption json(
        QStringLiteral("json"),
        QStringLiteral("Print the result as JSON (docs/simulate-json.md) instead of the summary."));
    const QCommandLineOption csv(QStringLiteral("csv"),
                                 QStringLiteral("Print the summary as CSV instead."));
    const QCommandLineOption outDir(
        QStringLiteral("out"),
        QStringLiteral("Also write result.json, summary.csv and links.csv to DIR."),
        QStringLiteral("DIR"));
    const QCommandLineOption progress(
        QStringLiteral("progress"),
        QStringLiteral("Print progress on stderr every 10% (default: only when the simulation "
                       "takes longer than a second)."));
    const QCommandLineOption links(
        QStringLiteral("links"),
        QStringLiteral("Links in the --json output: all (every link that carried traffic), "
                       "top-N (the N busiest by average utilization, busiest first) or none. "
                       "Default: all up to %1 such links, else top-%2 (a 16,384-GPU design has "
                       "~100,000: the full list makes a document of ~90 MB). --out DIR's "
                       "result.json follows the default, with each listed link's utilization "
                       "series; its links.csv lists every link.")
            .arg(kAllLinksUpTo)
            .arg(kBusiestLinks),
        QStringLiteral("WHICH"));
    p.addOptions({json, csv, outDir, progress, links});
    addFailOptions(p);
    // Change the design's workload for this run, or give one to a design without (an imported
    // fabric).
    addWorkloadOptions(p);
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli simulate FILE [--json [--links all|top-N|none]|--csv] "
                           "[--out DIR] [--progress] [--fail LIST | --fail-random N --seed S] "
                           "[--model NAME --tp N ...]")))
        return *code;
    if (p.positionalArguments().size() != 1) {
        err(QStringLiteral("weft-cli simulate: expected one design FILE (see 'weft-cli simulate "
                           "--help')"));
        return ExitUsage;
    }
    if (p.isSet(json) && p.isSet(csv)) {
        err(QStringLiteral("weft-cli simulate: --json and --csv are mutually exclusive (--out "
                           "DIR writes both)"));
        return ExitUsage;
    }
    std::optional<long long> maxLinks;
    if (p.isSet(links)) {
        maxLinks = parseLinks(p.value(links));
        if (!maxLinks) {
            err(QStringLiteral("weft-cli simulate: --links must be all, none or top-N with N >= "
                               "1 (got '%1')")
                    .arg(p.value(links)));
            return ExitUsage;
        }
    }
    const QString path = p.positionalArguments().front();
    int readCode = ExitOk;
    const std::optional<Design> design = readWorkloadDesign(kName, path, &readCode, &p);
    if (!design)
        return readCode;
    std::optional<FailedRun> failure;
    if (const auto code = readFailOptions(kName, p, *design, failure))
        return *code;
    const Design &d = failure ? failure->failed.design : *design;
    if (p.isSet(outDir) && !prepareOutputDirectory(kName, p.value(outDir)))
        return ExitUsage;
    SimOptions options;
    options.progress = progressPrinter(p.isSet(progress));
    options.exploitSymmetry = !failure || failure->failed.exploitSymmetry;
    SimResult r = simulate(d, options);
    for (Finding &f : memoryHeadroomFindings(r))
        r.warnings.push_back(std::move(f));
    if (p.isSet(outDir)) {
        const QDir dir(p.value(outDir));
        if (!writeTextFile(kName, dir.filePath(QStringLiteral("result.json")),
                           toJson(r, d, {true, true, false, defaultMaxLinks(r)}).dump(2) + "\n")
            || !writeTextFile(kName, dir.filePath(QStringLiteral("summary.csv")),
                              resultSummaryCsv(r))
            || !writeTextFile(kName, dir.filePath(QStringLiteral("links.csv")),
                              resultLinksCsv(r, d)))
            return ExitUsage;
    }
    if (p.isSet(json)) {
        ResultJsonOptions o;
        o.maxLinks = maxLinks ? *maxLinks : defaultMaxLinks(r);
        out(QString::fromStdString(toJson(r, d, o).dump(2)));
    } else if (p.isSet(csv))
        out(QString::fromStdString(resultSummaryCsv(r)).trimmed());
    else
        printSummary(r, d);
    if (failure)
        printSlowdown(*design, *failure, r.stepTime, r.ok, p.isSet(json) || p.isSet(csv));
    return r.ok && r.memoryFits ? ExitOk : ExitInvalid;
}

const CliCommandRegistration reg({"simulate", "simulate one training step of a design's workload",
                                  run});

} // namespace

} // namespace weft::cli
