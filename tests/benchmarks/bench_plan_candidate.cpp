// Simulates one candidate of a plan as the planner does (planSimOptions, the candidate's least
// times) and prints its step, the events and the CPU seconds of the simulation: the unit of
// work of bench_plan, to profile on its own (perf record) and to compare before and after a
// change. Usage (from the repository root): bench_plan_candidate DESIGN.weft KNOBS ORDER
// [STOP_MS] [REPEAT], e.g. bench_plan_candidate resources/examples/dgx-h100-16k.weft
// tp=2,pp=16,cp=8,vpp=8,micro_batch=1,recompute=none,zero_stage=2,schedule=interleaved
// tp-dp-cp-pp 4991.1. KNOBS pin the plan's knobs (fixKnobs()); the first valid configuration
// left is simulated. STOP_MS: the K-th best the simulation stops past (none by default).
#include "io/designfile.h"
#include "plan/planbound.h"
#include "plan/planlosers.h"
#include "plan/planner.h"
#include "plan/planspace.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

using namespace weft;

namespace {

double cpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s DESIGN.weft KNOBS ORDER [STOP_MS] [REPEAT]\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    const ParseResult parsed = parseDesign(text.str(), argv[1]);
    if (!parsed.ok() || !parsed.design->workload) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    const Design &d = *parsed.design;
    PlanSpace space = defaultPlanSpace(d, *d.workload);
    fixKnobs(space, argv[2]);
    const std::string order = argv[3];
    const double stop
        = argc > 4 ? std::atof(argv[4]) * 1e-3 : std::numeric_limits<double>::infinity();
    const int repeat = argc > 5 ? std::max(1, std::atoi(argv[5])) : 1;
    std::optional<TrainingConfig> config;
    const std::size_t accelerators = d.acceleratorCount();
    forEachConfig(space, [&](const TrainingConfig &c, bool integral) {
        if (!config && integral && !hasError(validate(space.base.model, c, accelerators)))
            config = c;
    });
    if (!config) {
        std::fprintf(stderr, "no valid configuration with %s\n", argv[2]);
        return 1;
    }
    const PlanHardware hw = planHardware(d, space.gpus);
    const PlacementGroups groups = placementGroups(space.base.model, *config, order, hw);
    const StepBound least = stepLowerBound(space.base.model, *config, hw, &groups);
    std::printf("%s\nbound %.1f ms (pipeline %.1f, optimizer %.1f, gather %.1f, scale-out %.1f)\n",
                describeCandidate(*config, order).c_str(),
                candidateLowerBound(space.base.model, *config, groups, hw) * 1e3,
                least.pipeline * 1e3, least.optimizer * 1e3, least.parameterGather * 1e3,
                least.scaleOut * 1e3);
    Design scratch = d;
    for (int i = 0; i < repeat; ++i) {
        const double cpu0 = cpuSeconds();
        std::string error;
        const PlanRow row
            = simulateCandidate(scratch, space.base, *config, order, nullptr, &error, stop, &least);
        const double cpu = cpuSeconds() - cpu0;
        if (row.stopped)
            std::printf("stopped past %.1f ms: %.3f s CPU\n", stop * 1e3, cpu);
        else
            std::printf("step %.3f ms%s%s: %.3f s CPU\n", row.stepTime * 1e3,
                        error.empty() ? "" : ", error ", error.c_str(), cpu);
        if (!row.stopped && i == 0) {
            for (const auto &[name, s] : breakdownParts(row.breakdown))
                std::printf(" %s %.1f ms,", name.c_str(), s * 1e3);
            std::printf("\n");
        }
    }
    return 0;
}
