#include "gui/actions/autosaverestore.h"

#include "document/designdocument.h"
#include "gui/actions/autosave.h"
#include "gui/actions/designwindow.h"
#include "gui/actions/fileactions.h"
#include "gui/dialogs/dialogpresenter.h"
#include "storage/designstorage.h"

#include <QCoreApplication>
#include <QDir>
#include <QTimer>
#include <QUndoStack>

namespace weft {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("AutosaveRestore", text);
}

} // namespace

void openAtStartup(WindowManager &windows, const QStringList &files)
{
    DesignWindow *first = windows.openWindow();
    for (const QString &file : files)
        first->fileActions()->openFile(file);
    QTimer::singleShot(0, first->widget(), [&windows] { offerAutosaveRestore(windows); });
}

int offerAutosaveRestore(WindowManager &windows)
{
    if (qEnvironmentVariableIsSet("WEFT_NO_AUTOSAVE_PROMPT"))
        return 0;
    struct Readable
    {
        Autosave::Entry entry;
        Design design;
    };
    std::vector<Readable> readable;
    for (Autosave::Entry &e : Autosave::pending()) {
        LoadResult r = loadDesignFile(e.autosavePath, MigrationBackup::Skip);
        if (r.ok()) {
            readable.push_back({std::move(e), std::move(*r.design)});
            continue;
        }
        // A damaged autosave would otherwise be offered at every start.
        const QString of = e.originalPath.isEmpty() ? tr("an untitled design") : e.originalPath;
        if (dialogPresenter().askConfirm(
                nullptr, tr("Damaged autosave"),
                tr("The autosave of %1 cannot be read and cannot be restored:\n%2\n\nDiscard "
                   "it? (No keeps %3 to look at; it is offered again at the next start.)")
                    .arg(of, QString::fromStdString(r.error.message),
                         QDir::toNativeSeparators(e.autosavePath))))
            Autosave::remove(e);
    }
    if (readable.empty())
        return 0;
    QStringList names;
    for (const Readable &r : readable)
        names << (r.entry.originalPath.isEmpty() ? tr("an untitled design") : r.entry.originalPath);
    switch (dialogPresenter().askRestore(nullptr, names)) {
    case DialogPresenter::RestoreAnswer::Restore:
        break;
    case DialogPresenter::RestoreAnswer::Later: // kept; their locks go with `readable`
        return 0;
    case DialogPresenter::RestoreAnswer::Discard:
        if (dialogPresenter().askConfirm(
                nullptr, tr("Discard autosaved work?"),
                tr("Delete the autosaved designs? Their unsaved changes are lost; this cannot be "
                   "undone.\n\n%1")
                    .arg(names.join(QLatin1Char('\n')))))
            for (const Readable &r : readable)
                Autosave::remove(r.entry);
        return 0;
    }
    int restored = 0;
    for (Readable &r : readable) {
        DesignWindow *w = nullptr;
        for (DesignWindow *candidate : windows.windows())
            if (candidate->isPristine())
                w = candidate;
        if (!w)
            w = windows.openWindow();
        w->document()->resetDesign(std::move(r.design));
        w->document()->setFilePath(r.entry.originalPath);
        w->document()->undoStack()->resetClean(); // restored work is unsaved work
        // The autosave stays until this document is saved or autosaved again.
        w->autosave()->adopt(std::move(r.entry));
        ++restored;
    }
    return restored;
}

} // namespace weft
