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
// pace of the slowest) carrying each edge's total bytes, after the latency of all steps: a step
// waits only for its predecessor's hop, so the latency is the protocol's base plus the hop
// latencies along the path (NCCL's tuning model, protocol.h). On a uniform ring of one hop
// latency h this gives exactly base + 2(n-1) h + 2(n-1)/n S/B x wire for an all-reduce.
//
// A ring uses one outgoing link per member. On a switchless mesh (a DGX-1 hybrid cube-mesh, 8
// MI300X over Infinity Fabric) the planner therefore runs several rings (NCCL channels) over
// distinct links (channels.h); on a full mesh the direct (all-pairs) algorithm is a candidate
// too: every member exchanges S/n with every peer over its own link, all links at once (see
// CollectivePlanner::direct).

#include "sim/network.h"
#include "sim/protocol.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
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
enum class CollectiveAlgorithm { Auto, Ring, Tree, Hierarchical, InNetwork, Direct, NvlsTree };

const char *toString(CollectiveKind k);
const char *toString(CollectiveAlgorithm a);
/// Parses "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "send_recv", "p2p",
/// "broadcast".
bool fromString(const std::string &s, CollectiveKind &out);
/// Parses "auto", "ring", "tree", "hierarchical", "nvls" / "in_network" / "sharp", "direct",
/// "nvls_tree".
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
    /// Decide algorithm and protocol as NCCL's tuner does (collectivestuning.h: NCCL's latency +
    /// bytes / bandwidth with its protocol refinements, over the simulated Simple bandwidth of
    /// each candidate) instead of by each candidate's full simulated time (latency, protocol
    /// wire factor and pipeline fill). What `weft-cli collective` and the nccl-tests validation
    /// use; training (NetComm) keeps the simulated-time decision.
    bool ncclTuner = false;
    /// Auto may take in-network reduction across domains (InfiniBand SHARP, NCCL's CollNet). On
    /// by default (training plans keep SHARP where the fabric has it); NCCL runs CollNet only with
    /// its plugin and NCCL_COLLNET_ENABLE=1, so `weft-cli collective` turns it off unless
    /// --collnet is given. NVLS inside one domain does not depend on it; an explicit
    /// algorithm is always run.
    bool collNet = true;
};

/// The phases of one collective and the algorithm used.
struct CollectivePlan
{
    std::vector<Phase> phases;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    /// Parallel rings (one per rail when the group spans domains, several over a switchless
    /// mesh), trees (two per NIC), or for the direct algorithm the links each member drives at
    /// once (n - 1); for point-to-point kinds, the flows at once.
    int channels = 1;
    /// NCCL protocol chosen (smallest estimated time; see protocol.h). The phases' flows carry
    /// its wire bytes (data x wireFactor) and their latencies its figures.
    Protocol protocol = Protocol::Simple;
    /// Planning detail: each phase's latency per protocol (base + hop latencies), seconds.
    std::vector<ProtocolTimes> latency;
    /// Planning detail: usable protocols, bit (1 << Protocol).
    unsigned protocols = 0b111;
    /// Planning detail: pipeline fill as a fraction of the bandwidth time (NVLS: two loops over
    /// the payload, nvlsFill; NVLS-Tree: one of the K loops the payload takes; hierarchical: the
    /// stages not overlapped by chunking), added as latency.
    double fill = 0;
    /// Planning detail: the tree all-reduce's size-dependent bandwidth factor applies
    /// (treeBandwidthFactor, protocol.h) to a payload of `bytes`.
    bool treeCorrection = false;
    double bytes = 0;
    /// Planning detail: the shortest bandwidth time the kernel allows per protocol, seconds
    /// (NVLS-Tree: the payload at NCCL's per-head busBw ceiling, nvlsTreeHeadBusBw; the tree
    /// across domains with LL128: its chunks crossing a network hop one per hop latency). What
    /// the simulated bandwidth time falls short of it is added as latency: the kernel paces the
    /// data, the links idle.
    ProtocolTimes minBandwidthTime {};
    /// Planning detail (NVLS-Tree): the pipeline's stages. The buffer goes in loops of
    /// `loopBytes`; a loop crosses the stages in turn, each stage (a set of flows, timed alone
    /// over the links) `count` times: the NVLS reduce and multicast, then each network hop of the
    /// tree up and down. The fill is what the first loop spends in the stages beyond the
    /// bottleneck's share (CollectivePlanner::priceStages). Cleared once priced.
    struct Stage
    {
        std::vector<Flow> flows;
        double count = 1;
        /// A network hop of the trees (NCCL's tuner prices NVLS-Tree by their flows up and
        /// down: its graph's heads x NIC rate).
        bool network = false;
        /// > 0: when every off-network stage is faster than the whole, the network is the
        /// bottleneck and this stage takes this share of the whole's time, unsimulated (the
        /// trees' upward flows load each full-duplex link direction as much as the downward
        /// ones the other: half).
        double shareWhenBottleneck = 0;
    };
    std::vector<Stage> stages;
    double loopBytes = 0;
};
inline constexpr unsigned kSimpleOnly = 1u << static_cast<unsigned>(Protocol::Simple);

