#include "model/validate.h"

#include "model/linkrates.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace weft {

namespace {

// Readable name of a node for messages: `switch "leaf-3" (#12)`.
std::string describe(const Node &n)
{
    std::ostringstream s;
    s << (n.isAccelerator() ? "accelerator" : "switch");
    if (!n.name.empty())
        s << " \"" << n.name << "\"";
    s << " (#" << n.id.value << ")";
    return s.str();
}

std::string describe(const Group &g)
{
    std::ostringstream s;
    s << toString(g.kind) << " group";
    if (!g.name.empty())
        s << " \"" << g.name << "\"";
    s << " (#" << g.id.value << ")";
    return s.str();
}

/// "link #12 (gpu3 - leaf0)": its ends by name (by id when unnamed or missing).
std::string describeLink(const Design &d, const Link &l)
{
    const auto end = [&d](NodeId id) {
        const Node *n = d.node(id);
        return n && !n->name.empty() ? n->name : "#" + std::to_string(id.value);
    };
    return "link #" + std::to_string(l.id.value) + " (" + end(l.a) + " - " + end(l.b) + ")";
}

// Union-find over dense node indices (path halving, union by size).
class Components
{
public:
    explicit Components(std::size_t n)
        : m_parent(n)
        , m_size(n, 1)
    {
        std::iota(m_parent.begin(), m_parent.end(), std::size_t(0));
    }
    std::size_t find(std::size_t x)
    {
        while (m_parent[x] != x) {
            m_parent[x] = m_parent[m_parent[x]];
            x = m_parent[x];
        }
        return x;
    }
    void unite(std::size_t a, std::size_t b)
    {
        a = find(a);
        b = find(b);
        if (a == b)
            return;
        if (m_size[a] < m_size[b])
            std::swap(a, b);
        m_parent[b] = a;
        m_size[a] += m_size[b];
    }

private:
    std::vector<std::size_t> m_parent;
    std::vector<std::size_t> m_size;
};

class Validator
{
public:
    explicit Validator(const Design &d)
        : m_d(d)
    {
    }

    std::vector<Finding> run()
    {
        checkLinksAndPorts();
        checkNodeSpecs();
        checkConnectivity();
        checkGroups();
        checkNames();
        return finish();
    }

private:
    void add(const char *code, Severity sev, std::string message, std::vector<NodeId> nodes = {},
             std::vector<LinkId> links = {}, std::vector<GroupId> groups = {})
    {
        if (++m_counts[code] > kMaxFindingsPerCode)
            return;
        Finding f;
        f.severity = sev;
        f.code = code;
        f.message = std::move(message);
        f.nodes = std::move(nodes);
        f.links = std::move(links);
        f.groups = std::move(groups);
        m_out.push_back(std::move(f));
    }

    // Nodes sharing a name: what-if faults name switches and accelerators (--fail switch:NAME,
    // gpu:NAME@F), and so do findings and the canvas search, so a shared name is ambiguous.
    void checkNames()
    {
        std::unordered_map<std::string, std::vector<NodeId>> byName;
        for (const Node &n : m_d.nodes())
            if (!n.name.empty())
                byName[n.name].push_back(n.id);
        std::vector<std::pair<std::string, std::vector<NodeId>>> shared;
        for (auto &[name, ids] : byName)
            if (ids.size() > 1)
                shared.emplace_back(name, std::move(ids));
        std::sort(shared.begin(), shared.end());
        for (auto &[name, ids] : shared)
            add("duplicate-node-name", Severity::Warning,
                std::to_string(ids.size()) + " nodes are named \"" + name
                    + "\": a fault or search by that name is ambiguous (rename them)",
                std::move(ids));
    }

    // Dense index of a node, or npos when the id names no node.
    std::size_t indexOf(NodeId id) const
    {
        const Node *n = m_d.node(id);
        return n ? static_cast<std::size_t>(n - m_d.nodes().data()) : npos;
    }

