#include "fabricoptions.h"

#include "io/catalogfile.h"

#include <QStringList>
#include <cmath>

namespace weft::cli {

namespace {

QString keys(const auto &map)
{
    QStringList out;
    for (const auto &entry : map)
        out << QString::fromStdString(entry.first);
    return out.join(QStringLiteral(", "));
}

/// Reads a positive integer flag within [lo, hi]; an error message otherwise.
QString readInt(const QCommandLineParser &parser, const QString &name, int lo, int hi, int &out)
{
    if (!parser.isSet(name))
        return {};
    bool ok = false;
    const QString text = parser.value(name);
    const long long v = text.toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        return QStringLiteral("--%1: expected an integer from %2 to %3, got '%4'")
            .arg(name)
            .arg(lo)
            .arg(hi)
            .arg(text);
    out = static_cast<int>(v);
    return {};
}

QString readDouble(const QCommandLineParser &parser, const QString &name, double lo, double &out)
{
    if (!parser.isSet(name))
        return {};
    bool ok = false;
    const QString text = parser.value(name);
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < lo)
        return QStringLiteral("--%1: expected a number >= %2, got '%3'")
            .arg(name)
            .arg(lo)
            .arg(text);
    out = v;
    return {};
}

} // namespace

void addFabricOptions(QCommandLineParser &parser, const Catalog &catalog)
{
    const FabricParams d;
    parser.addOptions({
        {QStringLiteral("scaleup"),
         QStringLiteral("Scale-up domain preset (default %1). Known: %2.")
             .arg(QString::fromStdString(d.scaleUpPreset), keys(catalog.scaleUpPresets)),
         QStringLiteral("PRESET")},
        {QStringLiteral("domains"),
         QStringLiteral("Number of scale-up domains (servers or racks), >= 1 (default %1).")
             .arg(d.domains),
         QStringLiteral("N")},
        {QStringLiteral("fabric"),
         QStringLiteral("Scale-out fabric: rail-optimized (NIC i of every server or "
                        "compute tray of a scalable unit on leaf i: 4 rails on GB200 NVL72), "
                        "fat-tree (NICs fill leaves in order) or none "
                        "(default %1).")
             .arg(QString::fromLatin1(toString(d.fabric))),
         QStringLiteral("KIND")},
        {QStringLiteral("tiers"),
         QStringLiteral("Switch tiers: 2 (leaf/spine) or 3 (leaf/spine/core, spines per "
                        "scalable unit) (default %1).")
             .arg(d.tiers),
         QStringLiteral("2|3")},
        {QStringLiteral("switch"),
         QStringLiteral("Leaf/spine/core switch model (default %1). Known: %2.")
             .arg(QString::fromStdString(d.switchModel), keys(catalog.hardware.switches)),
         QStringLiteral("PRESET")},
        {QStringLiteral("nic-gbps"),
         QStringLiteral("Scale-out NIC line rate per accelerator, Gb/s, shared by its planes "
                        "(default: the preset's NIC rate, e.g. 400 for dgx-h100)."),
         QStringLiteral("G")},
        {QStringLiteral("oversubscription"),
         QStringLiteral("Leaf downlink:uplink bandwidth ratio R (R:1), >= 1; spines are "
                        "non-blocking (default %1).")
             .arg(d.oversubscription),
         QStringLiteral("R")},
        {QStringLiteral("planes"),
         QStringLiteral("Independent scale-out planes, 1 to 64; NIC port k goes to plane k, "
                        "each plane has its own switches (default %1).")
             .arg(d.planes),
         QStringLiteral("K")},
        {QStringLiteral("su-size"),
         QStringLiteral("Scale-up domains per scalable unit (pod), 0 = as many as a leaf has "
                        "NIC ports (default %1).")
             .arg(d.suSize),
         QStringLiteral("N")},
        {QStringLiteral("catalog"),
         QStringLiteral("Extra hardware catalog file (JSON, weft.catalog format) whose entries "
                        "add to or override the built-in ones (default: none)."),
         QStringLiteral("FILE")},
    });
}

Catalog fabricCatalog(const QCommandLineParser &parser, QString &error)
{
    Catalog catalog = builtinCatalog();
    if (!parser.isSet(QStringLiteral("catalog")))
        return catalog;
    auto loaded = loadCatalogFile(parser.value(QStringLiteral("catalog")).toStdString(), catalog);
    if (const FileError *e = std::get_if<FileError>(&loaded))
        error = QString::fromStdString(e->toString());
    else
        catalog.merge(std::get<Catalog>(loaded));
    return catalog;
}

QString readFabricOptions(const QCommandLineParser &parser, const Catalog &catalog, FabricParams &p)
{
    if (parser.isSet(QStringLiteral("scaleup")))
        p.scaleUpPreset = parser.value(QStringLiteral("scaleup")).toStdString();
    if (!catalog.scaleUpPresets.contains(p.scaleUpPreset))
        return QStringLiteral("--scaleup: unknown scale-up preset %1; known: %2")
            .arg(QString::fromStdString(p.scaleUpPreset), keys(catalog.scaleUpPresets));
    if (parser.isSet(QStringLiteral("switch")))
        p.switchModel = parser.value(QStringLiteral("switch")).toStdString();
    if (!catalog.hardware.switches.contains(p.switchModel))
        return QStringLiteral("--switch: unknown switch %1; known: %2")
            .arg(QString::fromStdString(p.switchModel), keys(catalog.hardware.switches));
    if (parser.isSet(QStringLiteral("fabric"))) {
        const QString kind = parser.value(QStringLiteral("fabric"));
        if (!fromString(kind.toStdString(), p.fabric))
            return QStringLiteral("--fabric: expected rail-optimized, fat-tree or none, got '%1'")
                .arg(kind);
    }
    double gbps = 0;
    double ratio = p.oversubscription;
    QString e = readInt(parser, QStringLiteral("domains"), 1, 1 << 30, p.domains);
    for (const QString &next : {readInt(parser, QStringLiteral("tiers"), 2, 3, p.tiers),
                                readInt(parser, QStringLiteral("planes"), 1, 64, p.planes),
                                readInt(parser, QStringLiteral("su-size"), 0, 1 << 30, p.suSize),
                                readDouble(parser, QStringLiteral("nic-gbps"), 1e-3, gbps),
                                readDouble(parser, QStringLiteral("oversubscription"), 1, ratio)})
        if (e.isEmpty())
            e = next;
    if (!e.isEmpty())
        return e;
    p.oversubscription = ratio;
    // 0 tells the generator to use the preset's NIC rate.
    p.nicRate = gbps > 0 ? gbps * 1e9 / 8 : 0;
    return {};
}

} // namespace weft::cli
