#include "sim/collectivestuning.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace weft {

namespace {

constexpr double kUs = 1e-6;
constexpr double kGB = 1e9;

// All tables below: NCCL v2.26.2 src/graph/tuning.cc, GB/s, rows by GPU generation (Volta,
// Ampere, Hopper, Blackwell), columns one node / two nodes / more (index2, l.217).

// llMaxBws (l.151-156): the LL busBw cap. One node: the row of the GPU generation, column 0;
// several nodes: the row of the CPU (0 Intel, 1 AMD), columns 1-2.
constexpr double kLlMaxBw[4][3] = {
    {39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {2 * 141.0, 2 * 45.0, 2 * 35.0}};
// perChMaxRingLL128Bws (l.158-163): ring LL128 per channel.
constexpr double kRingLl128PerChannel[4][3]
    = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {2 * 36.7, 2 * 36.7, 2 * 36.7}};
// perChMaxTreeLL128Bws (l.164-169): tree LL128 per channel.
constexpr double kTreeLl128PerChannel[4][3]
    = {{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {2 * 36.7, 2 * 36.7, 2 * 29.0}};
// perChMaxTreeBws (l.170-175): tree (all protocols) per channel.
constexpr double kTreePerChannel[4][3]
    = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {2 * 38.7, 2 * 41.4, 2 * 36.0}};

// perChMaxNVLSTreeBws (NCCL v2.28.3 l.193-197), Hopper and Blackwell rows, columns two nodes /
// more (one node has no NVLS-Tree).
constexpr double kNvlsTreePerHead[2][2] = {{57.7, 45.5}, {96.0, 80.0}};

// hwLat of CollNet Direct (Simple only; l.132, 136, 140), us: NVLink, PCI, network. The other
// algorithms' figures are protocol.h's hopLatency table.
constexpr double kCollNetDirectHopUs[3] = {3.7, 3.7, 31.0};
// hwLat of NVLS-Tree over the network (l.141), us: 14 in NCCL 2.19-2.27, whose decisions this
// file restates; protocol.h's table (the simulated time) carries NCCL 2.29's re-measured 20.9.
constexpr double kNvlsTreeNetHopUs = 14.0;
// CollNet Direct's arity serialization latency per local rank (l.333), us.
constexpr double kCollNetArityUs = 0.4;
// getNetOverhead (l.190-195): 1 us per network post on Intel x86 (2 us AMD), x3 for Simple (l.320).
constexpr double kNetOverheadUs = 1.0;
// Ring Simple plateau factor over several nodes (l.539-542): x1.4 from Ampere on, x1.9 Volta.
constexpr double kRingPlateau = 1.4, kRingPlateauVolta = 1.9;

int at(Protocol p)
{
    return static_cast<int>(p);
}

int nodeColumn(const TunerTopology &t)
{
    return t.nodes <= 2 ? std::max(0, t.nodes - 1) : 2; // l.217
}

int log2Floor(int v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        ++l;
    }
    return l;
}

// NCCL's nsteps (l.234-236).
double defaultSteps(const TunerTopology &t)
{
    const double n = t.ranks;
    switch (t.kind) {
    case CollectiveKind::AllReduce:
        return 2 * (n - 1);
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
        return n - 1;
    default:
        return n;
    }
}

// NCCL's busBw -> algbw ratio (l.289-296).
double algbwRatio(const TunerTopology &t, NcclAlgorithm a)
{
    const bool gatherOrScatter
        = t.kind == CollectiveKind::AllGather || t.kind == CollectiveKind::ReduceScatter;
    if (a != NcclAlgorithm::Ring && gatherOrScatter)
        return 1.0;
    if (a == NcclAlgorithm::Ring)
        return t.ranks / defaultSteps(t);
    if (a == NcclAlgorithm::Nvls || a == NcclAlgorithm::NvlsTree)
        return 5.0 / 6.0;
    return 0.5;
}

// hwLat[hw][a][p] in seconds.
double hwLatency(NcclAlgorithm a, HopClass hw, Protocol p)
{
    switch (a) {
    case NcclAlgorithm::CollNetDirect:
        return p == Protocol::Simple ? kCollNetDirectHopUs[static_cast<int>(hw)] * kUs : 0.0;
    case NcclAlgorithm::Tree:
        return hopLatency(LatencyFamily::Tree, hw, false)[at(p)];
    case NcclAlgorithm::Ring:
        return hopLatency(LatencyFamily::Ring, hw, false)[at(p)];
    case NcclAlgorithm::Nvls:
        return hopLatency(LatencyFamily::Nvls, hw, false)[at(p)];
    case NcclAlgorithm::NvlsTree:
        if (hw == HopClass::Net)
            return p == Protocol::Simple ? kNvlsTreeNetHopUs * kUs : 0.0;
        break;
    }
    return hopLatency(LatencyFamily::NvlsTree, hw, false)[at(p)];
}

