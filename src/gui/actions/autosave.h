#pragma once
// Autosave: writes a modified document every interval to QStandardPaths::AppDataLocation/
// autosave/<uuid>.weft (with <uuid>.origin naming the document's own file) and removes it when
// the document is saved or closed. Files left behind mean Weft did not close cleanly; the next
// start offers to restore them (MainWindow::offerAutosaveRestore).

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace weft {

class DesignDocument;

class Autosave : public QObject
{
    Q_OBJECT
public:
    /// A leftover autosave: the autosaved design and the file it was a copy of ("" if untitled).
    struct Entry
    {
        QString autosavePath;
        QString originalPath;
    };

    explicit Autosave(DesignDocument *doc, QObject *parent = nullptr);
    ~Autosave() override;

    static QString directory();
    /// Autosaves in directory() not written by this process.
    static QList<Entry> pending();
    static void remove(const Entry &entry);

    /// Writes the document now if it has unsaved changes; returns false on a write error.
    bool saveNow();
    /// Removes this document's autosave (after a save or a clean close).
    void discard();
    [[nodiscard]] QString path() const { return m_path; }
    void setInterval(int ms) { m_timer.setInterval(ms); }

private:
    DesignDocument *m_doc;
    QString m_path;
    QTimer m_timer;
    int m_savedIndex = -1; ///< undo index at the last autosave
};

} // namespace weft
