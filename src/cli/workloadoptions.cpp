#include "workloadoptions.h"

#include "io/workloadjson.h"
#include "model/hardware.h"

#include <QStringList>
#include <algorithm>
#include <tuple>

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
    {"shared-experts", "Always-active experts per MoE layer", &TransformerSpec::sharedExperts,
     nullptr, "0"},
    {"first-dense-layers", "Leading layers with a dense MLP", &TransformerSpec::firstDenseLayers,
     nullptr, "0"},
    {"moe-every", "Every n-th layer after the dense ones is MoE", &TransformerSpec::moeEvery,
     nullptr, "1"},
    {"router-group-topk", "Node-limited routing: each token to at most N groups (0: no limit)",
     &TransformerSpec::routerGroupTopK, nullptr, "0"},
    {"head-dim", "Attention head dimension (0: hidden / heads)", &TransformerSpec::headDim, nullptr,
     "0"},
    {"kv-lora-rank", "MLA key-value latent rank (0: no MLA)", &TransformerSpec::kvLoraRank, nullptr,
     "0"},
    {"q-lora-rank", "MLA query latent rank (0: no query latent)", &TransformerSpec::qLoraRank,
     nullptr, "0"},
    {"qk-nope-head-dim", "MLA non-rotary query/key head dimension", &TransformerSpec::qkNopeHeadDim,
     nullptr, "0"},
    {"qk-rope-head-dim", "MLA rotary query/key head dimension", &TransformerSpec::qkRopeHeadDim,
     nullptr, "0"},
    {"v-head-dim", "MLA value head dimension", &TransformerSpec::vHeadDim, nullptr, "0"},
    {"sliding-window", "Sliding-window attention, tokens (0: every layer full)",
     &TransformerSpec::slidingWindow, nullptr, "0"},
    {"window-every", "Layers i with i % N == --window-offset use the window",
     &TransformerSpec::windowEvery, nullptr, "1"},
    {"window-offset", "See --window-every", &TransformerSpec::windowOffset, nullptr, "0"},
};
constexpr IntFlag<TrainingConfig> kTrainingInts[] = {
    {"tp", "Tensor parallel degree", &TrainingConfig::tp},
    {"pp", "Pipeline parallel degree", &TrainingConfig::pp},
    {"dp", "Data parallel degree", &TrainingConfig::dp,
     "as many replicas as fit: accelerators / (tp x pp x cp)"},
    {"cp", "Context parallel degree", &TrainingConfig::cp},
    {"ep", "Expert parallel degree", &TrainingConfig::ep},
    {"etp", "Expert tensor parallel degree (0: the same as --tp, as Megatron-Core)",
     &TrainingConfig::etp},
    {"vpp", "Virtual stages per pipeline rank", &TrainingConfig::vpp},
    {"micro-batch", "Micro-batch, sequences", &TrainingConfig::microBatch},
    {"global-batch", "Global batch, sequences", &TrainingConfig::globalBatch,
     "4 x pp micro-batches per replica: 4 x pp x dp x micro-batch"},
    {"zero", "ZeRO stage 0-3", &TrainingConfig::zeroStage},
    {"hsdp-shard-group", "HSDP: shard inside groups of N DP x CP ranks (0: FSDP over all)",
     &TrainingConfig::fsdpShardGroup},
};

