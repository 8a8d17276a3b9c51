// Simulates one training step on fabrics built by the core generator (the bundled examples'
// generator flags) and prints the wall time of each simulate() call, the step time and a
// fingerprint of the per-link statistics (sums over every link and direction), so a speed change
// can be checked not to change the answer (simulator.md: an optimisation never changes an answer).
//
//   bench_simulate_generated [1k|16k|16k-405b|all] [repetitions] [dump-prefix]
//   (default: all, 3; with a dump prefix, every link direction's statistics and series are
//   written to <prefix><case>.txt to compare two builds line by line)
//
// 1k:       128 DGX H100, rail-optimized, 2 tiers of QM9700, 400G NICs, SU 32;
//           GPT-3 175B, TP8 PP8 DP16, global batch 1536 (Narayanan et al. 2021, Table 1 row 175B)
// 16k:      2,048 DGX H100, rail-optimized, 3 tiers of QM9700 (resources/examples/dgx-h100-16k);
//           GPT-3 175B, TP8 PP8 DP256, global batch 4096
// 16k-405b: the same fabric; Llama 3 405B, TP8 PP16 DP128, global batch 2048 (simulator.md)
#include "../support/processusage.h"
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "sim/simulator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

using namespace weft;
using weft::test::peakRssMb;

namespace {

struct Case
{
    const char *label;
    int domains;
    int tiers;
    const char *model;
    int tp, pp, dp, globalBatch;
};

Design buildDesign(const Case &c)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = c.domains;
    p.fabric = FabricKind::RailOptimized;
    p.tiers = c.tiers;
    p.switchModel = "qm9700";
    p.nicRate = 400e9 / 8;
    p.suSize = 32;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok()) {
        std::fprintf(stderr, "%s: generation failed: %s\n", c.label, g.errors.front().c_str());
        std::exit(1);
    }
    Workload w;
    w.model = *modelPreset(c.model);
    w.config.tp = c.tp;
    w.config.pp = c.pp;
    w.config.dp = c.dp;
    w.config.globalBatch = c.globalBatch;
    w.config.sequenceParallel = true;
    w.config.zeroStage = 1;
    w.config.recompute = Recompute::Selective;
    g.design->workload = w;
    return std::move(*g.design);
}

void dump(const SimResult &r, const std::string &path)
{
    std::FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return;
    std::fprintf(f, "step %.17g\n", r.stepTime);
    for (const GroupTraffic &g : r.groups) {
        std::fprintf(f, "group %s %d", g.kind.c_str(), g.index);
        for (LinkId l : g.links)
            std::fprintf(f, " %u", l.value);
        std::fprintf(f, "\n");
    }
    for (const Finding &w : r.warnings)
        std::fprintf(f, "warning %s %s\n", w.code.c_str(), w.message.c_str());
    for (const LinkResult &l : r.links)
        for (int k = 0; k < 2; ++k) {
            const LinkDirResult &dir = l.dir[k];
            std::fprintf(f, "%u %d %.17g %.17g %.17g %.17g", l.id.value, k, dir.bytes, dir.busyTime,
                         dir.avgUtilization, dir.peakUtilization);
            for (float v : dir.series)
                std::fprintf(f, " %.9g", static_cast<double>(v));
            std::fprintf(f, "\n");
        }
    std::fclose(f);
}

void run(const Case &c, int reps, const char *dumpPrefix)
{
    const auto t0 = std::chrono::steady_clock::now();
    const Design d = buildDesign(c);
    const double build
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> walls, cpus;
    SimResult r;
    for (int i = 0; i < reps; ++i) {
        const auto s0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        r = simulate(d);
        cpus.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
        walls.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count());
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    if (dumpPrefix)
        dump(r, std::string(dumpPrefix) + c.label + ".txt");
    double bytes = 0, busy = 0, avg = 0, peak = 0, series = 0;
    for (const LinkResult &l : r.links)
        for (const LinkDirResult &dir : l.dir) {
            bytes += dir.bytes;
            busy += dir.busyTime;
            avg += dir.avgUtilization;
            peak += dir.peakUtilization;
            for (float v : dir.series)
                series += v;
        }
    std::printf("%-8s %-11s tp%d pp%d dp%-3d B %-5d gpus %5d links %6zu (build %.2f s)\n"
                "         simulate() wall: min %.3f s  median %.3f s  max %.3f s  (%d runs)  "
                "CPU min %.3f s  peak RSS %.0f MB  %s\n"
                "         step %.9f s  mfu %.6f  events %llu  timelines %zu\n"
                "         links: bytes %.9e  busy %.9e s  sum avg util %.9e  sum peak util "
                "%.9e  sum series %.9e\n",
                c.label, c.model, c.tp, c.pp, c.dp, c.globalBatch, c.tp * c.pp * c.dp,
                d.links().size(), build, walls.front(), walls[walls.size() / 2], walls.back(), reps,
                cpus.front(), peakRssMb(),
                r.ok ? "ok" : (r.warnings.empty() ? "failed" : r.warnings.front().code.c_str()),
                r.stepTime, r.mfu, static_cast<unsigned long long>(r.events), r.timelines.size(),
                bytes, busy, avg, peak, series);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    const Case cases[] = {
        {"1k", 128, 2, "gpt3-175b", 8, 8, 16, 1536},
        {"16k", 2048, 3, "gpt3-175b", 8, 8, 256, 4096},
        {"16k-405b", 2048, 3, "llama3-405b", 8, 16, 128, 2048},
    };
    const char *which = argc > 1 ? argv[1] : "all";
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    const char *dumpPrefix = argc > 3 ? argv[3] : nullptr;
    for (const Case &c : cases)
        if (std::strcmp(which, "all") == 0 || std::strcmp(which, c.label) == 0)
            run(c, reps, dumpPrefix);
    return 0;
}
