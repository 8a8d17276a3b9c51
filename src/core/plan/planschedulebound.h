#pragma once
// The pipeline part of the planner's lower bound (planbound.h), as the simulator's schedule
// runs it (sim/schedule.cpp): every stage runs its operations in stageOrder()'s order (1F1B,
// interleaved 1F1B with Megatron's warm-up, GPipe), an operation starts no earlier than the
// previous one on its stage ends and its input has arrived (the producer's end plus the p2p
// time; the stage itself when the producer is on it), and with a blocking send (no PP
// overlap) the stage frees only once the send is through. With ZeRO-3 / FSDP every operation
// also waits for its chunk's parameters, all-gathered over DP x CP: with DP overlap the gather
// of operation i+1 is asked when operation i starts (the first at time 0), without it once the
// stage is free and the operation's input is there.
//
// Every duration given is a lower bound of the simulator's (compute at the sustained peak,
// communication at peak rates), so the longest path through these constraints is a lower
// bound of the simulator's times: it takes the place of the closed forms (m + p - 1)(f + b)
// (Narayanan et al. 2021 sec. 2.2) and (p - 1)(f + b) / v for interleaving, with the bubble
// the schedule actually has.

#include "workload/parallelism.h"

#include <vector>

namespace weft {

/// Lower bounds of one step's pipeline, seconds; `chunk` indexes virtual stages vs = chunk * p
/// + stage, as ScheduleSpec::chunks.
struct ScheduleBoundInput
{
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int p = 1; ///< pipeline stages
    int m = 1; ///< micro-batches per step
    int v = 1; ///< chunks per stage (1 unless interleaved)
    std::vector<double> forward, backward; ///< per virtual stage, seconds
    std::vector<double> gather; ///< ZeRO-3 all-gather per virtual stage (empty: none), seconds
    double hop = 0; ///< p2p of one activation between stages, seconds
    /// Per stage boundary s -> s + 1 (mod p; the backward's send from s + 1 to s too), seconds;
    /// empty: `hop` for all.
    std::vector<double> hops;
    bool overlapPp = true; ///< false: the sender waits for its send
    bool overlapDp = true; ///< ZeRO-3: prefetch the next operation's parameters
    /// The combined 1F1B EP overlap's extra warm-up forward (stageOrder()); its pairs start
    /// no sooner than either operation could, so running them one by one stays a bound.
    bool epOverlap = false;
};

struct ScheduleBound
{
    /// Per stage: least time its last operation ends (with a blocking send, once that send is
    /// through), seconds.
    std::vector<double> end;
    /// [stage][chunk]: least start of the chunk's last backward on the stage, seconds.
    std::vector<std::vector<double>> lastBackwardStart;
    bool valid = false; ///< false: inconsistent input (no claim)
};

/// The longest paths of `in`'s schedule (see the header).
ScheduleBound scheduleLowerBound(const ScheduleBoundInput &in);

} // namespace weft
