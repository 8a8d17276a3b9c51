// Prints the wall time, CPU time, events and step time of simulating MoE training steps as the
// MoE issue (14) benchmarks them: DeepSeek-V3 on 256 GB200 (TP1 PP4 VPP4 EP64, MXFP8; issue
// target < 3 s), Qwen3-235B on 256 H100 (TP2 PP8 VPP4 EP32, DeepEP) and GPT-OSS-120B on 64 B200
// (TP4 EP8), Qwen3-235B as Megatron-Bridge's H100 FP8 recipe runs it (all-to-all dispatcher with
// the A2A overlap, global batch 8192: its every micro-batch meets the same traffic, the case of the
// solver's memory of recurring components), and DeepSeek-V3 on 1,024 / 2,048 / 16,384 H100 (TP2
// PP16 EP64, the shape of NVIDIA's H100 recipe; issue targets < 10 s at 2,048, < 60 s at 16,384).
// Progress on stderr. Arguments: "quick" (the global batch divided by 8) or "full", then optionally
// a part of the label of the cases to run. DeepSeek-V3 runs twice: on 64 GPUs of each NVL72 rack,
// as a 256-GPU job is placed (Slurm block segments of 16 trays), and filled in order, its EP64
// groups straddling racks (the hardest case for the symmetry classes: other traffic breaks them all
// the time).
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
    bool overlapEp = false; ///< the combined 1F1B EP overlap (--overlap-moe-expert-parallel-comm)
};

void run(const Case &k, int batchDivisor)
{
    FabricParams p = test::clusterParams(k.preset, k.domains);
    if (k.domains > 1 && std::strcmp(k.preset, "gb200-nvl72") == 0)
        p.fabric = FabricKind::FatTree;
    if (k.domains > 256) // 64-port switches: leaf/spine up to 256 DGX, then a core tier
        p.tiers = 3;
    test::Cluster cluster = test::generateCluster(p);
    Design d = std::move(cluster.design);
    Workload w;
    w.placement.explicitMap = test::firstOfEachDomain(cluster, k.usedPerDomain);
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
    c.overlapEp = k.overlapEp;
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
    if (!r.ok)
        for (const Finding &f : r.warnings)
            std::printf("    %s: %s\n", f.code.c_str(), f.message.c_str());
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
        {"qwen3-235b 256 H100 A2A ovl", "dgx-h100", "qwen3-235b-a22b", 32, 2, 8, 4, 16, 32, 8192,
         DataType::FP8, Fp8Recipe::Tensorwise, TokenDispatcher::AllToAll, 0, true},
        {"deepseek-v3 256 GB200", "gb200-nvl72", "deepseek-v3", 4, 1, 4, 4, 64, 64, 4096,
         DataType::FP8, Fp8Recipe::Mxfp8, TokenDispatcher::AllToAll, 64},
        {"deepseek-v3 256 GB200 in order", "gb200-nvl72", "deepseek-v3", 4, 1, 4, 4, 64, 64, 4096,
         DataType::FP8, Fp8Recipe::Mxfp8, TokenDispatcher::AllToAll},
        {"deepseek-v3 1024 H100", "dgx-h100", "deepseek-v3", 128, 2, 16, 1, 32, 64, 8192,
         DataType::BF16, Fp8Recipe::Tensorwise, TokenDispatcher::AllToAll},
        {"deepseek-v3 2048 H100", "dgx-h100", "deepseek-v3", 256, 2, 16, 1, 64, 64, 8192,
         DataType::BF16, Fp8Recipe::Tensorwise, TokenDispatcher::AllToAll},
        {"deepseek-v3 16384 H100", "dgx-h100", "deepseek-v3", 2048, 2, 16, 1, 512, 64, 65536,
         DataType::BF16, Fp8Recipe::Tensorwise, TokenDispatcher::AllToAll},
    };
    const char *only = argc > 2 ? argv[2] : nullptr;
    for (const Case &k : cases)
        if (!only || std::strstr(k.label, only))
            run(k, divisor);
    return 0;
}
