#pragma once
// The schedule's view of the network: it submits communication requests (collectives of a group
// of accelerators, or point-to-point pairs) at simulated times and learns when each completes.
// The real backend (netcomm.h) expands them into flows on the fabric's max-min network; tests
// may plug an analytic one. Units: seconds, bytes.

#include "model/ids.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace weft {

/// MoeDispatch / MoeCombine: the expert-parallel token exchange of one MoE layer (forward
/// dispatch of the routed tokens to their experts' ranks, and the combine that returns them),
/// carried as the chosen `MoeDispatcher` moves it.
enum class CollectiveOp {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    SendRecv,
    MoeDispatch,
    MoeCombine
};

/// How expert-parallel tokens move (Megatron-Core --moe-token-dispatcher-type): NCCL all-to-all
/// with its permutes ("alltoall"), DeepEP's hierarchical normal kernels (RDMA to the destination
/// node's same-rail GPU, then NVLink forwarding; node-limited routing), or HybridEP (NVIDIA's
/// dispatcher for multi-node NVLink domains such as NVL72, and RDMA across them).
enum class MoeDispatcher { AllToAll, DeepEP, HybridEP };

/// Routing facts a MoE dispatch/combine needs beyond its byte count.
struct MoeRouting
{
    MoeDispatcher dispatcher = MoeDispatcher::AllToAll;
    int topK = 1; ///< experts per token
    int maxNodes = 0; ///< node-limited routing: each token to at most M nodes (0: no limit)
    /// Routed experts of the EP group, spread evenly over its ranks (0: many; the k experts of
    /// a token are then drawn independently). DeepSeek-V3: 256.
    int experts = 0;
};

/// One collective of `bytes` (nccl-tests size: the full buffer) repeated `repeat` times back to
/// back. For SendRecv, `bytes` is per pair. For MoeDispatch / MoeCombine, `bytes` is what one
/// rank sends as an all-to-all would (its tokens x topK x bytes per token in the datatype of that
/// direction: FP8 dispatch, BF16 combine), uniformly routed over the group's experts.
struct CollectiveCall
{
    CollectiveOp op = CollectiveOp::AllReduce;
    double bytes = 0;
    int repeat = 1;
    MoeRouting moe {};
};

/// What the schedule asks of the network. Collectives: `members` is the group in rank order.
/// SendRecv: `members` holds pairs [src0, dst0, src1, dst1, ...], all sent concurrently.
/// The calls run one after the other; the request completes after the last.
struct CommRequest
{
    std::vector<NodeId> members;
    std::vector<CollectiveCall> calls;
    int tag = 0; ///< caller's label (e.g. traffic class), passed through
    /// SendRecv only: a rate cap per pair (members[2i] -> members[2i+1]), bytes/s (+inf:
    /// none); empty for none. Backends without rate caps may ignore it.
    std::vector<double> pairRates;
};

using CommId = std::uint64_t;

/// A network that completes requests in simulated time. Implementations must be deterministic.
class CommBackend
{
public:
    virtual ~CommBackend() = default;
    /// Submits `r` at time `t` (>= the last time advanced to). Throws std::runtime_error with a
    /// clear message when the request cannot be carried (e.g. an unroutable pair).
    virtual CommId submit(const CommRequest &r, double t) = 0;
    /// Earliest completion among the requests in flight; +infinity when none.
    [[nodiscard]] virtual double nextCompletionTime() = 0;
    /// Advances the clock to `t` and returns the requests completed at or before `t`.
    virtual std::vector<CommId> advanceTo(double t) = 0;

    static constexpr double kNever = std::numeric_limits<double>::infinity();
};

} // namespace weft
