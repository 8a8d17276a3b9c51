#include "workloadoptions.h"

#include <algorithm>

namespace weft::cli {

namespace {

struct IntFlag
{
    const char *name;
    const char *help;
};

constexpr IntFlag kModelInts[] = {
    {"layers", "transformer layers"},   {"hidden", "hidden size"},
    {"heads", "attention heads"},       {"kv-heads", "key/value heads (GQA)"},
    {"ffn", "MLP hidden size"},         {"vocab", "vocabulary size"},
    {"seq", "sequence length, tokens"}, {"experts", "routed experts per MoE layer (0: dense)"},
    {"top-k", "experts per token"},     {"moe-ffn", "hidden size of one expert"},
};
constexpr IntFlag kTrainingInts[] = {
    {"tp", "tensor parallel degree"},
    {"pp", "pipeline parallel degree"},
    {"dp", "data parallel degree"},
    {"cp", "context parallel degree"},
    {"ep", "expert parallel degree"},
    {"vpp", "virtual stages per pipeline rank"},
    {"micro-batch", "micro-batch, sequences"},
    {"global-batch", "global batch, sequences"},
    {"zero", "ZeRO stage 0-3"},
};

bool yesNo(const QString &v, bool &out)
{
    if (v == QLatin1String("yes") || v == QLatin1String("true") || v == QLatin1String("on"))
        out = true;
    else if (v == QLatin1String("no") || v == QLatin1String("false") || v == QLatin1String("off"))
        out = false;
    else
        return false;
    return true;
}

} // namespace

void addWorkloadOptions(QCommandLineParser &p)
{
    p.addOption({QStringLiteral("model"),
                 QStringLiteral("model preset (gpt3-175b, llama3-8b, llama3-70b, llama3-405b, "
                                "mixtral-8x7b, deepseek-v3, ...) or a new name"),
                 QStringLiteral("NAME")});
    for (const IntFlag &f : kModelInts)
        p.addOption(
            {QString::fromLatin1(f.name), QString::fromLatin1(f.help), QStringLiteral("N")});
    p.addOption({QStringLiteral("gated-mlp"), QStringLiteral("SwiGLU MLP: yes|no"),
                 QStringLiteral("yes|no")});
    for (const IntFlag &f : kTrainingInts)
        p.addOption(
            {QString::fromLatin1(f.name), QString::fromLatin1(f.help), QStringLiteral("N")});
    p.addOption({QStringLiteral("schedule"), QStringLiteral("gpipe, 1f1b or interleaved-1f1b"),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("recompute"), QStringLiteral("none, selective or full"),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("sequence-parallel"),
                 QStringLiteral("sequence parallelism: yes|no"), QStringLiteral("yes|no")});
    p.addOption({QStringLiteral("dtype"), QStringLiteral("GEMM datatype: bf16 or fp8"),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("placement"),
                 QStringLiteral("rank order, fastest first (default tp-cp-ep-dp-pp)"),
                 QStringLiteral("ORDER")});
}

std::optional<Workload> workloadFromOptions(const QCommandLineParser &p, long long accelerators,
                                            QString &error)
{
    bool any = p.isSet(QStringLiteral("model"));
    for (const IntFlag &f : kModelInts)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const IntFlag &f : kTrainingInts)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const char *n :
         {"gated-mlp", "schedule", "recompute", "sequence-parallel", "dtype", "placement"})
        any = any || p.isSet(QString::fromLatin1(n));
    if (!any)
        return std::nullopt;

    Workload w;
    const QString model = p.value(QStringLiteral("model"));
    if (const auto preset = modelPreset(model.toStdString())) {
        w.model = *preset;
    } else if (!model.isEmpty()) {
        w.model.name = model.toStdString();
        for (const char *need : {"layers", "hidden", "heads", "ffn", "vocab", "seq"})
            if (!p.isSet(QString::fromLatin1(need))) {
                error = QStringLiteral(
                            "--model %1 is not a preset: give --%2 (and --layers --hidden --heads "
                            "--ffn --vocab --seq)")
                            .arg(model, QString::fromLatin1(need));
                return std::nullopt;
            }
    } else {
        w.model = *modelPreset("llama3-8b");
    }
    auto intValue = [&](const char *name, int lo, int &target) {
        const QString flag = QString::fromLatin1(name);
        if (!p.isSet(flag))
            return true;
        bool ok = false;
        const int v = p.value(flag).toInt(&ok);
        if (!ok || v < lo) {
            error = QStringLiteral("--%1: '%2' is not an integer >= %3")
                        .arg(flag, p.value(flag))
                        .arg(lo);
            return false;
        }
        target = v;
        return true;
    };
    TransformerSpec &m = w.model;
    TrainingConfig &c = w.config;
    const bool kvSet = p.isSet(QStringLiteral("kv-heads"));
    if (!intValue("layers", 1, m.layers) || !intValue("hidden", 1, m.hidden)
        || !intValue("heads", 1, m.heads) || !intValue("kv-heads", 1, m.kvHeads)
        || !intValue("ffn", 1, m.ffn) || !intValue("vocab", 1, m.vocab)
        || !intValue("seq", 1, m.seq) || !intValue("experts", 0, m.experts)
        || !intValue("top-k", 0, m.topK) || !intValue("moe-ffn", 0, m.expertFfn))
        return std::nullopt;
    if (p.isSet(QStringLiteral("heads")) && !kvSet && !modelPreset(model.toStdString()))
        m.kvHeads = m.heads;
    if (m.experts > 0 && m.expertFfn == 0)
        m.expertFfn = m.ffn;
    if (m.experts > 0 && m.topK == 0)
        m.topK = 1;
    if (p.isSet(QStringLiteral("gated-mlp"))
        && !yesNo(p.value(QStringLiteral("gated-mlp")), m.gatedMlp)) {
        error = QStringLiteral("--gated-mlp: use yes or no");
        return std::nullopt;
    }
    c.dp = 0;
    c.globalBatch = 0;
    if (!intValue("tp", 1, c.tp) || !intValue("pp", 1, c.pp) || !intValue("dp", 1, c.dp)
        || !intValue("cp", 1, c.cp) || !intValue("ep", 1, c.ep) || !intValue("vpp", 1, c.vpp)
        || !intValue("micro-batch", 1, c.microBatch) || !intValue("global-batch", 1, c.globalBatch)
        || !intValue("zero", 0, c.zeroStage))
        return std::nullopt;
    if (c.zeroStage > 3) {
        error = QStringLiteral("--zero: the ZeRO stage is 0, 1, 2 or 3");
        return std::nullopt;
    }
    if (c.dp == 0)
        c.dp = static_cast<int>(std::max(1LL, accelerators / (1LL * c.tp * c.pp * c.cp)));
    if (c.globalBatch == 0)
        c.globalBatch = c.microBatch * c.dp * 4 * c.pp;
    if (c.vpp > 1 && !p.isSet(QStringLiteral("schedule")))
        c.schedule = PipelineSchedule::Interleaved;
    auto enumValue = [&](const char *name, auto &target, const char *choices) {
        const QString flag = QString::fromLatin1(name);
        if (p.isSet(flag) && !fromString(p.value(flag).toStdString(), target)) {
            error = QStringLiteral("--%1: '%2' is not one of %3")
                        .arg(flag, p.value(flag), QString::fromLatin1(choices));
            return false;
        }
        return true;
    };
    if (!enumValue("schedule", c.schedule, "gpipe, 1f1b, interleaved-1f1b")
        || !enumValue("recompute", c.recompute, "none, selective, full")
        || !enumValue("dtype", c.dtype, "bf16, fp8"))
        return std::nullopt;
    if (p.isSet(QStringLiteral("sequence-parallel"))
        && !yesNo(p.value(QStringLiteral("sequence-parallel")), c.sequenceParallel)) {
        error = QStringLiteral("--sequence-parallel: use yes or no");
        return std::nullopt;
    }
    if (p.isSet(QStringLiteral("placement")))
        w.placement.order = p.value(QStringLiteral("placement")).toStdString();
    return w;
}

} // namespace weft::cli
