#include "shards.h"

#include "command.h"
#include "commandparser.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace weft::cli {

namespace {

QStringList shardFiles(const QString &arg, const QString &pattern)
{
    const QFileInfo info(arg);
    if (!info.isDir())
        return {arg};
    QStringList files;
    const QDir dir(arg);
    for (const QString &name : dir.entryList({pattern}, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

} // namespace

bool parseShard(const QString &command, const QString &value, int &index, int &count)
{
    const auto m = QRegularExpression(QStringLiteral("^(\\d+)/(\\d+)$")).match(value.trimmed());
    const int i = m.hasMatch() ? m.captured(1).toInt() : -1;
    const int n = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (!m.hasMatch() || n < 1 || i >= n) {
        err(QStringLiteral("weft-cli %1: --shard must be I/N with 0 <= I < N (got '%2')")
                .arg(command, value));
        return false;
    }
    index = i;
    count = n;
    return true;
}

std::optional<int>
readShards(const ShardMergeCommand &command, const QStringList &args, QDir &outDir,
           const std::function<QString(const QByteArray &text, const QString &path)> &addShard)
{
    QCommandLineParser p;
    p.setApplicationDescription(command.description);
    p.addPositionalArgument(QStringLiteral("DIR"),
                            QStringLiteral("Directories (or files) holding shard results."),
                            QStringLiteral("DIR..."));
    const QCommandLineOption outOption(QStringLiteral("out"),
                                       QStringLiteral("Output directory (created if missing)."),
                                       QStringLiteral("DIR"));
    p.addOption(outOption);
    const QString prefix = QStringLiteral("weft-cli ") + command.name;
    if (const auto code
        = parseCommandLine(p, args, command.name, prefix + QStringLiteral(" DIR... --out DIR")))
        return code;
    if (p.positionalArguments().isEmpty() || !p.isSet(outOption)) {
        err(QStringLiteral("%1: expected shard directories and --out DIR (see '%1 --help')")
                .arg(prefix));
        return ExitUsage;
    }
    for (const QString &arg : p.positionalArguments()) {
        const QStringList files = shardFiles(arg, command.filePattern);
        if (files.isEmpty()) {
            err(QStringLiteral("%1: %2 holds no %3 file").arg(prefix, arg, command.filePattern));
            return ExitUsage;
        }
        for (const QString &file : files) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                err(QStringLiteral("%1: cannot read %2: %3").arg(prefix, file, f.errorString()));
                return ExitUsage;
            }
            if (const QString e = addShard(f.readAll(), file); !e.isEmpty()) {
                err(QStringLiteral("%1: %2").arg(prefix, e));
                return ExitUsage;
            }
        }
    }
    outDir = QDir(p.value(outOption));
    return std::nullopt;
}

} // namespace weft::cli
