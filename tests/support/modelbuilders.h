#pragma once
// Terse constructors of model objects for tests (designated initialisers would trip
// -Wmissing-field-initializers under WEFT_WERROR).

#include "model/design.h"

#include <string>

namespace weft::test {

inline Node accel(std::string name, std::string spec, GroupId group = {})
{
    Node n;
    n.kind = NodeKind::Accelerator;
    n.name = std::move(name);
    n.spec = std::move(spec);
    n.group = group;
    return n;
}

inline Node switchNode(std::string name, std::string spec, GroupId group = {},
                       SwitchRole role = SwitchRole::Leaf)
{
    Node n;
    n.kind = NodeKind::Switch;
    n.name = std::move(name);
    n.spec = std::move(spec);
    n.group = group;
    n.role = role;
    return n;
}

/// A link of `lanes` lanes at `rateBytes` bytes/s per lane and direction.
inline Link link(NodeId a, NodeId b, std::string tech, double rateBytes, int lanes = 1)
{
    Link l;
    l.a = a;
    l.b = b;
    l.tech = std::move(tech);
    l.rate = rateBytes;
    l.lanes = lanes;
    return l;
}

inline Group group(std::string name, GroupKind kind = GroupKind::ScaleUpDomain, GroupId parent = {})
{
    Group g;
    g.name = std::move(name);
    g.kind = kind;
    g.parent = parent;
    return g;
}

inline AcceleratorSpec acceleratorSpec(std::string key)
{
    AcceleratorSpec s;
    s.key = std::move(key);
    return s;
}

inline SwitchSpec switchSpec(std::string key, int radix)
{
    SwitchSpec s;
    s.key = std::move(key);
    s.radix = radix;
    return s;
}

inline LinkTechSpec linkTechSpec(std::string key, double laneRateBytes)
{
    LinkTechSpec s;
    s.key = std::move(key);
    s.laneRate = laneRateBytes;
    return s;
}

} // namespace weft::test
