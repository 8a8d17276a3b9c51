#pragma once
// What-if undo commands: a full before/after snapshot of Design::scenario (model/fault.h), so
// mark down, restore and degrade undo and redo exactly.

#include "document/fragment.h"
#include "model/fault.h"

#include <QUndoCommand>

namespace weft {

class DesignDocument;

/// Replaces the design's what-if scenario and restores the previous one on undo. `touched` are
/// the links and nodes whose fault state changes (they are redrawn).
class SetScenario : public QUndoCommand
{
public:
    /// Captures the current scenario as "before" (the command is complete before push()).
    SetScenario(DesignDocument *doc, Scenario after, IdSet touched, const QString &text,
                QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    DesignDocument *m_doc;
    Scenario m_before;
    Scenario m_after;
    IdSet m_touched;
};

} // namespace weft
