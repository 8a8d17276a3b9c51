// weft-cli import FORMAT FILE -o design.weft: a running cluster's fabric as a design
// (ibnetdiscover output / ibsim net files, Slurm topology.conf or .yaml, NCCL topology XML), with a
// summary of what was found.
#include "command.h"
#include "commandparser.h"
#include "io/catalogfile.h"
#include "io/fabricimport.h"
#include "io/nccltopology.h"
#include "storage/designstorage.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>

namespace weft::cli {

namespace {

const QString kName = QStringLiteral("import");
constexpr qint64 kMaxImportBytes = qint64(1) << 30; // 1 GiB of text: far above a 100k-GPU fabric

/// Reads an input of weft-cli import (at most 1 GiB) into `out`; false with the error printed.
bool readImportFile(const QString &path, QByteArray &out)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        err(QStringLiteral("weft-cli import: cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    if (file.size() > kMaxImportBytes) {
        err(QStringLiteral("weft-cli import: %1 is larger than 1 GiB").arg(path));
        return false;
    }
    out = file.readAll();
    return true;
}

int runImport(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Imports a running cluster's fabric as a design file.\n\n"
        "FORMAT ibnetdiscover: the output of infiniband-diags' ibnetdiscover (or an ibsim net "
        "file). HCAs described \"host device<N>\" (dgx-001 mlx5_3) of the most common host "
        "pattern become GPU servers of the --scaleup preset, rails mapped to GPUs; switches get "
        "leaf/spine/core from the graph and a catalog model by port count and speed.\n"
        "FORMAT slurm: Slurm's topology.conf (tree plugin) or topology.yaml (Slurm 23.11+; its "
        "cluster-default tree topology); neither has rates, so every NIC is one "
        "--nic-tech cable and uplinks are non-blocking.\n"
        "FORMAT nccl-topo: NCCL's topology XML of one server (NCCL_TOPO_DUMP_FILE, or a cloud's "
        "NCCL_TOPO_FILE): one scale-up domain with the file's GPUs, NVLinks, NVSwitch chips and "
        "RDMA NICs, its preset inferred from the GPUs' PCI device id or sm unless --scaleup names "
        "one; the summary gives each GPU's nearest NIC (rail) and its PCIe distance.\n\n"
        "Exit codes: 0 imported, 2 bad usage, an unreadable or malformed file (the line is "
        "named) or a file that cannot be written."));
    p.addPositionalArgument(QStringLiteral("FORMAT"),
                            QStringLiteral("ibnetdiscover, slurm or nccl-topo."));
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The file to import."));
    const QCommandLineOption outOption({QStringLiteral("o"), QStringLiteral("output")},
                                       QStringLiteral("Design file to write (.weft). Required."),
                                       QStringLiteral("FILE"));
    const QCommandLineOption scaleUp(
        QStringLiteral("scaleup"),
        QStringLiteral("Scale-up preset of the GPU servers (default: dgx-h100; nccl-topo: auto, "
                       "from the file), or an NCCL topology XML file (.xml) of one server: "
                       "its GPUs, NVLinks and NICs; each GPU's nearest NIC in the file is its rail "
                       "(gpu0 paired with mlx5_7 cables mlx5_7 to GPU 0)."),
        QStringLiteral("PRESET"));
    const QCommandLineOption dropUnknown(
        QStringLiteral("drop-unknown"),
        QStringLiteral("ibnetdiscover: leave HCAs that are not GPU-server rails (storage, "
                       "management) out instead of keeping them as ib-endpoint nodes."));
    const QCommandLineOption nicTech(
        QStringLiteral("nic-tech"),
        QStringLiteral("slurm: link technology of every cable (default: ib-ndr)."),
        QStringLiteral("KEY"), QStringLiteral("ib-ndr"));
    p.addOptions({outOption, scaleUp, dropUnknown, nicTech});
    if (const auto code = parseCommandLine(
            p, args, kName,
            QStringLiteral("weft-cli import ibnetdiscover|slurm|nccl-topo FILE -o design.weft "
                           "[--scaleup PRESET] [--drop-unknown] [--nic-tech KEY]")))
        return *code;
    const QStringList pos = p.positionalArguments();
    ImportFormat format = ImportFormat::Ibnetdiscover;
    if (pos.size() != 2 || !fromString(pos[0].toStdString(), format)) {
        err(QStringLiteral(
            "weft-cli import: expected FORMAT (ibnetdiscover, slurm or nccl-topo) and FILE "
            "(see 'weft-cli import --help')"));
        return ExitUsage;
    }
    if (!p.isSet(outOption)) {
        err(QStringLiteral("weft-cli import: -o FILE is required"));
        return ExitUsage;
    }
    // An option the format does not read is refused, not ignored: the user asked for something
    // the import would not do.
    const auto notFor = [&](const QCommandLineOption &opt, bool applies, const char *which) {
        if (!p.isSet(opt) || applies)
            return false;
        err(QStringLiteral("weft-cli import: --%1 applies to %2 imports only, not %3")
                .arg(opt.names().constFirst(), QLatin1String(which), pos[0]));
        return true;
    };
    if (notFor(dropUnknown, format == ImportFormat::Ibnetdiscover, "ibnetdiscover")
        || notFor(nicTech, format == ImportFormat::SlurmTopology, "slurm"))
        return ExitUsage;
    QByteArray text;
    if (!readImportFile(pos[1], text))
        return ExitUsage;
    FabricImportOptions o;
    o.scaleUpPreset = p.isSet(scaleUp)         ? p.value(scaleUp).toStdString()
        : format == ImportFormat::NcclTopology ? std::string("auto")
                                               : std::string("dgx-h100");
    Catalog catalog = builtinCatalog();
    std::vector<std::string> serverNotes;
    if (format != ImportFormat::NcclTopology
        && QString::fromStdString(o.scaleUpPreset)
               .endsWith(QLatin1String(".xml"), Qt::CaseInsensitive)) {
        const QString serverPath = p.value(scaleUp);
        QByteArray xml;
        if (!readImportFile(serverPath, xml))
            return ExitUsage;
        try {
            useNcclServer(catalog, std::string_view(xml.constData(), std::size_t(xml.size())), o,
                          serverNotes);
        } catch (const std::invalid_argument &e) {
            err(QStringLiteral("weft-cli import: %1: %2")
                    .arg(serverPath, QString::fromUtf8(e.what())));
            return ExitUsage;
        }
    }
    o.dropUnknown = p.isSet(dropUnknown);
    o.nicTech = p.value(nicTech).toStdString();
    o.name = QFileInfo(pos[1]).completeBaseName().toStdString();
    const FabricImportResult r = importFabric(
        format, std::string_view(text.constData(), static_cast<std::size_t>(text.size())), catalog,
        o);
    if (!r.ok()) {
        err(QStringLiteral("weft-cli import: %1: %2").arg(pos[1], QString::fromStdString(r.error)));
        return ExitUsage;
    }
    const QString path = p.value(outOption);
    if (const auto e = saveDesignFile(*r.design, path)) {
        err(QStringLiteral("weft-cli import: %1").arg(QString::fromStdString(e->toString())));
        return ExitUsage;
    }
    out(QStringLiteral("Wrote %1 from %2 (%3)").arg(path, pos[1], pos[0]));
    for (const std::string &line : r.summary)
        out(QStringLiteral("  %1").arg(QString::fromStdString(line)));
    for (const std::string &f : serverNotes)
        out(QStringLiteral("  note: server %1: %2")
                .arg(p.value(scaleUp), QString::fromStdString(f)));
    for (const std::string &f : r.findings)
        out(QStringLiteral("  note: %1").arg(QString::fromStdString(f)));
    return ExitOk;
}

const CliCommandRegistration reg {{"import",
                                   "import a running cluster's fabric (ibnetdiscover, Slurm "
                                   "topology.conf/.yaml, NCCL topology XML) as a design file",
                                   runImport}};

} // namespace

} // namespace weft::cli