double baseLat(NcclAlgorithm a, Protocol p)
{
    if (a == NcclAlgorithm::Ring)
        return baseLatency(LatencyFamily::Ring)[at(p)];
    if (a == NcclAlgorithm::Tree)
        return baseLatency(LatencyFamily::Tree)[at(p)];
    return 0.0; // l.122-123: CollNet, NVLS, NVLS-Tree
}

bool enabled(const TunerTopology &t, NcclAlgorithm a)
{
    if (a == NcclAlgorithm::NvlsTree && t.nodes == 1)
        return false; // l.412
    if (!t.collNet
        && (a == NcclAlgorithm::CollNetDirect || (a == NcclAlgorithm::Nvls && t.nodes > 1)))
        return false; // l.414-417
    return true;
}

} // namespace

GpuGeneration gpuGeneration(const std::string &acceleratorKey)
{
    std::string k = acceleratorKey;
    for (char &c : k)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](const char *s) { return k.find(s) != std::string::npos; };
    if (has("v100"))
        return GpuGeneration::Volta;
    if (has("a100") || has("a800"))
        return GpuGeneration::Ampere;
    if (has("b100") || has("b200") || has("b300"))
        return GpuGeneration::Blackwell; // also gb200, gb300
    return GpuGeneration::Hopper;
}

double ncclLatency(const TunerTopology &topo, const TunerOption &opt, Protocol p, double bytes)
{
    const NcclAlgorithm a = opt.algorithm;
    const int nodes = std::max(1, topo.nodes);
    const int ppn = std::max(1, topo.ranks / nodes); // nRanks / nNodes (l.329, integer)
    const double intraLat = hwLatency(a, topo.intra, p); // l.299
    // l.301: with one rank per node the network latency is the tree's.
    const double interLat = topo.ranks == nodes ? hwLatency(NcclAlgorithm::Tree, HopClass::Net, p)
                                                : hwLatency(a, HopClass::Net, p);
    const double base = baseLat(a, p);
    const int log2Nodes = log2Floor(nodes);
    switch (a) {
    case NcclAlgorithm::Ring: {
        const double steps = opt.steps >= 0 ? opt.steps : defaultSteps(topo);
        if (topo.kind == CollectiveKind::Broadcast) {
            // l.308-314 (rings not sharing channels): nsteps x the hop figure, Simple the tree's.
            const HopClass hw = nodes == 1 ? topo.intra : HopClass::Net;
            const NcclAlgorithm fig = p == Protocol::Simple ? NcclAlgorithm::Tree : a;
            return base + steps * hwLatency(fig, hw, p);
        }
        const double overhead
            = nodes > 1 ? kNetOverheadUs * kUs * (p == Protocol::Simple ? 3 : 1) : 0.0; // l.318-321
        const double inter = nodes == 1              ? 0.0
            : topo.kind == CollectiveKind::AllReduce ? 2.0 * (nodes - 1)
                                                     : nodes - 1.0; // l.323
        const double interSteps = std::min(steps, inter);
        double lat = base + (steps - interSteps) * std::max(intraLat, overhead)
            + interSteps * interLat; // l.322-324
        if (p == Protocol::Simple)
            lat *= ringPlateauFactor(topo.generation, topo.kind, nodes, bytes, opt.channels,
                                     topo.ranks);
        return lat;
    }
    case NcclAlgorithm::Tree:
        return base + 2 * ((ppn - 1) * intraLat + log2Nodes * interLat); // l.328-329
    case NcclAlgorithm::CollNetDirect:
        return base + 2 * (std::min(1, ppn - 1) * intraLat + (ppn - 1) * kCollNetArityUs * kUs)
            + interLat; // l.332-333
    case NcclAlgorithm::Nvls:
        return intraLat + (nodes > 1 ? interLat : 0.0); // l.336-338
    case NcclAlgorithm::NvlsTree:
        break;
    }
    return base + intraLat + 2 * log2Nodes * interLat; // l.340
}

