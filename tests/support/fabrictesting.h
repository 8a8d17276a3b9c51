#pragma once
// Helpers of the fabric-generator tests: DGX H100 parameters, generation with the test
// catalog, graph counts (switches per role, ports per switch, lanes between tiers) and the
// checks on error messages and their suggested fixes.

#include "testcatalog.h"
#include "testcluster.h"

#include <QStringList>
#include <QtTest>
#include <map>
#include <set>

namespace weft::test {

using namespace Qt::StringLiterals;

inline FabricParams dgxH100(int domains, int tiers = 2, double ratio = 1.0)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.fabric = FabricKind::RailOptimized;
    p.tiers = tiers;
    p.switchModel = "qm9700";
    p.nicRate = 400e9 / 8;
    p.oversubscription = ratio;
    p.planes = 1;
    p.suSize = 32;
    return p;
}

/// The design generated from `p` with the test catalog (empty, with a warning, on failure).
inline Design generate(const FabricParams &p)
{
    return generateCluster(p, testCatalog()).design;
}

inline std::size_t countRole(const Design &d, SwitchRole role)
{
    std::size_t c = 0;
    for (const Node &n : d.nodes())
        c += n.isSwitch() && n.role == role;
    return c;
}

/// Ports (lanes) used at every switch, and the lanes of every link between two roles.
struct Usage
{
    std::map<NodeId, int> ports;
    std::map<std::pair<int, int>, std::multiset<int>> lanesBetween; ///< by (lower, upper) level
};

inline int level(const Node &n)
{
    return n.isAccelerator() ? -1 : static_cast<int>(n.role);
}

inline Usage usage(const Design &d)
{
    Usage u;
    for (const Link &l : d.links()) {
        const Node *a = d.node(l.a);
        const Node *b = d.node(l.b);
        if (a->isSwitch())
            u.ports[a->id] += l.lanes;
        if (b->isSwitch())
            u.ports[b->id] += l.lanes;
        const int la = level(*a), lb = level(*b);
        u.lanesBetween[{std::min(la, lb), std::max(la, lb)}].insert(l.lanes);
    }
    return u;
}

constexpr int kAcc = -1, kUp = 0, kLeaf = 1, kSpine = 2, kCore = 3;

/// Every switch uses at most its radix (the port budget the generator promised).
inline bool withinRadix(const Design &d)
{
    for (const auto &[id, ports] : usage(d).ports) {
        const Node *n = d.node(id);
        if (ports > d.switchSpec(*n)->radix) {
            qWarning("%s uses %d ports", n->name.c_str(), ports);
            return false;
        }
    }
    return true;
}

inline const Node *byName(const Design &d, const std::string &name)
{
    for (const Node &n : d.nodes())
        if (n.name == name)
            return &n;
    return nullptr;
}

inline bool anyErrorContains(const std::vector<std::string> &errors, const QStringList &parts)
{
    for (const std::string &e : errors) {
        const QString s = QString::fromStdString(e);
        bool all = true;
        for (const QString &p : parts)
            all = all && s.contains(p);
        if (all)
            return true;
    }
    return false;
}

/// Applies the "use --flag value ..." suggestion ending the last error to `p`; false if none.
inline bool applySuggestion(const std::vector<std::string> &errors, FabricParams &p)
{
    const std::string &e = errors.back();
    const std::size_t at = e.rfind("; use --");
    if (at == std::string::npos)
        return false;
    const QStringList words = QString::fromStdString(e.substr(at + 6)).split(u' ');
    for (qsizetype i = 0; i + 1 < words.size(); i += 2) {
        const QString &flag = words[i];
        const std::string value = words[i + 1].toStdString();
        if (flag == u"--switch"_s)
            p.switchModel = value;
        else if (flag == u"--fabric"_s)
            fromString(value, p.fabric);
        else if (flag == u"--tiers"_s)
            p.tiers = std::stoi(value);
        else if (flag == u"--su-size"_s)
            p.suSize = std::stoi(value);
        else
            return false;
    }
    return true;
}

} // namespace weft::test
