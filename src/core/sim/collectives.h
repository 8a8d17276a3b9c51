#pragma once
// Collective algorithms as phases of point-to-point flows (simulator.md, Communication:
// Algorithms; Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication
// Operations in MPICH", IJHPCA 2005; NCCL's ring, tree and NVLS algorithms; RCCL's all-pairs
// algorithms on switchless meshes).
//
// Sizes follow nccl-tests: `bytes` is the per-rank buffer of an all-reduce or broadcast, the
// per-rank total output of an all-gather, the per-rank total input of a reduce-scatter or
// all-to-all, and the message of a send/recv.
//
// Rings are simulated in steady state: one coupled phase (all ring edges in lock-step at the
// pace of the slowest) carrying each edge's total bytes, after the latency of all steps. On a
// uniform ring this gives exactly 2(n-1) alpha + 2(n-1)/n S/B for an all-reduce.
//
// A ring uses one outgoing link per member. On a switchless full mesh (every two members joined
// by their own link, e.g. 8 MI300X over Infinity Fabric) that is 1/(n-1) of the hardware, so
// there the direct (all-pairs) algorithm is a candidate too: every member exchanges S/n with
// every peer over its own link, all links at once (see CollectivePlanner::direct).

#include "sim/network.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace weft {

enum class CollectiveKind {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    SendRecv,
    PointToPoint,
    Broadcast
};
enum class CollectiveAlgorithm { Auto, Ring, Tree, Hierarchical, InNetwork, Direct };

const char *toString(CollectiveKind k);
const char *toString(CollectiveAlgorithm a);
/// Parses "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv", "p2p",
/// "broadcast".
bool fromString(const std::string &s, CollectiveKind &out);
/// Parses "auto", "ring", "tree", "hierarchical", "nvls" / "in_network" / "sharp", "direct".
bool fromString(const std::string &s, CollectiveAlgorithm &out);

/// nccl-tests bus-bandwidth factor: busbw = algbw x factor; 2(n-1)/n for all-reduce, (n-1)/n
/// for all-gather, reduce-scatter and all-to-all, 1 otherwise (nccl-tests doc/PERFORMANCE.md).
double busBandwidthFactor(CollectiveKind kind, std::size_t ranks);

/// One collective over `members` (accelerators, in rank order).
struct CollectiveSpec
{
    CollectiveKind kind = CollectiveKind::AllReduce;
    std::vector<NodeId> members;
    double bytes = 0; ///< see the size convention above
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;
};

/// The phases of one collective and the algorithm used.
struct CollectivePlan
{
    std::vector<Phase> phases;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    /// Parallel rings (one per rail when the group spans domains); for the direct algorithm,
    /// the links each member drives at once (n - 1).
    int channels = 1;
};

/// Plans collectives on one design's topology. Auto picks, like NCCL's tuner, the algorithm
/// with the smallest estimated time, estimated by simulating each candidate alone on the fabric
/// (cached by kind, size and members). Not thread-safe.
class CollectivePlanner
{
public:
    explicit CollectivePlanner(const Router &router);
    ~CollectivePlanner();

    /// Throws std::invalid_argument for fewer than one member, unknown nodes, negative sizes or
    /// an algorithm the group cannot use (in-network reduction without a capable switch, the
    /// direct algorithm outside a full mesh);
    /// UnroutableError when members cannot reach each other.
    CollectivePlan plan(const CollectiveSpec &spec) const;
    /// Time of the collective alone on the fabric, seconds.
    double isolatedTime(const CollectiveSpec &spec) const;
    /// Algorithms usable for this spec (Auto excluded).
    std::vector<CollectiveAlgorithm> candidates(const CollectiveSpec &spec) const;
    /// Whether `members` (3 or more) form a switchless full mesh: the route between every two
    /// of them crosses only links joining those two (no switch, no third accelerator).
    /// Cheap for groups that are not: stops at the first member missing a direct neighbour.
    bool fullMesh(const std::vector<NodeId> &members) const;

private:
    struct Layout;
    Layout layout(const std::vector<NodeId> &members) const;
    CollectivePlan build(const CollectiveSpec &spec, CollectiveAlgorithm algo) const;
    double simulate(const std::vector<Phase> &phases) const;
    double stepLatency(const std::vector<Flow> &flows) const;
    void ring(const Layout &lay, CollectiveKind kind, double bytes, CollectivePlan &plan) const;
    void direct(const Layout &lay, CollectiveKind kind, double bytes, CollectivePlan &plan) const;
    void tree(const Layout &lay, double bytes, CollectivePlan &plan) const;
    void hierarchical(const Layout &lay, double bytes, CollectivePlan &plan, bool sharp) const;
    std::pair<NodeId, double> reductionRoot(const std::vector<NodeId> &members) const;
    void inNetwork(const Layout &lay, double bytes, CollectivePlan &plan) const;

    const Router &m_router;
    mutable std::unique_ptr<FlowNetwork> m_scratch;
    mutable std::map<std::tuple<int, double, std::size_t, std::size_t>, CollectiveAlgorithm>
        m_autoCache;
};

/// Convenience for one-off use: plans `spec` on `design` (builds a Router).
std::vector<Phase> planCollective(const Design &design, const CollectiveSpec &spec);

} // namespace weft
