#include "document/fabricrules.h"

#include "document/tieredlayout.h"

#include <QObject>
#include <cmath>

namespace weft {

int portsInUse(const Design &design, NodeId id)
{
    int used = 0;
    for (const Link &l : design.links())
        if (l.a == id || l.b == id)
            used += l.lanes;
    return used;
}

namespace {

bool isScaleUpSwitch(const Node *n)
{
    return n && n->isSwitch() && n->role == SwitchRole::ScaleUp;
}

bool sameDomain(const Design &d, const Node &a, const Node &b)
{
    const Group *g = d.group(a.group);
    return g && g->kind == GroupKind::ScaleUpDomain && a.group == b.group;
}

// Link tech for `t` whose lane rate is closest to `rate`, from the design then the catalog.
const LinkTechSpec *techFor(const Design &d, const Catalog &c, Technology t, double rate)
{
    const LinkTechSpec *best = nullptr;
    for (const auto *table : {&d.hardware.linkTechs, &c.hardware.linkTechs})
        for (const auto &[key, spec] : *table)
            if (spec.technology == t
                && (!best || std::abs(spec.laneRate - rate) < std::abs(best->laneRate - rate)))
                best = &spec;
    return best;
}

const LinkTechSpec *techByKey(const Design &d, const Catalog &c, const std::string &key)
{
    if (auto it = d.hardware.linkTechs.find(key); it != d.hardware.linkTechs.end())
        return &it->second;
    if (auto it = c.hardware.linkTechs.find(key); it != c.hardware.linkTechs.end())
        return &it->second;
    return nullptr;
}

QString nodeName(const Node &n)
{
    return QString::fromStdString(n.name);
}

} // namespace

int nicsInUse(const Design &design, NodeId id)
{
    const Node *n = design.node(id);
    int used = 0;
    for (const Link &l : design.links())
        if (l.a == id || l.b == id) {
            const Node *o = design.node(l.other(id));
            if (o && !isScaleUpSwitch(o) && !sameDomain(design, *n, *o))
                ++used;
        }
    return used;
}

const ScaleUpPreset *presetOf(const Catalog &catalog, const Group *group)
{
    if (!group)
        return nullptr;
    auto it = catalog.scaleUpPresets.find(group->preset);
    return it == catalog.scaleUpPresets.end() ? nullptr : &it->second;
}

std::optional<Link> defaultLink(const Design &design, const Catalog &catalog, NodeId a, NodeId b,
                                LinkTechSpec *techOut, QString *error)
{
    const Node *na = design.node(a);
    const Node *nb = design.node(b);
    auto fail = [error](const QString &msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    if (!na || !nb)
        return fail(QObject::tr("Both ends of a link must exist."));
    if (a == b)
        return fail(QObject::tr("A link needs two different nodes."));

    const Node *acc = na->isAccelerator() ? na : (nb->isAccelerator() ? nb : nullptr);
    const ScaleUpPreset *preset = acc ? presetOf(catalog, design.group(acc->group)) : nullptr;
    const bool scaleUp = sameDomain(design, *na, *nb) || isScaleUpSwitch(na) || isScaleUpSwitch(nb);

    Link link;
    link.a = a;
    link.b = b;
    const LinkTechSpec *tech = nullptr;
    if (scaleUp) {
        tech = preset ? techByKey(design, catalog, preset->scaleUpTech) : nullptr;
        if (!tech)
            tech = techFor(design, catalog, Technology::NVLink, 0);
        if (preset && preset->scaleUpSwitches > 0 && acc && (na->isSwitch() || nb->isSwitch()))
            link.lanes = std::max(1, preset->lanesPerAccelerator / preset->scaleUpSwitches);
    } else {
        double rate = 0;
        Technology t = Technology::InfiniBand;
        for (const Node *n : {na, nb}) {
            if (const SwitchSpec *s = design.switchSpec(*n)) {
                t = s->technology;
                rate = rate == 0 ? s->portRate : std::min(rate, s->portRate);
            }
        }
        double nic = preset ? preset->nicRate : (design.generator ? design.generator->nicRate : 0);
        if (acc && nic > 0)
            rate = rate == 0 ? nic : std::min(rate, nic);
        tech = techFor(design, catalog, t, rate);
        if (tech && rate == 0)
            rate = tech->laneRate;
        link.rate = rate;
    }
    if (!tech)
        return fail(QObject::tr("No link technology in the catalog fits %1 and %2.")
                        .arg(nodeName(*na), nodeName(*nb)));
    link.tech = tech->key;
    if (link.rate == 0)
        link.rate = tech->laneRate;
    link.latency = tech->latency;

    for (const Node *n : {na, nb}) {
        if (const SwitchSpec *s = design.switchSpec(*n)) {
            const int used = portsInUse(design, n->id);
            if (s->radix > 0 && used + link.lanes > s->radix)
                return fail(QObject::tr("Switch %1 has no free port: %2 of %3 ports are in use.")
                                .arg(nodeName(*n))
                                .arg(used)
                                .arg(s->radix));
        } else if (n->isAccelerator() && !scaleUp) {
            const ScaleUpPreset *p = presetOf(catalog, design.group(n->group));
            const int nics = p ? p->nicsPerAccelerator : 1;
            const int used = nicsInUse(design, n->id);
            if (used + 1 > nics)
                return fail(QObject::tr("Accelerator %1 has no free NIC: %2 of %3 in use.")
                                .arg(nodeName(*n))
                                .arg(used)
                                .arg(nics));
        }
    }
    if (techOut)
        *techOut = *tech;
    return link;
}

Fragment buildDomain(const Design &design, const Catalog &catalog, const ScaleUpPreset &preset,
                     QPointF origin)
{
    Fragment f;
    std::uint32_t nextNode = design.nextNodeId();
    std::uint32_t nextLink = design.nextLinkId();
    Group g;
    g.id = GroupId(design.nextGroupId());
    g.kind = GroupKind::ScaleUpDomain;
    g.preset = preset.key;
    g.name = preset.name + " #" + std::to_string(g.id.value);
    const std::string prefix = "d" + std::to_string(g.id.value) + "-";

    for (int i = 0; i < preset.scaleUpSwitches; ++i) {
        Node n;
        n.id = NodeId(nextNode++);
        n.kind = NodeKind::Switch;
        n.role = SwitchRole::ScaleUp;
        n.spec = preset.scaleUpSwitch;
        n.group = g.id;
        n.name = prefix + "nvs" + std::to_string(i);
        f.nodes.push_back(n);
    }
    const auto firstAcc = f.nodes.size();
    for (int i = 0; i < preset.accelerators; ++i) {
        Node n;
        n.id = NodeId(nextNode++);
        n.spec = preset.accelerator;
        n.group = g.id;
        n.rail = i;
        n.name = prefix + "gpu" + std::to_string(i);
        f.nodes.push_back(n);
    }
    const LinkTechSpec *tech = techByKey(design, catalog, preset.scaleUpTech);
    auto addLink = [&](NodeId a, NodeId b, int lanes) {
        Link l;
        l.id = LinkId(nextLink++);
        l.a = a;
        l.b = b;
        l.tech = preset.scaleUpTech;
        l.lanes = std::max(1, lanes);
        l.rate = tech ? tech->laneRate : 0;
        l.latency = tech ? tech->latency : 0;
        f.links.push_back(l);
    };
    if (preset.scaleUpSwitches > 0) {
        const int lanes = preset.lanesPerAccelerator / preset.scaleUpSwitches;
        for (std::size_t i = firstAcc; i < f.nodes.size(); ++i)
            for (std::size_t s = 0; s < firstAcc; ++s)
                addLink(f.nodes[i].id, f.nodes[s].id, lanes);
    } else if (preset.accelerators > 1) { // full mesh (e.g. MI300X Infinity Fabric)
        const int lanes = preset.lanesPerAccelerator / (preset.accelerators - 1);
        for (std::size_t i = firstAcc; i < f.nodes.size(); ++i)
            for (std::size_t j = i + 1; j < f.nodes.size(); ++j)
                addLink(f.nodes[i].id, f.nodes[j].id, lanes);
    }
    for (const Node &n : f.nodes)
        g.members.push_back(n.id);
    f.groups.push_back(g);

    // Lay the members out with the canvas's domain grid (on a scratch design).
    Design scratch;
    scratch.addGroup(g);
    for (const Node &n : f.nodes)
        scratch.addNode(n);
    placeDomainMembers(scratch, g, origin);
    for (Node &n : f.nodes) {
        n.x = scratch.node(n.id)->x;
        n.y = scratch.node(n.id)->y;
    }
    for (const auto &[key, spec] : catalog.hardware.accelerators)
        if (key == preset.accelerator)
            f.hardware.accelerators[key] = spec;
    if (auto it = catalog.hardware.switches.find(preset.scaleUpSwitch);
        it != catalog.hardware.switches.end())
        f.hardware.switches[it->first] = it->second;
    if (tech)
        f.hardware.linkTechs[tech->key] = *tech;
    return f;
}

} // namespace weft
