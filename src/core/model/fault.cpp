#include "model/fault.h"

#include "model/design.h"

#include <charconv>
#include <cstdio>

namespace weft {

std::string faultFactorText(double factor)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", factor);
    return buf;
}

std::string Fault::label() const
{
    switch (kind) {
    case Kind::LinkDown:
        return "link:" + target;
    case Kind::CableDown:
        return "cable:" + target;
    case Kind::SwitchDown:
        return "switch:" + target;
    case Kind::LinkRate:
        return "link:" + target + "@" + faultFactorText(factor);
    case Kind::AcceleratorClock:
        return "gpu:" + target + "@" + faultFactorText(factor);
    }
    return {};
}

std::string Scenario::label() const
{
    std::string s;
    for (const Fault &f : faults)
        s += (s.empty() ? "" : ",") + f.label();
    return s.empty() ? "healthy" : s;
}

const Link *faultLink(const Design &d, const Fault &f)
{
    const std::string &t = f.target;
    std::uint32_t id = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), id);
    return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size() ? d.link(LinkId(id))
                                                                             : nullptr;
}

const Node *faultNode(const Design &d, const Fault &f)
{
    const std::string &t = f.target;
    if (t.size() > 1 && t[0] == '#') {
        std::uint32_t id = 0;
        const auto r = std::from_chars(t.data() + 1, t.data() + t.size(), id);
        return r.ec == std::errc() && r.ptr == t.data() + t.size() ? d.node(NodeId(id)) : nullptr;
    }
    for (const Node &n : d.nodes())
        if (n.name == t)
            return &n;
    return nullptr;
}

std::string faultTarget(LinkId id)
{
    return std::to_string(id.value);
}

std::string faultTarget(NodeId id)
{
    return "#" + std::to_string(id.value);
}

} // namespace weft
