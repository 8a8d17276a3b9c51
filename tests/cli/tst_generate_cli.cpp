// Tests of `weft-cli generate` and `weft-cli bom` through the real executable (QProcess):
// help text, exit codes, written files, the bill of materials, and that the committed examples
// are exactly what the generator produces today (so they never go stale).
#include "clirunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList &args)
{
    const weft::test::CliRun r = weft::test::runWeftCli(args);
    return {r.exitCode, QString::fromUtf8(r.out), QString::fromUtf8(r.err)};
}

/// The JSON object of the file at `path` (empty when it cannot be read).
QJsonObject readJson(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object()
                                       : QJsonObject();
}

QStringList referenceSu(const QString &out)
{
    return {u"generate"_s, u"--scaleup"_s,      u"dgx-h100"_s, u"--domains"_s, u"32"_s,
            u"--fabric"_s, u"rail-optimized"_s, u"--tiers"_s,  u"2"_s,         u"--switch"_s,
            u"qm9700"_s,   u"--nic-gbps"_s,     u"400"_s,      u"-o"_s,        out};
}

/// Lines "file.weft: flags..." of resources/examples/examples.txt (comments skipped).
QList<QPair<QString, QStringList>> exampleRecipes()
{
    QList<QPair<QString, QStringList>> out;
    QFile f(QStringLiteral(WEFT_RESOURCES_DIR "/examples/examples.txt"));
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return out;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const qsizetype colon = line.indexOf(u':');
        out.append(
            {line.left(colon).trimmed(), line.mid(colon + 1).split(u' ', Qt::SkipEmptyParts)});
    }
    return out;
}

} // namespace

class TestGenerateCli : public QObject
{
    Q_OBJECT
private slots:
    void help()
    {
        const Run r = runCli({u"generate"_s, u"--help"_s});
        QCOMPARE(r.code, 0);
        for (const char *flag :
             {"--scaleup", "--domains", "--fabric", "--tiers", "--switch", "--nic-gbps",
              "--oversubscription", "--planes", "--su-size", "--output"})
            QVERIFY2(r.out.contains(QLatin1String(flag)), flag);
        QVERIFY(r.out.contains(u"Gb/s"_s));
        QVERIFY(r.out.contains(u"(default 2)"_s)); // tiers
        QVERIFY(r.out.contains(u"qm9700"_s)); // switch presets listed
        QVERIFY(r.out.contains(u"gb200-nvl72"_s)); // scale-up presets listed
        QCOMPARE(runCli({u"bom"_s, u"--help"_s}).code, 0);
    }

