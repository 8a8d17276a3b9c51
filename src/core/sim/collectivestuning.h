#pragma once
// NCCL's tuning model: the algorithm x protocol decision by message size (simulator.md,
// Communication: Protocols).
//
// NCCL estimates, for every algorithm (ring, tree, NVLS, NVLS-Tree, CollNet) and protocol (LL,
// LL128, Simple) it may use, time = latency + bytes / bandwidth and runs the smallest
// (src/graph/tuning.cc of NCCL v2.26.2: ncclTopoTuneModel builds the latency and bandwidth
// tables, l.197-520; ncclTopoGetAlgoTime evaluates one entry, l.530-546). This is that model,
// read and restated (not copied), with one difference: NCCL's per-algorithm bandwidth before its
// protocol refinements (its graph's nChannels x bwIntra / bwInter, l.250-253) is what Weft's flow
// simulation of the algorithm over the real links gives with Simple (`TunerOption::simpleAlgbw`),
// so the decision sees the design's links, not NCCL's search.
//
// The latency figures (baseLat, hwLat) are protocol.h's tables (baseLatency, hopLatency), the
// tree's medium-size factor protocol.h's treeCorrectionFactor; this file adds the bandwidth
// refinements (llMaxBws, the per-channel LL128 and tree caps, the protocol factors), NCCL's
// latency formulas per algorithm and the choice.

#include "sim/collectives.h"
#include "sim/protocol.h"

#include <string>
#include <vector>

