#include "sim/pipelineorder.h"

#include <algorithm>

namespace weft {

bool combinedEpOverlap(const TransformerSpec &m, const TrainingConfig &c)
{
    return c.overlapEp && m.isMoe() && c.ep > 1 && c.schedule != PipelineSchedule::GPipe;
}

int warmupForwards(PipelineSchedule schedule, int p, int m, int v, int stage, bool epOverlap)
{
    if (p < 1 || m < 1 || v < 1)
        return 0;
    if (schedule == PipelineSchedule::GPipe)
        return m;
    if (schedule != PipelineSchedule::Interleaved)
        v = 1;
    const int total = m * v;
    int warmup = 0;
    if (schedule == PipelineSchedule::OneFOneB)
        warmup = std::min(p - stage - 1, m);
    else
        warmup = (m == p) ? total : std::min((p - stage - 1) * 2 + (v - 1) * p, total);
    if (epOverlap)
        warmup = std::min(warmup + 1, total);
    return warmup;
}

std::vector<StageOp> stageOrder(PipelineSchedule schedule, int p, int m, int v, int stage,
                                bool epOverlap)
{
    std::vector<StageOp> order;
    if (p < 1 || m < 1 || v < 1)
        return order;
    if (schedule != PipelineSchedule::Interleaved)
        v = 1;
    if (schedule == PipelineSchedule::GPipe) {
        for (int i = 0; i < m; ++i)
            order.push_back({true, i, 0});
        for (int i = 0; i < m; ++i)
            order.push_back({false, i, 0});
        return order;
    }
    const int total = m * v;
    const int warmup = warmupForwards(schedule, p, m, v, stage, epOverlap);
    // Megatron's interleaved mapping: micro-batches in groups of p per chunk.
    auto fwd = [&](int k) {
        const int inGroup = k % (p * v);
        return StageOp {true, (k / (p * v)) * p + k % p, inGroup / p};
    };
    auto bwd = [&](int k) {
        const int inGroup = k % (p * v);
        return StageOp {false, (k / (p * v)) * p + k % p, v - 1 - inGroup / p};
    };
    for (int k = 0; k < warmup; ++k)
        order.push_back(fwd(k));
    for (int i = 0; i < total - warmup; ++i) {
        order.push_back(fwd(warmup + i));
        order.push_back(bwd(i));
    }
    for (int k = total - warmup; k < total; ++k)
        order.push_back(bwd(k));
    return order;
}

double peakActivationBytes(const std::vector<StageOp> &order, const std::vector<double> &chunkBytes,
                           int pairsFrom)
{
    const auto bytes = [&](const StageOp &op) {
        return op.chunk < static_cast<int>(chunkBytes.size())
            ? chunkBytes[static_cast<std::size_t>(op.chunk)]
            : 0;
    };
    double cur = 0, peak = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const StageOp &op = order[i];
        if (pairsFrom >= 0 && i >= static_cast<std::size_t>(pairsFrom) && op.forward
            && i + 1 < order.size() && !order[i + 1].forward) {
            // A pair runs layer by layer: the forward's activations grow as the backward's
            // are freed, so it holds at most the larger of the two on top.
            const double f = bytes(op), b = bytes(order[i + 1]);
            peak = std::max(peak, cur + std::max(0.0, f - b));
            cur += f - b;
            ++i;
            continue;
        }
        cur += op.forward ? bytes(op) : -bytes(op);
        peak = std::max(peak, cur);
    }
    return peak;
}

std::vector<MemoryBreakdown> stageMemories(const TransformerSpec &m, const TrainingConfig &c,
                                           const AcceleratorSpec &acc)
{
    const std::vector<int> split = splitLayers(m, c);
    const int n = static_cast<int>(split.size());
    std::vector<double> chunkAct(static_cast<std::size_t>(n));
    int first = 0;
    for (int k = 0; k < n; ++k) {
        const int count = split[static_cast<std::size_t>(k)];
        chunkAct[static_cast<std::size_t>(k)]
            = chunkActivationBytes(m, c, first, count, k == 0, k == n - 1);
        first += count;
    }
    const int v = c.schedule == PipelineSchedule::Interleaved ? c.vpp : 1;
    std::vector<MemoryBreakdown> out;
    for (int st = 0; st < c.pp; ++st) {
        std::vector<double> perChunk(static_cast<std::size_t>(v));
        for (int j = 0; j < v; ++j)
            perChunk[static_cast<std::size_t>(j)]
                = chunkAct[static_cast<std::size_t>(j * c.pp + st)];
        const bool pairs = combinedEpOverlap(m, c);
        const double act = peakActivationBytes(
            stageOrder(c.schedule, c.pp, c.microBatches(), v, st, pairs), perChunk,
            pairs ? warmupForwards(c.schedule, c.pp, c.microBatches(), v, st, true) : -1);
        out.push_back(stageMemory(m, c, acc, st, act));
    }
    return out;
}

} // namespace weft