    void checkLinksAndPorts()
    {
        const auto &nodes = m_d.nodes();
        m_lanes.assign(nodes.size(), 0);
        for (const Link &l : m_d.links()) {
            const std::size_t ia = indexOf(l.a), ib = indexOf(l.b);
            if (ia == npos || ib == npos) {
                std::string which = ia == npos ? "node #" + std::to_string(l.a.value) : "";
                if (ib == npos)
                    which
                        += (which.empty() ? "" : " and ") + ("node #" + std::to_string(l.b.value));
                add(findings::kDanglingLink, Severity::Error,
                    describeLink(m_d, l) + " ends at " + which + ", which does not exist", {},
                    {l.id});
            } else if (ia == ib) {
                add(findings::kSelfLink, Severity::Error,
                    describeLink(m_d, l) + " connects " + describe(nodes[ia]) + " to itself", {l.a},
                    {l.id});
            }
            if (!(l.rate > 0) || !std::isfinite(l.rate)) {
                std::ostringstream s;
                s << describeLink(m_d, l) << " has lane rate " << l.rate * 8 / 1e9
                  << " Gb/s; it must be a positive number";
                add(findings::kBadRate, Severity::Error, s.str(), {}, {l.id});
            }
            if (l.lanes < 1)
                add(findings::kBadLanes, Severity::Error,
                    describeLink(m_d, l) + " has " + std::to_string(l.lanes)
                        + " lanes; it needs at least 1",
                    {}, {l.id});
            if (!(l.latency >= 0) || !std::isfinite(l.latency)) {
                std::ostringstream s;
                s << describeLink(m_d, l) << " has latency " << l.latency * 1e9
                  << " ns; it must be zero or positive";
                add(findings::kBadLatency, Severity::Error, s.str(), {}, {l.id});
            }
            if (!m_d.linkTech(l))
                add(findings::kUnknownLinkTech, Severity::Error,
                    describeLink(m_d, l) + " uses link technology \"" + l.tech
                        + "\", which is neither in the design's hardware table nor in the "
                          "catalog; add its spec to the file's \"hardware\" section or use a "
                          "catalog technology",
                    {}, {l.id});
            const long long lanes = std::max(l.lanes, 0);
            if (ia != npos)
                m_lanes[ia] += lanes;
            if (ib != npos)
                m_lanes[ib] += lanes; // a self link takes two ports of its node
        }
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const Node &n = nodes[i];
            if (!n.isSwitch())
                continue;
            if (m_lanes[i] == 0) {
                add(findings::kUnconnectedSwitch, Severity::Warning, describe(n) + " has no links",
                    {n.id});
                continue;
            }
            const SwitchSpec *spec = m_d.switchSpec(n);
            if (spec && m_lanes[i] > spec->radix)
                add(findings::kPortBudget, Severity::Error,
                    describe(n) + " uses " + std::to_string(m_lanes[i]) + " ports but its model "
                        + spec->key + " has " + std::to_string(spec->radix) + " ("
                        + std::to_string(m_lanes[i] - spec->radix) + " over)",
                    {n.id});
        }
    }

    void checkNodeSpecs()
    {
        for (const Node &n : m_d.nodes()) {
            const bool known = n.isAccelerator() ? m_d.acceleratorSpec(n) != nullptr
                                                 : m_d.switchSpec(n) != nullptr;
            if (!known)
                add(findings::kUnknownNodeSpec, Severity::Error,
                    describe(n) + " uses " + (n.isAccelerator() ? "accelerator" : "switch")
                        + " model \"" + n.spec
                        + "\", which is neither in the design's hardware table nor in the "
                          "catalog; add its spec to the file's \"hardware\" section or use a "
                          "catalog model",
                    {n.id});
        }
    }