// yes/no flags of the file format, each with its field.
struct BoolFlag
{
    const char *name;
    const char *help;
    bool TrainingConfig::*field;
};
constexpr BoolFlag kTrainingBools[] = {
    {"sequence-parallel", "Sequence parallelism", &TrainingConfig::sequenceParallel},
    {"distributed-optimizer", "Megatron distributed optimizer (ZeRO-1 sharding)",
     &TrainingConfig::distributedOptimizer},
    {"fsdp", "FSDP: ZeRO-3 sharding, resharded after forward, prefetched one unit ahead",
     &TrainingConfig::fsdp},
    {"fp8-param-gather", "Keep and all-gather the weights in FP8 (no BF16 copy)",
     &TrainingConfig::fp8ParamGather},
    {"grad-reduce-fp32", "Reduce DP gradients in FP32", &TrainingConfig::gradReduceFp32},
    {"gradient-accumulation-fusion",
     "Weight-gradient GEMMs accumulate into the main gradients (Megatron-Core's default; fp32 "
     "with --grad-reduce-fp32): an expert's few rows make that GEMM memory bound",
     &TrainingConfig::wgradAccumulationFusion},
    {"moe-router-fusion",
     "MoE router's element-wise kernels fused (Megatron-Core --moe-router-fusion: 31 kernels, "
     "72 without)",
     &TrainingConfig::routerFusion},
    {"fused-elementwise",
     "Fused element-wise kernels (TE, torch.compile); no: PyTorch eager, op by op",
     &TrainingConfig::fusedElementwise},
};
struct ModelBoolFlag
{
    const char *name;
    const char *help;
    bool TransformerSpec::*field;
};
constexpr ModelBoolFlag kModelBools[] = {
    {"gated-mlp", "SwiGLU MLP", &TransformerSpec::gatedMlp},
    {"rope", "Rotary position embeddings", &TransformerSpec::rope},
    {"dropout", "Hidden and attention dropout", &TransformerSpec::dropout},
    {"tied-embeddings", "Output layer shares the input embedding",
     &TransformerSpec::tiedEmbeddings},
    {"linear-bias", "Biases on the linear layers (the experts' second bias added per expert)",
     &TransformerSpec::linearBias},
    {"attention-sinks", "Learned attention-sink logits per head (no modelled cost)",
     &TransformerSpec::attentionSinks},
    {"qk-norm", "RMSNorm of each query and key head before RoPE (Qwen3; two norm kernels a layer)",
     &TransformerSpec::qkNorm},
};
// Flags whose value is a name or a list.
constexpr const char *kOtherFlags[] = {"model",         "schedule",         "recompute",
                                       "dtype",         "placement",        "attention",
                                       "overlap",       "cp-kind",          "recompute-modules",
                                       "fp8-recipe",    "cuda-graphs",      "launch-overhead-us",
                                       "dp-bucket-mb",  "workload",         "dispatcher",
                                       "moe-imbalance", "activation-clamp", "tp-overlap"};

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

QString refusedFlag(const QCommandLineParser &p, const WorkloadHelp &help)
{
    for (const auto &[flag, why] : help.refused)
        if (p.isSet(flag))
            return QStringLiteral("--%1 is not accepted: %2").arg(flag, why);
    return {};
}

