// Prints the wall time and peak memory of simulating one training step at 1k, 4k, 16k and 64k
// accelerators (and 131k with the argument "131k"), with progress on stderr - the speed targets
// of simulator.md:
// 1,024 well under 100 ms; 16,384 under 2 s and 2 GB; 131,072 under a minute.
#include "../support/processusage.h"
#include "../support/testcluster.h"
#include "sim/simulator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

using namespace weft;
using weft::test::peakRssMb;

namespace {

void run(const char *label, const char *model, int tp, int pp, int dp, int globalBatch, int vpp = 1)
{
    // DGX A100 domains on a non-blocking 3-tier rail-optimized Quantum-X800 fabric (144 ports:
    // room for the 131k case), scalable units as large as a leaf allows.
    FabricParams p = test::clusterParams("dgx-a100", tp * pp * dp / 8);
    p.tiers = 3;
    p.switchModel = "q3400";
    p.suSize = 0;
    const auto t0 = std::chrono::steady_clock::now();
    Design d = test::generateCluster(p).design;
    const double build
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Workload w;
    w.model = *modelPreset(model);
    w.config.tp = tp;
    w.config.pp = pp;
    w.config.dp = dp;
    w.config.globalBatch = globalBatch;
    w.config.sequenceParallel = true;
    w.config.distributedOptimizer = true;
    w.config.recompute = Recompute::Selective;
    if (vpp > 1) {
        w.config.schedule = PipelineSchedule::Interleaved;
        w.config.vpp = vpp;
    }
    d.workload = w;
    const std::clock_t c0 = std::clock();
    const auto s0 = std::chrono::steady_clock::now();
    SimOptions options;
    int reported = -1; // progress on stderr in steps of 5%, with the time since simulate() started
    options.progress = [&](double f) {
        const int tenth = static_cast<int>(f * 20);
        if (tenth > reported) {
            reported = tenth;
            std::fprintf(
                stderr, "%s: %3d%% after %.2f s\n", label, tenth * 5,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count());
        }
        return true;
    };
    const SimResult r = simulate(d, options);
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%-6s %-12s tp%d pp%d dp%-4d gpus %6d  step %8.3f s  mfu %.3f  sim wall %8.3f s "
                "(cpu %.3f s)  "
                "(build %.2f s)  events %llu  peak RSS %7.1f MB  %s\n",
                label, model, tp, pp, dp, tp * pp * dp, r.stepTime, r.mfu, r.simulationWallSeconds,
                cpu, build, static_cast<unsigned long long>(r.events), peakRssMb(),
                r.ok ? "ok" : (r.warnings.empty() ? "failed" : r.warnings.front().code.c_str()));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "deep") == 0) { // Korthikanti 2022's 1T: p 64, m 512
        run("deep", "megatron-1t", 8, 64, 1, 512, 2);
        return 0;
    }
    const bool only = argc > 1 && std::strcmp(argv[1], "1k") == 0;
    run("1k", "llama3-70b", 8, 4, 32, 1024);
    if (only)
        return 0;
    run("4k", "llama3-70b", 8, 4, 128, 1024);
    run("16k", "llama3-405b", 8, 16, 128, 2048);
    run("64k", "llama3-405b", 8, 16, 512, 8192);
    if (argc > 1 && std::strcmp(argv[1], "131k") == 0)
        run("131k", "llama3-405b", 8, 16, 1024, 16384);
    return 0;
}