/// Plans collectives on one design's topology. Auto picks, like NCCL's tuner, among NCCL's
/// algorithms (ring, tree, NVLS, NVLS-Tree, SHARP; direct on a full mesh, as RCCL's all-pairs) the
/// one with the smallest estimated time, estimated by simulating each candidate alone on the
/// fabric (cached by kind, size and members); hierarchical runs only when asked for (it is not
/// an NCCL algorithm). Not thread-safe.
class CollectivePlanner
{
public:
    explicit CollectivePlanner(const Router &router);
    ~CollectivePlanner();

    /// Auto picks the algorithm and, for every algorithm, the NCCL protocol of the smallest
    /// time: base + hop latencies + bandwidth time x wire factor (see protocol.h).
    /// Throws std::invalid_argument for fewer than two members, unknown nodes, negative sizes or
    /// an algorithm the group cannot use (in-network reduction without a capable switch, the
    /// direct algorithm outside a full mesh, any algorithm but auto/direct for all-to-all and
    /// send/recv, which NCCL runs as point-to-point sends);
    /// UnroutableError when members cannot reach each other.
    CollectivePlan plan(const CollectiveSpec &spec) const;
    /// Time of the collective alone on the fabric, seconds.
    double isolatedTime(const CollectiveSpec &spec) const;
    /// Time of a planned collective alone on the fabric, seconds.
    double isolatedTime(const CollectivePlan &plan) const { return simulate(plan.phases); }
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
    /// What a route crosses: NCCL's hardware class and the latency its links state beyond their
    /// technologies' figures (which NCCL's per-hop figures already include), seconds.
    struct Hop
    {
        HopClass cls = HopClass::NVLink;
        double extra = 0;
    };
    /// From the route's parts (Router::routeParts), each shared piece's Hop computed once.
    Hop hop(NodeId a, NodeId b) const;
    Hop hopOver(const std::vector<RouteEntry> &entries) const;
    ProtocolTimes edgeLatency(LatencyFamily f, NodeId a, NodeId b, bool multiDomain,
                              bool onePerDomain) const;
    ProtocolTimes maxEdgeLatency(LatencyFamily f, const std::vector<Flow> &flows,
                                 bool multiDomain) const;
    /// What NCCL's tuner sees of a group, as a hash: domains, ranks per domain, each member's
    /// rail and hardware (hardwareHash); groups of one shape share the auto decision.
    std::size_t shapeHash(const CollectiveSpec &spec, std::size_t cands) const;
    /// Hash of the accelerator at router node `index`: its model and the technology and
    /// capacity of each link it drives (two accelerators are the same hardware when these are
    /// equal, as for the simulator's replica symmetry); 0 for other nodes.
    std::size_t hardwareHash(int index) const;
    void finalize(CollectivePlan &plan, Protocol proto, double bandwidthTime) const;
    double timeWith(const CollectivePlan &plan, Protocol proto, double bandwidthTime) const;
    void ring(const Layout &lay, CollectiveKind kind, double bytes, CollectivePlan &plan) const;
    void direct(const Layout &lay, CollectiveKind kind, double bytes, CollectivePlan &plan) const;
    void tree(const Layout &lay, double bytes, CollectivePlan &plan) const;
    void hierarchical(const Layout &lay, double bytes, CollectivePlan &plan, bool sharp) const;
    std::pair<NodeId, double> reductionRoot(const std::vector<NodeId> &members) const;
    void inNetwork(const Layout &lay, double bytes, CollectivePlan &plan) const;
    std::vector<Flow> nvlsFlows(NodeId member, double bytes, double n) const;
    /// Whether `member` reaches a scale-up switch with in-network reduction (NVLS).
    bool nvlsCapable(NodeId member) const;
    void nvlsTree(const Layout &lay, double bytes, CollectivePlan &plan) const;
    /// Times each pipeline stage of `plan` alone (seconds per whole buffer) and sets its fill
    /// from them and its bandwidth time `bandwidthTime`; returns the stage times in order.
    std::vector<double> priceStages(CollectivePlan &plan, double bandwidthTime) const;

    const Router &m_router;
    mutable std::unique_ptr<FlowNetwork> m_scratch;
    struct Decision
    {
        CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
        Protocol protocol = Protocol::Simple;
        double bandwidthTime = 0; ///< isolated, Simple, without latency, s
        double fill = 0; ///< the plan's pipeline fill (CollectivePlan::fill)
    };
    Decision tunerDecision(const CollectiveSpec &spec,
                           const std::vector<CollectiveAlgorithm> &cands,
                           CollectivePlan &best) const;
    mutable std::map<std::tuple<int, double, std::size_t, std::size_t>, Decision> m_autoCache;
    mutable std::vector<std::size_t> m_hardware; ///< hardwareHash by router node index
    mutable RouteParts m_parts;
    mutable std::unordered_map<std::uint64_t, Hop> m_pieceHops;
};

/// Convenience for one-off use: plans `spec` on `design` (builds a Router).
std::vector<Phase> planCollective(const Design &design, const CollectiveSpec &spec);

} // namespace weft
