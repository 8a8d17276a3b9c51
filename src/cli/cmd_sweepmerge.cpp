// weft-cli sweep-merge DIR... --out DIR: combines the shard files of `weft-cli sweep --shard`
// into one table (CSV and JSON) and renders the sweep chart as PNG, PDF and SVG (issue 6).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "guiapplication.h"
#include "io/sweepjson.h"
#include "sweepoutput.h"

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
    if (const int code = writeSweepOutputs(kName, merged, dir, QStringLiteral("sweep"), true))
        return code;
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
