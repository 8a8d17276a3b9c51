#pragma once
// SetField<Object, T>: the one undo command for property edits. It sets member `field` of every
// object in `ids` (nodes, links or groups, found by id) to one value and restores each object's
// own old value on undo; a multi-selection edit is one step (after Tiled's ChangeValue).

#include "document/designdocument.h"

#include <QUndoCommand>
#include <vector>

namespace weft {

namespace detail {
inline Node *lookup(Design &d, NodeId id)
{
    return d.node(id);
}
inline Link *lookup(Design &d, LinkId id)
{
    return d.link(id);
}
inline Group *lookup(Design &d, GroupId id)
{
    return d.group(id);
}
inline void insertId(IdSet &s, NodeId id)
{
    s.nodes.insert(id);
}
inline void insertId(IdSet &s, LinkId id)
{
    s.links.insert(id);
}
inline void insertId(IdSet &s, GroupId id)
{
    s.groups.insert(id);
}
} // namespace detail

template<class Object, class T> class SetField : public QUndoCommand
{
public:
    using IdType = decltype(Object::id);

    /// Captures the old values now (the command is complete before push()); ids of objects
    /// that do not exist are skipped.
    SetField(DesignDocument *doc, const std::vector<IdType> &ids, T Object::*field, T value,
             const QString &text, QUndoCommand *parent = nullptr)
        : QUndoCommand(text, parent)
        , m_doc(doc)
        , m_field(field)
        , m_value(std::move(value))
    {
        for (const IdType id : ids)
            if (const Object *o = detail::lookup(doc->editDesign(), id)) {
                m_ids.push_back(id);
                m_old.push_back(o->*field);
            }
    }

    void redo() override { apply(false); }
    void undo() override { apply(true); }

    /// Number of objects the command changes.
    [[nodiscard]] std::size_t size() const { return m_ids.size(); }

private:
    void apply(bool restore)
    {
        IdSet changed;
        for (std::size_t i = 0; i < m_ids.size(); ++i)
            if (Object *o = detail::lookup(m_doc->editDesign(), m_ids[i])) {
                o->*m_field = restore ? m_old[i] : m_value;
                detail::insertId(changed, m_ids[i]);
            }
        m_doc->notifyChanged(changed);
    }

    DesignDocument *m_doc;
    T Object::*m_field;
    T m_value;
    std::vector<IdType> m_ids;
    std::vector<T> m_old;
};

} // namespace weft
