#include "document/fragment.h"

#include "document/commands/structurecommands.h"
#include "io/designfile.h"

#include <QCoreApplication>
#include <map>

namespace weft {

IdSet Fragment::ids() const
{
    IdSet s;
    for (const Node &n : nodes)
        s.nodes.insert(n.id);
    for (const Link &l : links)
        s.links.insert(l.id);
    for (const Group &g : groups)
        s.groups.insert(g.id);
    return s;
}

namespace {

void addGroupRecursively(const Design &d, GroupId gid, IdSet &out)
{
    if (!out.groups.insert(gid).second)
        return;
    if (const Group *g = d.group(gid))
        out.nodes.insert(g->members.begin(), g->members.end());
    for (const Group &child : d.groups())
        if (child.parent == gid)
            addGroupRecursively(d, child.id, out);
}

void copySpecs(const Design &d, Fragment &f)
{
    for (const Node &n : f.nodes) {
        if (auto *a = d.acceleratorSpec(n))
            f.hardware.accelerators[n.spec] = *a;
        if (auto *s = d.switchSpec(n))
            f.hardware.switches[n.spec] = *s;
    }
    for (const Link &l : f.links)
        if (auto *t = d.linkTech(l))
            f.hardware.linkTechs[l.tech] = *t;
}

} // namespace

Fragment snapshotClosure(const Design &design, const IdSet &ids)
{
    IdSet all {ids.nodes, ids.links, {}};
    for (const GroupId g : ids.groups)
        addGroupRecursively(design, g, all);
    Fragment f;
    // Keep the design's order so that snapshots (and files written after undo) are stable.
    for (const Group &g : design.groups())
        if (all.groups.count(g.id))
            f.groups.push_back(g);
    for (const Node &n : design.nodes())
        if (all.nodes.count(n.id))
            f.nodes.push_back(n);
    for (const Link &l : design.links())
        if (all.links.count(l.id) || all.nodes.count(l.a) || all.nodes.count(l.b))
            f.links.push_back(l);
    copySpecs(design, f);
    return f;
}

Fragment withFreshIds(const Fragment &fragment, const Design &design, double dx, double dy)
{
    std::map<NodeId, NodeId> nodeMap;
    std::map<GroupId, GroupId> groupMap;
    std::uint32_t nextNode = design.nextNodeId();
    std::uint32_t nextLink = design.nextLinkId();
    std::uint32_t nextGroup = design.nextGroupId();
    for (const Group &g : fragment.groups)
        groupMap[g.id] = GroupId(nextGroup++);
    for (const Node &n : fragment.nodes)
        nodeMap[n.id] = NodeId(nextNode++);

    Fragment out;
    out.hardware = fragment.hardware;
    for (Group g : fragment.groups) {
        g.id = groupMap[g.id];
        auto p = groupMap.find(g.parent);
        g.parent = p == groupMap.end() ? GroupId() : p->second;
        std::vector<NodeId> members;
        for (const NodeId m : g.members)
            if (auto it = nodeMap.find(m); it != nodeMap.end())
                members.push_back(it->second);
        g.members = std::move(members);
        out.groups.push_back(std::move(g));
    }
    for (Node n : fragment.nodes) {
        n.id = nodeMap[n.id];
        auto it = groupMap.find(n.group);
        // A node pasted without its domain joins no group (it is free on the canvas).
        n.group = it == groupMap.end() ? GroupId() : it->second;
        n.x += dx;
        n.y += dy;
        out.nodes.push_back(std::move(n));
    }
    for (Link l : fragment.links) {
        auto a = nodeMap.find(l.a);
        auto b = nodeMap.find(l.b);
        if (a == nodeMap.end() || b == nodeMap.end())
            continue;
        l.id = LinkId(nextLink++);
        l.a = a->second;
        l.b = b->second;
        out.links.push_back(std::move(l));
    }
    return out;
}

namespace {

// Rekeys the specs of `mine` that `theirs` holds with other figures; `rename(old, new)` updates
// the references.
template<class Map, class Rename> void rekeyConflicts(Map &mine, const Map &theirs, Rename rename)
{
    Map out;
    for (auto &[key, spec] : mine) {
        std::string k = key;
        const auto conflicts = [&](const std::string &c) {
            const auto it = theirs.find(c);
            return (it != theirs.end() && !(it->second == spec)) || (c != key && mine.count(c));
        };
        for (int n = 2; conflicts(k); ++n)
            k = key + "-" + std::to_string(n);
        if (k != key)
            rename(key, k);
        auto value = spec;
        value.key = k;
        out.emplace(k, std::move(value));
    }
    mine = std::move(out);
}

} // namespace

void keepOwnSpecs(Fragment &f, const Design &design)
{
    const HardwareTable &theirs = design.hardware;
    rekeyConflicts(f.hardware.accelerators, theirs.accelerators,
                   [&f](const std::string &from, const std::string &to) {
                       for (Node &n : f.nodes)
                           if (n.isAccelerator() && n.spec == from)
                               n.spec = to;
                   });
    rekeyConflicts(f.hardware.switches, theirs.switches,
                   [&f](const std::string &from, const std::string &to) {
                       for (Node &n : f.nodes)
                           if (n.isSwitch() && n.spec == from)
                               n.spec = to;
                   });
    rekeyConflicts(f.hardware.linkTechs, theirs.linkTechs,
                   [&f](const std::string &from, const std::string &to) {
                       for (Link &l : f.links)
                           if (l.tech == from)
                               l.tech = to;
                   });
}

std::string fragmentToText(const Fragment &fragment)
{
    Design d;
    d.name = "Weft clipboard";
    insertFragment(d, withFreshIds(fragment, Design(), 0, 0));
    return serializeDesign(d);
}

std::optional<Fragment> fragmentFromText(std::string_view text, QString *error)
{
    const auto tr = [](const char *s) { return QCoreApplication::translate("weft::Fragment", s); };
    ParseResult r = parseDesign(text, "clipboard");
    if (!r.ok()) {
        if (error) {
            const FileError &e = r.error;
            *error = tr("It is not a Weft design: %1")
                         .arg(QString::fromStdString(
                             e.jsonPath.empty() ? e.message : e.jsonPath + ": " + e.message));
        }
        return std::nullopt;
    }
    const Design &d = *r.design;
    if (d.nodes().empty() && d.groups().empty()) {
        if (error)
            *error = tr("It is a Weft design without any nodes or groups.");
        return std::nullopt;
    }
    Fragment f;
    f.nodes = d.nodes();
    f.links = d.links();
    f.groups = d.groups();
    f.hardware = d.hardware;
    return f;
}

QString fragmentSummary(const Fragment &fragment, int maxLines)
{
    const auto tr = [](const char *s, int n = -1) {
        return QCoreApplication::translate("weft::Fragment", s, nullptr, n);
    };
    QStringList lines;
    lines << tr("Weft: %1, %2, %3")
                 .arg(tr("%n node(s)", int(fragment.nodes.size())),
                      tr("%n link(s)", int(fragment.links.size())),
                      tr("%n group(s)", int(fragment.groups.size())));
    int shown = 0;
    const int total = int(fragment.groups.size() + fragment.nodes.size());
    for (const Group &g : fragment.groups) {
        if (shown++ == maxLines)
            break;
        const QString members = tr("%n member(s)", int(g.members.size()));
        lines << (g.preset.empty()
                      ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(g.name), members)
                      : QStringLiteral("%1 (%2, %3)")
                            .arg(QString::fromStdString(g.name), QString::fromStdString(g.preset),
                                 members));
    }
    for (const Node &n : fragment.nodes) {
        if (shown >= maxLines)
            break;
        ++shown;
        std::string model = n.spec;
        if (auto a = fragment.hardware.accelerators.find(n.spec);
            n.isAccelerator() && a != fragment.hardware.accelerators.end())
            model = a->second.name;
        else if (auto s = fragment.hardware.switches.find(n.spec);
                 n.isSwitch() && s != fragment.hardware.switches.end())
            model = s->second.name;
        lines << QStringLiteral("%1 (%2, %3)")
                     .arg(QString::fromStdString(n.name),
                          n.isAccelerator() ? tr("accelerator")
                                            : QString::fromLatin1(toString(n.role)),
                          QString::fromStdString(model));
    }
    if (total > maxLines)
        lines << tr("… and %n more", total - maxLines);
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace weft
