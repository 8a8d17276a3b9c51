#include "document/commands/workloadcommands.h"

#include "document/designdocument.h"

namespace weft {

SetWorkload::SetWorkload(DesignDocument *doc, std::optional<Workload> after, const QString &text,
                         QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_doc(doc)
    , m_before(doc->design().workload)
    , m_after(std::move(after))
{
}

void SetWorkload::redo()
{
    m_doc->editDesign().workload = m_after;
    m_doc->notifyWorkloadChanged();
}

void SetWorkload::undo()
{
    m_doc->editDesign().workload = m_before;
    m_doc->notifyWorkloadChanged();
}

} // namespace weft
