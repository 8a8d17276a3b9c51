#include "findingtext.h"

#include <QStringList>

namespace weft::cli {

namespace {

constexpr std::size_t kShown = 8; // ids listed per subject list

// "nodes #4, #5, ... (16384 in all)"; `item` formats one entry.
template<class T, class F>
QString subjectList(const QString &what, const std::vector<T> &items, F item)
{
    QStringList parts;
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i)
        parts << item(items[i]);
    QString s = what.isEmpty()
        ? parts.join(QStringLiteral(", "))
        : QStringLiteral("%1 %2").arg(what, parts.join(QStringLiteral(", ")));
    if (items.size() > kShown)
        s += QStringLiteral(", ... (%1 in all)").arg(items.size());
    return s;
}

QString nodeName(const Design &d, NodeId id)
{
    const Node *n = d.node(id);
    return n && !n->name.empty() ? QString::fromStdString(n->name)
                                 : QStringLiteral("#%1").arg(id.value);
}

QString groupName(const Design &d, GroupId id)
{
    const Group *g = d.group(id);
    return g && !g->name.empty() ? QString::fromStdString(g->name)
                                 : QStringLiteral("#%1").arg(id.value);
}

/// A "node:<id>" / "group:<id>" subject by name; others as given ("stage:0", "link:12").
QString subjectText(const Design &d, const std::string &s)
{
    const auto colon = s.find(':');
    if (colon != std::string::npos) {
        bool ok = false;
        const uint id = QString::fromStdString(s.substr(colon + 1)).toUInt(&ok);
        const std::string kind = s.substr(0, colon);
        if (ok && kind == "node" && d.node(NodeId(id)))
            return QStringLiteral("node ") + nodeName(d, NodeId(id));
        if (ok && kind == "group" && d.group(GroupId(id)))
            return QStringLiteral("group ") + groupName(d, GroupId(id));
    }
    return QString::fromStdString(s);
}

} // namespace

QString describeFinding(const Finding &f, const Design &d)
{
    QStringList subjects;
    const auto noun = [](const auto &items, const char *one, const char *many) {
        return QLatin1String(items.size() == 1 ? one : many);
    };
    if (!f.nodes.empty())
        subjects << subjectList(noun(f.nodes, "node", "nodes"), f.nodes,
                                [&d](NodeId id) { return nodeName(d, id); });
    if (!f.links.empty()) // by id, as --fail link:ID names them
        subjects << subjectList(noun(f.links, "link", "links"), f.links,
                                [](LinkId id) { return QStringLiteral("#%1").arg(id.value); });
    if (!f.groups.empty())
        subjects << subjectList(noun(f.groups, "group", "groups"), f.groups,
                                [&d](GroupId id) { return groupName(d, id); });
    if (!f.subjects.empty())
        subjects << subjectList(QString(), f.subjects,
                                [&d](const std::string &s) { return subjectText(d, s); });
    QString line = QStringLiteral("%1 [%2] %3")
                       .arg(QLatin1String(toString(f.severity)), QString::fromStdString(f.code),
                            QString::fromStdString(f.message));
    if (!subjects.isEmpty())
        line += QStringLiteral(" (%1)").arg(subjects.join(QStringLiteral("; ")));
    return line;
}

FindingCounts countFindings(const std::vector<Finding> &findings)
{
    FindingCounts c;
    for (const Finding &f : findings)
        (f.severity == Severity::Error ? c.errors : c.warnings) += 1;
    return c;
}

QString countText(long long n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace weft::cli
