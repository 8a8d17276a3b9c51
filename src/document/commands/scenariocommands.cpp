#include "document/commands/scenariocommands.h"

#include "document/designdocument.h"

namespace weft {

SetScenario::SetScenario(DesignDocument *doc, Scenario after, IdSet touched, const QString &text,
                         QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_doc(doc)
    , m_before(doc->design().scenario)
    , m_after(std::move(after))
    , m_touched(std::move(touched))
{
}

void SetScenario::redo()
{
    m_doc->editDesign().scenario = m_after;
    m_doc->notifyScenarioChanged(m_touched);
}

void SetScenario::undo()
{
    m_doc->editDesign().scenario = m_before;
    m_doc->notifyScenarioChanged(m_touched);
}

} // namespace weft
