#pragma once
// Workload undo commands: a full before/after snapshot of Design::workload (the placement
// refers to accelerators by id), so undo, redo and reload stay valid.

#include "workload/workload.h"

#include <QUndoCommand>
#include <optional>

namespace weft {

class DesignDocument;

/// Replaces the design's workload (nullopt: none) and restores the previous one on undo.
class SetWorkload : public QUndoCommand
{
public:
    /// Captures the current workload as "before" (the command is complete before push()).
    SetWorkload(DesignDocument *doc, std::optional<Workload> after, const QString &text,
                QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    DesignDocument *m_doc;
    std::optional<Workload> m_before;
    std::optional<Workload> m_after;
};

} // namespace weft
