#include "storage/designstorage.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace weft {

namespace {

FileError fileError(const QString &path, const QString &message)
{
    return FileError {path.toStdString(), "", message.toStdString()};
}

// The device's error in words, lower case as in a sentence ("no space left on device").
QString problemOf(const QFileDevice &f)
{
    QString why
        = f.error() == QFileDevice::NoError ? QStringLiteral("unknown error") : f.errorString();
    if (why.size() > 1 && why[0].isUpper() && why[1].isLower())
        why[0] = why[0].toLower();
    return why;
}

} // namespace

QString writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot open for writing: %1").arg(problemOf(f));
    // A full disk first gives a short write with no error set (Qt reports "Unknown error");
    // writing the rest gives the system's error (ENOSPC: "no space left on device").
    for (qint64 done = 0; done < bytes.size();) {
        const qint64 n = f.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            const QString why = problemOf(f);
            f.cancelWriting();
            return QStringLiteral("cannot write: %1").arg(why);
        }
        done += n;
    }
    // A small file stays in QFileDevice's buffer until commit(), which (Qt 6.4) ignores a
    // failed flush of it and renames the short temporary file over the target: "written", but
    // truncated, and the good file it replaced gone. Flush first and check.
    if (!f.flush()) {
        const QString why = problemOf(f);
        f.cancelWriting();
        return QStringLiteral("cannot write: %1").arg(why);
    }
    if (!f.commit())
        return QStringLiteral("cannot save: %1").arg(problemOf(f));
    return {};
}

bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    const QString why = writeFileAtomically(path, bytes);
    if (!why.isEmpty() && error)
        *error = QStringLiteral("%1: %2").arg(path, why);
    return why.isEmpty();
}

QString backupPathFor(const QString &path)
{
    return path + QStringLiteral(".bak");
}

LoadResult loadDesignFile(const QString &path, MigrationBackup backup)
{
    LoadResult res;
    const QFileInfo info(path);
    if (!info.exists()) {
        res.error = fileError(path, QStringLiteral("the file does not exist"));
        return res;
    }
    if (info.isDir()) {
        res.error = fileError(path, QStringLiteral("this is a folder, not a design file"));
        return res;
    }
    if (static_cast<std::size_t>(info.size()) > kMaxDesignFileBytes) {
        res.error = fileError(path,
                              QStringLiteral("the file is %1 MiB, above the limit of %2 MiB "
                                             "for a design")
                                  .arg(info.size() >> 20)
                                  .arg(kMaxDesignFileBytes >> 20));
        return res;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        res.error
            = fileError(path, QStringLiteral("cannot open for reading: %1").arg(f.errorString()));
        return res;
    }
    const QByteArray bytes = f.readAll();
    f.close();
    ParseResult parsed
        = parseDesign(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                      path.toStdString());
    res.fileVersion = parsed.fileVersion;
    for (const std::string &m : parsed.migrations)
        res.migrations << QString::fromStdString(m);
    if (!parsed.ok()) {
        res.error = std::move(parsed.error);
        return res;
    }
    res.design = std::move(parsed.design);
    if (parsed.migrated() && backup == MigrationBackup::Write) {
        const QString bak = backupPathFor(path);
        if (const QString why = writeFileAtomically(bak, bytes); why.isEmpty())
            res.backupPath = bak;
        else
            res.warnings << QStringLiteral("the original of this version %1 file could not be "
                                           "kept as %2: %3")
                                .arg(parsed.fileVersion)
                                .arg(bak, why);
    }
    return res;
}

QString designSizeProblem(std::size_t bytes)
{
    if (bytes <= kMaxDesignFileBytes)
        return {};
    return QStringLiteral("the design takes %1 MiB as a file, above the %2 MiB Weft reads back: "
                          "it could not be opened again (make it smaller: fewer domains)")
        .arg(double(bytes) / (1 << 20), 0, 'f', 0)
        .arg(kMaxDesignFileBytes >> 20);
}

std::optional<FileError> saveDesignFile(const Design &design, const QString &path)
{
    const std::string text = serializeDesign(design);
    if (const QString why = designSizeProblem(text.size()); !why.isEmpty())
        return fileError(path, why);
    if (const QString why
        = writeFileAtomically(path, QByteArray(text.data(), static_cast<qsizetype>(text.size())));
        !why.isEmpty())
        return fileError(path, why);
    return std::nullopt;
}

QString describeLoadError(const QString &path, const FileError &error)
{
    QString text
        = QCoreApplication::translate("weft", "Could not open %1.").arg(QFileInfo(path).fileName())
        + QLatin1String("\n\n")
        + QCoreApplication::translate("weft", "File: %1")
              .arg(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
    if (!error.jsonPath.empty())
        text += QLatin1Char('\n')
            + QCoreApplication::translate("weft", "Location: %1")
                  .arg(QString::fromStdString(error.jsonPath));
    text += QLatin1Char('\n')
        + QCoreApplication::translate("weft", "Problem: %1")
              .arg(QString::fromStdString(error.message));
    return text;
}

} // namespace weft