double ringPlateauFactor(GpuGeneration g, CollectiveKind kind, int nodes, double bytes,
                         int channels, int ranks)
{
    if (nodes <= 1 || kind != CollectiveKind::AllReduce
        || bytes / (std::max(1, channels) * static_cast<double>(std::max(1, ranks))) < 64)
        return 1.0;
    return g == GpuGeneration::Volta ? kRingPlateauVolta : kRingPlateau;
}

int channelsNeeded(const TunerTopology &topo, const TunerOption &opt, double busBw)
{
    if (opt.graphChannels)
        return std::max(1, opt.channels);
    const double perChannel = kTreePerChannel[static_cast<int>(topo.generation)][nodeColumn(topo)];
    const double need = std::isfinite(busBw) ? std::ceil(busBw / perChannel) : 64.0;
    return std::max(opt.channels, static_cast<int>(std::clamp(need, 1.0, 64.0)));
}

double ncclBandwidth(const TunerTopology &topo, const TunerOption &opt, Protocol p)
{
    if (!(opt.protocols & (1u << static_cast<unsigned>(p))) || !(opt.simpleAlgbw > 0))
        return 0.0;
    const NcclAlgorithm a = opt.algorithm;
    if (p == Protocol::LL128 && topo.intra != HopClass::NVLink)
        return 0.0; // l.429-430: LL128 only over NVLink inside the node
    if (p != Protocol::Simple
        && (a == NcclAlgorithm::Nvls || a == NcclAlgorithm::NvlsTree
            || a == NcclAlgorithm::CollNetDirect))
        return 0.0; // l.246, 263
    const int gen = static_cast<int>(topo.generation);
    const int col = nodeColumn(topo);
    const double ratio = algbwRatio(topo, a);
    double busBw = opt.ncclBusBw > 0 ? opt.ncclBusBw / kGB : opt.simpleAlgbw / kGB / ratio;
    const double channels = channelsNeeded(topo, opt, busBw);
    const double llMaxBw = topo.nodes <= 1 ? kLlMaxBw[gen][0] : kLlMaxBw[0][col]; // l.219-221
    if (a == NcclAlgorithm::Ring && p == Protocol::LL)
        busBw = std::min(llMaxBw, busBw * 0.5); // l.256
    if (a == NcclAlgorithm::Ring && p == Protocol::LL128)
        busBw = std::min(busBw * 0.92, channels * kRingLl128PerChannel[gen][col]); // l.257
    if (a == NcclAlgorithm::Tree && topo.kind == CollectiveKind::AllReduce)
        busBw = std::min(busBw * 0.92, channels * kTreePerChannel[gen][col]); // l.258
    if (a == NcclAlgorithm::Tree && p == Protocol::LL)
        busBw = std::min(busBw / 3.8, llMaxBw); // l.259
    if (a == NcclAlgorithm::Tree && p == Protocol::LL128)
        busBw = std::min(busBw * (topo.nodes <= 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                         channels * kTreeLl128PerChannel[gen][col]); // l.260
    if (a == NcclAlgorithm::CollNetDirect && topo.generation >= GpuGeneration::Hopper)
        busBw *= 0.85; // l.285
    return busBw * ratio * kGB;
}

double nvlsTreeHeadBusBw(GpuGeneration g, int nodes)
{
    if (nodes < 2 || g < GpuGeneration::Hopper)
        return 0.0;
    const int row = g == GpuGeneration::Hopper ? 0 : 1;
    return kNvlsTreePerHead[row][nodes == 2 ? 0 : 1] * kGB;
}

double ncclAlgoTime(const TunerTopology &topo, const TunerOption &opt, Protocol p, double bytes)
{
    double bw = ncclBandwidth(topo, opt, p);
    if (!(bw > 0))
        return std::numeric_limits<double>::infinity();
    if (opt.algorithm == NcclAlgorithm::Tree && topo.kind == CollectiveKind::AllReduce)
        bw *= treeCorrectionFactor(p, bytes); // l.537-538
    return ncclLatency(topo, opt, p, bytes) + bytes / bw; // l.545
}

TunerChoice chooseNccl(const TunerTopology &topo, const std::vector<TunerOption> &options,
                       double bytes)
{
    TunerChoice best;
    double bestTime = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (!enabled(topo, options[i].algorithm))
            continue;
        for (int k = 0; k < kProtocolCount; ++k) {
            const auto p = static_cast<Protocol>(k);
            const double t = ncclAlgoTime(topo, options[i], p, bytes);
            if (t < bestTime) {
                bestTime = t;
                best = TunerChoice {static_cast<int>(i), p, t};
            }
        }
    }
    return best;
}

} // namespace weft
