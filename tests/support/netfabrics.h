#pragma once
// Hand-made graphs for network and collective tests that no generator makes (a uniform ring for
// closed forms, two nodes and a link, a switch added to a generated cluster): nodes, links and
// link technologies by hand. Clusters come from the generator (testcluster.h).

#include "model/design.h"

#include <string>
#include <vector>

namespace weft::test {

/// Adds a link and returns its index in Design::links().
inline std::size_t addTestLink(Design &d, NodeId a, NodeId b, const std::string &tech, double rate,
                               int lanes = 1, double latency = 0)
{
    Link l;
    l.a = a;
    l.b = b;
    l.tech = tech;
    l.rate = rate;
    l.lanes = lanes;
    l.latency = latency;
    d.addLink(l);
    return d.links().size() - 1;
}

inline NodeId addTestNode(Design &d, NodeKind kind, const std::string &name, GroupId group = {},
                          SwitchRole role = SwitchRole::Leaf, int rail = -1, std::string spec = {})
{
    Node n;
    n.kind = kind;
    n.name = name;
    n.group = group;
    n.role = role;
    n.rail = rail;
    n.spec = std::move(spec);
    return d.addNode(n);
}

/// A test link technology with the given efficiency and per-step latency.
inline void addTestTech(Design &d, const std::string &key, double efficiency, double latency,
                        Technology t = Technology::NVLink)
{
    LinkTechSpec s;
    s.key = key;
    s.name = key;
    s.technology = t;
    s.efficiency = efficiency;
    s.latency = latency;
    d.hardware.linkTechs[key] = s;
}

/// n accelerators in one scale-up domain joined in a ring by direct links of `rate` bytes/s;
/// `accelerator` names their spec (the caller adds it to the design's hardware).
inline Design uniformRing(int n, double rate, double alpha, const std::string &accelerator = {})
{
    Design d;
    addTestTech(d, "ring", 1.0, alpha);
    Group g;
    g.name = "ring";
    const GroupId gid = d.addGroup(g);
    std::vector<NodeId> acc;
    for (int i = 0; i < n; ++i)
        acc.push_back(addTestNode(d, NodeKind::Accelerator, "gpu" + std::to_string(i), gid,
                                  SwitchRole::Leaf, i, accelerator));
    for (int i = 0; i < n; ++i)
        addTestLink(d, acc[static_cast<std::size_t>(i)], acc[static_cast<std::size_t>((i + 1) % n)],
                    "ring", rate);
    return d;
}

} // namespace weft::test
