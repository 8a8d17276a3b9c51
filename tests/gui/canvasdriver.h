#pragma once
// Helpers for GUI tests that drive the real canvas: mouse presses, moves with the button held
// (QTest::mouseMove does not carry buttons) and drops, sent to the view's viewport.

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"
#include "gui/dialogs/dialogpresenter.h"

#include <QApplication>
#include <QMimeData>
#include <QMouseEvent>

namespace weft::test {

inline void mouse(TopologyView &view, QEvent::Type type, QPointF scenePos, Qt::MouseButton button,
                  Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    const QPointF local = view.mapFromScene(scenePos);
    QMouseEvent e(type, local, view.viewport()->mapToGlobal(local), button, buttons, mods);
    QApplication::sendEvent(view.viewport(), &e);
}

/// Replaces the view's design by `design` and shows it at 100% zoom, centred.
inline void openDesign(TopologyView &view, Design design)
{
    view.document()->resetDesign(std::move(design));
    view.setZoom(1.0);
    view.centerOn(view.topologyScene()->contentBounds().center());
}

/// Press at `from`, move in `steps` steps with the button held, release at `to`.
inline void drag(TopologyView &view, QPointF from, QPointF to,
                 Qt::MouseButton button = Qt::LeftButton,
                 Qt::KeyboardModifiers mods = Qt::NoModifier, int steps = 6)
{
    mouse(view, QEvent::MouseButtonPress, from, button, button, mods);
    for (int i = 1; i <= steps; ++i)
        mouse(view, QEvent::MouseMove, from + (to - from) * (double(i) / steps), Qt::NoButton,
              button, mods);
    mouse(view, QEvent::MouseButtonRelease, to, button, Qt::NoButton, mods);
}

inline void click(TopologyView &view, QPointF at, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    mouse(view, QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton, mods);
    mouse(view, QEvent::MouseButtonRelease, at, Qt::LeftButton, Qt::NoButton, mods);
}

/// Drag-enter, drag-move and drop of `mime` at `scenePos`, as a drag from the palette delivers.
inline bool drop(TopologyView &view, QMimeData *mime, QPointF scenePos)
{
    const QPoint local = view.mapFromScene(scenePos);
    QDragEnterEvent enter(local, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view.viewport(), &enter);
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(local, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view.viewport(), &move);
    QDropEvent dropEvent(local, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view.viewport(), &dropEvent);
    return dropEvent.isAccepted();
}

/// A presenter that records what would be shown and answers from fields.
class RecordingPresenter : public DialogPresenter
{
public:
    RecordingPresenter() { setDialogPresenter(this); }
    ~RecordingPresenter() override { setDialogPresenter(nullptr); }
    void showError(QWidget *, const QString &title, const QString &text) override
    {
        errors << title + QLatin1Char('\n') + text;
    }
    QMessageBox::StandardButton askSaveChanges(QWidget *, const QString &) override
    {
        ++saveQuestions;
        return saveAnswer;
    }
    RestoreAnswer askRestore(QWidget *, const QStringList &) override { return restoreAnswer; }
    bool askConfirm(QWidget *, const QString &, const QString &text) override
    {
        questions << text;
        return confirmAnswer;
    }
    QString openFileName(QWidget *, const QString &) override { return openPath; }
    QString saveFileName(QWidget *, const QString &) override { return savePath; }
    QString exportFileName(QWidget *, const QString &, const QString &suggestion,
                           const QString &) override
    {
        exportSuggestions << suggestion;
        return exportPath;
    }

    QStringList errors;
    int saveQuestions = 0;
    QMessageBox::StandardButton saveAnswer = QMessageBox::Discard;
    RestoreAnswer restoreAnswer = RestoreAnswer::Restore;
    bool confirmAnswer = true;
    QStringList questions;
    QString openPath, savePath, exportPath;
    QStringList exportSuggestions;
};

} // namespace weft::test
