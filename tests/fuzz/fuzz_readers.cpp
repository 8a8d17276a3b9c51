// libFuzzer target for the readers of untrusted files (issue 17): the design reader (with the
// workload, hardware and extensions it holds), the catalog reader, the sweep-table reader and the
// fabric importers of issue 19 (ibnetdiscover, Slurm topology.conf / topology.yaml, NCCL topology
// XML).
// Every input must give a result or a FileError, never a crash, a sanitizer report or a hang.
// A design that reads must also pass the model check and read back unchanged from what the
// writer makes of it (the writer's output is a design file too).
//
// Build and run: scripts/dev.sh fuzz [SECONDS] (README, "Fuzzing").
#include "io/catalogfile.h"
#include "io/designfile.h"
#include "io/fabricimport.h"
#include "io/sweepjson.h"
#include "model/validate.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "fuzz_readers: %s: %s\n", what, detail.c_str());
    std::abort();
}

void designRoundTrip(std::string_view text)
{
    const weft::ParseResult r = weft::parseDesign(text, "fuzz.weft");
    if (!r.ok())
        return;
    (void)weft::validateDesign(*r.design);
    const std::string written = weft::serializeDesign(*r.design);
    const weft::ParseResult again = weft::parseDesign(written, "written.weft");
    if (!again.ok())
        fail("the writer's output does not read back", again.error.toString());
    if (weft::serializeDesign(*again.design) != written)
        fail("a second write differs from the first", "");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    designRoundTrip(text);
    (void)weft::parseCatalog(text, "fuzz.json", weft::builtinCatalog());
    (void)weft::parseSweepJson(text, "fuzz.json");
    weft::FabricImportOptions nccl;
    nccl.scaleUpPreset = "auto";
    const weft::FabricImportResult server
        = weft::importFabric(weft::ImportFormat::NcclTopology, text, weft::builtinCatalog(), nccl);
    if (server.ok())
        (void)weft::validateDesign(*server.design);
    for (const weft::ImportFormat f :
         {weft::ImportFormat::Ibnetdiscover, weft::ImportFormat::SlurmTopology}) {
        const weft::FabricImportResult fabric
            = weft::importFabric(f, text, weft::builtinCatalog(), weft::FabricImportOptions());
        if (fabric.ok())
            (void)weft::validateDesign(*fabric.design);
    }
    return 0;
}
