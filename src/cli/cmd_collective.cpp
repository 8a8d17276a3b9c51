// weft-cli collective: nccl-tests for a design that does not exist yet (issue 3, Command line).
#include "command.h"
#include "commandparser.h"
#include "designinput.h"
#include "sim/collectivesmoe.h"
#include "sim/collectivesweep.h"
#include "sim/routing.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <set>

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
                        QStringLiteral("send_recv"),      QStringLiteral("broadcast"),
                        QStringLiteral("moe_dispatch"),   QStringLiteral("moe_combine")};
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

// The MoE options of `weft-cli collective --op moe_dispatch|moe_combine`.
struct MoeOptions
{
    QCommandLineOption dispatcher {
        QStringLiteral("dispatcher"),
        QStringLiteral("moe_*: alltoall (NCCL all-to-all) | deepep (DeepEP normal kernels: RDMA to "
                       "the same-rail GPU of each destination domain, NVLink forwarding) | "
                       "hybridep (the same over a multi-node NVLink domain) (default deepep)."),
        QStringLiteral("NAME"), QStringLiteral("deepep")};
    QCommandLineOption topK {QStringLiteral("top-k"),
                             QStringLiteral("moe_*: experts per token (default 8)."),
                             QStringLiteral("K"), QStringLiteral("8")};
    QCommandLineOption maxNodes {
        QStringLiteral("max-nodes"),
        QStringLiteral("moe_*: node-limited routing, each token to at most M domains (default "
                       "4 as DeepEP's benchmark, min(domains, 4); 0: no limit)."),
        QStringLiteral("M"), QStringLiteral("4")};
    QCommandLineOption experts {
        QStringLiteral("experts"),
        QStringLiteral("moe_*: routed experts over the ranks (default 256; 0: many)."),
        QStringLiteral("E"), QStringLiteral("256")};
    QCommandLineOption tokens {
        QStringLiteral("tokens"),
        QStringLiteral("moe_*: tokens per rank; with --hidden gives the size: tokens x top-k x "
                       "hidden x 1.03125 bytes (FP8 and a scale per 128) for dispatch, x 2 (BF16) "
                       "for combine (replaces --bytes)."),
        QStringLiteral("T")};
    QCommandLineOption hidden {QStringLiteral("hidden"),
                               QStringLiteral("moe_*: hidden size per token (with --tokens)."),
                               QStringLiteral("H")};
    [[nodiscard]] QList<QCommandLineOption> all() const
    {
        return {dispatcher, topK, maxNodes, experts, tokens, hidden};
    }
};

// Parses the MoE options into `routing` and, with --tokens/--hidden, the size; false (after a
// message) on bad input.
bool parseMoe(const QCommandLineParser &parser, const MoeOptions &o, bool combine,
              MoeRouting &routing, std::vector<double> &sizes)
{
    const QString name = parser.value(o.dispatcher).toLower();
    if (name == QLatin1String("alltoall") || name == QLatin1String("all_to_all"))
        routing.dispatcher = MoeDispatcher::AllToAll;
    else if (name == QLatin1String("deepep"))
        routing.dispatcher = MoeDispatcher::DeepEP;
    else if (name == QLatin1String("hybridep"))
        routing.dispatcher = MoeDispatcher::HybridEP;
    else {
        err(QStringLiteral("weft-cli collective: unknown --dispatcher '%1' (known: alltoall, "
                           "deepep, hybridep)")
                .arg(parser.value(o.dispatcher)));
        return false;
    }
    bool ok1 = false, ok2 = false, ok3 = false;
    routing.topK = parser.value(o.topK).toInt(&ok1);
    routing.maxNodes = parser.value(o.maxNodes).toInt(&ok2);
    routing.experts = parser.value(o.experts).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3 || routing.topK < 1 || routing.maxNodes < 0 || routing.experts < 0) {
        err(QStringLiteral("weft-cli collective: --top-k must be an integer >= 1, --max-nodes "
                           "and --experts integers >= 0"));
        return false;
    }
    if (parser.isSet(o.tokens) != parser.isSet(o.hidden)) {
        err(QStringLiteral("weft-cli collective: --tokens and --hidden go together"));
        return false;
    }
    if (parser.isSet(o.tokens)) {
        const double t = parser.value(o.tokens).toDouble(&ok1);
        const double h = parser.value(o.hidden).toDouble(&ok2);
        if (!ok1 || !ok2 || !(t > 0) || !(h > 0)) {
            err(QStringLiteral("weft-cli collective: --tokens and --hidden must be > 0"));
            return false;
        }
        sizes = {t * routing.topK * h * (combine ? 2.0 : 1.0 + 4.0 / 128)};
    }
    return true;
}

