#include "sim/protocol.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace weft {

namespace {

constexpr double kUs = 1e-6;

// tuning.cc hwLat[hw][algorithm][protocol], microseconds: {LL, LL128, Simple}; families Ring,
// Tree, NVLS, NVLS-Tree. The network NVLS-Tree hop is NCCL 2.29's 20.9 us (2.19-2.28: 14 us):
// with 14 us the two-server curve of nccl-tests issue 309 (NCCL 2.26) comes out faster still
// than measured at every size (median |error| 13.6% -> 14.7%), so the newer figure is kept.
constexpr double kHop[3][4][3] = {
    /* NVLink */ {{0.6, 1.9, 3.4}, {0.6, 1.25, 4.0}, {0, 0, 25}, {0, 0, 25}},
    /* PCI */ {{1.0, 2.5, 5.7}, {1.0, 1.9, 4.0}, {0, 0, 0}, {0, 0, 0}},
    /* Net */ {{2.7, 4.0, 14.0}, {5.0, 8.5, 14.0}, {0, 0, 18}, {0, 0, 20.9}}};

// tuning.cc treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B to 256 MiB.
constexpr double kTreeCorrection[3][24]
    = {{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
        .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
       {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
        .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
       {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
        .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};

// tuning.cc getNetOverhead(): 1 us per network post on x86 hosts (Intel; 2 us AMD), x3 for Simple.
constexpr double kNetOverheadUs = 1.0;

} // namespace

const char *toString(Protocol p)
{
    switch (p) {
    case Protocol::LL:
        return "LL";
    case Protocol::LL128:
        return "LL128";
    case Protocol::Simple:
        return "Simple";
    }
    return "?";
}

ProtocolTimes baseLatency(LatencyFamily f)
{
    switch (f) {
    case LatencyFamily::Ring:
        return {6.6 * kUs, 14.0 * kUs, 8.4 * kUs};
    case LatencyFamily::Tree:
        return {6.8 * kUs, 14.0 * kUs, 8.4 * kUs};
    case LatencyFamily::Nvls:
    case LatencyFamily::NvlsTree:
        break;
    }
    return {0, 0, 0};
}

ProtocolTimes hopLatency(LatencyFamily f, HopClass cls, bool multiDomain)
{
    const auto &row = kHop[static_cast<int>(cls)][static_cast<int>(f)];
    ProtocolTimes out {};
    for (int p = 0; p < kProtocolCount; ++p) {
        double us = row[p];
        const bool nvls = f == LatencyFamily::Nvls || f == LatencyFamily::NvlsTree;
        if (cls != HopClass::Net && multiDomain && !nvls) {
            if (p == static_cast<int>(Protocol::LL))
                us *= 1.8;
            if (f == LatencyFamily::Ring)
                us = std::max(us,
                              kNetOverheadUs * (p == static_cast<int>(Protocol::Simple) ? 3 : 1));
        }
        out[static_cast<std::size_t>(p)] = us * kUs;
    }
    return out;
}

double wireFactor(Protocol p)
{
    switch (p) {
    case Protocol::LL:
        return 4.0;
    case Protocol::LL128:
        return 1.0 / 0.92;
    case Protocol::Simple:
        break;
    }
    return 1.0;
}

namespace {
// transport/nvls.cc of NCCL v2.26.2: NVLS_NCHANNELS_SM90 / _SM100 (l.144-145) and
// NCCL_NVLS_CHUNKSIZE (l.149).
constexpr int kNvlsChannelsHopper = 16, kNvlsChannelsBlackwell = 32;
constexpr double kNvlsChunk = 128 * 1024;
} // namespace

double nvlsHeads(double ranks)
{
    constexpr double kMaxNvlsArity = 32; // NCCL_MAX_NVLS_ARITY, device.h l.181
    return std::clamp(ranks, 1.0, kMaxNvlsArity);
}

double nvlsChunkBytes(double bytes, double heads, int channels)
{
    const double ops = std::max(1, channels) * std::max(1.0, heads); // enqueue.cc l.1884
    double chunk = kNvlsChunk;
    const std::array<std::pair<double, double>, 3> steps {
        {{64, 64 * 1024.0}, {8, 32 * 1024.0}, {2, 16 * 1024.0}}}; // l.1885-1887
    for (const auto &[times, smaller] : steps)
        if (bytes < times * ops * chunk && chunk > smaller)
            chunk = smaller;
    return chunk;
}

double nvlsLoopBytes(double bytes, double ranks, int channels)
{
    const double heads = nvlsHeads(ranks);
    return std::max(1, channels) * heads * nvlsChunkBytes(bytes, heads, channels);
}

double nvlsFill(double bytes, double ranks, int channels)
{
    constexpr double kStagesBeyondOne = 2; // scatter, reduce + multicast, gather
    if (!(bytes > 0))
        return 0.0;
    return kStagesBeyondOne * std::min(nvlsLoopBytes(bytes, ranks, channels), bytes) / bytes;
}

int nvlsChannels(bool blackwell)
{
    return blackwell ? kNvlsChannelsBlackwell : kNvlsChannelsHopper;
}

double nvlsTreeChunkBytes(double bytes, double heads, int nodes, int channels)
{
    const double ops = std::max(1, channels) * std::max(1.0, heads); // enqueue.cc l.1892
    double chunk = nodes >= 4 ? 64 * 1024.0 : kNvlsChunk; // l.1894-1896
    const std::array<std::pair<double, double>, 3> steps {
        {{16, 128 * 1024.0}, {4, 64 * 1024.0}, {1, 32 * 1024.0}}}; // l.1898-1900
    for (const auto &[times, smaller] : steps)
        if (bytes < times * ops * chunk && chunk > smaller)
            chunk = smaller;
    return chunk;
}

double nvlsTreeLoopBytes(double bytes, double heads, int nodes, int channels)
{
    return std::max(1, channels) * std::max(1.0, heads)
        * nvlsTreeChunkBytes(bytes, heads, nodes, channels);
}

double treeLl128ChunkBytes(double bytes, int channels, int nodes, double ppn)
{
    constexpr double kStep = 120.0 * 640 * 8; // LL128 buffer / NCCL_STEPS, bytes
    constexpr double kGrain = 32.0 * 8 / 16 * 15 * 8; // ncclProtoGrainSize(LL128), bytes
    const double c = std::max(1, channels);
    const double p = std::max(1.0, ppn);
    const double steps = 1 + std::floor(std::log2(std::max(1, nodes))) + 0.1 * p;
    double chunk = kStep / 16 * 15;
    for (const auto &[perPpn, above] : {std::pair {64.0, 131072.0}, std::pair {16.0, 32768.0}})
        while (std::floor(bytes / (c * chunk)) < steps * perPpn / p && chunk > above)
            chunk = std::floor(chunk / 2);
    return std::max(kGrain, std::floor(chunk / kGrain) * kGrain);
}

double treeCorrectionFactor(Protocol p, double bytes)
{
    if (!(bytes >= 64))
        return 1.0;
    const int logSize = static_cast<int>(std::floor(std::log2(bytes / 64)));
    return logSize < 23 ? kTreeCorrection[static_cast<int>(p)][logSize] : 1.0;
}

double treeBandwidthFactor(Protocol p, double bytes)
{
    constexpr double kTreeAllReduce = 0.92; // tuning.cc: tree all-reduce busBw x .92
    return kTreeAllReduce * treeCorrectionFactor(p, bytes);
}

ProtocolTimes operator+(ProtocolTimes a, const ProtocolTimes &b)
{
    for (std::size_t p = 0; p < a.size(); ++p)
        a[p] += b[p];
    return a;
}

ProtocolTimes scaled(ProtocolTimes a, double k)
{
    for (double &x : a)
        x *= k;
    return a;
}

ProtocolTimes maxOf(ProtocolTimes a, const ProtocolTimes &b)
{
    for (std::size_t p = 0; p < a.size(); ++p)
        a[p] = std::max(a[p], b[p]);
    return a;
}

ProtocolTimes sumOf(const std::vector<ProtocolTimes> &hops)
{
    ProtocolTimes t {};
    for (const ProtocolTimes &h : hops)
        t = t + h;
    return t;
}

// Latency of `steps` ring steps over a ring whose edges have latencies `hops` (in ring order):
// rank i's step k starts when its predecessor's step k-1 arrives, so the last piece of data
// arrives after the largest sum of `steps` consecutive edge latencies (every full turn adds all
// of them, the rest is the worst window). Per protocol.
ProtocolTimes ringPathLatency(const std::vector<ProtocolTimes> &hops, double steps)
{
    const std::size_t n = hops.size();
    if (n == 0)
        return {};
    const auto total = static_cast<std::size_t>(std::llround(std::max(0.0, steps)));
    const std::size_t turns = total / n, rest = total % n;
    ProtocolTimes out = scaled(sumOf(hops), static_cast<double>(turns));
    for (std::size_t p = 0; p < out.size(); ++p) {
        double window = 0;
        for (std::size_t j = 0; j < rest; ++j)
            window += hops[j][p];
        double best = window;
        for (std::size_t s = 1; s < n && rest > 0; ++s) {
            window += hops[(s + rest - 1) % n][p] - hops[s - 1][p];
            best = std::max(best, window);
        }
        out[p] += best;
    }
    return out;
}

Protocol pointToPointProtocol(double bytes)
{
    return bytes <= 16384 ? Protocol::LL : Protocol::Simple;
}

} // namespace weft
