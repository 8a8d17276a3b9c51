// Import benchmark (issue 19: a 16k-GPU ibnetdiscover file in under 5 s). Generates the 16,384-GPU
// DGX H100 fabric of resources/examples/dgx-h100-16k.weft (3 tiers of QM9700, 32-server units),
// writes it as ibnetdiscover text (io/ibnetdiscoverexport.h), then times parsing and importing
// it; prints the sizes and the process's peak RSS.
// Usage: bench_import
#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "io/fabricimport.h"
#include "io/ibnetdiscoverexport.h"

#include <chrono>
#include <cstdio>
#include <sys/resource.h>

using namespace weft;

int main()
{
    using clock = std::chrono::steady_clock;
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = 2048;
    p.tiers = 3;
    p.switchModel = "qm9700";
    p.suSize = 32;
    const GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok()) {
        std::fprintf(stderr, "generate failed\n");
        return 1;
    }
    const std::string text
        = writeIbnetdiscover(exportIbFabric(*g.design).fabric, IbTextStyle::Ibnetdiscover);
    std::size_t lines = 0;
    for (const char c : text)
        lines += c == '\n';
    const auto t0 = clock::now();
    FabricImportOptions o;
    const FabricImportResult r
        = importFabric(ImportFormat::Ibnetdiscover, text, builtinCatalog(), o);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (!r.ok()) {
        std::fprintf(stderr, "import failed: %s\n", r.error.c_str());
        return 1;
    }
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    std::printf("ibnetdiscover text: %.1f MB, %zu lines\n", double(text.size()) / 1e6, lines);
    std::printf("imported: %zu accelerators, %zu nodes, %zu links in %.3f s (target < 5 s)\n",
                r.design->acceleratorCount(), r.design->nodes().size(), r.design->links().size(),
                s);
    for (const std::string &line : r.summary)
        std::printf("  %s\n", line.c_str());
    std::printf("peak RSS %.0f MiB\n", double(u.ru_maxrss) / 1024.0);
    return 0;
}
