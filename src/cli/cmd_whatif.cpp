// weft-cli whatif FILE --fail-random K --trials T [--jobs J] [--seed S] [--shard I/N] [--out DIR]:
// the distribution of the step time under K random cable failures, the failures that hurt most
// and the fabric's resilience numbers (issue 19).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "gui/charts/chartexporter.h"
#include "gui/charts/whatifchart.h"
#include "guiapplication.h"
#include "shards.h"
#include "whatif/resilience.h"
#include "whatif/trials.h"
#include "workloadoptions.h"

#include <QCommandLineParser>
#include <QDir>
#include <chrono>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("whatif");

QString ms(double s)
{
    return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', 2);
}

QString gbs(double bytesPerSecond)
{
    return QStringLiteral("%1 GB/s").arg(bytesPerSecond / 1e9, 0, 'f', 1);
}

/// "cable:12 (leaf3 - spine2)" for link faults; the label otherwise.
QString describeFault(const Design &d, const std::string &label)
{
    const std::size_t colon = label.find(':');
    if (label.rfind("cable:", 0) == 0 || label.rfind("link:", 0) == 0) {
        const Link *l
            = d.link(LinkId(static_cast<std::uint32_t>(std::stoul(label.substr(colon + 1)))));
        if (l)
            return QStringLiteral("%1 (%2 - %3)")
                .arg(QString::fromStdString(label), QString::fromStdString(d.node(l->a)->name),
                     QString::fromStdString(d.node(l->b)->name));
    }
    return QString::fromStdString(label);
}

void printStats(const Design &d, const WhatIfResult &r)
{
    const WhatIfStats s = whatIfStats(r.trials);
    const double h = r.healthyStepTime;
    out(QStringLiteral("healthy step     %1").arg(ms(h)));
    if (s.ran > 0) {
        out(QStringLiteral("median           %1 (x%2)")
                .arg(ms(s.median))
                .arg(s.median / h, 0, 'f', 4));
        out(QStringLiteral("p95              %1 (x%2)").arg(ms(s.p95)).arg(s.p95 / h, 0, 'f', 4));
        const auto worst = std::max_element(
            r.trials.begin(), r.trials.end(), [](const TrialResult &a, const TrialResult &b) {
                return a.ok && b.ok ? a.stepTime < b.stepTime : !a.ok;
            });
        out(QStringLiteral("worst            %1 (x%2): trial %3, %4")
                .arg(ms(s.worst))
                .arg(s.worst / h, 0, 'f', 4)
                .arg(worst->index)
                .arg(QString::fromStdString(worst->scenario.label())));
    }
    if (s.failed > 0) {
        const auto first = std::find_if(r.trials.begin(), r.trials.end(),
                                        [](const TrialResult &t) { return !t.ok; });
        out(QStringLiteral("could not run    %1 trial(s), e.g. trial %2 (%3): %4")
                .arg(s.failed)
                .arg(first->index)
                .arg(QString::fromStdString(first->scenario.label()),
                     QString::fromStdString(first->problem)));
    }
    if (!s.hurtMost.empty()) {
        out(QStringLiteral("hurt most (mean slowdown of the trials that failed it):"));
        for (const auto &[label, slowdown] : s.hurtMost)
            out(QStringLiteral("  x%1  %2").arg(slowdown, 0, 'f', 4).arg(describeFault(d, label)));
    }
}

