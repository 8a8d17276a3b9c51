#pragma once
// A full disk for tests of write errors: a 4 KiB tmpfs mounted in a temporary directory (any
// real design is larger), unmounted when the object goes. Mounting needs root; without it (or
// where mount is refused) unavailable() says why and the test skips.

#include <QDir>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <unistd.h>

namespace weft::test {

class FullDisk
{
public:
    FullDisk()
    {
        if (geteuid() != 0) {
            m_unavailable = QStringLiteral("mounting a tmpfs needs root");
            return;
        }
        m_path = m_dir.filePath(QStringLiteral("full"));
        if (!QDir().mkpath(m_path)
            || QProcess::execute(QStringLiteral("mount"),
                                 {QStringLiteral("-t"), QStringLiteral("tmpfs"),
                                  QStringLiteral("-o"), QStringLiteral("size=4k"),
                                  QStringLiteral("tmpfs"), m_path})
                != 0) {
            m_unavailable = QStringLiteral("cannot mount a tmpfs here");
            return;
        }
        m_mounted = true;
    }
    ~FullDisk()
    {
        if (m_mounted)
            QProcess::execute(QStringLiteral("umount"), {m_path});
    }
    FullDisk(const FullDisk &) = delete;
    FullDisk &operator=(const FullDisk &) = delete;

    /// Why no full disk could be made (empty when it is mounted).
    [[nodiscard]] const QString &unavailable() const { return m_unavailable; }
    /// The mount point: every write below it fails with ENOSPC.
    [[nodiscard]] const QString &path() const { return m_path; }
    [[nodiscard]] QString filePath(const QString &name) const
    {
        return QDir(m_path).filePath(name);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    QString m_unavailable;
    bool m_mounted = false;
};

} // namespace weft::test
