#include "document/commands/structurecommands.h"

#include "document/designdocument.h"

namespace weft {

namespace {

template<class Map> void addMissing(Map &into, const Map &from, Map &added)
{
    for (const auto &[key, value] : from)
        if (into.emplace(key, value).second)
            added.emplace(key, value);
}

template<class Map> void eraseKeys(Map &from, const Map &keys)
{
    for (const auto &kv : keys)
        from.erase(kv.first);
}

} // namespace

HardwareTable insertFragment(Design &design, const Fragment &fragment)
{
    HardwareTable added;
    addMissing(design.hardware.accelerators, fragment.hardware.accelerators, added.accelerators);
    addMissing(design.hardware.switches, fragment.hardware.switches, added.switches);
    addMissing(design.hardware.linkTechs, fragment.hardware.linkTechs, added.linkTechs);
    for (const Group &g : fragment.groups)
        design.addGroup(g);
    for (const Node &n : fragment.nodes)
        design.addNode(n);
    for (const Link &l : fragment.links)
        design.addLink(l);
    return added;
}

void removeFragment(Design &design, const Fragment &fragment)
{
    for (const Link &l : fragment.links)
        design.removeLink(l.id);
    for (const Node &n : fragment.nodes)
        design.removeNode(n.id);
    for (auto it = fragment.groups.rbegin(); it != fragment.groups.rend(); ++it)
        design.removeGroup(it->id);
}

InsertObjects::InsertObjects(DesignDocument *doc, Fragment fragment, const QString &text,
                             QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_doc(doc)
    , m_fragment(std::move(fragment))
{
}

void InsertObjects::redo()
{
    m_addedSpecs = insertFragment(m_doc->editDesign(), m_fragment);
    m_doc->notifyAdded(m_fragment.ids());
}

void InsertObjects::undo()
{
    const IdSet ids = m_fragment.ids();
    removeFragment(m_doc->editDesign(), m_fragment);
    HardwareTable &hw = m_doc->editDesign().hardware;
    eraseKeys(hw.accelerators, m_addedSpecs.accelerators);
    eraseKeys(hw.switches, m_addedSpecs.switches);
    eraseKeys(hw.linkTechs, m_addedSpecs.linkTechs);
    m_doc->notifyRemoved(ids);
}

RemoveObjects::RemoveObjects(DesignDocument *doc, Fragment snapshot, const QString &text,
                             QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_doc(doc)
    , m_snapshot(std::move(snapshot))
{
}

void RemoveObjects::redo()
{
    removeFragment(m_doc->editDesign(), m_snapshot);
    m_doc->notifyRemoved(m_snapshot.ids());
}

void RemoveObjects::undo()
{
    insertFragment(m_doc->editDesign(), m_snapshot);
    m_doc->notifyAdded(m_snapshot.ids());
}

ReplaceDesign::ReplaceDesign(DesignDocument *doc, Design after, const QString &text,
                             QUndoCommand *parent)
    : QUndoCommand(text, parent)
    , m_doc(doc)
    , m_other(std::make_unique<Design>(std::move(after)))
{
}

void ReplaceDesign::redo()
{
    std::swap(m_doc->editDesign(), *m_other);
    m_doc->notifyReset();
}

void ReplaceDesign::undo()
{
    redo();
}

} // namespace weft
