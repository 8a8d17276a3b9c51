#pragma once
// Design files on disk (product.md, Files): reading with migration of older versions (the
// original is kept as `<file>.bak`), and atomic saves through QSaveFile (a crash or a full disk
// never leaves a half-written design).

#include "io/designfile.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace weft {

/// Outcome of loadDesignFile(): like ParseResult, with the backup written for an old version.
struct LoadResult
{
    std::optional<Design> design; ///< set on success
    FileError error; ///< set when `design` is empty; `file` is the path
    int fileVersion = -1; ///< format version the file declared
    QStringList migrations; ///< upgrade steps applied ("version 0 -> 1: ...")
    QString backupPath; ///< `<file>.bak` when the file was migrated and backed up
    QStringList warnings; ///< problems that did not stop the load (e.g. no backup)

    [[nodiscard]] bool ok() const { return design.has_value(); }
};

/// Whether loading an older-version file copies it to `<path>.bak` (read-only tools such as
/// `weft-cli validate` skip it).
enum class MigrationBackup { Write, Skip };

/// Reads and parses the design at `path`. Files above kMaxDesignFileBytes are refused before
/// reading. When the file is an older format version and `backup` is Write, copies it
/// unchanged to `<path>.bak` (replacing an older backup) before anyone can save the upgraded
/// design over it; a failed backup is a warning, not an error.
LoadResult loadDesignFile(const QString &path, MigrationBackup backup = MigrationBackup::Write);

/// What a dialog says when `path` could not be loaded: the file name, the absolute path, the
/// JSON location (when known) and the problem, one per line.
QString describeLoadError(const QString &path, const FileError &error);

/// Writes `design` to `path` atomically (QSaveFile: temp file + rename). Returns an error
/// naming the path, or nullopt on success.
std::optional<FileError> saveDesignFile(const Design &design, const QString &path);

/// Writes `bytes` to `path` through QSaveFile (temp file + rename). Returns the problem in
/// words, or an empty string on success.
QString writeFileAtomically(const QString &path, const QByteArray &bytes);
/// writeFileAtomically() for exporters: true when written, else false with *error (if given)
/// set to "<path>: <problem>".
bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error);

/// Why a design file of `bytes` bytes could not be opened again (above kMaxDesignFileBytes,
/// which loadDesignFile refuses), with the sizes; empty when it can. saveDesignFile writes no
/// such file: the work stays in memory, the error says to make the design smaller.
QString designSizeProblem(std::size_t bytes);

/// The backup path used for `path`: `<path>.bak`.
QString backupPathFor(const QString &path);

} // namespace weft
