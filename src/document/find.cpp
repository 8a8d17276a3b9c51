#include "document/find.h"

namespace weft {

IdSet findObjects(const Design &design, const QString &query)
{
    IdSet out;
    const QString q = query.trimmed();
    if (q.isEmpty())
        return out;
    if (q.startsWith(QLatin1Char('#')) || q.startsWith(QLatin1String("id:"))) {
        bool ok = false;
        const uint id = q.mid(q.startsWith(QLatin1Char('#')) ? 1 : 3).toUInt(&ok);
        if (ok && design.node(NodeId(id)))
            out.nodes.insert(NodeId(id));
        return out;
    }
    if (q.startsWith(QLatin1String("kind:"))) {
        const std::string kind = q.mid(5).trimmed().toLower().toStdString();
        if (kind == "domain") {
            for (const Group &g : design.groups())
                if (g.kind == GroupKind::ScaleUpDomain)
                    out.groups.insert(g.id);
            return out;
        }
        SwitchRole role;
        const bool isRole = fromString(kind, role);
        for (const Node &n : design.nodes())
            if ((kind == "accelerator" && n.isAccelerator()) || (kind == "switch" && n.isSwitch())
                || (isRole && n.isSwitch() && n.role == role))
                out.nodes.insert(n.id);
        return out;
    }
    for (const Node &n : design.nodes())
        if (QString::fromStdString(n.name).contains(q, Qt::CaseInsensitive))
            out.nodes.insert(n.id);
    for (const Group &g : design.groups())
        if (QString::fromStdString(g.name).contains(q, Qt::CaseInsensitive))
            out.groups.insert(g.id);
    return out;
}

} // namespace weft
