#pragma once
// Autosave: writes a modified document every interval to QStandardPaths::AppDataLocation/
// autosave/<uuid>.weft (with <uuid>.origin naming the document's own file) and removes it when
// the document is saved or closed. Each autosave has an owner: <uuid>.lock, a QLockFile holding
// the owning process's id, kept for as long as that process has the file. An autosave whose
// owner is no longer running means Weft did not close cleanly; the next start offers to restore
// it (MainWindow::offerAutosaveRestore). A running instance's autosaves are never offered.

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>

class QLockFile;

namespace weft {

class DesignDocument;

class Autosave : public QObject
{
    Q_OBJECT
public:
    /// A leftover autosave: the autosaved design, the file it was a copy of ("" if untitled)
    /// and its lock, taken over from the dead owner (held while the entry lives).
    struct Entry
    {
        QString autosavePath;
        QString originalPath;
        std::shared_ptr<QLockFile> lock;
    };

    explicit Autosave(DesignDocument *doc, QObject *parent = nullptr);
    ~Autosave() override;

    static QString directory();
    /// Autosaves in directory() whose owner is not running (crashed, killed) or that have no
    /// owner; each entry holds the autosave's lock, so no other instance offers it meanwhile.
    /// A running instance's autosaves (this one's included) are left out.
    static QList<Entry> pending();
    /// Deletes the autosave, its origin and its lock.
    static void remove(const Entry &entry);

    /// Writes the document now if it has unsaved changes; returns false on a write error,
    /// which problem() then describes (with the path and the cause).
    bool saveNow();
    /// Why the last autosave failed ("" when it worked or there was nothing to write).
    [[nodiscard]] const QString &problem() const { return m_problem; }
    /// Removes this document's autosave (after a save or a clean close).
    void discard();
    /// Takes over a restored autosave: the file stays where it is, owned by this process, until
    /// this document is saved (the autosave is then removed) or autosaved again (it is then
    /// overwritten in place), so a second crash loses nothing.
    void adopt(Entry entry);
    [[nodiscard]] QString path() const { return m_path; }
    void setInterval(int ms) { m_timer.setInterval(ms); }

    /// The lock file beside `autosavePath` (<uuid>.lock).
    static QString lockPathFor(const QString &autosavePath);

signals:
    /// The autosave started failing (`why`: path and cause) or works again (`why` empty): the
    /// window says so, since a failed autosave no longer protects the unsaved work.
    void problemChanged(const QString &why);

private:
    /// Holds the lock of m_path (creates it if needed); false if another process owns it.
    bool own();
    /// Records the outcome (emitting problemChanged on a change); true when `why` is empty.
    bool setProblem(const QString &why);

    DesignDocument *m_doc;
    QString m_path;
    QTimer m_timer;
    std::shared_ptr<QLockFile> m_lock;
    int m_savedIndex = -1; ///< undo index at the last autosave
    QString m_problem;
};

} // namespace weft
