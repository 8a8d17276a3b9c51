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

template<class IdT> QString idList(const char *one, const char *many, const std::vector<IdT> &ids)
{
    return subjectList(QLatin1String(ids.size() == 1 ? one : many), ids,
                       [](IdT id) { return QStringLiteral("#%1").arg(id.value); });
}

} // namespace

QString describeFinding(const Finding &f)
{
    QStringList subjects;
    if (!f.nodes.empty())
        subjects << idList("node", "nodes", f.nodes);
    if (!f.links.empty())
        subjects << idList("link", "links", f.links);
    if (!f.groups.empty())
        subjects << idList("group", "groups", f.groups);
    if (!f.subjects.empty())
        subjects << subjectList(QString(), f.subjects,
                                [](const std::string &s) { return QString::fromStdString(s); });
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
