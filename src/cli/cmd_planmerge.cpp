// weft-cli plan-merge DIR... --out DIR: combines the shard files of `weft-cli plan --shard` into
// the whole plan (the same table as an unsharded plan) with its charts (issue 16).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "guiapplication.h"
#include "plan/planjson.h"
#include "planoutput.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <stdexcept>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("plan-merge");

/// The shard files named by `arg`: the file itself, or plan-shard-*.json in a directory.
QStringList planFiles(const QString &arg)
{
    const QFileInfo info(arg);
    if (!info.isDir())
        return {arg};
    QStringList files;
    const QDir dir(arg);
    for (const QString &name :
         dir.entryList({QStringLiteral("plan-shard-*.json")}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

int runMerge(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Combines the results of 'weft-cli plan --shard I/N' runs (the plan-shard-*.json files "
        "in each DIR, or the files themselves) into the whole plan: the top K of all shards, "
        "ranked as an unsharded plan ranks them (plan.csv is byte-identical), with the counts "
        "summed. Writes plan.json, plan.csv and the charts plan-pareto and plan-breakdown "
        "(.png, .pdf, .svg) to --out and prints the table. Every shard must be present once. "
        "The losing-layout lines need the design: run plan unsharded for them."));
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("Directories (or files) holding shard results."),
                            QStringLiteral("DIR..."));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("Output directory (created if missing)."),
                                       QStringLiteral("DIR"));
    p.addOption(outOption);
    if (const auto code
        = parseCommandLine(p, args, kName, QStringLiteral("weft-cli plan-merge DIR... --out DIR")))
        return *code;
    if (p.positionalArguments().isEmpty() || !p.isSet(outOption)) {
        err(QStringLiteral("weft-cli plan-merge: expected shard directories and --out DIR (see "
                           "'weft-cli plan-merge --help')"));
        return ExitUsage;
    }
    std::vector<TrainingPlan> shards;
    for (const QString &arg : p.positionalArguments()) {
        const QStringList files = planFiles(arg);
        if (files.isEmpty()) {
            err(QStringLiteral("weft-cli plan-merge: %1 holds no plan-shard-*.json file").arg(arg));
            return ExitUsage;
        }
        for (const QString &file : files) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                err(QStringLiteral("weft-cli plan-merge: cannot read %1: %2")
                        .arg(file, f.errorString()));
                return ExitUsage;
            }
            const QByteArray text = f.readAll();
            auto parsed = parsePlanJson(std::string_view(text.constData(), size_t(text.size())),
                                        file.toStdString());
            if (const auto *e = std::get_if<FileError>(&parsed)) {
                err(QStringLiteral("weft-cli plan-merge: %1")
                        .arg(QString::fromStdString(e->toString())));
                return ExitUsage;
            }
            shards.push_back(std::move(std::get<TrainingPlan>(parsed)));
        }
    }
    TrainingPlan merged;
    try {
        merged = mergePlans(shards);
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli plan-merge: %1").arg(QString::fromUtf8(e.what())));
        return ExitInvalid;
    }
    const QDir dir(p.value(outOption));
    if (!prepareOutputDirectory(kName, dir.path()))
        return ExitUsage;
    printPlan(merged);
    if (const int code = writePlanOutputs(kName, merged, dir, QStringLiteral("plan"), true))
        return code;
    return merged.ranked.empty() ? ExitInvalid : ExitOk;
}

const CliCommandRegistration reg {{"plan-merge", "merge plan shard results into the whole plan",
                                   runMerge, makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
