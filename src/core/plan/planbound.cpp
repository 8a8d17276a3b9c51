#include "plan/planbound.h"

#include "model/design.h"
#include "workload/costmodel.h"

#include <algorithm>
#include <unordered_map>

namespace weft {

PlanHardware planHardware(const Design &d)
{
    PlanHardware hw;
    std::unordered_map<NodeId, double> capacity;
    for (const Link &l : d.links()) {
        capacity[l.a] += l.capacity();
        capacity[l.b] += l.capacity();
    }
    for (const Node &n : d.nodes()) {
        if (!n.isAccelerator())
            continue;
        const AcceleratorSpec *s = d.acceleratorSpec(n);
        if (!s)
            continue;
        const auto rate = [](const AcceleratorSpec &a) {
            return a.peakFlops(DataType::BF16) * a.matmulEfficiency;
        };
        if (!hw.valid) {
            hw.best = *s;
            hw.slowest = *s;
        }
        AcceleratorSpec &b = hw.best;
        b.peakFlopsBf16 = std::max(b.peakFlopsBf16, s->peakFlopsBf16);
        b.peakFlopsFp8 = std::max(b.peakFlopsFp8, s->peakFlopsFp8);
        b.hbmBandwidth = std::max(b.hbmBandwidth, s->hbmBandwidth);
        b.matmulEfficiency = std::max(b.matmulEfficiency, s->matmulEfficiency);
        b.memoryEfficiency = std::max(b.memoryEfficiency, s->memoryEfficiency);
        if (rate(*s) < rate(hw.slowest))
            hw.slowest = *s;
        hw.valid = true;
        hw.linkBytesPerSecond = std::max(hw.linkBytesPerSecond, capacity[n.id]);
    }
    return hw;
}

namespace {

// Least time of `calls` collectives of `bytes` each over `n` ranks: (n-1)/n of the buffer
// into each rank at its total link rate (see the header).
double collectiveTime(double calls, double bytes, int n, double rate)
{
    if (n <= 1 || calls <= 0 || bytes <= 0 || rate <= 0)
        return 0;
    return calls * bytes * (n - 1) / n / rate;
}

struct OpBound
{
    double forward = 0, backward = 0;
};

} // namespace

StepBound stepLowerBound(const TransformerSpec &m, const TrainingConfig &c, const PlanHardware &hw)
{
    StepBound b;
    const double rate = hw.linkBytesPerSecond;
    const CommVolumes vol = commVolumes(m, c);
    const bool full = c.recompute == Recompute::Full;
    // Sequence parallelism turns each all-reduce into an all-gather and a reduce-scatter.
    const double tpPerCall = c.sequenceParallel && c.tp > 1 ? 2 : 1;
    const std::vector<int> split = splitLayers(m, c);
    const int chunks = static_cast<int>(split.size());
    std::vector<OpBound> op(static_cast<std::size_t>(chunks));
    int first = 0;
    for (int k = 0; k < chunks; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        const ChunkCost cost = chunkCost(m, c, hw.best, first, count, k == 0, k == chunks - 1);
        int moe = 0;
        for (int i = first; i < first + count; ++i)
            moe += m.isMoeLayer(i) ? 1 : 0;
        // Korthikanti et al. 2022 sec. 4: two TP all-reduces per layer forward, two backward
        // (two more with full recomputation); embedding and logits are left out (a bound).
        const double tpF = collectiveTime(2.0 * count * tpPerCall, vol.tpBytes, c.tp, rate);
        const double tpB
            = collectiveTime(2.0 * count * (full ? 2 : 1) * tpPerCall, vol.tpBytes, c.tp, rate);
        const double cpF = collectiveTime(count, vol.cpBytes, c.cp, rate);
        const double cpB = collectiveTime(count * (full ? 2.0 : 1.0), vol.cpBytes, c.cp, rate);
        const double epF = c.ep > 1 ? collectiveTime(2.0 * moe, vol.epBytes, c.ep, rate) : 0;
        const double epB
            = c.ep > 1 ? collectiveTime(2.0 * moe * (full ? 2 : 1), vol.epBytes, c.ep, rate) : 0;
        const double tpBeside = c.overlapTp ? 1 : 0;
        op[static_cast<std::size_t>(k)].forward
            = std::max({cost.forwardTime, cpF, tpBeside * tpF}) + (1 - tpBeside) * tpF + epF;
        op[static_cast<std::size_t>(k)].backward
            = std::max({cost.backwardTime, cpB, tpBeside * tpB}) + (1 - tpBeside) * tpB + epB;
        first += count;
    }
    const int p = c.pp;
    const int mb = c.microBatches();
    const double hop = p > 1 && rate > 0 ? vol.ppBytes / rate : 0;
    // Gradients reduce over DP x CP: each GPU's gradient bytes (n-1)/n at its link rate, from
    // no earlier than the start of the stage's last backward operations (the buckets of a chunk
    // fill during its last backward); ZeRO-3 all-gathers each chunk's bf16 parameters before
    // every forward and backward (Rajbhandari et al. 2020 sec. 5.3, 7.2.2).
    const int n = c.dp * c.cp;
    const double gradBytesPerParam = c.gradReduceFp32 ? 4 : 2;
    std::vector<double> grad(static_cast<std::size_t>(chunks)), gather(grad.size());
    first = 0;
    for (int k = 0; k < chunks; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        double dense = 0;
        for (int i = first; i < first + count; ++i)
            dense += (m.layerParams(i) - m.layerExpertParams(i)) / c.tp;
        grad[static_cast<std::size_t>(k)] = collectiveTime(1, dense * gradBytesPerParam, n, rate);
        if (c.effectiveZero() >= 3)
            gather[static_cast<std::size_t>(k)] = collectiveTime(1, 2 * dense, n, rate);
        first += count;
    }
    double head = 0, tail = 0; // chunk 0 of stages < s, forward and backward
    for (int s = 0; s < p; ++s) {
        // A chunk's gradients reduce after its last backward starts, which follows all its
        // other operations on the stage: head + m F + (m - 1) B. All chunks share the links.
        double work = 0, gathers = 0, dpAll = 0, firstStart = -1;
        for (int k = s; k < chunks; k += p) {
            const OpBound &o = op[static_cast<std::size_t>(k)];
            work += o.forward + o.backward;
            gathers += 2 * gather[static_cast<std::size_t>(k)];
            const double start = head + mb * o.forward + (mb - 1) * o.backward;
            b.pipeline = std::max(b.pipeline, start + grad[static_cast<std::size_t>(k)]);
            firstStart = firstStart < 0 ? start : std::min(firstStart, start);
            dpAll += grad[static_cast<std::size_t>(k)];
        }
        b.pipeline
            = std::max({b.pipeline, head + mb * work + tail, firstStart + dpAll, mb * gathers});
        head += op[static_cast<std::size_t>(s)].forward + hop;
        tail += op[static_cast<std::size_t>(s)].backward + hop;
    }
    // Optimizer and, with ZeRO-1/2, the parameter all-gather after it (sharded over DP x CP).
    const int zero = c.effectiveZero();
    const double shard = zero >= 1 ? double(c.dp) * c.cp : 1;
    const double expertShard = zero >= 1 ? std::max(1.0, shard / c.ep) : 1;
    for (int s = 0; s < p; ++s) {
        const StageParams sp = stageParams(m, c, s);
        const double expert = c.ep > 1 ? sp.expert : 0;
        const double dense = sp.total() - expert;
        b.optimizer
            = std::max(b.optimizer, optimizerTime(dense / shard + expert / expertShard, hw.best));
        if (zero == 1 || zero == 2)
            b.parameterGather = std::max(
                b.parameterGather,
                collectiveTime(1, 2 * dense, static_cast<int>(std::min<double>(shard, 1 << 30)),
                               rate));
    }
    return b;
}

} // namespace weft