void printResilience(const Design &d)
{
    const ResilienceReport r = fabricResilience(d);
    if (!r.ok) {
        out(QStringLiteral("resilience: %1").arg(QString::fromStdString(r.problem)));
        return;
    }
    out(QStringLiteral("resilience (bisection between the two halves of the scale-up domains, "
                       "per direction, line rate):"));
    out(QStringLiteral("  healthy                      %1").arg(gbs(r.bisection)));
    out(QStringLiteral("  worst single switch failure  %1 with %2 down (%3% lost; %4 switches "
                       "tried)")
            .arg(gbs(r.worstSwitchBisection), QString::fromStdString(r.worstSwitch))
            .arg(r.bisection > 0 ? (1 - r.worstSwitchBisection / r.bisection) * 100 : 0, 0, 'f', 1)
            .arg(r.switchesTried));
    out(QStringLiteral("  links whose loss costs the most (on the minimum cut):"));
    for (const LinkLoss &l : r.costliestLinks)
        out(QStringLiteral("    link:%1 (%2 - %3): -%4")
                .arg(l.link.value)
                .arg(QString::fromStdString(d.node(d.link(l.link)->a)->name),
                     QString::fromStdString(d.node(d.link(l.link)->b)->name), gbs(l.loss)));
}

int writeOutputs(const Design &d, const WhatIfResult &r, const WhatIfOptions &o, const QDir &dir)
{
    const bool sharded = o.shardCount > 1;
    const QString base = sharded
        ? QStringLiteral("whatif-shard-%1-of-%2").arg(o.shardIndex).arg(o.shardCount)
        : QStringLiteral("whatif");
    const QString csv = dir.filePath(base + QStringLiteral(".csv"));
    if (!writeTextFile(kName, csv, trialsCsv(r.trials)))
        return ExitUsage;
    out(csv);
    if (sharded)
        return ExitOk;
    WhatIfChart chart;
    const WhatIfChartData data = whatIfChartData(QString::fromStdString(d.name), o.failures, r);
    QString error;
    if (!chart.setData(data, &error)) {
        err(QStringLiteral("weft-cli whatif: chart: %1").arg(error));
        return ExitInvalid;
    }
    const QStringList files = ChartExporter::exportChart(
        chart, dir.path(), ChartFormat::Png | ChartFormat::Pdf | ChartFormat::Svg,
        ChartExportOptions {}, &error);
    for (const QString &f : files)
        out(f);
    if (!error.isEmpty()) {
        err(QStringLiteral("weft-cli whatif: %1").arg(error));
        return ExitUsage;
    }
    return ExitOk;
}

bool readInt(const QCommandLineParser &p, const QString &name, int min, int &value)
{
    bool ok = false;
    value = p.value(name).toInt(&ok);
    if (!ok || value < min) {
        err(QStringLiteral("weft-cli whatif: --%1 must be a whole number >= %2 (got '%3')")
                .arg(name)
                .arg(min)
                .arg(p.value(name)));
        return false;
    }
    return true;
}