namespace weft {

/// NCCL's algorithms as its tuner sees them (NCCL_ALGO_*). Weft's all-pairs (direct) algorithm
/// is modelled as a ring of `TunerOption::steps` steps; its in-network reduction is NCCL's NVLS
/// inside one domain and CollNet Direct across domains (reduce inside, SHARP across), which NCCL
/// enables only with CollNet support (tuning.cc l.414-417).
enum class NcclAlgorithm { Tree, Ring, CollNetDirect, Nvls, NvlsTree };

/// GPU generation, NCCL's compute-capability index of its per-generation tables (tuning.cc
/// l.145-148, 216: Volta, Ampere, Hopper, Blackwell).
enum class GpuGeneration { Volta, Ampere, Hopper, Blackwell };

/// Generation of a catalog accelerator key ("a100-80gb" Ampere, "h100-sxm"/"h200-sxm"/"h800-sxm"
/// Hopper, "b200"/"gb200"/"b300"/"gb300" Blackwell, "v100" Volta); anything else (e.g. MI300X,
/// which RCCL tunes with its own tables) is taken as Hopper.
GpuGeneration gpuGeneration(const std::string &acceleratorKey);

/// The communicator as NCCL's tuner sees it.
struct TunerTopology
{
    CollectiveKind kind = CollectiveKind::AllReduce;
    int ranks = 2; ///< nRanks
    int nodes = 1; ///< nNodes: scale-up domains the group spans
    GpuGeneration generation = GpuGeneration::Hopper;
    /// What a hop inside a node crosses (NCCL: the graph's typeIntra, NVLink or PCI, l.230).
    HopClass intra = HopClass::NVLink;
    /// CollNet (SHARP) usable: NCCL enables CollNet and multi-node NVLS only with a CollNet
    /// plugin and NCCL_COLLNET_ENABLE=1 (l.414-417); off is NCCL's default.
    bool collNet = false;
};

/// One algorithm the planner can run, with what the simulation says of it.
struct TunerOption
{
    NcclAlgorithm algorithm = NcclAlgorithm::Ring;
    /// Simulated algorithm bandwidth (bytes / time) with Simple, without latency, bytes/s.
    double simpleAlgbw = 0;
    /// Channels Weft runs (rings, trees); NCCL's per-channel caps use at least
    /// channelsNeeded() of them.
    int channels = 1;
    /// Usable protocols, bit (1 << Protocol) (NVLS, NVLS-Tree and CollNet: Simple only).
    unsigned protocols = 0b111;
    /// Ring steps of latency; < 0: NCCL's (2(n-1) for all-reduce, n-1 for all-gather and
    /// reduce-scatter, n otherwise, l.234-236).
    double steps = -1;
    /// `channels` are NCCL's graph channels (one per NIC across nodes): the per-channel caps
    /// use them as they are, not the count channelsNeeded() would raise them to.
    bool graphChannels = false;
    /// > 0: NCCL's busBw of the algorithm before its protocol refinements (its graph's nChannels
    /// x bw, tuning.cc l.250-253), bytes/s, used instead of simpleAlgbw / NCCL's algbw ratio.
    /// NVLS-Tree: its heads x NIC rate, halved beyond two nodes, which NCCL prices it by where
    /// the simulation may find NVLS inside the node the tighter bound.
    double ncclBusBw = 0;
};

/// NCCL's latency of `a` with protocol `p`, seconds (tuning.cc l.298-340), for a message of
/// `bytes` (the ring Simple plateau factor of ncclTopoGetAlgoTime, l.539-542, depends on it):
///  - ring all-reduce / all-gather / reduce-scatter: baseLat + (nsteps - nInterSteps) x
///    max(intraLat, network post overhead) + nInterSteps x interLat (l.316-324), nInterSteps =
///    2(nodes-1) for all-reduce, nodes-1 otherwise; x1.4 (Ampere+; Volta 1.9) for Simple
///    all-reduce over several nodes once bytes / (channels x ranks) >= 64 (l.539-542);
///  - ring broadcast: baseLat + nsteps x the hop figure (Simple: the tree's, l.308-314);
///  - tree all-reduce: baseLat + 2 ((ranks/nodes - 1) intraLat + log2(nodes) interLat) (l.328);
///  - CollNet Direct: 2 (min(1, ppn-1) intraLat + (ppn-1) x 0.4 us) + interLat (l.332-333);
///  - NVLS: intraLat, + interLat over several nodes (l.336-338; baseLat 0);
///  - NVLS-Tree: intraLat + 2 log2(nodes) interLat (l.340).
/// intraLat is hwLat[typeIntra][a][p]; interLat hwLat[NET][a][p], the tree's figure with one
/// rank per node (l.299-301); the graph's latencyInter is taken as 0 (InfiniBand).
double ncclLatency(const TunerTopology &topo, const TunerOption &opt, Protocol p, double bytes);

/// NCCL's channels for the per-channel caps: `opt.channels` when they are NCCL's graph channels
/// (TunerOption::graphChannels), else the larger of Weft's and the count NCCL's Simple
/// per-channel tree figure (perChMaxTreeBws, l.170-175) needs to carry `busBw` (GB/s).
int channelsNeeded(const TunerTopology &topo, const TunerOption &opt, double busBw);

/// NCCL's "plateau effect of ring": a Simple ring all-reduce across nodes takes 1.4 x (Volta
/// 1.9 x) its base + hop latencies once `bytes` / (`channels` x `ranks`) >= 64 (tuning.cc
/// ncclTopoGetAlgoTime, l.539-542). Dimensionless; 1 where it does not apply. Used by the
/// tuner's latency and by the planner's ring time alike.
double ringPlateauFactor(GpuGeneration g, CollectiveKind kind, int nodes, double bytes,
                         int channels, int ranks);

/// NCCL's algorithm bandwidth of `a` with protocol `p`, bytes/s (0: not usable), tuning.cc
/// l.250-297: the Simple busBw (simulated algbw / NCCL's algbw ratio: n/nsteps for rings, 5/6
/// for NVLS and NVLS-Tree, 1/2 otherwise, l.290-296) refined per protocol:
///  - ring LL: min(llMaxBw, busBw x 0.5) (l.256); ring LL128: min(busBw x 0.92, channels x
///    perChMaxRingLL128Bw) (l.257);
///  - tree all-reduce: min(busBw x 0.92, channels x perChMaxTreeBw) (l.258), then LL:
///    min(busBw / 3.8, llMaxBw) (l.259), LL128: min(busBw x (7/9 on one node, 120/128
///    otherwise), channels x perChMaxTreeLL128Bw) (l.260);
///  - CollNet Direct x0.85 from Hopper on (l.285);
/// then x the ratio back to algbw. llMaxBw (l.151-156): by GPU generation on one node (Volta
/// 39, Ampere 87.7, Hopper 141, Blackwell 282 GB/s), by CPU on several (Intel x86: 39 on two
/// nodes, 20.4 on more; the host CPU is not modelled, Intel assumed). LL128 needs NVLink inside
/// the node (l.429-430). Not applied: the tree-pattern x0.85 (l.261; NCCL's tree graphs on
/// NVSwitch servers use the balanced pattern) and PAT (one GPU per node only, l.182).
double ncclBandwidth(const TunerTopology &topo, const TunerOption &opt, Protocol p);

/// NCCL's measured ceiling of NVLS-Tree's busBw per channel, bytes/s, by GPU generation and the
/// nodes the group spans (perChMaxNVLSTreeBws, NCCL v2.28.3 src/graph/tuning.cc l.193-197, used
/// as min(intra, inter, this) per channel at l.297-299: Hopper 57.7 GB/s on two nodes, 45.5 on
/// more; Blackwell 96 / 80). NVLS-Tree's channels are its heads, one GPU per NIC of the node
/// (search.cc l.1014, l.1223: "NVLS channels aren't compute channels"), so the busBw of the whole
/// is at most heads x this. 0 where NCCL has no figure (one node; Volta and Ampere have no NVLS).
double nvlsTreeHeadBusBw(GpuGeneration g, int nodes);

/// NCCL's time of one option: latency + bytes / bandwidth, the bandwidth of a tree all-reduce
/// x treeCorrectionFactor (protocol.h) for 64 B..256 MiB (ncclTopoGetAlgoTime, l.530-546);
/// seconds, infinity when the protocol is not usable.
double ncclAlgoTime(const TunerTopology &topo, const TunerOption &opt, Protocol p, double bytes);

/// NCCL's decision: the option and protocol of the smallest ncclAlgoTime (ties: the first
/// option, then the faster protocol in LL, LL128, Simple order). `index` is into `options`;
/// -1 when none is usable. CollNet Direct and multi-node NVLS take part only with
/// `topo.collNet`; NVLS-Tree only over several nodes (l.411-417).
struct TunerChoice
{
    int index = -1;
    Protocol protocol = Protocol::Simple;
    double time = 0; ///< NCCL's model time, seconds
};
TunerChoice chooseNccl(const TunerTopology &topo, const std::vector<TunerOption> &options,
                       double bytes);

} // namespace weft
