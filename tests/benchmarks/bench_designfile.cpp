// Prints how long saving (serializeDesign) and loading (parseDesign) large designs take, in
// wall-clock and CPU time (the CPU figure is what counts on a loaded machine), and the file
// size. Usage: bench_designfile [domains ...] (default 10240 and 16384 DGX-like domains).
#include "io/designfile.h"
#include "model/validate.h"
#include "sampledesigns.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace {

struct Timer
{
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();
    void print(const char *what)
    {
        const auto w = std::chrono::steady_clock::now();
        const std::clock_t c = std::clock();
        std::printf("  %-10s %8.0f ms wall %8.0f ms cpu\n", what,
                    std::chrono::duration<double, std::milli>(w - wall).count(),
                    1000.0 * double(c - cpu) / CLOCKS_PER_SEC);
        wall = w;
        cpu = c;
    }
};

} // namespace

int main(int argc, char **argv)
{
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::stoi(argv[i]));
    if (sizes.empty())
        sizes = {10240, 16384};
    for (const int domains : sizes) {
        const weft::Design d = weft::test::largeDesign(domains);
        std::printf("%d domains: %zu nodes, %zu links, %zu groups\n", domains, d.nodes().size(),
                    d.links().size(), d.groups().size());
        Timer t;
        const std::string text = weft::serializeDesign(d);
        t.print("serialize");
        const weft::ParseResult r = weft::parseDesign(text, "bench");
        t.print("parse");
        const auto findings = weft::validateDesign(*r.design);
        t.print("validate");
        std::printf("  file %.1f MB, %s, %zu findings\n", text.size() / 1e6,
                    r.ok() && weft::serializeDesign(*r.design) == text ? "round trip identical"
                                                                       : "ROUND TRIP DIFFERS",
                    findings.size());
    }
    return 0;
}