// A failed simulation's message and exit code: what the request asks that the group cannot do
// (std::invalid_argument: ranks, algorithm, routing) is bad usage, anything else (unroutable
// pairs, the event limit) the design's.
int failed(const QString &path, const std::exception &e)
{
    err(QStringLiteral("weft-cli collective: %1: %2").arg(path, QString::fromStdString(e.what())));
    return dynamic_cast<const std::invalid_argument *>(&e) ? ExitUsage : ExitInvalid;
}

// weft-cli collective --op moe_dispatch|moe_combine: DeepEP's benchmark figures per size.
int runMoe(const Design &design, const QString &path, const std::vector<NodeId> &members,
           const std::vector<double> &sizes, const MoeRouting &routing, bool combine, bool json)
{
    std::vector<MoeBenchmark> rows;
    int domains = 0; // scale-up domains the group spans
    try {
        const Router router(design);
        std::set<int> seen;
        for (NodeId m : members)
            seen.insert(router.domainOf(router.nodeIndex(m)));
        domains = static_cast<int>(seen.size());
        for (double b : sizes)
            rows.push_back(benchmarkMoe(router, members, b, routing, combine));
    } catch (const std::exception &e) {
        return failed(path, e);
    }
    const QString op = combine ? QStringLiteral("moe_combine") : QStringLiteral("moe_dispatch");
    // the limit in effect: a token cannot reach more domains than the group spans (0: none)
    const int nodeLimit = routing.maxNodes > 0 ? std::min(routing.maxNodes, domains) : 0;
    const char *names[] = {"alltoall", "deepep", "hybridep"};
    const QString disp = QString::fromLatin1(names[static_cast<int>(routing.dispatcher)]);
    if (json) {
        QJsonArray arr;
        for (const MoeBenchmark &r : rows)
            arr.append(
                QJsonObject {{QStringLiteral("bytes"), r.bytes},
                             {QStringLiteral("time_s"), r.seconds},
                             {QStringLiteral("rdma_GBps"), r.rdmaBandwidth / 1e9},
                             {QStringLiteral("nvlink_GBps"), r.nvlinkBandwidth / 1e9},
                             {QStringLiteral("reported"),
                              r.rdmaBound ? QStringLiteral("rdma") : QStringLiteral("nvlink")}});
        const QJsonObject doc {{QStringLiteral("file"), path},
                               {QStringLiteral("op"), op},
                               {QStringLiteral("dispatcher"), disp},
                               {QStringLiteral("ranks"), static_cast<qint64>(members.size())},
                               {QStringLiteral("domains"), domains},
                               {QStringLiteral("top_k"), routing.topK},
                               {QStringLiteral("max_nodes"), nodeLimit},
                               {QStringLiteral("experts"), routing.experts},
                               {QStringLiteral("results"), arr}};
        out(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented)).trimmed());
        return ExitOk;
    }
    // Inside one domain nothing crosses RDMA: no domain limit, no RDMA column.
    const bool oneDomain = domains <= 1;
    out(QStringLiteral("# %1 (%2) over %3 ranks of %4 (%5), top-%6 of %7 experts%8; bandwidth "
                       "per rank as DeepEP's benchmark defines it (GB/s = 1e9 bytes/s): "
                       "%9NVLink = tokens received x bytes per token / time; 'reported' is the "
                       "one DeepEP's tables give")
            .arg(op, disp)
            .arg(members.size())
            .arg(path,
                 oneDomain ? QStringLiteral("one scale-up domain: NVLink only")
                           : QStringLiteral("%1 scale-up domains").arg(domains))
            .arg(routing.topK)
            .arg(routing.experts)
            .arg(oneDomain ? QString()
                     : nodeLimit > 0
                     ? QStringLiteral(", at most %1 of them per token").arg(nodeLimit)
                     : QStringLiteral(", no domain limit"))
            .arg(oneDomain ? QString()
                           : QStringLiteral("RDMA = tokens x domains reached x bytes per token / "
                                            "time, ")));
    out(QStringLiteral("%1 %2 %3 %4 %5  %6")
            .arg(QStringLiteral("size"), 12)
            .arg(QStringLiteral("bytes"), 14)
            .arg(QStringLiteral("time_us"), 12)
            .arg(QStringLiteral("rdma_GB/s"), 11)
            .arg(QStringLiteral("nvlink_GB/s"), 11)
            .arg(QStringLiteral("reported")));
    for (const MoeBenchmark &r : rows)
        out(QStringLiteral("%1 %2 %3 %4 %5  %6")
                .arg(humanSize(r.bytes), 12)
                .arg(r.bytes, 14, 'f', 0)
                .arg(r.seconds * 1e6, 12, 'f', 2)
                .arg(oneDomain ? QStringLiteral("-")
                               : QString::number(r.rdmaBandwidth / 1e9, 'f', 2),
                     11)
                .arg(r.nvlinkBandwidth / 1e9, 11, 'f', 2)
                .arg(r.rdmaBound ? QStringLiteral("rdma") : QStringLiteral("nvlink")));
    return ExitOk;
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
        "design files.\n"
        "moe_dispatch and moe_combine print DeepEP's benchmark figures instead: time_us, "
        "rdma_GB/s = a rank's tokens x the domains they reach (its own included) x bytes per "
        "token / time, nvlink_GB/s = tokens a rank receives x bytes per token / time, and "
        "'reported', the one DeepEP's tables give (rdma across scale-up domains, nvlink inside "
        "one). Across servers of up to 8 GPUs DeepEP's and HybridEP's kernels forward over "
        "NVLink at ~140 GB/s per rank, whatever the NVLink.\n\nExit codes: 0 simulated, 1 the "
        "design is invalid or its fabric cannot carry the collective (a pair without a route, "
        "the event limit), 2 bad usage (ranks, algorithm or routing the group cannot take) or an "
        "unreadable file."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Design file (.weft)."));
    const QCommandLineOption opOpt(
        QStringLiteral("op"),
        QStringLiteral("%1 (default all_reduce).").arg(kOps.join(QStringLiteral(" | "))),
        QStringLiteral("OP"), QStringLiteral("all_reduce"));
    const QCommandLineOption bytesOpt(
        QStringLiteral("bytes"),
        QStringLiteral("Message sizes per rank (nccl-tests' size; moe_*: what a rank sends, "
                       "tokens x top-k x bytes per token), comma separated; K, M, G suffixes "
                       "are powers of 1024 (e.g. 1M,64M,8G) (default 8G)."),
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
    const QCommandLineOption collNetOpt(
        QStringLiteral("collnet"),
        QStringLiteral("Let auto use in-network reduction across servers (InfiniBand SHARP, "
                       "NCCL's CollNet, as with NCCL_COLLNET_ENABLE=1); off by default, as in "
                       "NCCL. Auto decides as NCCL's tuner does."));
    const MoeOptions moeOpts;
    parser.addOptions({opOpt, bytesOpt, ranksOpt, algoOpt, jsonOpt, collNetOpt});
    parser.addOptions(moeOpts.all());
    if (const auto code = parseCommandLine(
            parser, args, QStringLiteral("collective"),
            QStringLiteral("weft-cli collective FILE [--op OP] [--bytes LIST] [--ranks LIST] "
                           "[--algorithm ALGO] [--collnet] [--json] [--dispatcher NAME --top-k K "
                           "--max-nodes M --experts E --tokens T --hidden H]")))
        return *code;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("weft-cli collective: expected one design FILE (see 'weft-cli "
                           "collective --help')"));
        return ExitUsage;
    }
    const QString opName = parser.value(opOpt);
    const bool moe
        = opName == QLatin1String("moe_dispatch") || opName == QLatin1String("moe_combine");
    CollectiveKind kind = CollectiveKind::AllToAll;
    if (!moe && !fromString(opName.toStdString(), kind)) {
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
    MoeRouting routing;
    if (moe && !parseMoe(parser, moeOpts, opName == QLatin1String("moe_combine"), routing, sizes))
        return ExitUsage;
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
    if (moe)
        return runMoe(design, path, members, sizes, routing, opName == QLatin1String("moe_combine"),
                      parser.isSet(jsonOpt));
    std::vector<CollectiveSweepRow> rows;
    try {
        CollectiveSpec base;
        base.kind = kind;
        base.members = members;
        base.algorithm = algo;
        base.ncclTuner = true;
        base.collNet = parser.isSet(collNetOpt);
        rows = sweepCollective(design, base, sizes);
    } catch (const std::exception &e) {
        return failed(path, e);
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
