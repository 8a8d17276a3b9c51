#pragma once
// Structural undo commands: they add or remove whole objects and carry full value snapshots,
// so delete -> undo -> redo and reload stay valid (architecture.md, Rules of the house).

#include "document/fragment.h"

#include <QUndoCommand>
#include <memory>

namespace weft {

class DesignDocument;

/// Adds the objects of a fragment (with their ids) and the specs they need.
class InsertObjects : public QUndoCommand
{
public:
    InsertObjects(DesignDocument *doc, Fragment fragment, const QString &text,
                  QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    DesignDocument *m_doc;
    Fragment m_fragment;
    HardwareTable m_addedSpecs; ///< specs the design did not have before redo()
};

/// Removes objects given by a snapshot taken at construction (see snapshotClosure()).
class RemoveObjects : public QUndoCommand
{
public:
    RemoveObjects(DesignDocument *doc, Fragment snapshot, const QString &text,
                  QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    DesignDocument *m_doc;
    Fragment m_snapshot;
};

/// Replaces the whole design (a generated cluster); holds both designs.
class ReplaceDesign : public QUndoCommand
{
public:
    ReplaceDesign(DesignDocument *doc, Design after, const QString &text,
                  QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    DesignDocument *m_doc;
    std::unique_ptr<Design> m_other; ///< the design not currently in the document
};

/// Adds `fragment` to `design` (groups, nodes, links; specs missing from the design). Returns
/// the specs it added. Shared by InsertObjects and RemoveObjects::undo().
HardwareTable insertFragment(Design &design, const Fragment &fragment);
/// Removes the objects of `fragment` from `design` (links, nodes, then groups).
void removeFragment(Design &design, const Fragment &fragment);

} // namespace weft
