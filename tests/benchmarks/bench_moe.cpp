// Prints the wall time, CPU time, events and step time of simulating MoE training steps as the
// MoE issue (14) benchmarks them: DeepSeek-V3 on 256 GB200 (TP1 PP4 VPP4 EP64, MXFP8; issue
// target < 3 s), Qwen3-235B on 256 H100 (TP2 PP8 VPP4 EP32, DeepEP) and GPT-OSS-120B on 64 B200
// (TP4 EP8). Progress on stderr. Argument "quick": the global batch divided by 8.
// DeepSeek-V3 runs twice: on 64 GPUs of each NVL72 rack, as a 256-GPU job is placed (Slurm
// block segments of 16 trays), and filled in order, its EP64 groups straddling racks (the
// hardest case for the symmetry classes: other traffic breaks them all the time).
#include "../support/testcluster.h"
#include "sim/simulator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

using namespace weft;

namespace {

struct Case
{
    const char *label, *preset, *model;
    int domains, tp, pp, vpp, dp, ep, globalBatch;
    DataType dtype;
    Fp8Recipe recipe;
    TokenDispatcher dispatcher;
    int usedPerDomain = 0; ///< accelerators of each domain the job runs on (0: all, in order)
};

void run(const Case &k, int batchDivisor)
{
    FabricParams p = test::clusterParams(k.preset, k.domains);
    if (k.domains > 1 && std::strcmp(k.preset, "gb200-nvl72") == 0)
        p.fabric = FabricKind::FatTree;
    test::Cluster cluster = test::generateCluster(p);
    Design d = std::move(cluster.design);
    Workload w;
    for (const auto &domain : cluster.acc)
        for (int i = 0; i < k.usedPerDomain && i < int(domain.size()); ++i)
            w.placement.explicitMap.push_back(domain[std::size_t(i)]);
    w.model = *modelPreset(k.model);
    TrainingConfig &c = w.config;
    c.tp = k.tp;
    c.pp = k.pp;
    c.dp = k.dp;
    c.ep = k.ep;
    c.etp = 1;
    c.vpp = k.vpp;
    c.schedule = k.vpp > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    c.globalBatch = k.globalBatch / batchDivisor;
    c.sequenceParallel = k.tp > 1;
    c.distributedOptimizer = true;
    c.overlapTp = true;
    c.dtype = k.dtype;
    c.fp8Recipe = k.recipe;
    c.dispatcher = k.dispatcher;
    d.workload = w;
    SimOptions options;
    int reported = -1;
    const auto s0 = std::chrono::steady_clock::now();
    options.progress = [&](double f) {
        const int step = static_cast<int>(f * 10);
        if (step > reported) {
            reported = step;
            std::fprintf(
                stderr, "%s: %3d%% after %.1f s\n", k.label, step * 10,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count());
        }
        return true;
    };
    const std::clock_t c0 = std::clock();
    const SimResult r = simulate(d, options);
    const double wall
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%-28s GBS %5d  wall %8.2f s  cpu %8.2f s  events %10llu  step %8.3f s  ep "
                "exposed %6.3f s  %s\n",
                k.label, c.globalBatch, wall, cpu, static_cast<unsigned long long>(r.events),
                r.stepTime, r.breakdown.epExposed, r.ok ? "ok" : "FAILED");
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    const int divisor = argc > 1 && std::strcmp(argv[1], "quick") == 0 ? 8 : 1;
    const Case cases[] = {
        {"gpt-oss-120b 64 B200", "hgx-b200", "gpt-oss-120b", 8, 4, 1, 1, 16, 8, 1280,
         DataType::BF16, Fp8Recipe::Tensorwise, TokenDispatcher::AllToAll},
        {"qwen3-235b 256 H100 EP32", "dgx-h100", "qwen3-235b-a22b", 32, 2, 8, 4, 16, 32, 2048,
         DataType::BF16, Fp8Recipe::Tensorwise, TokenDispatcher::DeepEP},
        {"deepseek-v3 256 GB200", "gb200-nvl72", "deepseek-v3", 4, 1, 4, 4, 64, 64, 4096,
         DataType::FP8, Fp8Recipe::Mxfp8, TokenDispatcher::AllToAll, 64},
        {"deepseek-v3 256 GB200 in order", "gb200-nvl72", "deepseek-v3", 4, 1, 4, 4, 64, 64, 4096,
         DataType::FP8, Fp8Recipe::Mxfp8, TokenDispatcher::AllToAll},
    };
    for (const Case &k : cases)
        run(k, divisor);
    return 0;
}
