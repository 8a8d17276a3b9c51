// weft-cli report FILE --out DIR [--format png,pdf,svg,csv] [--dpi N]: simulates the design's
// workload and writes every chart, the result JSON and the result CSV (issue 6), headless.
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "findingtext.h"
#include "gui/charts/reportchartdata.h"
#include "guiapplication.h"
#include "io/resultcsv.h"
#include "io/resultjson.h"
#include "sim/simulator.h"

#include <QCommandLineParser>
#include <QDir>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("report");

int runReport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral(
            "Simulates one training step of the design's workload and writes, into DIR, every "
            "chart (step-time breakdown, pipeline timeline, link utilization per tier, busiest "
            "link over the step, memory per stage, all-reduce busbw of a TP group) in each format "
            "asked, the result JSON (result.json) and CSV (summary.csv, links.csv). result.json "
            "lists every link that carried traffic up to %1 of them, else the %2 busiest, with "
            "their utilization series; links.csv lists every link. Runs without a display.\n\n"
            "Exit codes: 0 written and the memory fits, 1 the workload cannot run (the result "
            "files are written, no charts) or does not fit in memory (everything is written), 2 "
            "bad usage, an unreadable file or an output that cannot be written.")
            .arg(kAllLinksUpTo)
            .arg(kBusiestLinks));
    p.addPositionalArgument(QStringLiteral("FILE"),
                            QStringLiteral("Design file (.weft) with a workload."));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("Output directory (created if missing)."),
                                       QStringLiteral("DIR"));
    const QCommandLineOption formatOption(
        QStringLiteral("format"),
        QStringLiteral("Chart formats, comma separated: png, pdf, svg, csv (default: all)."),
        QStringLiteral("LIST"), QStringLiteral("png,pdf,svg,csv"));
    const QCommandLineOption dpiOption(QStringLiteral("dpi"),
                                       QStringLiteral("PNG resolution (default: 192)."),
                                       QStringLiteral("N"), QStringLiteral("192"));
    p.addOptions({outOption, formatOption, dpiOption});
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli report FILE --out DIR [--format png,pdf,svg,csv] [--dpi N]")))
        return *code;
    if (p.positionalArguments().size() != 1 || !p.isSet(outOption)) {
        err(QStringLiteral("weft-cli report: expected one design FILE and --out DIR (see "
                           "'weft-cli report --help')"));
        return ExitUsage;
    }
    ChartFormats formats;
    QString formatError;
    if (!parseChartFormats(p.value(formatOption), &formats, &formatError)) {
        err(QStringLiteral("weft-cli report: --format: %1").arg(formatError));
        return ExitUsage;
    }
    bool dpiOk = false;
    ChartExportOptions chartOptions;
    chartOptions.dpi = p.value(dpiOption).toDouble(&dpiOk);
    if (!dpiOk || chartOptions.dpi < 24 || chartOptions.dpi > 1200) {
        err(QStringLiteral("weft-cli report: --dpi must be a number from 24 to 1200 (got '%1')")
                .arg(p.value(dpiOption)));
        return ExitUsage;
    }
    const QString path = p.positionalArguments().front();
    int readCode = ExitOk;
    const std::optional<Design> design = readWorkloadDesign(kName, path, &readCode);
    if (!design)
        return readCode;
    const QDir dir(p.value(outOption));
    if (!prepareOutputDirectory(kName, dir.path()))
        return ExitUsage;

    const SimResult r = simulate(*design);
    QStringList written;
    const QString json = dir.filePath(QStringLiteral("result.json"));
    const QString summary = dir.filePath(QStringLiteral("summary.csv"));
    const QString links = dir.filePath(QStringLiteral("links.csv"));
    if (!writeTextFile(kName, json,
                       toJson(r, *design, {true, true, false, defaultMaxLinks(r)}).dump(2) + "\n")
        || !writeTextFile(kName, summary, resultSummaryCsv(r))
        || !writeTextFile(kName, links, resultLinksCsv(r, *design)))
        return ExitUsage;
    written << json << summary << links;
    if (!r.ok) {
        for (const Finding &f : r.warnings)
            err(QStringLiteral("%1 [%2] %3")
                    .arg(QString::fromLatin1(toString(f.severity)), QString::fromStdString(f.code),
                         QString::fromStdString(f.message)));
        err(QStringLiteral("weft-cli report: the step could not be simulated; wrote the result "
                           "files but no charts"));
        return ExitInvalid;
    }
    QString chartError;
    written << renderReportCharts(reportChartData(r, *design), dir.path(), formats, chartOptions,
                                  &chartError);
    for (const QString &f : written)
        out(f);
    if (!chartError.isEmpty()) {
        err(QStringLiteral("weft-cli report: %1").arg(chartError));
        return ExitUsage;
    }
    out(QStringLiteral("%1 files written to %2 (step time %3 ms, MFU %4%)")
            .arg(written.size())
            .arg(QDir(dir).absolutePath())
            .arg(r.stepTime * 1e3, 0, 'f', 2)
            .arg(r.mfu * 100, 0, 'f', 1));
    if (!r.memoryFits) { // written, charts included: memory.* shows the stage over capacity
        for (const Finding &f : r.warnings)
            if (f.severity == Severity::Error)
                err(describeFinding(f, *design));
        err(QStringLiteral("weft-cli report: the workload does not fit in memory (%1 of %2 GB per "
                           "GPU); the memory chart shows where")
                .arg(r.peakMemoryPerGpu / 1e9, 0, 'f', 1)
                .arg(r.memoryCapacityPerGpu / 1e9, 0, 'f', 1));
        return ExitInvalid;
    }
    return ExitOk;
}

const CliCommandRegistration reg {{"report",
                                   "simulate and write every chart, the result JSON and CSV",
                                   runReport, makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
