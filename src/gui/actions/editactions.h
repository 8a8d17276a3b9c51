#pragma once
// EditActions: undo/redo, cut/copy/paste, delete, select all and find for one document, with
// the standard shortcuts. The clipboard holds a value snapshot (Fragment) shared by all windows.

#include <QObject>

class QAction;
class QLineEdit;
class QMenu;
class QToolBar;

namespace weft {

class DesignDocument;
struct Fragment;
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

    /// The application-wide clipboard of design fragments.
    static Fragment &clipboard();

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
