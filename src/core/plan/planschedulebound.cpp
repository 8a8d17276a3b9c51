#include "plan/planschedulebound.h"

#include "sim/schedule.h"

#include <algorithm>

namespace weft {

ScheduleBound scheduleLowerBound(const ScheduleBoundInput &in)
{
    ScheduleBound out;
    const int p = in.p, m = in.m;
    const int v = in.schedule == PipelineSchedule::Interleaved ? in.v : 1;
    const int n = p * v;
    const auto size = static_cast<std::size_t>(std::max(0, n));
    if (p < 1 || m < 1 || v < 1 || in.forward.size() != size || in.backward.size() != size
        || (!in.gather.empty() && in.gather.size() != size))
        return out;
    const auto cell = [m](int vs, int mb) { return static_cast<std::size_t>(vs * m + mb); };
    // Least arrival of each virtual stage's input per micro-batch, forward and backward (-1:
    // not produced yet).
    std::vector<double> arrF(size * static_cast<std::size_t>(m), -1.0), arrB(arrF);
    std::vector<std::vector<StageOp>> order(static_cast<std::size_t>(p));
    std::vector<std::size_t> next(order.size(), 0);
    std::vector<double> free(order.size(), 0), lastStart(order.size(), 0);
    out.end.assign(order.size(), 0);
    out.lastBackwardStart.assign(order.size(), std::vector<double>(static_cast<std::size_t>(v), 0));
    std::size_t left = 0;
    for (int s = 0; s < p; ++s) {
        order[static_cast<std::size_t>(s)] = stageOrder(in.schedule, p, m, v, s, in.epOverlap);
        left += order[static_cast<std::size_t>(s)].size();
    }
    // Runs every stage as far as its inputs allow until nothing moves (the simulator's
    // schedules cannot deadlock, so everything runs).
    for (bool moved = true; moved && left > 0;) {
        moved = false;
        for (int s = 0; s < p; ++s) {
            const std::size_t si = static_cast<std::size_t>(s);
            const std::vector<StageOp> &ops = order[si];
            for (; next[si] < ops.size(); ++next[si], --left, moved = true) {
                const StageOp &op = ops[next[si]];
                const int vs = op.chunk * p + s;
                const std::size_t at = cell(vs, op.microBatch);
                double ready = 0;
                if (!(op.forward && vs == 0)) {
                    ready = op.forward ? arrF[at] : arrB[at];
                    if (ready < 0)
                        break;
                }
                double start = std::max(free[si], ready);
                if (!in.gather.empty()) {
                    // Asked when the previous operation starts (prefetch; the first at time 0),
                    // or once the stage is free and the input is there.
                    const double ask = !in.overlapDp ? start : next[si] == 0 ? 0 : lastStart[si];
                    start = std::max(start, ask + in.gather[static_cast<std::size_t>(vs)]);
                }
                const double end
                    = start + (op.forward ? in.forward : in.backward)[static_cast<std::size_t>(vs)];
                // The output: the next virtual stage's input, the previous one's gradient, or
                // (the last forward) this virtual stage's own backward input.
                const bool last = op.forward && vs == n - 1;
                const int target = op.forward ? (last ? vs : vs + 1) : vs - 1;
                free[si] = end;
                if (target >= 0) {
                    const bool away = target % p != s;
                    // The boundary crossed: forward s -> s + 1, backward the target's.
                    const std::size_t boundary
                        = static_cast<std::size_t>(op.forward ? s : target % p);
                    const double arrival = !away    ? end
                        : boundary < in.hops.size() ? end + in.hops[boundary]
                                                    : end + in.hop;
                    (op.forward && !last ? arrF : arrB)[cell(target, op.microBatch)] = arrival;
                    if (away && !in.overlapPp)
                        free[si] = arrival; // the sender waits for its send
                }
                if (!op.forward)
                    out.lastBackwardStart[si][static_cast<std::size_t>(op.chunk)] = start;
                lastStart[si] = start;
                out.end[si] = std::max(out.end[si], free[si]);
            }
        }
    }
    out.valid = left == 0;
    return out;
}

} // namespace weft
