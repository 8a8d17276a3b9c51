#pragma once
// FileActions: New, Open, Save, Save As, recent files (QSettings), opening dropped or command-line
// files, the unsaved-changes prompt, and "New cluster…". Loading and saving go through
// weft_storage (loadDesignFile/saveDesignFile); a bad file only shows an error naming the file,
// the JSON location and the problem. It knows its window and the others only through
// DesignWindow and WindowManager (gui/actions/designwindow.h).

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QMenu;
class QToolBar;

namespace weft {

class DesignWindow;
class WindowManager;

class FileActions : public QObject
{
    Q_OBJECT
public:
    /// The actions of `window`; `windows` opens, finds and closes the others.
    FileActions(DesignWindow *window, WindowManager *windows, QObject *parent);
    void addTo(QMenu *menu, QToolBar *toolbar);

    QAction *newDoc, *open, *save, *saveAs, *newCluster, *close, *quit;

    /// Loads `path` into this window's document (replacing it), reading it on a worker thread
    /// (gui/actions/backgroundload.h). Returns false and shows an error when the file cannot be
    /// read (over `dialogParent`, default this window); the document is then unchanged. An older
    /// version whose `.bak` could not be written is reported, and Save then asks for a new name.
    bool load(const QString &path, QWidget *dialogParent = nullptr);
    /// Saves to the document's path (asks for one if untitled). Returns false when cancelled or
    /// failed (the error is shown).
    bool saveDocument();
    bool saveDocumentAs();
    /// Asks Save/Discard/Cancel when the document has unsaved changes; true when it may close.
    bool maybeClose();
    /// Opens `path`: brings forward the window that already shows it, else loads it here when
    /// this window holds an untouched empty design, else in a new window. Returns the window
    /// showing it, or nullptr when the file could not be read (the error shows over this one).
    DesignWindow *openFile(const QString &path);
    /// File > New Cluster: the wizard's design opens here when this window is untouched, else in
    /// a new window (a new cluster never replaces the open design).
    void showNewClusterWizard();

    /// Recent files, most recent first (QSettings "recentFiles").
    static QStringList recentFiles();

signals:
    /// A line for the status bar (saved, upgraded from an older format).
    void statusMessage(const QString &text);

private:
    bool saveTo(const QString &path);
    void addRecent(const QString &path);
    void rebuildRecentMenu();
    /// Remembers the document's file as read or written here (time and size).
    void noteDiskState();
    /// Whether another program wrote the document's file since noteDiskState().
    [[nodiscard]] bool changedOnDisk() const;

    DesignWindow *m_window;
    WindowManager *m_windows;
    QMenu *m_recentMenu = nullptr;
    /// A migrated file whose backup could not be written: the only copy of its old version,
    /// which Save does not overwrite (Save As asks first).
    QString m_unbackedOriginal;
    QString m_diskPath; ///< the file as noteDiskState() saw it
    QDateTime m_diskModified;
    qint64 m_diskSize = -1;
};

} // namespace weft
