// weft-cli export FILE --to svg|pdf|png|astra-sim --out PATH [--dpi N]: the canvas picture of
// the whole design, rendered by the editor's own scene, or the ASTRA-sim network and system
// configuration (issue 6).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "document/designdocument.h"
#include "fabricexport.h"
#include "gui/canvas/canvasexporter.h"
#include "gui/canvas/topologyscene.h"
#include "guiapplication.h"
#include "io/astrasimexport.h"
#include "io/catalogfile.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("export");

int exportAstraSim(const Design &design, const QString &outDir)
{
    const AstraSimExport x = exportAstraSim(design);
    if (!x.ok()) {
        err(QStringLiteral("weft-cli export: ASTRA-sim's analytical network cannot express "
                           "this design:"));
        for (const std::string &problem : x.problems)
            err(QStringLiteral("  - %1").arg(QString::fromStdString(problem)));
        return ExitInvalid;
    }
    if (!prepareOutputDirectory(kName, outDir))
        return ExitUsage;
    const QDir dir(outDir);
    const QString network = dir.filePath(QStringLiteral("network.yml"));
    const QString system = dir.filePath(QStringLiteral("system.json"));
    if (!writeTextFile(kName, network, x.networkYaml)
        || !writeTextFile(kName, system, x.systemJson))
        return ExitUsage;
    out(network);
    out(system);
    for (std::size_t i = 0; i < x.dimensions.size(); ++i) {
        const AstraSimDimension &d = x.dimensions[i];
        out(QStringLiteral("dimension %1: %2, %3 NPUs, %4 GB/s, %5 ns")
                .arg(i + 1)
                .arg(QString::fromStdString(d.topology))
                .arg(d.npus)
                .arg(d.bandwidth / 1e9, 0, 'f', 1)
                .arg(d.latency * 1e9, 0, 'f', 0));
    }
    return ExitOk;
}

int runExport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Exports the canvas picture of the whole design (svg: self-contained vector; pdf: "
        "vector; png: raster) to the file PATH, or the ASTRA-sim 2.0 analytical network "
        "(network.yml) and system (system.json) configuration into the directory PATH; a design "
        "ASTRA-sim cannot express is refused with the reasons.\n\nExit codes: 0 written, 1 the "
        "design is invalid or ASTRA-sim cannot express it (the reasons are printed), 2 bad usage, "
        "an unreadable file or an output that cannot be written."));
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Design file (.weft)."));
    const QCommandLineOption toOption(
        QStringLiteral("to"),
        QStringLiteral("Format: svg, pdf, png, astra-sim, ibnetdiscover, ibsim (net file) or "
                       "slurm (topology.conf) or slurm-yaml (topology.yaml)."),
        QStringLiteral("FORMAT"));
    const QCommandLineOption outOption(
        QStringLiteral("out"),
        QStringLiteral("Output file (svg, pdf, png) or directory (astra-sim)."),
        QStringLiteral("PATH"));
    const QCommandLineOption dpiOption(QStringLiteral("dpi"),
                                       QStringLiteral("PNG resolution (default: 192)."),
                                       QStringLiteral("N"), QStringLiteral("192"));
    p.addOptions({toOption, outOption, dpiOption});
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli export FILE --to "
                           "svg|pdf|png|astra-sim|ibnetdiscover|ibsim|slurm|slurm-yaml "
                           "--out "
                           "PATH [--dpi N]")))
        return *code;
    if (p.positionalArguments().size() != 1 || !p.isSet(toOption) || !p.isSet(outOption)) {
        err(QStringLiteral("weft-cli export: expected one design FILE, --to FORMAT and --out "
                           "PATH (see 'weft-cli export --help')"));
        return ExitUsage;
    }
    const QString to = p.value(toOption).trimmed().toLower();
    CanvasFormat format = CanvasFormat::Svg;
    const bool astra = to == QLatin1String("astra-sim");
    if (!astra && !isFabricTextFormat(to) && !parseCanvasFormat(to, &format)) {
        err(QStringLiteral("weft-cli export: unknown format '%1' for --to (expected svg, pdf, "
                           "png, astra-sim, ibnetdiscover, ibsim, slurm or slurm-yaml)")
                .arg(p.value(toOption)));
        return ExitUsage;
    }
    CanvasExportOptions options;
    bool dpiOk = false;
    options.dpi = p.value(dpiOption).toDouble(&dpiOk);
    if (!dpiOk || options.dpi < 24 || options.dpi > 1200) {
        err(QStringLiteral("weft-cli export: --dpi must be a number from 24 to 1200 (got '%1')")
                .arg(p.value(dpiOption)));
        return ExitUsage;
    }
    int readCode = ExitUsage;
    std::optional<Design> design
        = readDesignArgument(kName, p.positionalArguments().front(), &readCode);
    if (!design)
        return readCode;
    const QString outPath = p.value(outOption);
    if (astra)
        return exportAstraSim(*design, outPath);
    if (isFabricTextFormat(to))
        return exportFabricText(to, *design, outPath);

    const QFileInfo target(outPath);
    if (!prepareOutputDirectory(kName, target.absolutePath()))
        return ExitUsage;
    DesignDocument document(builtinCatalog());
    document.resetDesign(std::move(*design));
    TopologyScene scene(&document);
    scene.setStylePalette(QApplication::palette());
    QString error;
    if (!CanvasExporter::save(scene, outPath, format, options, &error)) {
        err(QStringLiteral("weft-cli export: %1").arg(error));
        return ExitUsage;
    }
    out(target.absoluteFilePath());
    return ExitOk;
}

const CliCommandRegistration reg {{"export",
                                   "write the canvas (svg, pdf, png) or an ASTRA-sim configuration",
                                   runExport, makeOffscreenApplication}};

} // namespace

} // namespace weft::cli
