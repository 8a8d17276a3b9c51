#pragma once
// Sharded runs of weft-cli (cluster job arrays): the --shard I/N option of sweep, plan and whatif,
// and the common front of the *-merge sub-commands (sweep-merge, plan-merge): the command line
// `DIR... --out DIR`, the shard files each DIR holds, and reading each one with a clear error.

#include <QByteArray>
#include <QDir>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

namespace weft::cli {

/// Parses a --shard value "I/N" with 0 <= I < N into `index` and `count`. Otherwise prints
/// "weft-cli <command>: --shard must be I/N with 0 <= I < N (got '<value>')" and returns false.
bool parseShard(const QString &command, const QString &value, int &index, int &count);

/// What distinguishes one merge command from another.
struct ShardMergeCommand
{
    QString name; ///< sub-command, e.g. "plan-merge"
    QString description; ///< --help text
    QString filePattern; ///< shard files inside a directory, e.g. "plan-shard-*.json"
};

/// Parses `args` as `name DIR... --out DIR`, then reads every shard file (a DIR's files matching
/// the pattern in name order, or a file named directly) and hands its text and path to
/// `addShard`, which returns an error message or an empty string. On success `outDir` is the
/// --out directory (not created yet) and the result is nullopt; otherwise the exit code (ExitOk
/// after --help, ExitUsage for a usage error or an unreadable or unparsable file), with the
/// message printed.
std::optional<int>
readShards(const ShardMergeCommand &command, const QStringList &args, QDir &outDir,
           const std::function<QString(const QByteArray &text, const QString &path)> &addShard);

} // namespace weft::cli
