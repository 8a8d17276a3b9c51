#include "gui/actions/fileactions.h"

#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "gui/actions/backgroundload.h"
#include "gui/actions/designwindow.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/dialogs/newclusterwizard.h"
#include "storage/designstorage.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMenu>
#include <QSettings>
#include <QToolBar>

namespace weft {

namespace {

constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentFiles");

QAction *make(QObject *parent, const QString &text, const char *icon, const QKeySequence &key)
{
    auto *a = new QAction(QIcon(QStringLiteral(":/weft/icons/%1.svg").arg(QLatin1String(icon))),
                          text, parent);
    a->setShortcut(key);
    return a;
}

} // namespace

FileActions::FileActions(DesignWindow *window, WindowManager *windows, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_windows(windows)
{
    newDoc = make(this, tr("&New"), "new", QKeySequence::New);
    open = make(this, tr("&Open…"), "open", QKeySequence::Open);
    save = make(this, tr("&Save"), "save", QKeySequence::Save);
    saveAs = make(this, tr("Save &As…"), "save-as", QKeySequence::SaveAs);
    newCluster = make(this, tr("New &Cluster…"), "cluster",
                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    close = make(this, tr("&Close"), "close", QKeySequence::Close);
    quit = make(this, tr("&Quit"), "quit", QKeySequence::Quit);

    connect(newDoc, &QAction::triggered, this, [this] { m_windows->openWindow(); });
    connect(open, &QAction::triggered, this, [this] {
        const QStringList recent = recentFiles();
        const QString dir = recent.isEmpty() ? QString() : QFileInfo(recent.front()).absolutePath();
        const QString path = dialogPresenter().openFileName(m_window->widget(), dir);
        if (!path.isEmpty())
            openFile(path);
    });
    connect(save, &QAction::triggered, this, &FileActions::saveDocument);
    connect(saveAs, &QAction::triggered, this, &FileActions::saveDocumentAs);
    connect(newCluster, &QAction::triggered, this, &FileActions::showNewClusterWizard);
    connect(close, &QAction::triggered, window->widget(), &QWidget::close);
    connect(quit, &QAction::triggered, this, [this] { m_windows->closeAllWindows(); });
}

void FileActions::addTo(QMenu *menu, QToolBar *toolbar)
{
    menu->addActions({newDoc, newCluster, open});
    m_recentMenu = menu->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    menu->addSeparator();
    menu->addActions({save, saveAs});
    menu->addSeparator();
    menu->addActions({close, quit});
    toolbar->addActions({newDoc, open, save});
    toolbar->addSeparator();
    toolbar->addAction(newCluster);
}

bool FileActions::load(const QString &path, QWidget *dialogParent)
{
    QWidget *parent = dialogParent ? dialogParent : m_window->widget();
    LoadResult result = loadDesignInBackground(path, parent);
    if (!result.ok()) {
        dialogPresenter().showError(parent, tr("Cannot open design"),
                                    describeLoadError(path, result.error));
        return false;
    }
    DesignDocument *doc = m_window->document();
    doc->resetDesign(std::move(*result.design));
    doc->setFilePath(QFileInfo(path).absoluteFilePath());
    addRecent(doc->filePath());
    m_unbackedOriginal.clear();
    noteDiskState();
    if (result.migrations.isEmpty())
        return true;
    if (!result.backupPath.isEmpty()) {
        emit statusMessage(tr("Upgraded from format version %1; the original is kept as %2.")
                               .arg(result.fileVersion)
                               .arg(QDir::toNativeSeparators(result.backupPath)));
        return true;
    }
    // No backup: the file on disk is the only copy of the old version. Save must not replace it.
    m_unbackedOriginal = doc->filePath();
    dialogPresenter().showError(
        parent, tr("Original not backed up"),
        tr("%1 was upgraded from format version %2, but %3.\n\nSave will ask for a new file "
           "name, so that the original is not overwritten.")
            .arg(QDir::toNativeSeparators(path))
            .arg(result.fileVersion)
            .arg(result.warnings.join(QLatin1String("; "))));
    emit statusMessage(tr("Upgraded from format version %1; the original could not be "
                          "backed up and will not be overwritten.")
                           .arg(result.fileVersion));
    return true;
}

bool FileActions::saveDocument()
{
    const QString path = m_window->document()->filePath();
    if (path.isEmpty() || path == m_unbackedOriginal)
        return saveDocumentAs();
    // Another program wrote the file since it was opened or saved here: Save overwrote its
    // work without a word.
    if (changedOnDisk()
        && !dialogPresenter().askConfirm(
            m_window->widget(), tr("File changed on disk"),
            tr("%1 was changed by another program since Weft opened or last saved it.\n\n"
               "Overwrite it with this design? (No: choose another name.)")
                .arg(QDir::toNativeSeparators(path))))
        return saveDocumentAs();
    return saveTo(path);
}

void FileActions::noteDiskState()
{
    const QFileInfo info(m_window->document()->filePath());
    m_diskPath = info.absoluteFilePath();
    m_diskModified = info.exists() ? info.lastModified() : QDateTime();
    m_diskSize = info.exists() ? info.size() : -1;
}

bool FileActions::changedOnDisk() const
{
    const QFileInfo info(m_window->document()->filePath());
    if (m_diskPath.isEmpty() || info.absoluteFilePath() != m_diskPath || !info.exists())
        return false; // never read or written here (a restored autosave), or gone: nothing lost
    return info.lastModified() != m_diskModified || info.size() != m_diskSize;
}

bool FileActions::saveDocumentAs()
{
    DesignDocument *doc = m_window->document();
    const QString suggestion = doc->filePath().isEmpty()
        ? QStringLiteral("%1.weft").arg(doc->displayName())
        : doc->filePath();
    const QString path = dialogPresenter().saveFileName(m_window->widget(), suggestion);
    if (path.isEmpty())
        return false;
    if (!m_unbackedOriginal.isEmpty() && QFileInfo(path) == QFileInfo(m_unbackedOriginal)
        && !dialogPresenter().askConfirm(
            m_window->widget(), tr("Overwrite the only copy?"),
            tr("%1 is the only copy of the design in its old format version (no backup could be "
               "written). Replace it with the upgraded design?")
                .arg(QDir::toNativeSeparators(path))))
        return false;
    return saveTo(path);
}

bool FileActions::saveTo(const QString &path)
{
    DesignDocument *doc = m_window->document();
    Design design = doc->design();
    m_window->view()->storeViewState(design.view);
    if (const auto error = saveDesignFile(design, path)) {
        dialogPresenter().showError(
            m_window->widget(), tr("Cannot save design"),
            tr("Could not save %1:\n%2").arg(path, QString::fromStdString(error->message)));
        return false;
    }
    doc->setFilePath(QFileInfo(path).absoluteFilePath());
    noteDiskState();
    if (QFileInfo(path) == QFileInfo(m_unbackedOriginal))
        m_unbackedOriginal.clear(); // the user chose to replace it
    doc->undoStack()->setClean();
    addRecent(doc->filePath());
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileActions::maybeClose()
{
    DesignDocument *doc = m_window->document();
    if (!doc->isModified())
        return true;
    switch (dialogPresenter().askSaveChanges(m_window->widget(), doc->displayName())) {
    case QMessageBox::Save:
        return saveDocument();
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

DesignWindow *FileActions::openFile(const QString &path)
{
    for (DesignWindow *w : m_windows->windows()) // already open: bring it forward
        if (!w->document()->filePath().isEmpty()
            && QFileInfo(w->document()->filePath()) == QFileInfo(path)) {
            w->widget()->raise();
            w->widget()->activateWindow();
            return w;
        }
    if (m_window->isPristine())
        return load(path) ? m_window : nullptr;
    DesignWindow *w = m_windows->createWindow();
    if (!w->fileActions()->load(path, m_window->widget())) { // the error shows over this window
        delete w->widget();
        return nullptr;
    }
    w->widget()->show();
    return w;
}

void FileActions::showNewClusterWizard()
{
    auto *wizard = new NewClusterWizard(CatalogStore::instance().catalog(), m_window->widget());
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::accepted, this, [this, wizard] {
        if (auto design = wizard->takeDesign()) {
            DesignWindow *target = m_window->isPristine() ? m_window : m_windows->openWindow();
            target->document()->generateCluster(std::move(*design));
            target->view()->fitAll();
        }
    });
    wizard->open();
}

QStringList FileActions::recentFiles()
{
    return QSettings().value(kRecentKey).toStringList();
}

void FileActions::addRecent(const QString &path)
{
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    for (DesignWindow *w : m_windows->windows())
        w->fileActions()->rebuildRecentMenu();
}

void FileActions::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString &path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace weft
