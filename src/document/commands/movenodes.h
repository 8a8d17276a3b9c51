#pragma once
// MoveNodes: moves nodes on the canvas. A drag pushes one on every mouse move with the same
// gesture number; they merge into one undo step, and only within that gesture (two drags are
// two steps; Tiled issues 4332/4339).

#include "document/fragment.h"

#include <QPointF>
#include <QUndoCommand>

namespace weft {

class DesignDocument;

class MoveNodes : public QUndoCommand
{
public:
    /// Moves each node in `ids` from its current position by `delta` (scene units).
    MoveNodes(DesignDocument *doc, const std::vector<NodeId> &ids, QPointF delta, int gesture);
    void redo() override;
    void undo() override;
    [[nodiscard]] int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(bool toOld);

    DesignDocument *m_doc;
    int m_gesture;
    std::vector<NodeId> m_ids;
    std::vector<QPointF> m_old;
    std::vector<QPointF> m_new;
};

} // namespace weft