int runWhatIfCommand(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "What if cables fail: simulates the design's workload healthy and in T trials with K "
        "random scale-out cables down (trial i draws its cables from the seed and i alone, so "
        "shards and jobs give the same trials), then prints the step time's median, p95 and "
        "worst, the failures that hurt most, and the fabric's resilience (bisection bandwidth "
        "healthy and after the worst single switch failure, the links whose loss costs the "
        "most).\n\n--out DIR writes whatif.csv (one row per trial) and the chart whatif.png/"
        ".pdf/.svg; with --shard I/N only whatif-shard-I-of-N.csv (the shards' rows together "
        "are the whole run).\n\nExit codes: 0 the trials ran, 1 the healthy design cannot be "
        "simulated, 2 bad usage or a file that cannot be read or written."));
    p.addPositionalArgument(QStringLiteral("FILE"),
                            QStringLiteral("Design file (.weft) with a workload."));
    p.addOptions({
        {QStringLiteral("fail-random"), QStringLiteral("K: cables down per trial (default: 1)."),
         QStringLiteral("K"), QStringLiteral("1")},
        {QStringLiteral("trials"), QStringLiteral("T: number of trials (default: 10)."),
         QStringLiteral("T"), QStringLiteral("10")},
        {QStringLiteral("jobs"), QStringLiteral("Threads (default: 1)."), QStringLiteral("J"),
         QStringLiteral("1")},
        {QStringLiteral("seed"), QStringLiteral("Seed of the random failures (default: 1)."),
         QStringLiteral("S"), QStringLiteral("1")},
        {QStringLiteral("shard"),
         QStringLiteral("Run only the trials whose index % N == I (cluster job arrays)."),
         QStringLiteral("I/N")},
        {QStringLiteral("out"), QStringLiteral("Write whatif.csv and the chart to DIR."),
         QStringLiteral("DIR")},
        {QStringLiteral("no-resilience"),
         QStringLiteral("Skip the resilience numbers (one max-flow per switch).")},
    });
    addWorkloadOptions(p); // a workload for a design without one (an imported fabric)
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral(
                "weft-cli whatif FILE --fail-random K --trials T [--jobs J] [--seed S] "
                "[--shard I/N] [--out DIR] [--no-resilience] [--model NAME --tp N ...]")))
        return *code;
    if (p.positionalArguments().size() != 1) {
        err(QStringLiteral("weft-cli whatif: expected one design FILE (see 'weft-cli whatif "
                           "--help')"));
        return ExitUsage;
    }
    WhatIfOptions o;
    if (!readInt(p, QStringLiteral("fail-random"), 1, o.failures)
        || !readInt(p, QStringLiteral("trials"), 1, o.trials)
        || !readInt(p, QStringLiteral("jobs"), 1, o.jobs))
        return ExitUsage;
    bool seedOk = false;
    o.seed = p.value(QStringLiteral("seed")).toULongLong(&seedOk);
    if (!seedOk) {
        err(QStringLiteral("weft-cli whatif: --seed must be a whole number >= 0"));
        return ExitUsage;
    }
    if (p.isSet(QStringLiteral("shard"))
        && !parseShard(kName, p.value(QStringLiteral("shard")), o.shardIndex, o.shardCount))
        return ExitUsage;
    const QString path = p.positionalArguments().front();
    int readCode = ExitOk;
    const std::optional<Design> design = readWorkloadDesign(kName, path, &readCode, &p);
    if (!design)
        return readCode;
    const QString outDir = p.value(QStringLiteral("out"));
    if (!outDir.isEmpty() && !prepareOutputDirectory(kName, outDir))
        return ExitUsage;
    const auto start = std::chrono::steady_clock::now();
    o.progress = [start](int done, int total) {
        const double s
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (s >= 1.0)
            err(QStringLiteral("weft-cli whatif: %1/%2 trials after %3 s")
                    .arg(done)
                    .arg(total)
                    .arg(s, 0, 'f', 1));
        return true;
    };
    out(QStringLiteral("%1: %2 trial(s) of %3 random cable failure(s), seed %4%5, %6 job(s)")
            .arg(QString::fromStdString(design->name))
            .arg(o.trials)
            .arg(o.failures)
            .arg(o.seed)
            .arg(o.shardCount > 1
                     ? QStringLiteral(", shard %1/%2").arg(o.shardIndex).arg(o.shardCount)
                     : QString())
            .arg(o.jobs));
    const WhatIfResult r = runWhatIf(*design, o);
    if (!r.ok) {
        err(QStringLiteral("weft-cli whatif: %1").arg(QString::fromStdString(r.problem)));
        return ExitInvalid;
    }
    printStats(*design, r);
    if (!p.isSet(QStringLiteral("no-resilience")) && o.shardCount == 1)
        printResilience(*design);
    out(QStringLiteral("ran in %1 s")
            .arg(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0,
                 'f', 1));
    if (!outDir.isEmpty())
        return writeOutputs(*design, r, o, QDir(outDir));
    return ExitOk;
}

const CliCommandRegistration reg({"whatif",
                                  "step time under random cable failures, and the fabric's "
                                  "resilience numbers",
                                  runWhatIfCommand, makeOffscreenApplication});

} // namespace

} // namespace weft::cli
