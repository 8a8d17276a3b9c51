#include "gui/actions/editactions.h"

#include "document/designdocument.h"
#include "document/find.h"
#include "gui/canvas/fragmentmime.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QIcon>
#include <QLineEdit>
#include <QMenu>
#include <QToolBar>

namespace weft {

namespace {

QAction *make(QObject *parent, const QString &text, const char *icon, QKeySequence::StandardKey key)
{
    auto *a = new QAction(QIcon(QStringLiteral(":/weft/icons/%1.svg").arg(QLatin1String(icon))),
                          text, parent);
    a->setShortcut(key);
    return a;
}

} // namespace

EditActions::EditActions(DesignDocument *doc, TopologyView *view, QObject *parent)
    : QObject(parent)
    , m_doc(doc)
    , m_view(view)
{
    undo = doc->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setIcon(QIcon(QStringLiteral(":/weft/icons/undo.svg")));
    undo->setShortcut(QKeySequence::Undo);
    redo = doc->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setIcon(QIcon(QStringLiteral(":/weft/icons/redo.svg")));
    redo->setShortcut(QKeySequence::Redo);
    cut = make(this, tr("Cu&t"), "cut", QKeySequence::Cut);
    copy = make(this, tr("&Copy"), "copy", QKeySequence::Copy);
    paste = make(this, tr("&Paste"), "paste", QKeySequence::Paste);
    remove = make(this, tr("&Delete"), "delete", QKeySequence::Delete);
    remove->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    selectAll = make(this, tr("Select &All"), "select", QKeySequence::SelectAll);
    find = make(this, tr("&Find…"), "find", QKeySequence::Find);
    findField = new QLineEdit;
    findField->setPlaceholderText(tr("Find: name, kind:switch, #id"));
    findField->setClearButtonEnabled(true);
    findField->setMaximumWidth(260);

    connect(copy, &QAction::triggered, this, &EditActions::doCopy);
    connect(cut, &QAction::triggered, this, [this] {
        doCopy();
        m_doc->deleteSelection();
    });
    connect(paste, &QAction::triggered, this, &EditActions::doPaste);
    connect(remove, &QAction::triggered, doc, &DesignDocument::deleteSelection);
    connect(selectAll, &QAction::triggered, doc, &DesignDocument::selectAll);
    connect(find, &QAction::triggered, this, [this] {
        findField->setFocus();
        findField->selectAll();
    });
    connect(findField, &QLineEdit::returnPressed, this, &EditActions::doFind);
    connect(doc, &DesignDocument::selectionChanged, this, &EditActions::updateEnabled);
    // New clipboard contents (from any window or application) paste at their own place first.
    connect(QGuiApplication::clipboard(), &QClipboard::dataChanged, this, [this] {
        m_pasteCount = 0;
        updateEnabled();
    });
    updateEnabled();
}

void EditActions::addTo(QMenu *menu, QToolBar *toolbar)
{
    menu->addActions({undo, redo});
    menu->addSeparator();
    menu->addActions({cut, copy, paste, remove});
    menu->addSeparator();
    menu->addActions({selectAll, find});
    toolbar->addActions({undo, redo});
    toolbar->addSeparator();
    toolbar->addActions({cut, copy, paste, remove});
}

void EditActions::updateEnabled()
{
    const bool any = !m_doc->selection().empty();
    cut->setEnabled(any);
    copy->setEnabled(any);
    remove->setEnabled(any);
    paste->setEnabled(mayHoldFragment(QGuiApplication::clipboard()->mimeData()));
}

void EditActions::doCopy()
{
    const Fragment f = m_doc->copySelection();
    if (f.empty())
        return;
    QGuiApplication::clipboard()->setMimeData(fragmentMimeData(f).release()); // takes ownership
    m_pasteCount = 0;
    emit message(tr("Copied %n object(s).", nullptr, int(f.nodes.size() + f.groups.size())));
}

void EditActions::doPaste()
{
    QString why;
    const auto f = fragmentFrom(QGuiApplication::clipboard()->mimeData(), &why);
    if (!f) {
        emit message(why);
        dialogPresenter().showError(m_view->window(), tr("Cannot paste"), why);
        return;
    }
    const double offset = 32.0 * ++m_pasteCount; // each paste lands beside the previous one
    m_doc->paste(*f, offset, offset);
}

void EditActions::doFind()
{
    const IdSet found = findObjects(m_doc->design(), findField->text());
    m_doc->setSelection(found);
    if (found.empty()) {
        emit message(tr("Nothing matches \"%1\".").arg(findField->text()));
        return;
    }
    // Matches hidden in collapsed domains: show the domain instead of an invisible node.
    m_view->zoomToSelection();
    emit message(tr("%n object(s) found.", nullptr, int(found.size())));
}

} // namespace weft
