#pragma once
// Realistic sample data for the chart tests (and the screenshots): Llama-3-70B-like training on
// 1,024 H100s, TP8 PP4 DP32, 1F1B with 8 micro-batches. The figures are plausible orders of
// magnitude chosen for the tests, not simulator output.

#include "gui/charts/chartdata.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace weft::samples {

inline StepBreakdown breakdown(const QString &design, double tp, double pp, double dp)
{
    StepBreakdown b;
    b.design = design;
    b.seconds = {6.10, tp, 0.0, 0.0, pp, 0.95, dp, 0.06};
    return b;
}

inline BreakdownChartData breakdownData()
{
    BreakdownChartData d;
    d.designs = {breakdown(QStringLiteral("rail-optimized 2-tier"), 0.42, 0.18, 0.31),
                 breakdown(QStringLiteral("fat-tree 4:1"), 0.42, 0.35, 1.20),
                 breakdown(QStringLiteral("NVL72 domains"), 0.25, 0.12, 0.22)};
    return d;
}

/// 1F1B schedule of `stages` stages and `microBatches` micro-batches: forward 40 ms, backward
/// 80 ms, each followed by a 3 ms activation/gradient send; then the DP all-reduce and the
/// optimizer on every stage.
inline TimelineChartData timelineData(int stages = 4, int microBatches = 8)
{
    const double fwd = 0.040, bwd = 0.080, send = 0.003, dp = 0.150, opt = 0.020;
    struct Op
    {
        bool forward;
        int mb;
    };
    const auto stageCount = std::size_t(stages);
    std::vector<std::vector<Op>> order(stageCount);
    for (int s = 0; s < stages; ++s) {
        const int warmup = std::min(stages - s - 1, microBatches);
        int f = 0, b = 0;
        for (; f < warmup; ++f)
            order[std::size_t(s)].push_back({true, f});
        while (b < microBatches) {
            if (f < microBatches)
                order[std::size_t(s)].push_back({true, f++});
            order[std::size_t(s)].push_back({false, b++});
        }
    }
    std::vector<std::vector<double>> fEnd(std::size_t(stages),
                                          std::vector<double>(std::size_t(microBatches), -1));
    std::vector<std::vector<double>> bEnd = fEnd;
    std::vector<std::size_t> next(std::size_t(stages), 0);
    std::vector<double> free(std::size_t(stages), 0);
    TimelineChartData d;
    d.rows.resize(std::size_t(stages));
    for (int s = 0; s < stages; ++s)
        d.rows[std::size_t(s)].label = QStringLiteral("stage %1").arg(s);
    bool progress = true;
    while (progress) {
        progress = false;
        for (int s = 0; s < stages; ++s) {
            auto &seq = order[std::size_t(s)];
            if (next[std::size_t(s)] >= seq.size())
                continue;
            const Op op = seq[next[std::size_t(s)]];
            double ready = 0;
            if (op.forward && s > 0)
                ready = fEnd[std::size_t(s - 1)][std::size_t(op.mb)];
            else if (!op.forward && s < stages - 1)
                ready = bEnd[std::size_t(s + 1)][std::size_t(op.mb)];
            else if (!op.forward)
                ready = fEnd[std::size_t(s)][std::size_t(op.mb)];
            if (ready < 0)
                continue;
            const double start = std::max(ready, free[std::size_t(s)]);
            const double computeEnd = start + (op.forward ? fwd : bwd);
            auto &row = d.rows[std::size_t(s)];
            row.spans.push_back({op.forward ? TimelineKind::Forward : TimelineKind::Backward, start,
                                 computeEnd, op.mb});
            double end = computeEnd;
            const bool sends = op.forward ? s < stages - 1 : s > 0;
            if (sends) {
                row.spans.push_back(
                    {TimelineKind::Communication, computeEnd, computeEnd + send, op.mb});
                end += send;
            }
            (op.forward ? fEnd : bEnd)[std::size_t(s)][std::size_t(op.mb)] = end;
            free[std::size_t(s)] = end;
            ++next[std::size_t(s)];
            progress = true;
        }
    }
    const double backwardDone = *std::max_element(free.begin(), free.end());
    for (int s = 0; s < stages; ++s) {
        auto &row = d.rows[std::size_t(s)];
        const double start = free[std::size_t(s)];
        row.spans.push_back({TimelineKind::Communication, start, start + dp, -1});
        row.spans.push_back(
            {TimelineKind::Optimizer, backwardDone + dp, backwardDone + dp + opt, -1});
    }
    d.stepTime = backwardDone + dp + opt;
    return d;
}