void addWorkloadOptions(QCommandLineParser &p, const WorkloadHelp &help)
{
    const TransformerSpec model = *modelPreset(kDefaultModel);
    const TrainingConfig config;
    const Placement placement;
    QStringList presets;
    for (const std::string &k : modelPresetKeys())
        presets << QString::fromStdString(k);
    const auto add = [&p, &help](const char *name, const QString &text, const QString &dflt,
                                 const char *value) {
        const QString flag = QString::fromLatin1(name);
        for (const auto &[refused, why] : help.refused)
            if (refused == flag) {
                p.addOption({flag, QStringLiteral("%1 (not accepted: %2).").arg(text, why),
                             QString::fromLatin1(value)});
                return;
            }
        const QString shown = help.searched.contains(flag)
            ? QStringLiteral("searched; giving it pins the knob, as --fix does")
            : !help.fromDesign ? dflt
            : help.required.contains(flag)
            ? QStringLiteral("the design's; required%1 when the design has no workload")
                  .arg(flag == QLatin1String("model") ? QStringLiteral(" (or the model flags)")
                                                      : QString())
            : QStringLiteral("the design's; %1 without a workload").arg(dflt);
        p.addOption({flag, QStringLiteral("%1 (default %2).").arg(text, shown),
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
    for (const auto &f : kModelBools)
        add(f.name,
            QStringLiteral("%1: yes or no; overrides the preset's")
                .arg(QString::fromLatin1(f.help)),
            QStringLiteral("the preset's, %1 for %2")
                .arg(yesNoText(model.*(f.field)), QString::fromLatin1(kDefaultModel)),
            "yes|no");
    for (const auto &f : kTrainingInts)
        add(f.name, QString::fromLatin1(f.help), intDefault(f, config), "N");
    add("schedule", QStringLiteral("Pipeline schedule: gpipe, 1f1b or interleaved-1f1b"),
        QStringLiteral("%1; interleaved-1f1b when --vpp > 1")
            .arg(QString::fromLatin1(toString(config.schedule))),
        "NAME");
    add("recompute", QStringLiteral("Activation recomputation: none, selective or full"),
        QString::fromLatin1(toString(config.recompute)), "NAME");
    for (const auto &f : kTrainingBools)
        add(f.name, QStringLiteral("%1: yes or no").arg(QString::fromLatin1(f.help)),
            f.field == &TrainingConfig::sequenceParallel
                ? QStringLiteral("%1; yes for a MoE model with --tp > 1, which Megatron-Core "
                                 "requires")
                      .arg(yesNoText(config.*(f.field)))
                : yesNoText(config.*(f.field)),
            "yes|no");
    add("recompute-modules",
        QStringLiteral("With --recompute selective: modules recomputed, comma-separated "
                       "(core_attn, mlp, layernorm, act, up_proj, moe, moe_act, shared_experts)"),
        QStringLiteral("core_attn"), "LIST");
    add("dtype",
        QStringLiteral("Datatype of the linear layers' GEMMs: bf16, fp8 or fp4 (attention core, "
                       "embedding, LM head, router and optimizer stay high precision)"),
        QString::fromLatin1(toString(config.dtype)), "NAME");
    add("fp8-recipe",
        QStringLiteral("Scaling of FP8/FP4 linears: delayed, tensorwise (current scaling), "
                       "blockwise (Hopper), mxfp8 or nvfp4 (Blackwell)"),
        QStringLiteral("%1; nvfp4 with --dtype fp4")
            .arg(QString::fromLatin1(toString(config.fp8Recipe))),
        "NAME");
    add("attention",
        QStringLiteral("Attention kernel: flash (the generation's fused kernel: FA2 on Ampere, "
                       "FA3/cuDNN on Hopper, cuDNN on Blackwell), fa2 or unfused"),
        QString::fromLatin1(toString(config.attention)), "NAME");
    add("cp-kind", QStringLiteral("Context parallelism: all-gather (Llama 3) or ring (p2p)"),
        QString::fromLatin1(toString(config.cpKind)), "NAME");
    add("tp-overlap",
        QStringLiteral("How --overlap tp runs: userbuffers (Transformer Engine, Megatron-Core "
                       "--tp-comm-overlap: its kernels hold 16 SMs beside some GEMMs) or async-tp "
                       "(PyTorch's asynchronous TP, torchtitan: GEMMs in TP chunks, copy engines)"),
        QString::fromLatin1(toString(config.tpOverlapKind)), "NAME");
    add("overlap",
        QStringLiteral("Communication overlapped with compute, comma-separated from dp, tp, pp, "
                       "ep (1F1B A2A overlap), shared_experts (shared experts beside the EP "
                       "exchange), or none"),
        QStringLiteral("dp,pp"), "LIST");
    add("dispatcher",
        QStringLiteral("MoE token dispatcher: alltoall (NCCL with permutes), deepep or hybridep "
                       "(hierarchical; FP8 dispatch with FP8 linears)"),
        QString::fromLatin1(toString(config.dispatcher)), "NAME");
    add("activation-clamp",
        QStringLiteral("GLU inputs clamped to +-X before the activation (GPT-OSS: 7), run as "
                       "Megatron-Core runs it, outside the fused kernel; 0: none"),
        QString::number(model.activationClamp), "X");
    add("rope-attention-factor",
        QStringLiteral("YaRN attention factor scaling the RoPE tables (GPT-OSS: 1.3466); other "
                       "than 1 Megatron-Core runs RoPE unfused, op by op"),
        QString::number(model.ropeAttentionFactor), "X");
    add("moe-imbalance",
        QStringLiteral("Tokens of the busiest expert rank over the mean, >= 1 (1: force-balanced; "
                       "a dropping router: its capacity factor)"),
        QString::number(config.moeImbalance), "X");
    add("cuda-graphs",
        QStringLiteral("What CUDA graphs capture (no host launch time for it): none, layers (the "
                       "static parts of each layer; a MoE layer's routed experts stay eager; "
                       "also 'yes') or full-iteration (every micro-batch's forward and backward, "
                       "experts and dispatch included; no host synchronisation); 'no' is none"),
        QString::fromLatin1(toString(config.cudaGraphs)), "SCOPE");
    add("launch-overhead-us",
        QStringLiteral("Host time per kernel launch outside CUDA graphs on a DGX H100's Xeon, "
                       "microseconds (Grace hosts take 2.75x: the accelerator's host launch "
                       "factor); the host runs ahead of the GPU, so it bounds the step only where "
                       "kernels are shorter (0: never; Megatron-Core eager: about 21.8, from the "
                       "DeepSeek-V3 GB200 guide's CUDA-graphs ablation)"),
        QStringLiteral("0"), "US");
    add("dp-bucket-mb", QStringLiteral("DP gradient bucket, MB"),
        QString::number(config.dpBucketBytes / 1e6), "MB");
    add("workload",
        QStringLiteral("A whole workload as JSON ({\"model\": ..., \"training\": ..., "
                       "\"placement\": ...}, the design file's workload section); other workload "
                       "flags override it"),
        QStringLiteral("none"), "FILE");
    add("placement",
        QStringLiteral("Rank order, fastest-varying dimension first: tp, cp, ep, dp, pp joined "
                       "by '-'"),
        QString::fromStdString(placement.order), "ORDER");
}

namespace {

bool sameShape(const TransformerSpec &a, const TransformerSpec &b)
{
    return a.layers == b.layers && a.hidden == b.hidden && a.heads == b.heads
        && a.kvHeads == b.kvHeads && a.ffn == b.ffn && a.gatedMlp == b.gatedMlp
        && a.vocab == b.vocab && a.seq == b.seq && a.experts == b.experts && a.topK == b.topK
        && a.expertFfn == b.expertFfn && a.sharedExperts == b.sharedExperts
        && a.firstDenseLayers == b.firstDenseLayers && a.moeEvery == b.moeEvery && a.rope == b.rope
        && a.dropout == b.dropout && a.tiedEmbeddings == b.tiedEmbeddings && a.headDim == b.headDim
        && a.kvLoraRank == b.kvLoraRank && a.qLoraRank == b.qLoraRank
        && a.qkNopeHeadDim == b.qkNopeHeadDim && a.qkRopeHeadDim == b.qkRopeHeadDim
        && a.vHeadDim == b.vHeadDim && a.slidingWindow == b.slidingWindow
        && a.windowEvery == b.windowEvery && a.windowOffset == b.windowOffset
        && a.routerGroupTopK == b.routerGroupTopK && a.activationClamp == b.activationClamp
        && a.linearBias == b.linearBias && a.attentionSinks == b.attentionSinks
        && a.qkNorm == b.qkNorm && a.ropeAttentionFactor == b.ropeAttentionFactor;
}

// --overlap dp,tp,pp,ep,shared_experts | none.
bool overlapValue(const QString &v, TrainingConfig &c, QString &error)
{
    c.overlapDpGrad = c.overlapTp = c.overlapPp = c.overlapEp = c.overlapSharedExperts = false;
    if (v == QLatin1String("none"))
        return true;
    for (const QString &item : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (item == QLatin1String("dp"))
            c.overlapDpGrad = true;
        else if (item == QLatin1String("tp"))
            c.overlapTp = true;
        else if (item == QLatin1String("pp"))
            c.overlapPp = true;
        else if (item == QLatin1String("ep"))
            c.overlapEp = true;
        else if (item == QLatin1String("shared_experts"))
            c.overlapSharedExperts = true;
        else {
            error = QStringLiteral("--overlap: '%1' is not one of dp, tp, pp, ep, shared_experts, "
                                   "none")
                        .arg(item);
            return false;
        }
    }
    return true;
}

// " (did you mean qwen3-235b-a22b?)" for a name up to three presets contain, else "".
QString presetHint(const QString &name)
{
    QStringList close;
    for (const std::string &key : modelPresetKeys()) {
        const QString k = QString::fromStdString(key);
        if (k.contains(name, Qt::CaseInsensitive))
            close << k;
    }
    if (close.isEmpty() || close.size() > 3)
        return {};
    return QStringLiteral(" (did you mean %1?)").arg(close.join(QStringLiteral(" or ")));
}

} // namespace

std::optional<Workload> workloadFromOptions(const QCommandLineParser &p, long long accelerators,
                                            QString &error, const Workload *base)
{
    bool any = false;
    for (const auto &f : kModelInts)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const auto &f : kTrainingInts)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const auto &f : kTrainingBools)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const auto &f : kModelBools)
        any = any || p.isSet(QString::fromLatin1(f.name));
    for (const char *n : kOtherFlags)
        any = any || p.isSet(QString::fromLatin1(n));
    if (!any)
        return std::nullopt;

    Workload w;
    // A workload to change (a --workload file, else the design's) keeps what no flag sets.
    const bool fromFile = p.isSet(QStringLiteral("workload"));
    const bool given = fromFile || base;
    if (base && !fromFile) {
        w = *base;
    } else if (fromFile) {
        auto r = readWorkloadFile(p.value(QStringLiteral("workload")).toStdString());
        if (const FileError *e = std::get_if<FileError>(&r)) {
            error = QStringLiteral("--workload: %1").arg(QString::fromStdString(e->toString()));
            return std::nullopt;
        }
        w = std::get<Workload>(r);
    }
    const QString model = p.value(QStringLiteral("model"));
    const bool newName = !model.isEmpty() && !modelPreset(model.toStdString());
    if (const auto preset = modelPreset(model.toStdString())) {
        w.model = *preset;
    } else if (newName) {
        if (!fromFile) // a typo must not rename the design's model
            for (const char *need : {"layers", "hidden", "heads", "ffn", "vocab", "seq"})
                if (!p.isSet(QString::fromLatin1(need))) {
                    error = QStringLiteral("--model %1 is not a preset%2: a new model needs "
                                           "--layers --hidden --heads --ffn --vocab --seq (--%3 "
                                           "is missing)")
                                .arg(model, presetHint(model), QString::fromLatin1(need));
                    return std::nullopt;
                }
        w.model.name = model.toStdString();
    } else if (!given) {
        w.model = *modelPreset(kDefaultModel);
    }
    const TransformerSpec before = w.model;
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
    auto boolValue = [&](const char *name, bool &target) {
        const QString flag = QString::fromLatin1(name);
        if (p.isSet(flag) && !yesNo(p.value(flag), target)) {
            error = QStringLiteral("--%1: use yes or no").arg(flag);
            return false;
        }
        return true;
    };
    TransformerSpec &m = w.model;
    TrainingConfig &c = w.config;
    const bool kvSet = p.isSet(QStringLiteral("kv-heads"));
    for (const auto &f : kModelInts) {
        const std::string n = f.name;
        const bool zeroOk = n != "layers" && n != "hidden" && n != "heads" && n != "kv-heads"
            && n != "ffn" && n != "vocab" && n != "seq" && n != "moe-every" && n != "window-every";
        if (!intValue(f.name, zeroOk ? 0 : 1, m.*(f.field)))
            return std::nullopt;
    }
    if (p.isSet(QStringLiteral("heads")) && !kvSet && newName)
        m.kvHeads = m.heads;
    if (m.experts > 0 && m.expertFfn == 0)
        m.expertFfn = m.ffn;
    if (m.experts > 0 && m.topK == 0)
        m.topK = 1;
    for (const auto &f : kModelBools)
        if (!boolValue(f.name, m.*(f.field)))
            return std::nullopt;
    for (const auto &[flag, target] :
         {std::pair {"activation-clamp", &m.activationClamp},
          std::pair {"rope-attention-factor", &m.ropeAttentionFactor}}) {
        const QString f = QString::fromLatin1(flag);
        if (!p.isSet(f))
            continue;
        bool ok = false;
        const double v = p.value(f).toDouble(&ok);
        if (!ok || v < 0) {
            error = QStringLiteral("--%1: '%2' is not a number >= 0").arg(f, p.value(f));
            return std::nullopt;
        }
        *target = v;
    }
    // A preset whose shape a flag changed is no longer that model: say so in its name.
    if (!newName && !sameShape(m, before))
        m.name = before.name + "-custom";
    if (!given) {
        c.dp = 0;
        c.globalBatch = 0;
    }
    for (const auto &f : kTrainingInts)
        if (!intValue(f.name,
                      (f.field == &TrainingConfig::zeroStage
                       || f.field == &TrainingConfig::fsdpShardGroup
                       || f.field == &TrainingConfig::etp)
                          ? 0
                          : 1,
                      c.*(f.field)))
            return std::nullopt;
    if (c.zeroStage > 3) {
        error = QStringLiteral("--zero: the ZeRO stage is 0, 1, 2 or 3");
        return std::nullopt;
    }
    if (base && !p.isSet(QStringLiteral("dp"))) { // the design's world, re-divided
        const long long world = 1LL * base->config.tp * base->config.pp * base->config.cp
            * std::max(1, base->config.dp);
        c.dp = static_cast<int>(std::max(1LL, world / (1LL * c.tp * c.pp * c.cp)));
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
        || !enumValue("dtype", c.dtype, "bf16, fp8, fp4")
        || !enumValue("attention", c.attention, "flash, fa2, unfused")
        || !enumValue("cp-kind", c.cpKind, "all-gather, ring")
        || !enumValue("tp-overlap", c.tpOverlapKind, "userbuffers, async-tp")
        || !enumValue("dispatcher", c.dispatcher, "alltoall, deepep, hybridep"))
        return std::nullopt;
    if (p.isSet(QStringLiteral("cuda-graphs"))) { // yes / no: the scopes before full-iteration
        bool on = false;
        if (yesNo(p.value(QStringLiteral("cuda-graphs")), on))
            c.cudaGraphs = on ? CudaGraphScope::Layers : CudaGraphScope::None;
        else if (!enumValue("cuda-graphs", c.cudaGraphs,
                            "none, layers, full-iteration (or yes = layers, no = none)"))
            return std::nullopt;
    }
    if (c.dtype == DataType::FP4 && !p.isSet(QStringLiteral("fp8-recipe")))
        c.fp8Recipe = Fp8Recipe::Nvfp4;
    if (!enumValue("fp8-recipe", c.fp8Recipe, "delayed, tensorwise, blockwise, mxfp8, nvfp4"))
        return std::nullopt;
    for (const auto &f : kTrainingBools)
        if (!boolValue(f.name, c.*(f.field)))
            return std::nullopt;
    // Megatron-LM validate_args: "When using MoE and tensor parallelism, sequence parallelism
    // must be used": unless the flag says otherwise, the only layout that runs.
    if (m.isMoe() && c.tp > 1 && !p.isSet(QStringLiteral("sequence-parallel")))
        c.sequenceParallel = true;
    if (p.isSet(QStringLiteral("recompute-modules"))) {
        std::string bad;
        if (!recomputeModulesFromString(p.value(QStringLiteral("recompute-modules")).toStdString(),
                                        c.recomputeModules, bad)) {
            error = QStringLiteral("--recompute-modules: unknown module '%1' (core_attn, mlp, "
                                   "layernorm, act, up_proj, moe, moe_act, shared_experts)")
                        .arg(QString::fromStdString(bad));
            return std::nullopt;
        }
        if (!p.isSet(QStringLiteral("recompute")))
            c.recompute = Recompute::Selective;
    }
    if (p.isSet(QStringLiteral("overlap"))
        && !overlapValue(p.value(QStringLiteral("overlap")), c, error))
        return std::nullopt;
    for (const auto &[flag, scale, target] :
         {std::tuple {"launch-overhead-us", 1e-6, &c.launchOverhead},
          std::tuple {"dp-bucket-mb", 1e6, &c.dpBucketBytes},
          std::tuple {"moe-imbalance", 1.0, &c.moeImbalance}}) {
        const QString f = QString::fromLatin1(flag);
        if (!p.isSet(f))
            continue;
        bool ok = false;
        const double v = p.value(f).toDouble(&ok);
        if (!ok || v < 0) {
            error = QStringLiteral("--%1: '%2' is not a number >= 0").arg(f, p.value(f));
            return std::nullopt;
        }
        *target = v * scale;
    }
    if (p.isSet(QStringLiteral("placement")))
        w.placement.order = p.value(QStringLiteral("placement")).toStdString();
    return w;
}

} // namespace weft::cli
