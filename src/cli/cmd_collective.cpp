// weft-cli collective: nccl-tests for a design that does not exist yet (issue 3, Command line).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "sim/collectivesweep.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace weft::cli {

namespace {

QString humanSize(double bytes)
{
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(bytes, 0, 'g', 4).arg(QLatin1String(units[u]));
}

// The values --op and --algorithm document; the parser (sim/collectives.h) takes these and the
// aliases named in the help.
const QStringList kOps {QStringLiteral("all_reduce"),     QStringLiteral("all_gather"),
                        QStringLiteral("reduce_scatter"), QStringLiteral("all_to_all"),
                        QStringLiteral("send_recv"),      QStringLiteral("broadcast")};
const QStringList kAlgorithms {QStringLiteral("auto"),     QStringLiteral("ring"),
                               QStringLiteral("tree"),     QStringLiteral("hierarchical"),
                               QStringLiteral("nvls"),     QStringLiteral("direct"),
                               QStringLiteral("nvls_tree")};

// The --algorithm value that selects `a`: "nvls" for in-network reduction (the simulator names it
// "in_network"; "in_network" and "sharp" are accepted as --algorithm too).
QString algorithmOption(CollectiveAlgorithm a)
{
    return a == CollectiveAlgorithm::InNetwork ? QStringLiteral("nvls")
                                               : QString::fromLatin1(toString(a));
}

int runCollective(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Simulates one collective alone on the design's fabric for each message size and prints "
        "time, algbw and busbw with the nccl-tests definitions (algbw = S/t; busbw = algbw x "
        "2(n-1)/n for all_reduce, (n-1)/n for all_gather, reduce_scatter and all_to_all).\n"
        "Bandwidths are in GB/s (1e9 bytes/s) as in nccl-tests: the text columns algbw_GB/s and "
        "busbw_GB/s, the JSON keys algbw_GBps and busbw_GBps; not Gb/s, the unit of rate_gbps in "
        "design files."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Design file (.weft)."));
    const QCommandLineOption opOpt(
        QStringLiteral("op"),
        QStringLiteral("%1 (default all_reduce).").arg(kOps.join(QStringLiteral(" | "))),
        QStringLiteral("OP"), QStringLiteral("all_reduce"));
    const QCommandLineOption bytesOpt(
        QStringLiteral("bytes"),
        QStringLiteral("Message sizes, comma separated; K, M, G suffixes are powers of 1024 "
                       "(e.g. 1M,64M,8G) (default 8G)."),
        QStringLiteral("LIST"), QStringLiteral("8G"));
    const QCommandLineOption ranksOpt(QStringLiteral("ranks"),
                                      QStringLiteral("'all' or accelerator indices (design order), "
                                                     "ranges a-b or names, comma separated "
                                                     "(default all)."),
                                      QStringLiteral("LIST"), QStringLiteral("all"));
    const QCommandLineOption algoOpt(
        QStringLiteral("algorithm"),
        QStringLiteral("%1; nvls is in-network reduction (NVLink SHARP or InfiniBand SHARP), "
                       "in_network and sharp are aliases (default auto).")
            .arg(kAlgorithms.join(QStringLiteral(" | "))),
        QStringLiteral("ALGO"), QStringLiteral("auto"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"),
                                     QStringLiteral("Print JSON instead of the table."));
    parser.addOptions({opOpt, bytesOpt, ranksOpt, algoOpt, jsonOpt});
    if (const auto code = parseCommandLine(
            parser, args, QStringLiteral("collective"),
            QStringLiteral("weft-cli collective FILE [--op OP] [--bytes LIST] [--ranks LIST] "
                           "[--algorithm ALGO] [--json]")))
        return *code;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("weft-cli collective: expected one design FILE (see 'weft-cli "
                           "collective --help')"));
        return ExitUsage;
    }
    CollectiveKind kind;
    if (!fromString(parser.value(opOpt).toStdString(), kind)) {
        err(QStringLiteral("weft-cli collective: unknown --op '%1' (known: %2)")
                .arg(parser.value(opOpt), kOps.join(QStringLiteral(", "))));
        return ExitUsage;
    }
    CollectiveAlgorithm algo;
    if (!fromString(parser.value(algoOpt).toStdString(), algo)) {
        err(QStringLiteral("weft-cli collective: unknown --algorithm '%1' (known: %2)")
                .arg(parser.value(algoOpt), kAlgorithms.join(QStringLiteral(", "))));
        return ExitUsage;
    }
    std::vector<double> sizes;
    try {
        sizes = parseSizeList(parser.value(bytesOpt).toStdString());
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli collective: --bytes: %1")
                .arg(QString::fromStdString(e.what())));
        return ExitUsage;
    }
    const QString path = parser.positionalArguments().front();
    int readCode = ExitUsage;
    const std::optional<Design> loaded
        = readDesignArgument(QStringLiteral("collective"), path, &readCode);
    if (!loaded)
        return readCode;
    const Design &design = *loaded;
    std::vector<NodeId> members;
    try {
        members = parseRankList(design, parser.value(ranksOpt).toStdString());
    } catch (const std::invalid_argument &e) {
        err(QStringLiteral("weft-cli collective: --ranks: %1")
                .arg(QString::fromStdString(e.what())));
        return ExitUsage;
    }
    std::vector<CollectiveSweepRow> rows;
    try {
        rows = sweepCollective(design, kind, members, sizes, algo);
    } catch (const std::exception &e) { // invalid_argument, UnroutableError, EventLimitError
        err(QStringLiteral("weft-cli collective: %1: %2")
                .arg(path, QString::fromStdString(e.what())));
        return ExitInvalid;
    }
    if (parser.isSet(jsonOpt)) {
        QJsonArray arr;
        for (const CollectiveSweepRow &r : rows)
            arr.append(QJsonObject {
                {QStringLiteral("bytes"), r.bytes},
                {QStringLiteral("time_s"), r.seconds},
                {QStringLiteral("algbw_GBps"), r.algbw / 1e9},
                {QStringLiteral("busbw_GBps"), r.busbw / 1e9},
                {QStringLiteral("algorithm"), algorithmOption(r.algorithm)},
                {QStringLiteral("channels"), r.channels},
                {QStringLiteral("protocol"), QString::fromLatin1(toString(r.protocol))}});
        const QJsonObject doc {{QStringLiteral("file"), path},
                               {QStringLiteral("op"), QString::fromLatin1(toString(kind))},
                               {QStringLiteral("ranks"), static_cast<qint64>(members.size())},
                               {QStringLiteral("bandwidth_unit"),
                                QStringLiteral("GB/s (1e9 bytes/s, as nccl-tests; not Gb/s)")},
                               {QStringLiteral("results"), arr}};
        out(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)).trimmed());
        return ExitOk;
    }
    out(QStringLiteral("# %1 over %2 ranks of %3 (GB/s = 1e9 bytes/s)")
            .arg(QString::fromLatin1(toString(kind)))
            .arg(members.size())
            .arg(path));
    out(QStringLiteral("%1 %2 %3 %4 %5  %6 %7")
            .arg(QStringLiteral("size"), 12)
            .arg(QStringLiteral("bytes"), 14)
            .arg(QStringLiteral("time_us"), 12)
            .arg(QStringLiteral("algbw_GB/s"), 11)
            .arg(QStringLiteral("busbw_GB/s"), 11)
            .arg(QStringLiteral("algorithm"), -12)
            .arg(QStringLiteral("protocol")));
    for (const CollectiveSweepRow &r : rows)
        out(QStringLiteral("%1 %2 %3 %4 %5  %6 %7")
                .arg(humanSize(r.bytes), 12)
                .arg(r.bytes, 14, 'f', 0)
                .arg(r.seconds * 1e6, 12, 'f', 2)
                .arg(r.algbw / 1e9, 11, 'f', 2)
                .arg(r.busbw / 1e9, 11, 'f', 2)
                .arg(algorithmOption(r.algorithm), -12)
                .arg(QString::fromLatin1(toString(r.protocol))));
    return ExitOk;
}

const CliCommandRegistration reg {
    CliCommand {"collective", "simulate one collective (nccl-tests style) on a design's fabric",
                runCollective}};

} // namespace

} // namespace weft::cli
