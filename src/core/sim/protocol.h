#pragma once
// NCCL's protocols and latency figures (simulator.md, Communication: Protocols).
//
// NCCL moves data with one of three protocols, chosen per call by message size:
//  - LL (low latency): 16-byte stores of 8 data bytes + flags, each store its own small packet
//    (on NVLink a 16-byte payload carries a 16-byte header): a quarter of the wire carries data,
//    NCCL's ring LL factor for all-reduce (busBw x 1/4, tuning.cc of NCCL 2.4-2.8);
//  - LL128: 128-byte lines of 120 data bytes + flag words (NVLink; NCCL's factor 0.92);
//  - Simple: bulk copies with a fence and flag per chunk; full bandwidth, the largest latency.
// Time of one collective with protocol p: base(algorithm, p) + the hop latencies along its path
// + its bandwidth time x wireFactor(p).
//
// Constants (microseconds) are NCCL's published tuning model, src/graph/tuning.cc of NCCL 2.19-2.23
// (baseLat, hwLat, getNetOverhead, the LL intra-node factor 1.8 for multi-node rings), read, not
// copied; bandwidth factors are NCCL's busBw refinements for ring LL (x1/4) and LL128 (x0.92).
// NVLS pipeline figures: NCCL_NVLS_NCHANNELS 16 (src/transport/nvls.cc) and NVLS chunk 128 KiB.

#include <array>
#include <vector>