/// Average utilization of the link directions of each tier, from a fixed-seed generator.
inline UtilizationChartData utilizationData()
{
    std::mt19937 rng(42);
    auto tier = [&rng](const QString &name, int count, double mean, double sd) {
        std::normal_distribution<double> dist(mean, sd);
        TierUtilization t {name, {}};
        for (int i = 0; i < count; ++i)
            t.utilization.push_back(std::clamp(dist(rng), 0.0, 1.0));
        return t;
    };
    UtilizationChartData d;
    d.tiers = {tier(QStringLiteral("scale-up"), 256, 0.58, 0.06),
               tier(QStringLiteral("leaf"), 512, 0.31, 0.08),
               tier(QStringLiteral("spine"), 512, 0.22, 0.05),
               tier(QStringLiteral("core"), 128, 0.12, 0.04)};
    d.tiers[1].utilization[7] = 0.93; // one hot leaf uplink (an outlier)
    return d;
}

/// One leaf uplink over a 2.2 s step in 220 buckets: PP sends as short bursts, the DP
/// all-reduce as a long plateau at the end; the reverse direction lighter.
inline LinkSeriesChartData linkSeriesData()
{
    LinkSeriesChartData d;
    d.stepTime = 2.2;
    LinkSeries up {QStringLiteral("leaf 3 -> spine 1"), {}};
    LinkSeries down {QStringLiteral("spine 1 -> leaf 3"), {}};
    for (int i = 0; i < 220; ++i) {
        const double t = i * 0.01;
        const bool dp = t > 1.95 && t < 2.15;
        const bool burst = (i % 12) < 2 && t < 1.9;
        up.utilization.push_back(dp ? 0.92 : burst ? 0.45 : 0.02);
        down.utilization.push_back(dp ? 0.88 : burst && i % 24 < 2 ? 0.30 : 0.01);
    }
    d.series = {up, down};
    return d;
}

/// Memory of the 4 pipeline stages (1F1B keeps stages - s micro-batches of activations).
inline MemoryChartData memoryData(int stages = 4)
{
    MemoryChartData d;
    const double gb = 1e9;
    for (int s = 0; s < stages; ++s) {
        AcceleratorMemory a;
        a.label = QStringLiteral("stage %1").arg(s);
        a.weights = 4.4 * gb;
        a.gradients = 4.4 * gb;
        a.optimizer = 1.6 * gb;
        a.activations = 17.5 * gb * (stages - s);
        a.capacity = 80 * gb;
        d.accelerators.push_back(a);
    }
    return d;
}

/// nccl-tests-like all-reduce curves, 8 B to 8 GiB: bandwidth saturates as s / (s + s_half).
inline CollectiveChartData collectiveData()
{
    auto curve = [](const QString &label, double peakGBps, double halfBytes, double noise) {
        CollectiveSeries s {label, {}};
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
        for (int e = 3; e <= 33; ++e) {
            const double bytes = std::ldexp(1.0, e);
            s.points.push_back(
                {bytes,
                 peakGBps * 1e9 * bytes / (bytes + halfBytes) * (noise > 0 ? jitter(rng) : 1)});
        }
        return s;
    };
    CollectiveChartData d;
    d.series = {curve(QStringLiteral("all-reduce, 8 GPUs NVLink (sim)"), 370, 6e6, 0),
                curve(QStringLiteral("all-reduce, 8 GPUs NVLink (nccl-tests)"), 360, 8e6, 0.03),
                curve(QStringLiteral("all-reduce, 64 GPUs IB NDR (sim)"), 190, 6e7, 0)};
    return d;
}

/// Step time and MFU against scale-up domain size for two fabrics.
inline SweepChartData sweepData()
{
    SweepChartData d;
    d.parameter = QStringLiteral("scale-up domain size");
    d.parameterUnit = QStringLiteral("GPUs");
    d.logScale = true;
    d.series = {{QStringLiteral("rail-optimized 1:1"),
                 {{8, 9.1, 0.380}, {16, 8.2, 0.421}, {32, 7.6, 0.455}, {72, 7.3, 0.474}}},
                {QStringLiteral("fat-tree 2:1"),
                 {{8, 10.2, 0.339}, {16, 8.9, 0.388}, {32, 8.0, 0.432}, {72, 7.5, 0.461}}}};
    return d;
}

} // namespace weft::samples