    void generateAndBom()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"su.weft"_s);
        const Run g = runCli(referenceSu(file));
        QCOMPARE(g.code, 0);
        QVERIFY(QFileInfo::exists(file));
        // 256 GPUs; 128 NVSwitch + 8 leaves + 4 spines = 140 switches (tst_generate).
        QVERIFY2(g.out.contains(u"256 accelerators, 140 switches"_s), qPrintable(g.out));

        const Run table = runCli({u"bom"_s, file});
        QCOMPARE(table.code, 0);
        QVERIFY(table.out.contains(u"Bill of materials"_s));
        QVERIFY(table.out.contains(u"transceivers"_s));
        const Run csv = runCli({u"bom"_s, file, u"--csv"_s});
        QCOMPARE(csv.code, 0);
        const QStringList rows = csv.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(rows.contains(u"switch,leaf,qm9700,Quantum-2 QM9700,,8,,,"_s)
                || rows.filter(u"switch,leaf,qm9700,"_s).value(0).endsWith(u",,8,,,"_s));
        QVERIFY(!rows.filter(u"switch,spine,qm9700,"_s).isEmpty());
        QVERIFY(rows.filter(u"switch,spine,qm9700,"_s).first().endsWith(u",,4,,,"_s));
        QVERIFY(rows.contains(u"link,leaf-spine,,,optical,,32,256,256"_s));
    }

    void doesNotFit()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"big.weft"_s);
        QStringList args = referenceSu(file);
        args[args.indexOf(u"32"_s)] = u"2048"_s;
        const Run r = runCli(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"--tiers 3"_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"2048 NICs per plane"_s));
        QVERIFY(!QFileInfo::exists(file));
    }

    void workloadThatCannotRunIsReported_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("code");
        // 2 DGX H100 domains = 16 GPUs; llama3-8b has 32 heads.
        QTest::newRow("tp 3") << QStringList {u"--tp"_s, u"3"_s} << u"heads-not-divisible-by-tp"_s;
        QTest::newRow("world 256 on 16")
            << QStringList {u"--tp"_s, u"8"_s, u"--pp"_s, u"4"_s, u"--dp"_s, u"8"_s} << u"256"_s;
        QTest::newRow("placement")
            << QStringList {u"--placement"_s, u"foo"_s} << u"placement-order-invalid"_s;
        QTest::newRow("global batch")
            << QStringList {u"--global-batch"_s, u"7"_s} << u"batch-not-divisible"_s;
    }
    void workloadThatCannotRunIsReported()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, code);
        QTemporaryDir dir;
        const QString file = dir.filePath(u"w.weft"_s);
        const Run r
            = runCli(QStringList {u"generate"_s, u"--domains"_s, u"2"_s, u"-o"_s, file} + flags);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(u"weft-cli generate: error ["_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(code), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"cannot be simulated"_s), qPrintable(r.err));
        QVERIFY(QFileInfo::exists(file)); // written, to be fixed by hand
        // validate agrees with generate.
        QCOMPARE(runCli({u"validate"_s, u"-q"_s, file}).code, 1);
    }
    // Counts of one are singular: "(1 error above)", "invalid: 1 error, 0 warnings", "not
    // simulated: 1 error above" (issue 18 found "(1, 1 errors)" and "1 spines").
    void oneErrorInWords()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"one.weft"_s);
        const Run g = runCli({u"generate"_s, u"--domains"_s, u"2"_s, u"--tp"_s, u"8"_s,
                              u"--global-batch"_s, u"7"_s, u"-o"_s, file});
        QCOMPARE(g.code, 1);
        QVERIFY2(g.err.contains(u"(1 error above)"_s), qPrintable(g.err));
        const Run v = runCli({u"validate"_s, file});
        QVERIFY2(v.out.contains(u": invalid: 1 error, 0 warnings;"_s), qPrintable(v.out));
        const Run s = runCli({u"simulate"_s, file});
        QVERIFY2(s.out.contains(u"not simulated: 1 error above"_s), qPrintable(s.out));
        for (const Run *r : {&g, &v, &s})
            QVERIFY2(!(r->out + r->err).contains(u"1 errors"_s), qPrintable(r->out + r->err));
    }
    void runnableWorkloadIsQuiet()
    {
        QTemporaryDir dir;
        const Run r = runCli({u"generate"_s, u"--domains"_s, u"2"_s, u"--tp"_s, u"8"_s, u"-o"_s,
                              dir.filePath(u"ok.weft"_s)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    }
    // MoE with TP > 1 runs only with sequence parallelism (Megatron-LM validate_args), so
    // without the flag generate turns it on (it refused "moe-tp-needs-sequence-parallel" with
    // the default no); the flag still decides, and refuses, when given.
    void moeWithTpGetsSequenceParallelism()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"moe.weft"_s);
        const QStringList moe {u"generate"_s,
                               u"--domains"_s,
                               u"2"_s,
                               u"--model"_s,
                               u"qwen3-30b-a3b"_s,
                               u"--tp"_s,
                               u"2"_s,
                               u"--ep"_s,
                               u"8"_s,
                               u"--etp"_s,
                               u"1"_s,
                               u"--distributed-optimizer"_s,
                               u"yes"_s,
                               u"-o"_s,
                               file};
        const Run r = runCli(moe);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains(u"moe-tp-needs-sequence-parallel"_s), qPrintable(r.err));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("\"sequence_parallel\": true"));
        const Run off = runCli(moe + QStringList {u"--sequence-parallel"_s, u"no"_s});
        QCOMPARE(off.code, 1);
        QVERIFY2(off.err.contains(u"moe-tp-needs-sequence-parallel"_s), qPrintable(off.err));
        const QString help = runCli({u"generate"_s, u"--help"_s}).out.simplified();
        QVERIFY2(help.contains(u"(default no; yes for a MoE model with --tp > 1, which "
                               "Megatron-Core requires)"_s),
                 qPrintable(help));
    }

    void workloadHelpGivesDefaults()
    {
        const QString help = runCli({u"generate"_s, u"--help"_s}).out.simplified();
        for (const char *fragment :
             {"(default llama3-8b)", "(default the preset's, 32 for llama3-8b)",
              "Tensor parallel degree (default 1)", "accelerators / (tp x pp x cp)",
              "(default 1f1b; interleaved-1f1b when --vpp > 1)", "(default none)", "(default bf16)",
              "(default tp-cp-ep-dp-pp)", "ZeRO stage 0-3 (default 0)",
              "(default 4 x pp micro-batches per replica"})
            QVERIFY2(help.contains(QLatin1String(fragment)), fragment);
    }

    // Every workload field of the file format is settable from the command line.
    void modernWorkloadFlagsReachTheFile()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"m.weft"_s);
        const Run r = runCli({u"generate"_s,
                              u"--domains"_s,
                              u"2"_s,
                              u"--tp"_s,
                              u"2"_s,
                              u"--cp"_s,
                              u"2"_s,
                              u"--attention"_s,
                              u"fa2"_s,
                              u"--overlap"_s,
                              u"dp,tp,ep"_s,
                              u"--distributed-optimizer"_s,
                              u"yes"_s,
                              u"--fsdp"_s,
                              u"yes"_s,
                              u"--hsdp-shard-group"_s,
                              u"4"_s,
                              u"--cp-kind"_s,
                              u"ring"_s,
                              u"--tp-overlap"_s,
                              u"async-tp"_s,
                              u"--recompute-modules"_s,
                              u"core_attn,mlp"_s,
                              u"--dtype"_s,
                              u"fp8"_s,
                              u"--fp8-recipe"_s,
                              u"blockwise"_s,
                              u"--fp8-param-gather"_s,
                              u"yes"_s,
                              u"--cuda-graphs"_s,
                              u"yes"_s,
                              u"--launch-overhead-us"_s,
                              u"4"_s,
                              u"--activation-clamp"_s,
                              u"7"_s,
                              u"--linear-bias"_s,
                              u"yes"_s,
                              u"--qk-norm"_s,
                              u"yes"_s,
                              u"--rope-attention-factor"_s,
                              u"1.5"_s,
                              u"--moe-router-fusion"_s,
                              u"no"_s,
                              u"-o"_s,
                              file});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject t = readJson(file)[u"workload"_s].toObject()[u"training"_s].toObject();
        QCOMPARE(t[u"attention"_s].toString(), u"fa2"_s);
        QCOMPARE(t[u"cp_kind"_s].toString(), u"ring"_s);
        QCOMPARE(t[u"overlap"_s].toObject()[u"tp_kind"_s].toString(), u"async-tp"_s);
        QCOMPARE(t[u"recompute"_s].toString(), u"selective"_s);
        QCOMPARE(t[u"recompute_modules"_s].toString(), u"core_attn,mlp"_s);
        QCOMPARE(t[u"fp8_recipe"_s].toString(), u"blockwise"_s);
        QVERIFY(t[u"fsdp"_s].toBool() && t[u"fp8_param_gather"_s].toBool());
        QCOMPARE(t[u"cuda_graphs"_s].toString(), u"layers"_s); // yes: the layers' graphs
        QVERIFY(t[u"distributed_optimizer"_s].toBool());
        QCOMPARE(t[u"hsdp_shard_group"_s].toInt(), 4);
        QCOMPARE(t[u"launch_overhead_us"_s].toDouble(), 4.0);
        QVERIFY(t.contains(u"moe_router_fusion"_s) && !t[u"moe_router_fusion"_s].toBool());
        const QJsonObject m = readJson(file)[u"workload"_s].toObject()[u"model"_s].toObject();
        QCOMPARE(m[u"activation_clamp"_s].toDouble(), 7.0);
        QVERIFY(m[u"linear_bias"_s].toBool());
        QVERIFY(m[u"qk_norm"_s].toBool());
        QCOMPARE(m[u"rope_attention_factor"_s].toDouble(), 1.5);
        const QJsonObject o = t[u"overlap"_s].toObject();
        QVERIFY(o[u"dp_grad"_s].toBool() && o[u"tp"_s].toBool() && o[u"ep"_s].toBool());
        QVERIFY(!o[u"pp"_s].toBool());
        // The written workload read back through --workload gives the same file.
        const QString again = dir.filePath(u"again.weft"_s);
        const Run r2 = runCli(
            {u"generate"_s, u"--domains"_s, u"2"_s, u"--workload"_s, file, u"-o"_s, again});
        QVERIFY2(r2.code == 0, qPrintable(r2.err));
        QCOMPARE(readJson(again)[u"workload"_s], readJson(file)[u"workload"_s]);
    }
    // Changing a preset's shape without naming the model renames it; the preset's own shape
    // keeps the name.
    void modelNameKeptHonest_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("name");
        QTest::newRow("preset") << QStringList {u"--model"_s, u"llama3-8b"_s} << u"llama3-8b"_s;
        QTest::newRow("override") << QStringList {u"--layers"_s, u"16"_s} << u"llama3-8b-custom"_s;
        QTest::newRow("clamp") << QStringList {u"--activation-clamp"_s, u"7"_s}
                               << u"llama3-8b-custom"_s;
        QTest::newRow("bias") << QStringList {u"--linear-bias"_s, u"yes"_s}
                              << u"llama3-8b-custom"_s;
        QTest::newRow("named") << QStringList {u"--model"_s,  u"mine"_s, u"--layers"_s, u"2"_s,
                                               u"--hidden"_s, u"512"_s,  u"--heads"_s,  u"8"_s,
                                               u"--ffn"_s,    u"2048"_s, u"--vocab"_s,  u"1000"_s,
                                               u"--seq"_s,    u"512"_s}
                               << u"mine"_s;
    }
    void modelNameKeptHonest()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString file = dir.filePath(u"n.weft"_s);
        // TP 8: Llama 3 8B without sharding needs 16 bytes per parameter on each of 16 GPUs.
        const Run r = runCli(
            QStringList {u"generate"_s, u"--domains"_s, u"2"_s, u"--tp"_s, u"8"_s, u"-o"_s, file}
            + flags);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(
            readJson(file)[u"workload"_s].toObject()[u"model"_s].toObject()[u"name"_s].toString(),
            name);
    }
    // --accelerator picks a power/memory variant of the preset's accelerator.
    void acceleratorVariant()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"v.weft"_s);
        const Run r
            = runCli({u"generate"_s, u"--accelerator"_s, u"h100-sxm@500w,96gb"_s, u"-o"_s, file});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonArray accs
            = readJson(file)[u"hardware"_s].toObject()[u"accelerators"_s].toArray();
        QCOMPARE(accs.size(), 1);
        const QJsonObject a = accs.first().toObject();
        QCOMPARE(a[u"key"_s].toString(), u"h100-sxm@500w,96gb"_s);
        QCOMPARE(a[u"power_w"_s].toDouble(), 500.0);
        QCOMPARE(a[u"hbm_gb"_s].toDouble(), 100.93);
        // the design's name says which accelerator, not only the preset's
        const QString name = readJson(file)[u"design"_s].toObject()[u"name"_s].toString();
        QVERIFY2(name.startsWith(u"1 x dgx-h100 with h100-sxm@500w,96gb, "_s), qPrintable(name));
        QVERIFY2(r.out.contains(u"dgx-h100 with h100-sxm@500w,96gb"_s), qPrintable(r.out));
    }

    void badUsage_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("message");
        QTest::newRow("tiers") << QStringList {u"--tiers"_s, u"5"_s} << u"--tiers"_s;
        QTest::newRow("fabric") << QStringList {u"--fabric"_s, u"mesh"_s} << u"--fabric"_s;
        QTest::newRow("domains") << QStringList {u"--domains"_s, u"abc"_s} << u"--domains"_s;
        QTest::newRow("ratio") << QStringList {u"--oversubscription"_s, u"0.5"_s}
                               << u"--oversubscription"_s;
        QTest::newRow("nic") << QStringList {u"--nic-gbps"_s, u"-4"_s} << u"--nic-gbps"_s;
        QTest::newRow("unknown flag") << QStringList {u"--frobnicate"_s} << u"frobnicate"_s;
        QTest::newRow("stray argument") << QStringList {u"extra"_s} << u"extra"_s;
        QTest::newRow("catalog") << QStringList {u"--catalog"_s, u"/nonexistent.json"_s}
                                 << u"nonexistent.json"_s;
        QTest::newRow("overlap") << QStringList {u"--overlap"_s, u"dp,xx"_s} << u"--overlap"_s;
        QTest::newRow("module") << QStringList {u"--recompute-modules"_s, u"mlp,foo"_s} << u"foo"_s;
        QTest::newRow("recipe") << QStringList {u"--fp8-recipe"_s, u"fp6"_s} << u"--fp8-recipe"_s;
        QTest::newRow("workload file")
            << QStringList {u"--workload"_s, u"/nonexistent.json"_s} << u"nonexistent.json"_s;
        QTest::newRow("variant") << QStringList {u"--accelerator"_s, u"h100-sxm@400w"_s}
                                 << u"500w"_s;
        QTest::newRow("clamp") << QStringList {u"--activation-clamp"_s, u"-1"_s}
                               << u"--activation-clamp"_s;
        QTest::newRow("graphs") << QStringList {u"--cuda-graphs"_s, u"everything"_s}
                                << u"full-iteration"_s; // the error lists the scopes
        // A near miss names the preset (the message repeated --layers and suggested nothing).
        QTest::newRow("near preset")
            << QStringList {u"--model"_s, u"qwen3-235b"_s} << u"(did you mean qwen3-235b-a22b?)"_s;
        QTest::newRow("new model") << QStringList {u"--model"_s, u"mine"_s, u"--layers"_s, u"2"_s}
                                   << u"(--hidden is missing)"_s;
    }
    // --cuda-graphs takes a scope; yes and no (the flag's values before the full-iteration
    // scope) stay the layers' graphs and none.
    void cudaGraphScopes_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("written");
        QTest::newRow("full") << u"full-iteration"_s << u"full-iteration"_s;
        QTest::newRow("layers") << u"layers"_s << u"layers"_s;
        QTest::newRow("yes") << u"yes"_s << u"layers"_s;
        QTest::newRow("no") << u"no"_s << u"none"_s;
    }
    void cudaGraphScopes()
    {
        QFETCH(QString, value);
        QFETCH(QString, written);
        QTemporaryDir dir;
        const QString file = dir.filePath(u"g.weft"_s);
        const Run r
            = runCli({u"generate"_s, u"--tp"_s, u"8"_s, u"--cuda-graphs"_s, value, u"-o"_s, file});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readJson(file)[u"workload"_s]
                     .toObject()[u"training"_s]
                     .toObject()[u"cuda_graphs"_s]
                     .toString(),
                 written);
    }
    void badUsage()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const Run r
            = runCli(QStringList {u"generate"_s, u"-o"_s, dir.filePath(u"x.weft"_s)} + flags);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void missingOutputAndUnwritable()
    {
        QCOMPARE(runCli({u"generate"_s, u"--domains"_s, u"2"_s}).code, 2);
        const Run r = runCli(referenceSu(u"/nonexistent-dir/x.weft"_s));
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"nonexistent-dir"_s));
    }

    void unknownPresetIsAUsageError()
    {
        // An unknown preset or switch is bad usage (exit 2) naming the known ones, not a fabric
        // that does not fit (exit 1).
        QTemporaryDir dir;
        Run r = runCli(
            {u"generate"_s, u"--scaleup"_s, u"dgx-z9"_s, u"-o"_s, dir.filePath(u"x.weft"_s)});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"unknown scale-up preset dgx-z9; known: "_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"dgx-h100"_s));
        QVERIFY(!r.err.contains(u"does not fit"_s));
        r = runCli({u"generate"_s, u"--switch"_s, u"qm1"_s, u"-o"_s, dir.filePath(u"x.weft"_s)});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(u"unknown switch qm1; known: "_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"qm9700"_s));
        QVERIFY(!QFileInfo::exists(dir.filePath(u"x.weft"_s)));
    }

    void bomErrors()
    {
        QCOMPARE(runCli({u"bom"_s}).code, 2);
        const Run r = runCli({u"bom"_s, u"/nonexistent.weft"_s});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(u"/nonexistent.weft"_s));
        QTemporaryDir dir;
        QFile bad(dir.filePath(u"bad.weft"_s));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"weft.design\", ");
        bad.close();
        QCOMPARE(runCli({u"bom"_s, bad.fileName()}).code, 2);
    }

    void examplesAreCurrent_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("flags");
        const auto recipes = exampleRecipes();
        QVERIFY(recipes.size() >= 5);
        for (const auto &[file, flags] : recipes)
            QTest::newRow(qPrintable(file)) << file << flags;
    }
    void examplesAreCurrent()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, flags);
        QTemporaryDir dir;
        const QString regenerated = dir.filePath(file);
        const Run r
            = runCli(QStringList {u"generate"_s} + flags + QStringList {u"-o"_s, regenerated});
        QCOMPARE(r.code, 0);
        QFile a(QStringLiteral(WEFT_RESOURCES_DIR "/examples/") + file);
        QFile b(regenerated);
        QVERIFY2(a.open(QIODevice::ReadOnly), qPrintable(a.fileName()));
        QVERIFY(b.open(QIODevice::ReadOnly));
        // Byte-identical, else the example is stale: run scripts/regenerate-examples.sh.
        QVERIFY2(a.readAll() == b.readAll(), qPrintable(file + u" is stale"_s));
    }
};

QTEST_GUILESS_MAIN(TestGenerateCli)
#include "tst_generate_cli.moc"
