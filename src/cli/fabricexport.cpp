#include "fabricexport.h"

#include "command.h"
#include "designinput.h"
#include "io/ibnetdiscoverexport.h"
#include "io/slurmtopology.h"

#include <QFileInfo>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("export");

} // namespace

bool isFabricTextFormat(const QString &to)
{
    return to == QLatin1String("ibnetdiscover") || to == QLatin1String("ibsim")
        || to == QLatin1String("slurm") || to == QLatin1String("slurm-yaml");
}

int exportFabricText(const QString &to, const Design &design, const QString &outPath)
{
    std::string text;
    const bool slurm = to == QLatin1String("slurm") || to == QLatin1String("slurm-yaml");
    if (slurm && slurmSwitchCount(design) == 0) { // as the ibnetdiscover export refuses it
        err(QStringLiteral("weft-cli export: the design has no leaf, spine or core switch to "
                           "export"));
        return ExitInvalid;
    }
    if (to == QLatin1String("slurm")) {
        text = exportSlurmTopology(design);
    } else if (to == QLatin1String("slurm-yaml")) {
        text = exportSlurmTopologyYaml(design);
    } else {
        const IbExportResult x = exportIbFabric(design);
        for (const std::string &w : x.warnings)
            err(QStringLiteral("weft-cli export: %1").arg(QString::fromStdString(w)));
        if (x.fabric.nodes.empty())
            return ExitInvalid;
        int beyondHdr = 0; // ibsim 0.10 parses speeds up to HDR
        for (const IbNode &n : x.fabric.nodes)
            for (const IbPort &p : n.links)
                beyondHdr += p.speed == "NDR" || p.speed == "XDR";
        if (to == QLatin1String("ibsim") && beyondHdr > 0)
            err(QStringLiteral("weft-cli export: warning: %1 port(s) at NDR or XDR: ibsim 0.10 "
                               "knows speeds up to HDR and brings them up at 4xSDR (the file keeps "
                               "the design's speeds; an ibnetdiscover of ibsim then reports SDR)")
                    .arg(beyondHdr));
        text = writeIbnetdiscover(x.fabric,
                                  to == QLatin1String("ibsim") ? IbTextStyle::IbsimNet
                                                               : IbTextStyle::Ibnetdiscover);
    }
    if (!prepareOutputDirectory(kName, QFileInfo(outPath).absolutePath())
        || !writeTextFile(kName, outPath, text))
        return ExitUsage;
    out(outPath);
    return ExitOk;
}

} // namespace weft::cli
