#include "gui/autosaverestore.h"

#include "document/designdocument.h"
#include "gui/actions/autosave.h"
#include "gui/dialogs/dialogpresenter.h"
#include "gui/mainwindow.h"
#include "storage/designstorage.h"

#include <QCoreApplication>

namespace weft {

int offerAutosaveRestore()
{
    const QList<Autosave::Entry> pending = Autosave::pending();
    if (pending.isEmpty() || qEnvironmentVariableIsSet("WEFT_NO_AUTOSAVE_PROMPT"))
        return 0;
    QStringList names;
    for (const Autosave::Entry &e : pending)
        names << (e.originalPath.isEmpty()
                      ? QCoreApplication::translate("MainWindow", "an untitled design")
                      : e.originalPath);
    if (!dialogPresenter().askRestore(nullptr, names)) {
        for (const Autosave::Entry &e : pending)
            Autosave::remove(e);
        return 0;
    }
    int restored = 0;
    for (const Autosave::Entry &e : pending) {
        LoadResult r = loadDesignFile(e.autosavePath);
        if (!r.ok()) {
            dialogPresenter().showError(nullptr,
                                        QCoreApplication::translate("MainWindow", "Cannot restore"),
                                        QString::fromStdString(r.error.toString()));
            continue;
        }
        MainWindow *w = nullptr;
        for (MainWindow *candidate : MainWindow::windows())
            if (candidate->isPristine())
                w = candidate;
        if (!w)
            w = MainWindow::openWindow();
        w->document()->resetDesign(std::move(*r.design));
        w->document()->setFilePath(e.originalPath);
        w->document()->undoStack()->resetClean(); // restored work is unsaved work
        Autosave::remove(e);
        ++restored;
    }
    return restored;
}

} // namespace weft