    // Accelerators outside the connected part holding the most accelerators have no path to
    // the rest; one finding per such part.
    void checkConnectivity()
    {
        const auto &nodes = m_d.nodes();
        if (m_d.acceleratorCount() < 2)
            return;
        Components comps(nodes.size());
        for (const Link &l : m_d.links()) {
            const std::size_t ia = indexOf(l.a), ib = indexOf(l.b);
            if (ia != npos && ib != npos)
                comps.unite(ia, ib);
        }
        std::vector<std::size_t> accels(nodes.size(), 0); // accelerators per root
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].isAccelerator())
                ++accels[comps.find(i)];
        const std::size_t main = static_cast<std::size_t>(
            std::max_element(accels.begin(), accels.end()) - accels.begin());
        std::map<std::size_t, std::vector<NodeId>> parts; // root -> its accelerators, in order
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const std::size_t root = comps.find(i);
            if (nodes[i].isAccelerator() && root != main)
                parts[root].push_back(nodes[i].id);
        }
        // Report parts in the order of their first accelerator.
        std::vector<std::vector<NodeId> *> ordered;
        for (auto &[root, ids] : parts)
            ordered.push_back(&ids);
        std::sort(ordered.begin(), ordered.end(), [this](const auto *x, const auto *y) {
            return indexOf(x->front()) < indexOf(y->front());
        });
        for (std::vector<NodeId> *ids : ordered) {
            std::string first = describe(*m_d.node(ids->front()));
            std::string msg = ids->size() == 1 ? first + " has no path to the other accelerators"
                                               : std::to_string(ids->size()) + " accelerators ("
                    + first + " and others) have no path to the other accelerators";
            msg += " (the largest connected part has " + std::to_string(accels[main]) + ")";
            add(findings::kIsolated, Severity::Error, std::move(msg), std::move(*ids));
        }
    }

    void checkGroups()
    {
        const auto &nodes = m_d.nodes();
        const auto &groups = m_d.groups();
        std::vector<GroupId> listedIn(nodes.size()); // the group whose members list the node
        for (const Group &g : groups) {
            for (const NodeId m : g.members) {
                const std::size_t i = indexOf(m);
                if (i == npos) {
                    add(findings::kGroupMemberMissing, Severity::Error,
                        describe(g) + " lists member node #" + std::to_string(m.value)
                            + ", which does not exist",
                        {}, {}, {g.id});
                } else if (listedIn[i].valid()) {
                    add(findings::kGroupMemberTwice, Severity::Error,
                        describe(nodes[i]) + " is a member of " + describe(*m_d.group(listedIn[i]))
                            + " and of " + describe(g),
                        {m}, {}, {listedIn[i], g.id});
                } else {
                    listedIn[i] = g.id;
                }
            }
            if (g.parent.valid() && !m_d.group(g.parent))
                add(findings::kGroupParentMissing, Severity::Error,
                    describe(g) + " has parent group #" + std::to_string(g.parent.value)
                        + ", which does not exist",
                    {}, {}, {g.id});
        }
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const Node &n = nodes[i];
            if (n.group.valid() && !m_d.group(n.group))
                add(findings::kNodeGroupMissing, Severity::Error,
                    describe(n) + " belongs to group #" + std::to_string(n.group.value)
                        + ", which does not exist",
                    {n.id});
            else if (n.group != listedIn[i])
                add(findings::kGroupMismatch, Severity::Warning,
                    describe(n)
                        + (n.group.valid() ? " names group #" + std::to_string(n.group.value)
                                           : std::string(" names no group"))
                        + (listedIn[i].valid()
                               ? " but is listed in group #" + std::to_string(listedIn[i].value)
                               : std::string(" but no group lists it")),
                    {n.id}, {}, {listedIn[i].valid() ? listedIn[i] : n.group});
        }
        checkGroupCycles();
    }

    // Walks each group's parent chain once (white/grey/black marking): linear in groups.
    void checkGroupCycles()
    {
        const auto &groups = m_d.groups();
        const auto indexOfGroup = [this](GroupId id) {
            const Group *g = m_d.group(id);
            return g ? static_cast<std::size_t>(g - m_d.groups().data()) : npos;
        };
        enum : char { White, Grey, Black };
        std::vector<char> state(groups.size(), White);
        for (std::size_t start = 0; start < groups.size(); ++start) {
            std::vector<std::size_t> path;
            std::size_t i = start;
            while (i != npos && state[i] == White) {
                state[i] = Grey;
                path.push_back(i);
                i = indexOfGroup(groups[i].parent);
            }
            if (i != npos && state[i] == Grey) { // closed a new cycle: report its members
                std::vector<GroupId> cycle;
                auto it = std::find(path.begin(), path.end(), i);
                std::string names;
                for (; it != path.end(); ++it) {
                    cycle.push_back(groups[*it].id);
                    names += (names.empty() ? "" : " -> ") + describe(groups[*it]);
                }
                add(findings::kGroupCycle, Severity::Error,
                    "groups nest in a cycle: " + names + " -> " + describe(groups[i]), {}, {},
                    std::move(cycle));
            }
            for (std::size_t p : path)
                state[p] = Black;
        }
    }

    std::vector<Finding> finish()
    {
        for (const auto &[code, count] : m_counts)
            if (count > kMaxFindingsPerCode) {
                Finding f;
                f.severity = Severity::Warning;
                f.code = findings::kTooMany;
                f.message = std::to_string(count - kMaxFindingsPerCode) + " more \"" + code
                    + "\" findings are not listed";
                m_out.push_back(std::move(f));
            }
        std::stable_sort(m_out.begin(), m_out.end(), [](const Finding &a, const Finding &b) {
            return a.severity == Severity::Error && b.severity != Severity::Error;
        });
        return std::move(m_out);
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    const Design &m_d;
    std::vector<long long> m_lanes; // link lanes ending at each node (ports used)
    std::map<std::string, std::size_t> m_counts;
    std::vector<Finding> m_out;
};

} // namespace

std::vector<Finding> validateDesign(const Design &design)
{
    std::vector<Finding> out = Validator(design).run();
    std::vector<Finding> rates = checkLinkRates(design); // model/linkrates.h
    out.insert(out.end(), std::make_move_iterator(rates.begin()),
               std::make_move_iterator(rates.end()));
    std::stable_sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) {
        return a.severity == Severity::Error && b.severity != Severity::Error;
    });
    return out;
}

} // namespace weft
