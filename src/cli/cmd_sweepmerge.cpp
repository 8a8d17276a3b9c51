// weft-cli sweep-merge DIR... --out DIR: combines the shard files of `weft-cli sweep --shard`
// into one table (CSV and JSON) and renders the sweep chart as PNG, PDF and SVG (issue 6).
#include "command.h"
#include "designinput.h"
#include "guiapplication.h"
#include "io/sweepjson.h"
#include "shards.h"
#include "sweepoutput.h"

#include <QDir>
#include <stdexcept>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("sweep-merge");

int runMerge(const QStringList &args)
{
    const ShardMergeCommand command {
        kName,
        QStringLiteral(
            "Combines the results of 'weft-cli sweep --shard I/N' runs (the sweep*.json files in "
            "each DIR, or the files themselves) into one table, written to --out as sweep.csv "
            "and sweep.json, and renders the sweep chart (step time and MFU against the "
            "parameter) as sweep.png, sweep.pdf and sweep.svg. Every variant must be present "
            "exactly once.\n\nExit codes: 0 merged, 1 the shards do not make one sweep (a variant "
            "missing or repeated, another parameter), 2 bad usage, an unreadable shard or an "
            "output that cannot be written."),
        QStringLiteral("sweep*.json")};
    std::vector<SweepTable> shards;
    QDir dir;
    const auto status
        = readShards(command, args, dir, [&](const QByteArray &text, const QString &file) {
              auto parsed = parseSweepJson(std::string_view(text.constData(), size_t(text.size())),
                                           file.toStdString());
              if (const auto *e = std::get_if<FileError>(&parsed))
                  return QString::fromStdString(e->toString());
              shards.push_back(std::move(std::get<SweepTable>(parsed)));
              return QString();
          });
    if (status)
        return *status;
    SweepTable merged;
    try {
        merged = mergeSweepTables(shards);
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli sweep-merge: %1").arg(QString::fromUtf8(e.what())));
        return ExitInvalid;
    }
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
