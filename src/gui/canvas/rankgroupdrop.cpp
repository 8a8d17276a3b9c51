#include "gui/canvas/rankgroupdrop.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"

#include <QDataStream>
#include <QIODevice>
#include <unordered_set>

namespace weft {

std::unique_ptr<QMimeData> rankGroupMimeData(const RankGroupRef &group)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << int(group.kind) << group.index;
    auto mime = std::make_unique<QMimeData>();
    mime->setData(QString::fromLatin1(kRankGroupMime), bytes);
    return mime;
}

std::optional<RankGroupRef> rankGroupFrom(const QMimeData *mime)
{
    if (!mime || !mime->hasFormat(QString::fromLatin1(kRankGroupMime)))
        return std::nullopt;
    QDataStream in(mime->data(QString::fromLatin1(kRankGroupMime)));
    int kind = 0, index = 0;
    in >> kind >> index;
    if (in.status() != QDataStream::Ok || kind < 0 || kind > int(RankGroupKind::ExpertDp)
        || index < 0)
        return std::nullopt;
    return RankGroupRef {RankGroupKind(kind), index};
}

std::vector<NodeId> groupDropTargets(const TopologyScene &scene, QPointF scenePos)
{
    const DesignDocument *doc = scene.document();
    const Design &d = doc->design();
    const CanvasHit hit = scene.hitAt(scenePos, 0);
    const IdSet &sel = doc->selection();
    const bool onSelection = (hit.node.valid() && sel.nodes.count(hit.node))
        || (hit.group.valid() && sel.groups.count(hit.group));
    std::unordered_set<NodeId> chosen;
    if (onSelection) {
        chosen.insert(sel.nodes.begin(), sel.nodes.end());
        for (const GroupId g : sel.groups)
            if (const Group *group = d.group(g))
                chosen.insert(group->members.begin(), group->members.end());
    } else {
        GroupId domain = hit.group;
        if (!domain.valid() && hit.node.valid())
            domain = d.node(hit.node)->group;
        if (const Group *group = d.group(domain); group && group->kind == GroupKind::ScaleUpDomain)
            chosen.insert(group->members.begin(), group->members.end());
        else if (hit.node.valid())
            chosen.insert(hit.node);
    }
    std::vector<NodeId> targets;
    for (const NodeId id : acceleratorsInOrder(d)) // placement order: domain, then rail
        if (chosen.count(id))
            targets.push_back(id);
    return targets;
}

} // namespace weft
