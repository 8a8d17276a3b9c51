#pragma once
// ImportActions: File > Import > InfiniBand fabric... (ibnetdiscover output or an ibsim net file)
// and Slurm topology... (topology.conf), through the core importers (io/fabricimport.h). Like
// "New cluster...", the imported fabric goes into this window only when its design is pristine
// (untitled, unmodified, empty), else into a new window: it replaced an open design and kept
// its file path, so Save wrote the import over the user's file. One undoable step ("Import
// NAME"); the options are weft-cli import's (ImportOptionsDialog); what the importer found
// (counts, models, missing rails, asymmetric cabling) goes to the status bar and, when it has
// notes, to a report listing them all (they reached only the status bar, one of them); a
// malformed file to an error naming the line.

#include "gui/dialogs/importoptionsdialog.h"
#include "io/fabricimport.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QWidget;
class QMenu;

namespace weft {

class DesignWindow;
class WindowManager;

class ImportActions : public QObject
{
    Q_OBJECT
public:
    /// Imports into `window`'s design when it is pristine, else into a new window of `windows`;
    /// dialogs open over `window`, which owns the actions.
    ImportActions(DesignWindow *window, WindowManager *windows);

    QAction *infiniband, *slurm, *nccl;
    /// The File > Import submenu holding both actions (owned by the window).
    [[nodiscard]] QMenu *menu() const { return m_menu; }

    /// Imports `path` as `format` with GPU servers of `preset` (see the class); with
    /// `serverXml` (ibnetdiscover, Slurm) the servers are those of that NCCL topology XML instead
    /// (addNcclServer: its GPUs, NVLinks, NICs and GPU-NIC pairing as the rail order).
    /// Returns false (error naming the file shown through dialogPresenter(), document unchanged)
    /// when a file cannot be read or imported.
    bool importFile(ImportFormat format, const QString &path, const QString &preset,
                    const QString &serverXml = QString());
    /// The same with every option of the dialog (drop-unknown HCAs, the Slurm cable technology).
    bool importFile(ImportFormat format, const QString &path, const ImportChoice &choice);
    /// The summary and findings of the last successful import, one line each.
    [[nodiscard]] QStringList lastReport() const { return m_report; }

signals:
    /// "Imported fabric.txt: 9 switches, ...; 2 note(s), first: ..." after an import.
    void statusMessage(const QString &text);

private:
    void choose(ImportFormat format);

    DesignWindow *m_window;
    WindowManager *m_windows;
    QMenu *m_menu;
    QStringList m_report;
};

} // namespace weft
