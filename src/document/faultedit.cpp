#include "document/faultedit.h"

#include "model/design.h"

#include <cmath>

namespace weft {

namespace {

// The object `f` names, as ids (empty when it names nothing).
IdSet subjectOf(const Design &d, const Fault &f)
{
    IdSet s;
    if (f.onLink()) {
        if (const Link *l = faultLink(d, f))
            s.links.insert(l->id);
    } else if (const Node *n = faultNode(d, f)) {
        s.nodes.insert(n->id);
    }
    return s;
}

bool intersects(const IdSet &a, const IdSet &b)
{
    for (const NodeId id : a.nodes)
        if (b.nodes.count(id))
            return true;
    for (const LinkId id : a.links)
        if (b.links.count(id))
            return true;
    return false;
}

std::string percent(double f)
{
    return std::to_string(static_cast<int>(std::lround(f * 100))) + "%";
}

} // namespace

const Fault *faultOn(const Design &d, LinkId id)
{
    for (const Fault &f : d.scenario.faults)
        if (f.onLink())
            if (const Link *l = faultLink(d, f); l && l->id == id)
                return &f;
    return nullptr;
}

const Fault *faultOn(const Design &d, NodeId id)
{
    for (const Fault &f : d.scenario.faults)
        if (!f.onLink())
            if (const Node *n = faultNode(d, f); n && n->id == id)
                return &f;
    return nullptr;
}

IdSet faultSubjects(const Design &d)
{
    IdSet all;
    for (const Fault &f : d.scenario.faults) {
        const IdSet s = subjectOf(d, f);
        all.nodes.insert(s.nodes.begin(), s.nodes.end());
        all.links.insert(s.links.begin(), s.links.end());
    }
    return all;
}

Scenario withoutFaultsOn(const Design &d, const IdSet &ids, IdSet *dropped)
{
    Scenario kept;
    for (const Fault &f : d.scenario.faults) {
        const IdSet s = subjectOf(d, f);
        if (intersects(s, ids)) {
            if (dropped) {
                dropped->nodes.insert(s.nodes.begin(), s.nodes.end());
                dropped->links.insert(s.links.begin(), s.links.end());
            }
            continue;
        }
        kept.faults.push_back(f);
    }
    return kept;
}

std::string faultDescription(const Design &d, const Fault &f)
{
    std::string subject = f.target;
    if (f.onLink())
        subject = "link " + f.target;
    else if (const Node *n = faultNode(d, f); n && !n->name.empty())
        subject = n->name;
    switch (f.kind) {
    case Fault::Kind::LinkDown:
    case Fault::Kind::SwitchDown:
        return subject + " down";
    case Fault::Kind::CableDown:
        return "one cable of " + subject + " down";
    case Fault::Kind::LinkRate:
        return subject + " at " + percent(f.factor) + " of its rate";
    case Fault::Kind::AcceleratorClock:
        return subject + " at " + percent(f.factor) + " of its clock";
    }
    return subject;
}

} // namespace weft
