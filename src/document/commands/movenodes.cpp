#include "document/commands/movenodes.h"

#include "document/commands/undocommands.h"
#include "document/designdocument.h"

namespace weft {

MoveNodes::MoveNodes(DesignDocument *doc, const std::vector<NodeId> &ids, QPointF delta,
                     int gesture)
    : QUndoCommand(QObject::tr("Move %n node(s)", nullptr, int(ids.size())))
    , m_doc(doc)
    , m_gesture(gesture)
{
    for (const NodeId id : ids)
        if (const Node *n = doc->design().node(id)) {
            m_ids.push_back(id);
            m_old.emplace_back(n->x, n->y);
            m_new.emplace_back(n->x + delta.x(), n->y + delta.y());
        }
}

void MoveNodes::redo()
{
    apply(false);
}
void MoveNodes::undo()
{
    apply(true);
}

int MoveNodes::id() const
{
    return int(CommandId::MoveNodes);
}

bool MoveNodes::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const MoveNodes *>(other);
    if (o->m_gesture != m_gesture || o->m_ids != m_ids)
        return false;
    m_new = o->m_new; // keep our own old positions: the start of the gesture
    // A gesture that ends where it began (a drag turned into a rank swap) leaves no step.
    setObsolete(m_new == m_old);
    return true;
}

void MoveNodes::apply(bool toOld)
{
    const std::vector<QPointF> &pos = toOld ? m_old : m_new;
    IdSet changed;
    Design &d = m_doc->editDesign();
    for (std::size_t i = 0; i < m_ids.size(); ++i)
        if (Node *n = d.node(m_ids[i])) {
            n->x = pos[i].x();
            n->y = pos[i].y();
            changed.nodes.insert(m_ids[i]);
        }
    m_doc->notifyChanged(changed);
}

} // namespace weft
