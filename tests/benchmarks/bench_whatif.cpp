// What-if benchmark (issue 19: 100 trials on the 16k example in under 2 min on 2 cores). Loads a
// design file (default: resources/examples/dgx-h100-16k.weft relative to the working directory),
// runs T trials of K random cable failures on J threads and the resilience numbers, and prints
// the wall times and the distribution.
// Usage: bench_whatif [FILE] [TRIALS=100] [JOBS=2] [K=1]
#include "io/designfile.h"
#include "whatif/resilience.h"
#include "whatif/trials.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace weft;

int main(int argc, char **argv)
{
    using clock = std::chrono::steady_clock;
    const char *path = argc > 1 ? argv[1] : "resources/examples/dgx-h100-16k.weft";
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    const ParseResult parsed = parseDesign(ss.str(), path);
    if (!parsed.ok()) {
        std::fprintf(stderr, "%s: %s\n", path, parsed.error.toString().c_str());
        return 1;
    }
    WhatIfOptions o;
    o.trials = argc > 2 ? std::atoi(argv[2]) : 100;
    o.jobs = argc > 3 ? std::atoi(argv[3]) : 2;
    o.failures = argc > 4 ? std::atoi(argv[4]) : 1;
    const auto t0 = clock::now();
    const WhatIfResult r = runWhatIf(*parsed.design, o);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (!r.ok) {
        std::fprintf(stderr, "%s\n", r.problem.c_str());
        return 1;
    }
    const WhatIfStats st = whatIfStats(r.trials);
    std::printf("%s: %d trials x %d cable failure(s) on %d threads: %.1f s (target < 120 s)\n",
                path, o.trials, o.failures, o.jobs, s);
    std::printf("  healthy %.2f ms, median %.2f ms, p95 %.2f ms, worst %.2f ms, %d could not run\n",
                r.healthyStepTime * 1e3, st.median * 1e3, st.p95 * 1e3, st.worst * 1e3, st.failed);
    const auto t1 = clock::now();
    const ResilienceReport res = fabricResilience(*parsed.design);
    std::printf(
        "resilience: bisection %.1f GB/s, worst switch %s -> %.1f GB/s, %d switches, %.1f s\n",
        res.bisection / 1e9, res.worstSwitch.c_str(), res.worstSwitchBisection / 1e9,
        res.switchesTried, std::chrono::duration<double>(clock::now() - t1).count());
    return 0;
}
