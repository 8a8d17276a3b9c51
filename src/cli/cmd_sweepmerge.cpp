// weft-cli sweep-merge DIR... --out DIR: combines the shard files of `weft-cli sweep --shard`
// into one table (CSV and JSON) and renders the sweep chart as PNG, PDF and SVG (issue 6).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "gui/charts/chartreport.h"
#include "guiapplication.h"
#include "io/sweepjson.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <stdexcept>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("sweep-merge");

/// The sweep JSON files named by `arg`: the file itself, or sweep*.json in a directory.
QStringList sweepFiles(const QString &arg)
{
    const QFileInfo info(arg);
    if (!info.isDir())
        return {arg};
    QStringList files;
    const QDir dir(arg);
    for (const QString &name :
         dir.entryList({QStringLiteral("sweep*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

SweepChartData chartData(const SweepTable &t)
{
    SweepChartData data;
    data.parameter = QString::fromStdString(sweepParamTitle(t.param));
    data.parameterUnit = QString::fromStdString(sweepParamUnit(t.param));
    data.logScale = t.param == SweepParam::ScaleUpDomain || t.param == SweepParam::Tp
        || t.param == SweepParam::Pp || t.param == SweepParam::Dp;
    SweepSeries series;
    series.label = QString::fromStdString(t.design);
    for (const SweepRow &r : t.rows)
        if (r.ok)
            series.points.push_back({r.value, r.stepTime, r.mfu});
    if (!series.points.empty())
        data.series.push_back(std::move(series));
    return data;
}

int runMerge(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Combines the results of 'weft-cli sweep --shard I/N' runs (the sweep*.json files in "
        "each DIR, or the files themselves) into one table, written to --out as sweep.csv and "
        "sweep.json, and renders the sweep chart (step time and MFU against the parameter) as "
        "sweep.png, sweep.pdf and sweep.svg. Every variant must be present exactly once."));
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("Directories (or files) holding shard results."),
                            QStringLiteral("DIR..."));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("Output directory (created if missing)."),
                                       QStringLiteral("DIR"));
    p.addOption(outOption);
    if (const auto code
        = parseCommandLine(p, args, kName, QStringLiteral("weft-cli sweep-merge DIR... --out DIR")))
        return *code;
    if (p.positionalArguments().isEmpty() || !p.isSet(outOption)) {
        err(QStringLiteral("weft-cli sweep-merge: expected shard directories and --out DIR "
                           "(see 'weft-cli sweep-merge --help')"));
        return ExitUsage;
    }
    std::vector<SweepTable> shards;
    for (const QString &arg : p.positionalArguments()) {
        const QStringList files = sweepFiles(arg);
        if (files.isEmpty()) {
            err(QStringLiteral("weft-cli sweep-merge: %1 holds no sweep*.json file").arg(arg));
            return ExitUsage;
        }
        for (const QString &file : files) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                err(QStringLiteral("weft-cli sweep-merge: cannot read %1: %2")
                        .arg(file, f.errorString()));
                return ExitUsage;
            }
            const QByteArray text = f.readAll();
            auto parsed = parseSweepJson(std::string_view(text.constData(), size_t(text.size())),
                                         file.toStdString());
            if (const auto *e = std::get_if<FileError>(&parsed)) {
                err(QStringLiteral("weft-cli sweep-merge: %1")
                        .arg(QString::fromStdString(e->toString())));
                return ExitUsage;
            }
            shards.push_back(std::move(std::get<SweepTable>(parsed)));
        }
    }
    SweepTable merged;
    try {
        merged = mergeSweepTables(shards);
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli sweep-merge: %1").arg(QString::fromUtf8(e.what())));
        return ExitInvalid;
    }
    const QDir dir(p.value(outOption));
    if (!prepareOutputDirectory(kName, dir.path()))
        return ExitUsage;
    const QString json = dir.filePath(QStringLiteral("sweep.json"));
    const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
    if (!writeTextFile(kName, json, sweepToJson(merged))
        || !writeTextFile(kName, csv, sweepToCsv(merged)))
        return ExitUsage;
    out(json);
    out(csv);
    ReportChartData charts;
    charts.sweep = chartData(merged);
    if (charts.sweep->series.empty()) {
        err(QStringLiteral("weft-cli sweep-merge: no variant ran, so there is no chart"));
        return ExitInvalid;
    }
    QString error;
    for (const QString &f : renderReportCharts(
             charts, dir.path(), ChartFormat::Png | ChartFormat::Pdf | ChartFormat::Svg,
             ChartExportOptions {}, &error))
        out(f);
    if (!error.isEmpty()) {
        err(QStringLiteral("weft-cli sweep-merge: %1").arg(error));
        return ExitUsage;
    }
    out(QStringLiteral("%1 variants from %2 shard files merged")
            .arg(merged.rows.size())
            .arg(shards.size()));
    return ExitOk;
}

const CliCommandRegistration reg {{"sweep-merge",
                                   "merge sweep shard results into one table and chart", runMerge,
                                   makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
