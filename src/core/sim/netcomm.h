#pragma once
// The flow-level communication backend of the simulator: requests become collective plans
// (collectives.h: ring, tree, hierarchical, in-network, all-to-all, p2p; Auto as NCCL's tuner)
// whose flows share the fabric by max-min fairness in a FlowNetwork (network.h).

#include "sim/collectives.h"
#include "sim/comm.h"
#include "sim/network.h"
#include "sim/result.h"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace weft {

class NetComm : public CommBackend
{
public:
    NetComm(const Design &design, const NetworkOptions &options);
    ~NetComm() override;

    /// A call repeated k times is planned once and its bytes and latencies scaled by k (the same
    /// time as k back-to-back copies at the rates the flows get). Throws UnroutableError and
    /// std::invalid_argument from the planner.
    CommId submit(const CommRequest &r, double t) override;
    double nextCompletionTime() override;
    std::vector<CommId> advanceTo(double t) override;

    /// Closes the statistics at `stepTime` and returns one entry per link of the design.
    std::vector<LinkResult> linkResults(double stepTime);
    /// Links crossed by the requests tagged `tag`.
    std::vector<LinkId> linksOfTag(int tag) const;
    /// Counts the bytes of requests tagged `tag` apart (FlowNetwork::setMirrored).
    void setMirrored(int tag);
    /// Bytes per direction of link `linkIndex` (index in Design::links()) of mirrored requests.
    [[nodiscard]] double mirroredBytes(std::size_t linkIndex, int dir) const;

private:
    const std::vector<Phase> &plan(CollectiveOp op, double bytes,
                                   const std::vector<NodeId> &members, const MoeRouting &moe = {});

    const Design &m_design;
    std::unique_ptr<FlowNetwork> m_net;
    std::unique_ptr<CollectivePlanner> m_planner;
    /// Plans by (op, bytes, MoE routing of hierarchical dispatchers or -1, members).
    std::map<std::tuple<int, double, long long, std::vector<NodeId>>, std::vector<Phase>> m_plans;
};

} // namespace weft
