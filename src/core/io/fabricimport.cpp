#include "io/fabricimport.h"

#include "io/ibnetdiscover.h"
#include "io/nccltopology.h"
#include "io/slurmtopology.h"
#include "model/validate.h"

namespace weft {

namespace {

std::string counts(const std::map<std::string, int> &m)
{
    std::string out;
    for (const auto &[k, n] : m)
        out += (out.empty() ? "" : ", ") + std::to_string(n) + " x " + k;
    return out.empty() ? "none" : out;
}

FabricImportResult fromIb(std::string_view text, const Catalog &catalog,
                          const FabricImportOptions &o)
{
    FabricImportResult r;
    const IbParseResult parsed = parseIbnetdiscover(text);
    if (!parsed.ok()) {
        r.error = parsed.error;
        return r;
    }
    IbImportOptions io;
    io.scaleUpPreset = o.scaleUpPreset;
    io.dropUnknown = o.dropUnknown;
    io.name = o.name;
    io.railOfHca = o.railOfHca;
    IbImportResult imported = importIbFabric(*parsed.fabric, catalog, io);
    if (!imported.ok()) {
        r.error = imported.error;
        return r;
    }
    const IbImportSummary &s = imported.summary;
    r.summary.push_back(std::to_string(s.switches) + " switches, " + std::to_string(s.cas)
                        + " HCAs, " + std::to_string(s.cables) + " cables"
                        + (s.cablesImported != s.cables
                               ? " (" + std::to_string(s.cablesImported) + " imported)"
                               : std::string()));
    r.summary.push_back(std::to_string(s.servers) + " " + o.scaleUpPreset + " servers, "
                        + std::to_string(s.accelerators) + " GPUs; " + std::to_string(s.unknownHcas)
                        + " other HCA port(s)"
                        + (s.unknownHcas && o.dropUnknown ? " left out" : ""));
    r.summary.push_back("switch models: " + counts(s.switchModels));
    r.summary.push_back("tiers: " + counts(s.tiers));
    r.summary.push_back("cables: " + counts(s.cableRates));
    r.findings = parsed.notes;
    r.findings.insert(r.findings.end(), s.findings.begin(), s.findings.end());
    r.design = std::move(imported.design);
    return r;
}

} // namespace

const char *toString(ImportFormat f)
{
    switch (f) {
    case ImportFormat::SlurmTopology:
        return "slurm";
    case ImportFormat::NcclTopology:
        return "nccl-topo";
    default:
        return "ibnetdiscover";
    }
}

bool fromString(const std::string &s, ImportFormat &out)
{
    if (s == "ibnetdiscover" || s == "ibsim")
        out = ImportFormat::Ibnetdiscover;
    else if (s == "slurm" || s == "topology.conf")
        out = ImportFormat::SlurmTopology;
    else if (s == "nccl-topo" || s == "nccl")
        out = ImportFormat::NcclTopology;
    else
        return false;
    return true;
}

FabricImportResult importFabric(ImportFormat format, std::string_view text, const Catalog &catalog,
                                const FabricImportOptions &options)
{
    try {
        FabricImportResult r = format == ImportFormat::Ibnetdiscover
            ? fromIb(text, catalog, options)
            : format == ImportFormat::NcclTopology ? importNcclTopology(text, catalog, options)
                                                   : importSlurmTopology(text, catalog, options);
        // What the file itself makes impossible (a partial capture's isolated hosts): said
        // now, not first when the design is simulated.
        if (r.ok())
            for (const Finding &f : validateDesign(*r.design))
                if (f.severity == Severity::Error)
                    r.findings.push_back("the imported design cannot be simulated as it is: "
                                         + f.message);
        return r;
    } catch (const std::exception &e) {
        FabricImportResult r;
        r.error = std::string("internal error: ") + e.what();
        return r;
    }
}

} // namespace weft