namespace weft {

enum class Protocol { LL, LL128, Simple };
inline constexpr int kProtocolCount = 3;
const char *toString(Protocol p);

/// What a hop crosses, as NCCL's tuning model classes it: NVLink (any scale-up fabric), PCIe, or
/// the network (a NIC and scale-out switches).
enum class HopClass { NVLink, PCI, Net };

/// NCCL algorithm families with their own latency figures (NvlsTree: NCCL_ALGO_NVLS_TREE, NVLS
/// inside each node and a tree across nodes).
enum class LatencyFamily { Ring, Tree, Nvls, NvlsTree };

/// Per-protocol values (indexed by Protocol), seconds.
using ProtocolTimes = std::array<double, kProtocolCount>;

/// NCCL's base latency of an algorithm family (one launch and completion), seconds
/// (tuning.cc baseLat: Ring 6.6 / 14 / 8.4 us, Tree 6.8 / 14 / 8.4 us; NVLS 0).
ProtocolTimes baseLatency(LatencyFamily f);

/// NCCL's latency of one hop of `cls` for family `f`, seconds (tuning.cc hwLat, e.g. Ring over
/// NVLink 0.6 / 1.9 / 3.4 us, over the network 2.7 / 4.0 / 14 us; NVLS over NVLink 25 us and
/// over the network 18 us, NVLS-Tree 25 and 20.9 us, Simple only). `multiDomain`: the group spans
/// several scale-up domains, where NCCL charges an NVLink LL hop x1.8 and every intra-node ring hop
/// at least the network post overhead (1 us; 3 us with Simple).
ProtocolTimes hopLatency(LatencyFamily f, HopClass cls, bool multiDomain);

/// Wire bytes per data byte of each protocol: LL 4, LL128 1/0.92, Simple 1 (tuning.cc).
double wireFactor(Protocol p);

/// NCCL's NVLS heads in one domain: one per member, at most NCCL_MAX_NVLS_ARITY 32 (NCCL
/// v2.26.2 src/graph/search.cc l.975, device.h l.181).
double nvlsHeads(double ranks);

/// NCCL's NVLS chunk per channel and head, bytes (enqueue.cc calcCollChunking, NVLS branch: the
/// same from v2.18.5 l.1338-1345 to v2.28.3; v2.26.2 l.1877-1887): NCCL_NVLS_CHUNKSIZE 128 KiB
/// (transport/nvls.cc l.149), shrunk for buffers short against the `ops` = `channels` x `heads`
/// chunks in flight at once: 64 KiB below 64 x ops x chunk bytes, 32 KiB below 8 x ops x chunk,
/// 16 KiB below 2 x ops x chunk.
double nvlsChunkBytes(double bytes, double heads, int channels);

/// NCCL's NVLS loop inside one domain, bytes: every channel moves one chunk (nvlsChunkBytes) per
/// head (nvlsHeads of `ranks`).
double nvlsLoopBytes(double bytes, double ranks, int channels);

/// NCCL's single-domain NVLS all-reduce pipeline fill, as a fraction of the bandwidth time: a
/// loop passes three stages one after the other (device/all_reduce.h, v2.26.2 l.388-480,
/// RunWorkColl<AllReduce, NVLS, Simple>: the scatter warps copy it into the heads' NVLS buffers,
/// the reduce warps reduce it in the switch and multicast the result, the gather warps copy it
/// out), each a loop's bandwidth time, so a call pays two loops beyond its bandwidth time, a
/// buffer shorter than a loop two of its own: 2 min(loop, bytes) / bytes. (Until issue 15
/// session 5: one loop of 16 channels x ranks x 128 KiB whatever the size, 16 MiB on 8 GPUs,
/// which priced NVLS at 1-2 MiB at ~90 us where NCCL 2.18.5 ran 1 MiB in 42 us.)
double nvlsFill(double bytes, double ranks, int channels);

/// NCCL's NVLS channels: NVLS_NCHANNELS_SM90 16 on Hopper, NVLS_NCHANNELS_SM100 32 from
/// Blackwell on (transport/nvls.cc of NCCL v2.26.2, l.144-145).
int nvlsChannels(bool blackwell);

/// NCCL's NVLS-Tree chunk per channel and head, bytes (enqueue.cc calcCollChunking, v2.26.2
/// l.1888-1900): NCCL_NVLS_CHUNKSIZE 128 KiB (transport/nvls.cc l.149), at most 64 KiB from 4
/// nodes on (NCCL_NVLSTREE_MAX_CHUNKSIZE's default), then shrunk for small buffers against the
/// `ops` = `channels` x `heads` chunks in flight at once: 128 KiB below 16 x ops x chunk bytes,
/// 64 KiB below 4 x ops x chunk, 32 KiB below 1 x ops x chunk.
double nvlsTreeChunkBytes(double bytes, double heads, int nodes, int channels = 16);

/// NCCL's NVLS-Tree loop, bytes: every channel (nvlsChannels) moves one chunk
/// (nvlsTreeChunkBytes) per head (one head per NIC); a loop is what one stage of the pipeline
/// (NVLS scatter/reduce, a network hop of the tree, NVLS multicast/gather) holds at a time.
double nvlsTreeLoopBytes(double bytes, double heads, int nodes, int channels = 16);

/// NCCL's tree LL128 chunk per channel, data bytes (enqueue.cc calcCollChunking, v2.26.2): the
/// LL128 step (the buffer of 120 elements x 640 threads x 8 B per each of NCCL_STEPS 8,
/// init.cc l.607; l.1859) x 15/16 data per 128-byte line (l.1864), halved while
/// floor(bytes / (channels x chunk)) < steps x 64 / ppn above 128 KiB, then while < steps x 16 /
/// ppn above 32 KiB, steps = 1 + log2(nodes) + 0.1 ppn (l.1904-1909), aligned down to the LL128
/// grain of 1,920 B (l.1925; device.h l.289). `ppn`: ranks per node.
double treeLl128ChunkBytes(double bytes, int channels, int nodes, double ppn);

/// Bandwidth factor of NCCL's tree all-reduce: 0.92 (tuning.cc, tree all-reduce busBw x .92) x,
/// for medium sizes, NCCL's statement that trees do not reach its bandwidth model between 4 KiB
/// and 256 MiB: a static table per protocol and power-of-two size (src/graph/tuning.cc,
/// treeCorrectionFactor, NCCL 2.19-2.27: Simple 0.5 at 512 KiB-4 MiB, 0.7 at 32 MiB, 0.9 at
/// 128 MiB; 1 from 512 MiB up). The tree's bandwidth time is divided by it.
double treeBandwidthFactor(Protocol p, double bytes);

/// NCCL's static correction of the tree all-reduce's bandwidth for medium sizes, by protocol and
/// power-of-two size (src/graph/tuning.cc treeCorrectionFactor, v2.26.2 l.524-528): the factor
/// of floor(log2(bytes / 64)) for 64 B..256 MiB, 1 outside. Dimensionless.
double treeCorrectionFactor(Protocol p, double bytes);

/// Element-wise sum, scaling, maximum and sum of a list of per-protocol times.
ProtocolTimes operator+(ProtocolTimes a, const ProtocolTimes &b);
ProtocolTimes scaled(ProtocolTimes a, double k);
ProtocolTimes maxOf(ProtocolTimes a, const ProtocolTimes &b);
ProtocolTimes sumOf(const std::vector<ProtocolTimes> &hops);

/// Latency of `steps` ring steps over a ring whose edges (in ring order) have latencies
/// `hops`: rank i's step k waits only for its predecessor's step k-1, so the last piece of data
/// arrives after the largest sum of `steps` consecutive edge latencies (each full turn adds all
/// of them, the rest is the worst window). A uniform ring of hop h: steps x h.
ProtocolTimes ringPathLatency(const std::vector<ProtocolTimes> &hops, double steps);

/// NCCL's send/recv uses LL up to 16 KiB (NCCL_P2P_LL_THRESHOLD), Simple above.
Protocol pointToPointProtocol(double bytes);

} // namespace weft
