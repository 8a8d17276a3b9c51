#include "workloadoptions.h"

#include "model/hardware.h"

#include <QStringList>
#include <algorithm>

namespace weft::cli {

namespace {

// The preset of the model flags when --model is not given.
constexpr const char *kDefaultModel = "llama3-8b";

template<class Spec> struct IntFlag
{
    const char *name;
    const char *help;
    int Spec::*field; ///< its default is this field of the default model or configuration
    const char *defaultText = nullptr; ///< instead of the field, when the default is computed
    const char *newModel = nullptr; ///< the default for a --model that is not a preset
};

constexpr IntFlag<TransformerSpec> kModelInts[] = {
    {"layers", "Transformer layers", &TransformerSpec::layers},
    {"hidden", "Hidden size", &TransformerSpec::hidden},
    {"heads", "Attention heads", &TransformerSpec::heads},
    {"kv-heads", "Key/value heads (GQA)", &TransformerSpec::kvHeads, nullptr, "--heads"},
    {"ffn", "MLP hidden size", &TransformerSpec::ffn},
    {"vocab", "Vocabulary size", &TransformerSpec::vocab},
    {"seq", "Sequence length, tokens", &TransformerSpec::seq},
    {"experts", "Routed experts per MoE layer (0: dense)", &TransformerSpec::experts, nullptr, "0"},
    {"top-k", "Experts per token", &TransformerSpec::topK, nullptr, "1 with experts"},
    {"moe-ffn", "Hidden size of one expert", &TransformerSpec::expertFfn, nullptr,
     "--ffn with experts"},
};
constexpr IntFlag<TrainingConfig> kTrainingInts[] = {
    {"tp", "Tensor parallel degree", &TrainingConfig::tp},
    {"pp", "Pipeline parallel degree", &TrainingConfig::pp},
    {"dp", "Data parallel degree", &TrainingConfig::dp,
     "as many replicas as fit: accelerators / (tp x pp x cp)"},
    {"cp", "Context parallel degree", &TrainingConfig::cp},
    {"ep", "Expert parallel degree", &TrainingConfig::ep},
    {"vpp", "Virtual stages per pipeline rank", &TrainingConfig::vpp},
    {"micro-batch", "Micro-batch, sequences", &TrainingConfig::microBatch},
    {"global-batch", "Global batch, sequences", &TrainingConfig::globalBatch,
     "4 x pp micro-batches per replica: 4 x pp x dp x micro-batch"},
    {"zero", "ZeRO stage 0-3", &TrainingConfig::zeroStage},
};

template<class Spec> QString intDefault(const IntFlag<Spec> &f, const Spec &defaults)
{
    return f.defaultText ? QString::fromLatin1(f.defaultText)
                         : QString::number(defaults.*(f.field));
}

QString yesNoText(bool v)
{
    return v ? QStringLiteral("yes") : QStringLiteral("no");
}

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
    const TransformerSpec model = *modelPreset(kDefaultModel);
    const TrainingConfig config;
    const Placement placement;
    QStringList presets;
    for (const std::string &k : modelPresetKeys())
        presets << QString::fromStdString(k);
    const auto add = [&p](const char *name, const QString &help, const QString &dflt,
                          const char *value) {
        p.addOption({QString::fromLatin1(name), QStringLiteral("%1 (default %2).").arg(help, dflt),
                     QString::fromLatin1(value)});
    };
    add("model",
        QStringLiteral("Model preset (%1) or a new name, which needs --layers --hidden --heads "
                       "--ffn --vocab --seq")
            .arg(presets.join(QStringLiteral(", "))),
        QString::fromLatin1(kDefaultModel), "NAME");
    for (const auto &f : kModelInts)
        add(f.name, QStringLiteral("%1; overrides the preset's").arg(QString::fromLatin1(f.help)),
            QStringLiteral("the preset's, %1 for %2%3")
                .arg(intDefault(f, model), QString::fromLatin1(kDefaultModel),
                     f.newModel ? QStringLiteral("; %1 for a new model")
                                      .arg(QString::fromLatin1(f.newModel))
                                : QString()),
            "N");
    add("gated-mlp", QStringLiteral("SwiGLU MLP: yes or no; overrides the preset's"),
        QStringLiteral("the preset's, %1 for %2")
            .arg(yesNoText(model.gatedMlp), QString::fromLatin1(kDefaultModel)),
        "yes|no");
    for (const auto &f : kTrainingInts)
        add(f.name, QString::fromLatin1(f.help), intDefault(f, config), "N");
    add("schedule", QStringLiteral("Pipeline schedule: gpipe, 1f1b or interleaved-1f1b"),
        QStringLiteral("%1; interleaved-1f1b when --vpp > 1")
            .arg(QString::fromLatin1(toString(config.schedule))),
        "NAME");
    add("recompute", QStringLiteral("Activation recomputation: none, selective or full"),
        QString::fromLatin1(toString(config.recompute)), "NAME");
    add("sequence-parallel", QStringLiteral("Sequence parallelism: yes or no"),
        yesNoText(config.sequenceParallel), "yes|no");
    add("dtype", QStringLiteral("GEMM datatype: bf16 or fp8"),
        QString::fromLatin1(toString(config.dtype)), "NAME");
    add("placement",
        QStringLiteral("Rank order, fastest-varying dimension first: tp, cp, ep, dp, pp joined "
                       "by '-'"),
        QString::fromStdString(placement.order), "ORDER");
}

std::optional<Workload> workloadFromOptions(const QCommandLineParser &p, long long accelerators,
                                            QString &error)
{
    bool any = p.isSet(QStringLiteral("model"));
    for (const auto &f : kModelInts)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const auto &f : kTrainingInts)
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
        w.model = *modelPreset(kDefaultModel);
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
