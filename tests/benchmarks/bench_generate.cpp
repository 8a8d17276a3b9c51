// Generator benchmark (issue 2: 16,384 GPUs in a few seconds, 131,072 without exhausting
// memory). Prints wall time of generation and of the bill of materials, graph size and the
// process's peak RSS (getrusage) after each case. Cases run in increasing size, so each peak
// RSS figure is the peak up to and including that case.
// Usage: bench_generate [1k|16k|131k]   (no argument: all three)
#include "io/catalogfile.h"
#include "generate/bom.h"
#include "generate/fabricgenerator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>

using namespace weft;

namespace {

struct Case
{
    const char *label;
    const char *what;
    FabricParams params;
};

FabricParams dgxH100(int domains, int tiers, const char *sw, int suSize)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.fabric = FabricKind::RailOptimized;
    p.tiers = tiers;
    p.switchModel = sw;
    p.nicRate = 400e9 / 8;
    p.suSize = suSize;
    return p;
}

double peakRssMiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

} // namespace

int main(int argc, char **argv)
{
    const Case cases[] = {
        {"1k", "128 DGX H100 (1,024 GPUs), rail-optimized, 2 tiers of QM9700",
         dgxH100(128, 2, "qm9700", 32)},
        {"16k", "2,048 DGX H100 (16,384 GPUs), rail-optimized, 3 tiers of QM9700",
         dgxH100(2048, 3, "qm9700", 32)},
        // QM9700 tops out at 65,536 NICs per plane in 3 tiers; 131k needs a radix-144 switch.
        {"131k", "16,384 DGX H100 (131,072 GPUs), rail-optimized, 3 tiers of Q3400, SU 128",
         dgxH100(16384, 3, "q3400", 128)},
    };
    const Catalog &catalog = builtinCatalog();
    std::printf("%-5s %10s %10s %10s %10s %12s  %s\n", "case", "nodes", "links", "gen_s", "bom_s",
                "peak_rss_MiB", "fabric");
    for (const Case &c : cases) {
        if (argc > 1 && std::strcmp(argv[1], c.label) != 0)
            continue;
        const auto t0 = std::chrono::steady_clock::now();
        GenerateResult r = generateFabric(c.params, catalog);
        const auto t1 = std::chrono::steady_clock::now();
        if (!r.ok()) {
            std::printf("%-5s failed: %s\n", c.label, r.errors.front().c_str());
            return 1;
        }
        const BillOfMaterials bom = computeBom(*r.design);
        const auto t2 = std::chrono::steady_clock::now();
        std::printf("%-5s %10zu %10zu %10.3f %10.3f %12.1f  %s (%lld switches)\n", c.label,
                    r.design->nodes().size(), r.design->links().size(),
                    std::chrono::duration<double>(t1 - t0).count(),
                    std::chrono::duration<double>(t2 - t1).count(), peakRssMiB(), c.what,
                    static_cast<long long>(bom.totalSwitches));
    }
    return 0;
}
