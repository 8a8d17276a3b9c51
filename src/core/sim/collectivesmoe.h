#pragma once
// Expert-parallel token dispatch and combine (simulator.md, Communication: MoE; issue 14) as the
// chosen dispatcher moves them.
//
// One MoE layer's dispatch sends each of a rank's T tokens to the ranks holding its top-k
// experts; the combine returns the expert outputs the same way back. `bytes` is what one rank
// sends as an all-to-all would: T x k x bytes per token (FP8 dispatch, BF16 combine), so the
// rank's tokens are X = bytes / k bytes.
//  - AllToAll (Megatron-Core "alltoall"): NCCL all-to-all of the duplicated tokens (S/n to every
//    peer), planned by CollectivePlanner.
//  - DeepEP normal kernels (deepseek-ai/DeepEP, docs/legacy.md and its intranode/internode
//    kernels): every token is sent once per destination domain, over RDMA to the same-rail GPU
//    there (its own domain: to itself), which forwards it over NVLink once to each of that
//    domain's GPUs holding one of its experts. Inside one domain, once to each such GPU.
//  - HybridEP (NVIDIA Megatron-Core's dispatcher for multi-node NVLink): the same hierarchy with
//    the whole NVLink domain (an NVL72 rack) as the domain; RDMA only across racks.
// Routing is uniform top-k over E experts spread evenly on the n ranks (E = 0: many experts,
// drawn independently), node-limited to M of the D domains (DeepSeek-V3's group-limited gating,
// DeepEP's num_topk_groups): a token picks M domains, then its k experts among theirs. A token
// reaches domain b with probability P_dom = M/D (1 - miss(E M/D, E/D)) and rank r with
// P_rank = M/D (1 - miss(E M/D, E/n)), miss(N, K) = C(N-K, k)/C(N, k) (hypergeometric).
// Flows, all in one coupled phase (the kernels pipeline RDMA and NVLink chunk by chunk):
// g -> same-rail GPU h of domain b != own: X P_dom; h -> each other GPU r of its domain:
// (sum over the rail's ranks in all domains) X P_rank; inside one domain g -> r: X P_rank.
// Combine: the same flows reversed.

#include "sim/collectives.h"
#include "sim/comm.h"

#include <vector>

namespace weft {

/// Expected traffic of one dispatch per rank (probabilities as above).
struct MoeTraffic
{
    int domains = 1; ///< D: scale-up domains the group spans
    int ranks = 0; ///< n
    double domainHit = 1; ///< P_dom: probability that a token goes to a given domain
    double rankHit = 1; ///< P_rank: probability that a token goes to a given rank
    /// DeepEP's "bottleneck bandwidth" numerators per rank, in units of X (a rank's tokens):
    /// RDMA: tokens x domains reached (its own included); NVLink: tokens received x ranks.
    [[nodiscard]] double rdmaTokens() const { return domains * domainHit; }
    [[nodiscard]] double nvlinkTokens() const { return ranks * rankHit; }
};

/// DeepEP V1 normal kernels move NVLink data with the SMs they are given (20-24): 0.83 of the
/// NVLink rate NCCL reaches. Calibrated on DeepEP's EP8 row (docs/legacy.md: 153/158 GB/s
/// dispatch/combine on H800, whose NVLink DeepEP puts at ~160 GB/s); EP16/32/64 check it.
inline constexpr double kDeepEpNvlinkEfficiency = 0.83;

/// DeepEP V1's NVLink kernels address at most 8 peers (NUM_MAX_NVL_PEERS); a group with more
/// ranks in one NVLink domain (EP32 inside a GB200 NVL72 rack) runs the community multi-node
/// NVLink extension (deepseek-ai/DeepEP PR 218), which the Megatron-LM guide "Optimizing
/// DeepSeek-V3 Training Performance on NVIDIA GB200 NVL72" (sec. 2.2.1) measures at about
/// 400 GB/s dispatch and 190 GB/s combine algorithm bandwidth per rank with 24 SMs (EP32,
/// GB200): bound by the kernels, far below the 900 GB/s the NVLink carries. These are the
/// received bytes per rank per second those kernels sustain (bytes/s), applied as a cap on
/// every rank's NVLink traffic of such a domain. HybridEP and NCCL are not limited this way.
inline constexpr int kDeepEpMaxNvlinkPeers = 8;
inline constexpr double kDeepEpMnnvlDispatchRate = 400e9;
inline constexpr double kDeepEpMnnvlCombineRate = 190e9;

/// Across scale-up domains of at most 8 GPUs (HGX/DGX servers), DeepEP's internode normal kernels
/// and HybridEP forward the tokens that arrive over RDMA to the server's other GPUs with the SMs
/// they are given, at about 140 GB/s received per rank whatever the NVLink generation: DeepEP's
/// EP16 row on H800 (docs/legacy.md: 43 GB/s RDMA, which its benchmark's routing makes ~141 GB/s
/// NVLink), DeepEP on 2 H200 servers (deepseek-ai/DeepEP issue 493: dispatch 133.8 GB/s BF16 and
/// 124.9 FP8, combine 145.2 GB/s NVLink, "normal on 2 nodes") and HybridEP on 2 HGX B300
/// (issue 590: dispatch kernel 149.2, combine 136.0 GB/s NVLink), against 450-900 GB/s of NVLink.
/// Applied as a cap on every rank's NVLink traffic when the group spans several such domains
/// (bytes/s received per rank); inside one server DeepEP's intranode kernels reach the NVLink
/// (kDeepEpNvlinkEfficiency; DeepEP issue 16: 337 GB/s on H20).
inline constexpr double kHierarchicalForwardRate = 140e9;

/// Expected routing of `routing` over `members` (their domains from `router`).
/// Throws std::invalid_argument for topK < 1, more experts per token than experts, or a node
/// limit below 0.
MoeTraffic moeTraffic(const Router &router, const std::vector<NodeId> &members,
                      const MoeRouting &routing);

/// The phases of one MoE dispatch (combine: `combine`) of `bytes` per rank by a hierarchical
/// dispatcher (DeepEP or HybridEP; AllToAll is planned as an all-to-all by CollectivePlanner).
/// Latency: the largest NCCL point-to-point hop latency among its flows (Simple).
std::vector<Phase> planMoeHierarchical(const Router &router, const std::vector<NodeId> &members,
                                       double bytes, const MoeRouting &routing, bool combine);

/// One dispatch (or combine) alone on the fabric, with DeepEP's benchmark figures
/// (tests/legacy/test_internode.py: bytes over the kernel time, per rank): RDMA = the rank's
/// tokens x the domains they reach (its own included) x bytes per token / t; NVLink = tokens
/// received x bytes per token / t. DeepEP reports NVLink inside one domain, RDMA across.
struct MoeBenchmark
{
    double bytes = 0; ///< per rank, as CollectiveCall::bytes
    double seconds = 0;
    double rdmaBandwidth = 0; ///< bytes/s
    double nvlinkBandwidth = 0; ///< bytes/s
    bool rdmaBound = false; ///< the group spans several domains (DeepEP's "RDMA" column)
};

/// Simulates one MoE dispatch (`combine`: combine) of `bytes` per rank over `members` on
/// `router`'s fabric with `routing` (AllToAll: NCCL all-to-all). Throws std::invalid_argument
/// (see moeTraffic / planMoeHierarchical) and UnroutableError.
MoeBenchmark benchmarkMoe(const Router &router, const std::vector<NodeId> &members, double bytes,
                          const MoeRouting &routing, bool combine);

} // namespace weft
