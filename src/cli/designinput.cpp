#include "designinput.h"

#include "command.h"
#include "findingtext.h"
#include "model/validate.h"
#include "storage/designstorage.h"
#include "workloadoptions.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>
#include <filesystem>

namespace weft::cli {

std::optional<Design> readDesignArgument(const QString &command, const QString &path, int *exitCode)
{
    LoadResult loaded = loadDesignFile(path, MigrationBackup::Skip);
    if (!loaded.ok()) {
        err(QStringLiteral("weft-cli %1: %2")
                .arg(command, QString::fromStdString(loaded.error.toString())));
        if (exitCode)
            *exitCode = ExitUsage;
        return std::nullopt;
    }
    // The same check as `weft-cli validate`: no command computes on a design it rejects.
    const std::vector<Finding> findings = validateDesign(*loaded.design);
    if (hasError(findings)) {
        for (const Finding &f : findings)
            if (f.severity == Severity::Error)
                err(describeFinding(f, *loaded.design));
        err(QStringLiteral("weft-cli %1: %2 is invalid: %3 error(s) (see 'weft-cli validate %2')")
                .arg(command, path)
                .arg(countFindings(findings).errors));
        if (exitCode)
            *exitCode = ExitInvalid;
        return std::nullopt;
    }
    return std::move(loaded.design);
}

bool requireWorkload(const QString &command, const QString &path, const Design &design)
{
    if (design.workload)
        return true;
    err(QStringLiteral(
            "weft-cli %1: %2 has no workload to simulate (add one with weft-cli "
            "generate --model ..., the model flags of this command, or in the GUI's Partitions "
            "dock)")
            .arg(command, path));
    return false;
}

std::optional<Design> readWorkloadDesign(const QString &command, const QString &path, int *exitCode,
                                         const QCommandLineParser *workloadFlags)
{
    std::optional<Design> design = readDesignArgument(command, path, exitCode);
    if (!design)
        return std::nullopt;
    if (workloadFlags) {
        QString error;
        // Flags change the design's workload, or describe one for a design without (until
        // session 32 they replaced the design's with the defaults: `simulate --pp 8` of a
        // Qwen3-235B design quietly ran Llama 3 8B).
        std::optional<Workload> w = workloadFromOptions(
            *workloadFlags, static_cast<long long>(design->acceleratorCount()), error,
            design->workload ? &*design->workload : nullptr);
        if (!error.isEmpty()) {
            err(QStringLiteral("weft-cli %1: %2").arg(command, error));
            *exitCode = ExitUsage;
            return std::nullopt;
        }
        if (w)
            design->workload = std::move(*w);
    }
    if (!requireWorkload(command, path, *design)) {
        *exitCode = ExitInvalid;
        return std::nullopt;
    }
    return design;
}

bool prepareOutputDirectory(const QString &command, const QString &dir)
{
    const QString abs = QDir(dir).absolutePath();
    if (QFileInfo(abs).exists() && !QFileInfo(abs).isDir()) {
        err(QStringLiteral("weft-cli %1: cannot write to %2: it is a file, not a directory")
                .arg(command, abs));
        return false;
    }
    if (!QDir().mkpath(abs)) {
        // QDir says only false: the system's reason ("Read-only file system") from std::filesystem.
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(abs.toStdString()), ec);
        err(QStringLiteral("weft-cli %1: cannot create the directory %2: %3")
                .arg(command, abs,
                     ec ? QString::fromStdString(ec.message()) : QStringLiteral("unknown reason")));
        return false;
    }
    QTemporaryFile probe(QDir(abs).filePath(QStringLiteral(".weft-write-test-XXXXXX")));
    if (!probe.open()) {
        err(QStringLiteral("weft-cli %1: cannot write to %2: %3")
                .arg(command, abs, probe.errorString()));
        return false;
    }
    return true;
}

bool writeTextFile(const QString &command, const QString &path, const std::string &text)
{
    const QString why = writeFileAtomically( // storage/designstorage.h: names a full disk
        path, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
    if (!why.isEmpty()) {
        err(QStringLiteral("weft-cli %1: %2: %3").arg(command, path, why));
        return false;
    }
    return true;
}

} // namespace weft::cli
