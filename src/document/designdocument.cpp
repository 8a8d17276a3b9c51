#include "document/designdocument.h"

#include "document/commands/movenodes.h"
#include "document/commands/scenariocommands.h"
#include "document/commands/structurecommands.h"
#include "document/commands/workloadcommands.h"
#include "document/fabricrules.h"
#include "document/faultedit.h"
#include "document/pastenames.h"
#include "document/tieredlayout.h"

#include <QFileInfo>

namespace weft {

DesignDocument::DesignDocument(const Catalog &catalog, QObject *parent)
    : QObject(parent)
    , m_catalog(catalog)
{
}

void DesignDocument::resetDesign(Design design)
{
    m_undo.clear();
    m_design = std::move(design);
    if (needsLayout(m_design))
        applyTieredLayout(m_design);
    m_selection = {};
    emit reset();
    emit selectionChanged();
    emit workloadChanged();
    emit scenarioChanged();
}

void DesignDocument::setFilePath(const QString &path)
{
    m_filePath = path;
    emit filePathChanged();
}

QString DesignDocument::displayName() const
{
    return m_filePath.isEmpty() ? tr("Untitled") : QFileInfo(m_filePath).fileName();
}

void DesignDocument::setSelection(IdSet selection)
{
    if (selection == m_selection)
        return;
    m_selection = std::move(selection);
    emit selectionChanged();
}

void DesignDocument::selectAll()
{
    IdSet all;
    for (const Node &n : m_design.nodes())
        all.nodes.insert(n.id);
    for (const Link &l : m_design.links())
        all.links.insert(l.id);
    for (const Group &g : m_design.groups())
        all.groups.insert(g.id);
    setSelection(std::move(all));
}

std::vector<NodeId> DesignDocument::selectedNodesForMove() const
{
    const Fragment closure = snapshotClosure(m_design, {m_selection.nodes, {}, m_selection.groups});
    std::vector<NodeId> ids;
    ids.reserve(closure.nodes.size());
    for (const Node &n : closure.nodes)
        ids.push_back(n.id);
    return ids;
}

IdSet DesignDocument::addFromCatalog(const CatalogItem &item, QPointF pos, GroupId into,
                                     QString *error)
{
    auto fail = [error](const QString &msg) {
        if (error)
            *error = msg;
        return IdSet {};
    };
    Fragment f;
    const HardwareTable &hw = m_catalog.hardware;
    QString text;
    switch (item.kind) {
    case CatalogItem::Kind::ScaleUpPreset: {
        auto it = m_catalog.scaleUpPresets.find(item.key);
        if (it == m_catalog.scaleUpPresets.end())
            return fail(
                tr("Unknown scale-up preset \"%1\".").arg(QString::fromStdString(item.key)));
        f = buildDomain(m_design, m_catalog, it->second, pos);
        text = tr("Add %1").arg(QString::fromStdString(it->second.name));
        break;
    }
    case CatalogItem::Kind::Accelerator:
    case CatalogItem::Kind::Switch: {
        const bool accel = item.kind == CatalogItem::Kind::Accelerator;
        Node n;
        n.id = NodeId(m_design.nextNodeId());
        n.kind = accel ? NodeKind::Accelerator : NodeKind::Switch;
        n.spec = item.key;
        n.x = pos.x();
        n.y = pos.y();
        if (accel) {
            auto it = hw.accelerators.find(item.key);
            if (it == hw.accelerators.end())
                return fail(
                    tr("Unknown accelerator \"%1\".").arg(QString::fromStdString(item.key)));
            f.hardware.accelerators[it->first] = it->second;
            n.name = "gpu" + std::to_string(n.id.value);
        } else {
            auto it = hw.switches.find(item.key);
            if (it == hw.switches.end())
                return fail(tr("Unknown switch \"%1\".").arg(QString::fromStdString(item.key)));
            f.hardware.switches[it->first] = it->second;
            n.role = it->second.technology == Technology::NVLink ? SwitchRole::ScaleUp : item.role;
            n.name = std::string(toString(n.role)) + "-" + std::to_string(n.id.value);
        }
        const Group *domain = m_design.group(into);
        if (accel && domain && domain->kind == GroupKind::ScaleUpDomain) {
            n.group = into;
            int rail = 0;
            for (const NodeId m : domain->members)
                if (const Node *mn = m_design.node(m); mn && mn->isAccelerator())
                    ++rail;
            n.rail = rail;
            n.name = domain->name + "-gpu" + std::to_string(rail);
            // Wire the new member to every scale-up switch of the domain (on a scratch copy, so
            // the port budgets see the links already planned).
            Design scratch = m_design;
            insertFragment(scratch, f);
            scratch.addNode(n);
            std::uint32_t nextLink = m_design.nextLinkId();
            for (const NodeId m : domain->members) {
                const Node *sw = scratch.node(m);
                if (!sw || !sw->isSwitch() || sw->role != SwitchRole::ScaleUp)
                    continue;
                LinkTechSpec tech;
                QString why;
                auto link = defaultLink(scratch, m_catalog, n.id, m, &tech, &why);
                if (!link)
                    return fail(why);
                link->id = LinkId(nextLink++);
                scratch.addLink(*link);
                f.links.push_back(*link);
                f.hardware.linkTechs[tech.key] = tech;
            }
            text = tr("Add %1 to %2")
                       .arg(QString::fromStdString(n.name), QString::fromStdString(domain->name));
        } else {
            text = tr("Add %1").arg(QString::fromStdString(n.name));
        }
        f.nodes.insert(f.nodes.begin(), n);
        break;
    }
    }
    keepOwnSpecs(f, m_design); // an edited custom entry: the new node gets the new figures
    const IdSet ids = f.ids();
    m_undo.push(new InsertObjects(this, std::move(f), text));
    setSelection(ids);
    return ids;
}

bool DesignDocument::connectNodes(NodeId a, NodeId b, QString *error)
{
    LinkTechSpec tech;
    auto link = defaultLink(m_design, m_catalog, a, b, &tech, error);
    if (!link)
        return false;
    link->id = LinkId(m_design.nextLinkId());
    Fragment f;
    f.links.push_back(*link);
    f.hardware.linkTechs[tech.key] = tech;
    const auto name = [this](NodeId id) { return QString::fromStdString(m_design.node(id)->name); };
    m_undo.push(
        new InsertObjects(this, std::move(f), tr("Connect %1 and %2").arg(name(a), name(b))));
    return true;
}

void DesignDocument::deleteSelection()
{
    if (m_selection.empty())
        return;
    Fragment snapshot = snapshotClosure(m_design, m_selection);
    const int count = int(snapshot.nodes.size() + snapshot.links.size());
    m_undo.beginMacro(tr("Delete %n object(s)", nullptr, count));
    // The faults of what goes go in the same step (first, so that undo brings them back after
    // their objects): a fault never names a missing object.
    IdSet dropped;
    Scenario kept = withoutFaultsOn(m_design, snapshot.ids(), &dropped);
    if (!dropped.empty())
        m_undo.push(new SetScenario(this, std::move(kept), dropped, tr("Drop faults")));
    m_undo.push(new RemoveObjects(this, std::move(snapshot), tr("Delete")));
    m_undo.endMacro();
}

Fragment DesignDocument::copySelection() const
{
    Fragment f = snapshotClosure(m_design, m_selection);
    // Copy keeps only links whose both ends are copied (a lone link cannot be pasted).
    std::erase_if(f.links, [&f](const Link &l) {
        const auto has = [&f](NodeId id) {
            return std::any_of(f.nodes.begin(), f.nodes.end(),
                               [id](const Node &n) { return n.id == id; });
        };
        return !has(l.a) || !has(l.b);
    });
    return f;
}

void DesignDocument::paste(const Fragment &fragment, double dx, double dy)
{
    if (fragment.empty())
        return;
    Fragment fresh = withFreshIds(fragment, m_design, dx, dy);
    keepOwnSpecs(fresh, m_design); // from another design: the pasted nodes keep their figures
    mintUniqueNames(fresh, m_design); // two "gpu57" would be ambiguous in findings and search
    const IdSet ids = fresh.ids();
    m_undo.beginMacro(tr("Paste %n node(s)", nullptr, int(fresh.nodes.size())));
    m_undo.push(new InsertObjects(this, std::move(fresh), tr("Paste")));
    m_undo.endMacro();
    setSelection(ids);
}

void DesignDocument::generateCluster(Design generated, const QString &undoText)
{
    if (needsLayout(generated))
        applyTieredLayout(generated);
    setSelection({});
    const QString text = undoText.isEmpty() ? tr("Generate cluster") : undoText;
    m_undo.beginMacro(text);
    m_undo.push(new ReplaceDesign(this, std::move(generated), text));
    m_undo.endMacro();
}

void DesignDocument::moveNodes(const std::vector<NodeId> &nodes, QPointF delta, int gesture)
{
    if (nodes.empty() || delta.isNull())
        return;
    m_undo.push(new MoveNodes(this, nodes, delta, gesture));
}

void DesignDocument::setWorkload(std::optional<Workload> workload, const QString &text)
{
    if (workload && !workload->placement.explicitMap.empty()
        && static_cast<long long>(workload->placement.explicitMap.size())
            != workload->config.worldSize())
        workload->placement.explicitMap.clear();
    m_undo.push(new SetWorkload(this, std::move(workload), text));
}

bool DesignDocument::autoMap(const std::string &order)
{
    if (!m_design.workload)
        return false;
    Workload w = *m_design.workload;
    w.placement.order = order;
    w.placement.explicitMap.clear();
    m_undo.push(new SetWorkload(this, std::move(w),
                                tr("Auto-map ranks (%1)").arg(QString::fromStdString(order))));
    return true;
}

std::optional<std::vector<NodeId>> DesignDocument::editableMap(QString *error) const
{
    std::optional<std::vector<NodeId>> map;
    if (m_design.workload)
        map = resolvedMap(m_design, *m_design.workload);
    if (!map && error)
        *error = m_design.workload
            ? tr("The workload has no valid placement: fix the parallel degrees first.")
            : tr("The design has no workload to place.");
    return map;
}

bool DesignDocument::placeGroup(const RankGroupRef &group, const std::vector<NodeId> &targets,
                                QString *error)
{
    auto map = editableMap(error);
    if (!map)
        return false;
    std::vector<Finding> findings;
    const RankMap rm(m_design, m_design.workload->config, m_design.workload->placement, findings);
    const std::vector<RankGroup> groups = rankGroups(rm, group.kind);
    if (group.index < 0 || group.index >= int(groups.size())) {
        if (error)
            *error = tr("There is no %1 group %2 in this workload.")
                         .arg(QString::fromLatin1(toString(group.kind)))
                         .arg(group.index);
        return false;
    }
    std::vector<NodeId> accelerators;
    for (const NodeId id : targets)
        if (const Node *n = m_design.node(id); n && n->isAccelerator())
            accelerators.push_back(id);
    if (placeRanks(*map, groups[std::size_t(group.index)].ranks, accelerators) == 0) {
        if (error)
            *error = accelerators.empty() ? tr("Drop the group onto accelerators or a domain.")
                                          : tr("The group already runs on those accelerators.");
        return false;
    }
    Workload w = *m_design.workload;
    w.placement.explicitMap = std::move(*map);
    m_undo.push(new SetWorkload(
        this, std::move(w),
        tr("Place %1 %2 on %n accelerator(s)", nullptr,
           int(std::min(accelerators.size(), groups[std::size_t(group.index)].ranks.size())))
            .arg(QString::fromLatin1(toString(group.kind)))
            .arg(group.index)));
    return true;
}

bool DesignDocument::swapRanks(NodeId a, NodeId b, QString *error)
{
    auto map = editableMap(error);
    if (!map)
        return false;
    const Node *na = m_design.node(a), *nb = m_design.node(b);
    if (!na || !nb || !na->isAccelerator() || !nb->isAccelerator()
        || !swapAccelerators(*map, a, b)) {
        if (error)
            *error = tr("Only two different accelerators, at least one holding a rank, can swap.");
        return false;
    }
    Workload w = *m_design.workload;
    w.placement.explicitMap = std::move(*map);
    m_undo.push(new SetWorkload(
        this, std::move(w),
        tr("Swap ranks of %1 and %2")
            .arg(QString::fromStdString(na->name), QString::fromStdString(nb->name))));
    return true;
}

bool DesignDocument::setFaults(const std::vector<Fault> &faults, QString *error)
{
    const auto refuse = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    IdSet targets;
    for (const Fault &fault : faults) {
        if (fault.kind == Fault::Kind::LinkRate || fault.kind == Fault::Kind::AcceleratorClock)
            if (!(fault.factor > 0) || fault.factor > 1)
                return refuse(tr("The fraction must be greater than 0 and at most 1."));
        if (fault.onLink()) {
            const Link *l = faultLink(m_design, fault);
            if (!l)
                return refuse(tr("There is no link %1 in the design.")
                                  .arg(QString::fromStdString(fault.target)));
            targets.links.insert(l->id);
            continue;
        }
        const Node *n = faultNode(m_design, fault);
        if (!n)
            return refuse(
                tr("There is no node %1 in the design.").arg(QString::fromStdString(fault.target)));
        if ((fault.kind == Fault::Kind::SwitchDown) != n->isSwitch())
            return refuse(
                fault.kind == Fault::Kind::SwitchDown
                    ? tr("%1 is not a switch.").arg(QString::fromStdString(n->name))
                    : tr("%1 is not an accelerator.").arg(QString::fromStdString(n->name)));
        targets.nodes.insert(n->id);
    }
    if (faults.empty())
        return true;
    Scenario after = withoutFaultsOn(m_design, targets);
    after.faults.insert(after.faults.end(), faults.begin(), faults.end());
    if (after == m_design.scenario)
        return true;
    const QString text = faults.size() == 1
        ? QString::fromStdString(faultDescription(m_design, faults.front()))
        : tr("%n faults", nullptr, int(faults.size()));
    m_undo.push(new SetScenario(this, std::move(after), targets, tr("What if: %1").arg(text)));
    return true;
}

bool DesignDocument::restoreFaults(const IdSet &ids)
{
    IdSet dropped;
    Scenario kept = withoutFaultsOn(m_design, ids, &dropped);
    if (dropped.empty())
        return false;
    m_undo.push(new SetScenario(this, std::move(kept), dropped,
                                tr("Restore %n object(s)", nullptr, int(dropped.size()))));
    return true;
}

bool DesignDocument::restoreAllFaults()
{
    if (m_design.scenario.empty())
        return false;
    m_undo.push(new SetScenario(this, {}, faultSubjects(m_design), tr("Restore all faults")));
    return true;
}

void DesignDocument::setCollapsed(GroupId group, bool collapsed)
{
    setCollapsed(std::set<GroupId> {group}, collapsed);
}

void DesignDocument::setCollapsed(const std::set<GroupId> &groups, bool collapsed)
{
    IdSet ids;
    for (const GroupId id : groups)
        if (Group *g = m_design.group(id); g && g->collapsed != collapsed) {
            g->collapsed = collapsed;
            ids.groups.insert(id);
        }
    if (!ids.groups.empty())
        emit changed(ids); // one signal: the canvas updates once for all of them
}

void DesignDocument::notifyAdded(const IdSet &ids)
{
    emit added(ids);
}

void DesignDocument::notifyRemoved(const IdSet &ids)
{
    emit removed(ids);
    pruneSelection();
}

void DesignDocument::notifyChanged(const IdSet &ids)
{
    emit changed(ids);
}

void DesignDocument::notifyReset()
{
    emit reset();
    pruneSelection();
    emit workloadChanged();
    emit scenarioChanged();
}

void DesignDocument::notifyWorkloadChanged()
{
    emit workloadChanged();
}

void DesignDocument::notifyScenarioChanged(const IdSet &ids)
{
    IdSet touched = ids; // with the ends of faulted links: a collapsed domain says what it hides
    for (const LinkId id : ids.links)
        if (const Link *l = m_design.link(id))
            touched.nodes.insert({l->a, l->b});
    if (!touched.empty())
        emit changed(touched); // the canvas redraws the objects, the Properties dock their state
    emit scenarioChanged();
}

void DesignDocument::pruneSelection()
{
    IdSet kept;
    for (const NodeId id : m_selection.nodes)
        if (m_design.node(id))
            kept.nodes.insert(id);
    for (const LinkId id : m_selection.links)
        if (m_design.link(id))
            kept.links.insert(id);
    for (const GroupId id : m_selection.groups)
        if (m_design.group(id))
            kept.groups.insert(id);
    setSelection(std::move(kept));
}

} // namespace weft
