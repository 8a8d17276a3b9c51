#pragma once
// EditActions: undo/redo, cut/copy/paste, delete, select all and find for one document, with
// the standard shortcuts. Copy puts the selection on the system clipboard (gui/canvas/
// fragmentmime.h), so paste works across windows and Weft processes.

#include <QObject>

class QAction;
class QLineEdit;
class QMenu;
class QToolBar;

namespace weft {

class DesignDocument;
class TopologyView;

class EditActions : public QObject
{
    Q_OBJECT
public:
    EditActions(DesignDocument *doc, TopologyView *view, QObject *parent);
    void addTo(QMenu *menu, QToolBar *toolbar);

    QAction *undo, *redo, *cut, *copy, *paste, *remove, *selectAll, *find;
    /// The find field (in the toolbar): Enter selects the matches and zooms to them.
    QLineEdit *findField;

signals:
    void message(const QString &text);

private:
    void doCopy();
    void doPaste();
    void doFind();
    void updateEnabled();

    DesignDocument *m_doc;
    TopologyView *m_view;
    int m_pasteCount = 0;
};

} // namespace weft
