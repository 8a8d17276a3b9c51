// weft-cli plan-merge DIR... --out DIR: combines the shard files of `weft-cli plan --shard` into
// the whole plan (the same table as an unsharded plan) with its charts (issue 16).
#include "command.h"
#include "designinput.h"
#include "guiapplication.h"
#include "plan/planjson.h"
#include "planoutput.h"
#include "shards.h"

#include <QDir>
#include <stdexcept>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("plan-merge");

int runMerge(const QStringList &args)
{
    const ShardMergeCommand command {
        kName,
        QStringLiteral(
            "Combines the results of 'weft-cli plan --shard I/N' runs (the plan-shard-*.json "
            "files in each DIR, or the files themselves) into the whole plan: the top K of all "
            "shards, ranked as an unsharded plan ranks them (plan.csv is byte-identical), with "
            "the counts summed. Writes plan.json, plan.csv and the charts plan-pareto and "
            "plan-breakdown (.png, .pdf, .svg) to --out and prints the table. Every shard must be "
            "present once, made by the same Weft version with the same plan options (design, model "
            "and "
            "workload, GPUs, global batch, objective, top, --fix): a shard that differs is "
            "refused, "
            "naming its file and the setting. The losing-layout lines need the design: run plan "
            "unsharded for them.\n\nExit codes: 0 merged, 1 the shards do not make one plan (one "
            "missing, repeated or made with other options) or no candidate runs, 2 bad usage, an "
            "unreadable shard or an output that cannot be written."),
        QStringLiteral("plan-shard-*.json")};
    std::vector<TrainingPlan> shards;
    std::vector<std::string> names;
    QDir dir;
    const auto status
        = readShards(command, args, dir, [&](const QByteArray &text, const QString &file) {
              auto parsed = parsePlanJson(std::string_view(text.constData(), size_t(text.size())),
                                          file.toStdString());
              if (const auto *e = std::get_if<FileError>(&parsed))
                  return QString::fromStdString(e->toString());
              shards.push_back(std::move(std::get<TrainingPlan>(parsed)));
              names.push_back(file.toStdString());
              return QString();
          });
    if (status)
        return *status;
    TrainingPlan merged;
    try {
        merged = mergePlans(shards, names);
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli plan-merge: %1").arg(QString::fromUtf8(e.what())));
        return ExitInvalid;
    }
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
