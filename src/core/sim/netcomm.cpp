#include "sim/netcomm.h"

#include "sim/collectivesmoe.h"

namespace weft {

namespace {

CollectiveKind kindOf(CollectiveOp op)
{
    switch (op) {
    case CollectiveOp::AllReduce:
        return CollectiveKind::AllReduce;
    case CollectiveOp::AllGather:
        return CollectiveKind::AllGather;
    case CollectiveOp::ReduceScatter:
        return CollectiveKind::ReduceScatter;
    case CollectiveOp::AllToAll:
    case CollectiveOp::MoeDispatch: // with the AllToAll dispatcher (the others: planMoe)
    case CollectiveOp::MoeCombine:
        return CollectiveKind::AllToAll;
    case CollectiveOp::SendRecv:
        return CollectiveKind::PointToPoint;
    }
    return CollectiveKind::AllReduce;
}

std::string tierOf(const Design &d, const Link &l)
{
    const Node *a = d.node(l.a);
    const Node *b = d.node(l.b);
    if (!a || !b)
        return "other";
    if (a->isAccelerator() && b->isAccelerator())
        return "scale-up";
    const Node *sw = a->isSwitch() ? a : b;
    const Node *other = sw == a ? b : a;
    if (other->isAccelerator())
        return sw->role == SwitchRole::ScaleUp ? "scale-up" : "nic";
    const SwitchRole hi = std::max(a->role, b->role);
    return toString(hi);
}

} // namespace

NetComm::NetComm(const Design &design, const NetworkOptions &options)
    : m_design(design)
    , m_net(std::make_unique<FlowNetwork>(design, options))
    , m_planner(std::make_unique<CollectivePlanner>(m_net->router()))
{
}

NetComm::~NetComm() = default;

const std::vector<Phase> &NetComm::plan(CollectiveOp op, double bytes,
                                        const std::vector<NodeId> &members, const MoeRouting &moe)
{
    const bool moeOp = op == CollectiveOp::MoeDispatch || op == CollectiveOp::MoeCombine;
    const bool hierarchical = moeOp && moe.dispatcher != MoeDispatcher::AllToAll;
    const long long route = hierarchical
        ? ((static_cast<long long>(moe.dispatcher) * 1024 + moe.topK) * 1024 + moe.maxNodes) * 65536
            + moe.experts
        : -1;
    auto key = std::make_tuple(static_cast<int>(op), bytes, route, members);
    auto it = m_plans.find(key);
    if (it != m_plans.end())
        return it->second;
    if (hierarchical)
        return m_plans
            .emplace(std::move(key),
                     planMoeHierarchical(m_net->router(), members, bytes, moe,
                                         op == CollectiveOp::MoeCombine))
            .first->second;
    CollectiveSpec spec;
    spec.kind = kindOf(op);
    spec.members = members;
    spec.bytes = bytes;
    return m_plans.emplace(std::move(key), m_planner->plan(spec).phases).first->second;
}

CommId NetComm::submit(const CommRequest &r, double t)
{
    std::vector<Phase> phases;
    for (const CollectiveCall &c : r.calls) {
        const double k = std::max(1, c.repeat);
        if (c.op == CollectiveOp::SendRecv) {
            // All pairs at once; the latency of the first pair's plan stands for all.
            Phase p;
            for (std::size_t i = 0; i + 1 < r.members.size(); i += 2)
                if (r.members[i] != r.members[i + 1])
                    p.flows.push_back(Flow {r.members[i], r.members[i + 1], c.bytes * k,
                                            i / 2 < r.pairRates.size()
                                                ? r.pairRates[i / 2]
                                                : std::numeric_limits<double>::infinity()});
            if (p.flows.empty())
                continue;
            const auto &first = plan(c.op, c.bytes, {p.flows.front().src, p.flows.front().dst});
            p.latency = first.empty() ? 0 : first.front().latency * k;
            phases.push_back(std::move(p));
            continue;
        }
        for (Phase p : plan(c.op, c.bytes, r.members, c.moe)) {
            for (Flow &f : p.flows)
                f.bytes *= k;
            p.latency *= k;
            phases.push_back(std::move(p));
        }
    }
    return m_net->submit(std::move(phases), t, r.tag >= 0 ? static_cast<JobTag>(r.tag) : kNoTag);
}

double NetComm::nextCompletionTime()
{
    return m_net->nextCompletionTime();
}

std::vector<CommId> NetComm::advanceTo(double t)
{
    const std::vector<JobId> done = m_net->advanceTo(t);
    return {done.begin(), done.end()};
}

std::vector<LinkResult> NetComm::linkResults(double stepTime)
{
    m_net->finish(std::max(stepTime, m_net->now()));
    std::vector<LinkResult> out;
    out.reserve(m_design.links().size());
    for (std::size_t i = 0; i < m_design.links().size(); ++i) {
        const Link &l = m_design.links()[i];
        LinkResult lr;
        lr.id = l.id;
        lr.from = l.a;
        lr.to = l.b;
        lr.tier = tierOf(m_design, l);
        lr.capacity = l.capacity();
        for (int d = 0; d < 2; ++d) {
            const LinkDirStats &s = m_net->linkStats(i, d);
            lr.dir[d] = {s.bytes, s.busyTime, s.averageUtilization, s.peakUtilization,
                         std::vector<float>(s.series.begin(), s.series.end())};
        }
        out.push_back(std::move(lr));
    }
    return out;
}

void NetComm::setMirrored(int tag)
{
    if (tag >= 0)
        m_net->setMirrored(static_cast<JobTag>(tag));
}

double NetComm::mirroredBytes(std::size_t linkIndex, int dir) const
{
    return m_net->mirroredBytes(linkIndex, dir);
}

std::vector<LinkId> NetComm::linksOfTag(int tag) const
{
    std::vector<LinkId> out;
    if (tag < 0)
        return out;
    for (std::uint32_t i : m_net->linksOfTag(static_cast<JobTag>(tag)))
        out.push_back(m_design.links()[i].id);
    return out;
}

} // namespace weft
