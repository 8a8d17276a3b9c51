#pragma once
// What a caller knows of a step's least times beyond the compute (the planner's bound,
// stepLowerBound()), for stopping a simulation early (SimOptions::stopAfter): the simulation
// stops once its step is known to last longer than the limit, and these make that known
// sooner. Each must not exceed what the simulation takes, or it may stop a step that ends
// within the limit. Seconds; an empty vector: nothing known (the compute alone).

#include <vector>

namespace weft {

struct LeastTimes
{
    /// Per virtual stage (chunk * p + stage): an operation from its start to its end on its
    /// stage, forward and backward.
    std::vector<double> forward, backward;
    /// Per stage boundary s -> s + 1 (mod p): one PP send, either way.
    std::vector<double> hops;
    /// Per virtual stage: its gradients' reduction, from the start of its last backward.
    std::vector<double> gradient;
    /// From the optimizer's end to the step's (ZeRO-1/2's parameter all-gather).
    double tail = 0;
};

} // namespace weft
