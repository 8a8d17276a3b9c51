// WorkloadForm's sections for what the design file holds beyond the shape and the parallel
// degrees: the attention and MLP variants of the model (head dimension, MLA, sliding window,
// sinks, biases, clamped GLU) and the training stack (FSDP/HSDP, low-precision recipe, CP kind,
// recomputed modules, CUDA graphs, eager element-wise, host launch time, MoE dispatcher and
// balance, DP buckets). Keys are TrainingConfig / TransformerSpec member names ("model." for the
// model), as in workloadform.cpp.
#include "document/designdocument.h"
#include "gui/docks/workloadform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

namespace weft {

QDoubleSpinBox *WorkloadForm::doubleRow(QFormLayout *form, const QString &key, const QString &label,
                                        double lo, double hi, int decimals, double scale,
                                        const QString &suffix,
                                        std::function<double &(Workload &)> ref, const QString &tip)
{
    auto *spin = new QDoubleSpinBox;
    spin->setRange(lo, hi);
    spin->setDecimals(decimals);
    spin->setSuffix(suffix);
    spin->setKeyboardTracking(false); // commit on Enter, focus out or an arrow step
    spin->setToolTip(tip);
    spin->setObjectName(key);
    fitWidth(spin);
    const bool isModel = key.startsWith(QLatin1String("model."));
    connect(spin, &QDoubleSpinBox::valueChanged, this,
            [this, ref, label, scale, decimals, isModel](double shown) {
                if (!m_doc || !m_doc->design().workload)
                    return;
                Workload probe = *m_doc->design().workload;
                // unchanged at the precision shown (the stored value may carry more digits)
                if (std::abs(ref(probe) * scale - shown) < 0.5 * std::pow(10.0, -decimals))
                    return;
                commit(label, [ref, shown, scale, isModel](Workload &w) {
                    ref(w) = shown / scale;
                    if (isModel && modelPreset(w.model.name))
                        w.model.name += "-custom";
                });
            });
    m_refreshers.push_back([spin, ref, scale](const Workload &w) {
        const QSignalBlocker block(spin);
        Workload copy = w;
        spin->setValue(ref(copy) * scale);
    });
    form->addRow(label, spin);
    m_fields[key] = spin;
    return spin;
}

QLineEdit *WorkloadForm::textRow(QFormLayout *form, const QString &key, const QString &label,
                                 const QString &tip, const QString &placeholder,
                                 std::function<QString(const Workload &)> format,
                                 std::function<QString(const QString &, Workload &)> parse)
{
    auto *edit = new QLineEdit;
    edit->setObjectName(key);
    edit->setToolTip(tip);
    edit->setPlaceholderText(placeholder);
    fitWidth(edit);
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, tip, label, format, parse] {
        if (!m_doc || !m_doc->design().workload)
            return;
        const Workload &now = *m_doc->design().workload;
        Workload probe = now;
        const QString text = edit->text().trimmed();
        if (const QString error = parse(text, probe); !error.isEmpty()) {
            edit->setStyleSheet(QStringLiteral("color: #d55e00"));
            edit->setToolTip(error + QStringLiteral("\n\n") + tip);
            return; // nothing kept: the workload keeps its value
        }
        edit->setStyleSheet(QString());
        edit->setToolTip(tip);
        if (format(probe) != format(now))
            commit(label, [parse, text](Workload &w) { parse(text, w); });
    });
    m_refreshers.push_back([edit, tip, format](const Workload &w) {
        const QSignalBlocker block(edit);
        edit->setText(format(w));
        edit->setStyleSheet(QString());
        edit->setToolTip(tip);
    });
    form->addRow(label, edit);
    m_fields[key] = edit;
    return edit;
}

void WorkloadForm::buildListRows(QFormLayout *form)
{
    textRow(
        form, QStringLiteral("recomputeModules"), tr("Recomputed modules"),
        tr("With selective recomputation: the modules recomputed in the backward pass, "
           "comma-separated (Megatron-Core --recompute-modules): core_attn, mlp, layernorm, act, "
           "up_proj, moe, moe_act, shared_experts; empty: the attention core"),
        tr("core_attn"),
        [](const Workload &w) {
            return QString::fromStdString(recomputeModulesToString(w.config.recomputeModules));
        },
        [](const QString &text, Workload &w) {
            std::string bad;
            unsigned bits = 0;
            if (!recomputeModulesFromString(text.toStdString(), bits, bad))
                return tr("Unknown module '%1'.").arg(QString::fromStdString(bad));
            w.config.recomputeModules = bits;
            return QString();
        });
    textRow(
        form, QStringLiteral("stageLayers"), tr("Layers per stage"),
        tr("Transformer layers of each model chunk, comma-separated: PP x virtual stages of them "
           "in model order (virtual stage k = chunk x PP + stage, as Megatron-Core's "
           "--pipeline-model-parallel-layout); empty: as even as possible"),
        tr("even split"),
        [](const Workload &w) {
            QStringList parts;
            for (int n : w.config.stageLayers)
                parts << QString::number(n);
            return parts.join(QStringLiteral(", "));
        },
        [](const QString &text, Workload &w) {
            std::vector<int> layers;
            for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                bool ok = false;
                const int n = part.trimmed().toInt(&ok);
                if (!ok || n < 0)
                    return tr("'%1' is not a layer count (a whole number, 0 or more).")
                        .arg(part.trimmed());
                layers.push_back(n);
            }
            w.config.stageLayers = std::move(layers);
            return QString();
        });
}

void WorkloadForm::buildAttention(QFormLayout *form)
{
    using R = std::function<int &(Workload &)>;
    using B = std::function<bool &(Workload &)>;
    const int wide = 1 << 20;
    // 0 means "derived": said in words, not as a 0 that reads as a value.
    withSpecialText(
        intRow(
            form, QStringLiteral("model.headDim"), tr("Head dimension"), 0, wide,
            R([](Workload &w) -> int & { return w.model.headDim; }),
            tr("Dimension of one attention head; auto: hidden / heads (Qwen3: 128, GPT-OSS: 64)")),
        tr("auto (hidden / heads)"));
    boolRow(form, QStringLiteral("model.rope"), tr("Rotary embeddings"),
            B([](Workload &w) -> bool & { return w.model.rope; }),
            tr("RoPE applied to Q and K in every layer (element-wise kernels)"));
    boolRow(form, QStringLiteral("model.dropout"), tr("Dropout"),
            B([](Workload &w) -> bool & { return w.model.dropout; }),
            tr("Hidden and attention dropout (GPT-3 / Megatron 2021-22; Llama: none)"));
    intRow(form, QStringLiteral("model.slidingWindow"), tr("Sliding window"), 0, 1 << 30,
           R([](Workload &w) -> int & { return w.model.slidingWindow; }),
           tr("Tokens a windowed layer attends to (GPT-OSS: 128); 0: every layer full"));
    intRow(form, QStringLiteral("model.windowEvery"), tr("Window every n-th layer"), 1, 100000,
           R([](Workload &w) -> int & { return w.model.windowEvery; }),
           tr("Layers i with i mod n = offset use the window (GPT-OSS: every 2nd, offset 0)"));
    intRow(form, QStringLiteral("model.windowOffset"), tr("Window offset"), 0, 100000,
           R([](Workload &w) -> int & { return w.model.windowOffset; }),
           tr("See 'Window every n-th layer'"));
    boolRow(form, QStringLiteral("model.attentionSinks"), tr("Attention sinks"),
            B([](Workload &w) -> bool & { return w.model.attentionSinks; }),
            tr("Learned per-head sink logits (GPT-OSS); no GEMM, not costed"));
    boolRow(form, QStringLiteral("model.qkNorm"), tr("Query/key norms"),
            B([](Workload &w) -> bool & { return w.model.qkNorm; }),
            tr("RMSNorm of each query and key head before RoPE (Qwen3): two norm kernels a "
               "layer"));
    doubleRow(
        form, QStringLiteral("model.ropeAttentionFactor"), tr("RoPE attention factor"), 0, 1e6, 4,
        1, QString(), [](Workload &w) -> double & { return w.model.ropeAttentionFactor; },
        tr("YaRN's scaling of the rotary tables (GPT-OSS: 1.3466); other than 1, Megatron-Core "
           "runs RoPE unfused, op by op"));
    boolRow(form, QStringLiteral("model.linearBias"), tr("Linear biases"),
            B([](Workload &w) -> bool & { return w.model.linearBias; }),
            tr("Biases on the linear layers (GPT-OSS); the experts' second bias is added per "
               "expert after the GEMM"));
    doubleRow(
        form, QStringLiteral("model.activationClamp"), tr("GLU clamp"), 0, 1e6, 2, 1, QString(),
        [](Workload &w) -> double & { return w.model.activationClamp; },
        tr("GLU inputs clamped to +-X before the activation (GPT-OSS: 7), run outside "
           "the fused kernel; 0: none"));
    intRow(form, QStringLiteral("model.kvLoraRank"), tr("MLA KV latent rank"), 0, wide,
           R([](Workload &w) -> int & { return w.model.kvLoraRank; }),
           tr("Multi-head latent attention (DeepSeek-V3: 512); 0: standard attention"));
    intRow(form, QStringLiteral("model.qLoraRank"), tr("MLA query latent rank"), 0, wide,
           R([](Workload &w) -> int & { return w.model.qLoraRank; }),
           tr("DeepSeek-V3: 1536; 0: queries not compressed"));
    intRow(form, QStringLiteral("model.qkNopeHeadDim"), tr("MLA non-rotary head dim"), 0, wide,
           R([](Workload &w) -> int & { return w.model.qkNopeHeadDim; }),
           tr("Query/key head dimension without RoPE (DeepSeek-V3: 128)"));
    intRow(form, QStringLiteral("model.qkRopeHeadDim"), tr("MLA rotary head dim"), 0, wide,
           R([](Workload &w) -> int & { return w.model.qkRopeHeadDim; }),
           tr("Decoupled rotary part, the key's shared by all heads (DeepSeek-V3: 64)"));
    intRow(form, QStringLiteral("model.vHeadDim"), tr("MLA value head dim"), 0, wide,
           R([](Workload &w) -> int & { return w.model.vHeadDim; }),
           tr("Value head dimension (DeepSeek-V3: 128)"));
    intRow(form, QStringLiteral("model.routerGroupTopK"), tr("Node-limited routing"), 0, 1 << 16,
           R([](Workload &w) -> int & { return w.model.routerGroupTopK; }),
           tr("Each token's experts on at most this many groups of nodes (DeepSeek-V3: 4); "
              "0: unrestricted"));
}

void WorkloadForm::buildStack(QFormLayout *form)
{
    using R = std::function<int &(Workload &)>;
    using B = std::function<bool &(Workload &)>;
    withSpecialText(
        intRow(form, QStringLiteral("etp"), tr("Expert TP"), 0, 1 << 20,
               R([](Workload &w) -> int & { return w.config.etp; }),
               tr("Expert tensor-parallel degree (--expert-tensor-parallel-size); as TP: the same "
                  "as TP, Megatron-Core's default")),
        tr("as TP"));
    enumRow<TokenDispatcher>(
        form, QStringLiteral("dispatcher"), tr("MoE token dispatcher"),
        {{tr("All-to-all (NCCL)"), TokenDispatcher::AllToAll},
         {tr("DeepEP"), TokenDispatcher::DeepEP},
         {tr("HybridEP"), TokenDispatcher::HybridEP}},
        [](Workload &w) -> TokenDispatcher & { return w.config.dispatcher; },
        tr("NCCL all-to-all with permutes, or hierarchical dispatch (RDMA to the same rail of "
           "the destination node, then NVLink)"));
    doubleRow(
        form, QStringLiteral("moeImbalance"), tr("MoE imbalance"), 1, 1000, 2, 1, QString(),
        [](Workload &w) -> double & { return w.config.moeImbalance; },
        tr("Tokens of the busiest expert rank over the mean: 1 = force-balanced routing, "
           "or a dropping router's capacity factor"));
    boolRow(form, QStringLiteral("fsdp"), tr("FSDP"),
            B([](Workload &w) -> bool & { return w.config.fsdp; }),
            tr("ZeRO-3 sharding with parameters resharded after the forward and prefetched one "
               "unit ahead (torchtitan FSDP2, Megatron-FSDP)"));
    withSpecialText(
        intRow(
            form, QStringLiteral("fsdpShardGroup"), tr("HSDP shard group"), 0, 1 << 20,
            R([](Workload &w) -> int & { return w.config.fsdpShardGroup; }),
            tr("HSDP: shard inside groups of this many DP x CP ranks, replicate across them; all: "
               "shard over every rank (FSDP)")),
        tr("all (FSDP)"));
    enumRow<Fp8Recipe>(
        form, QStringLiteral("fp8Recipe"), tr("Low-precision recipe"),
        {{tr("Delayed scaling"), Fp8Recipe::Delayed},
         {tr("Tensorwise (current scaling)"), Fp8Recipe::Tensorwise},
         {tr("Blockwise (DeepSeek-V3)"), Fp8Recipe::Blockwise},
         {tr("MXFP8 (Blackwell)"), Fp8Recipe::Mxfp8},
         {tr("NVFP4 (Blackwell)"), Fp8Recipe::Nvfp4}},
        [](Workload &w) -> Fp8Recipe & { return w.config.fp8Recipe; },
        tr("Scaling of the FP8 / FP4 linear layers, with its quantization kernels "
           "and bytes"));
    boolRow(form, QStringLiteral("fp8ParamGather"), tr("FP8 weights"),
            B([](Workload &w) -> bool & { return w.config.fp8ParamGather; }),
            tr("Weights kept and all-gathered in FP8 (no BF16 copy)"));
    QComboBox *tpKind = enumRow<TpOverlapKind>(
        form, QStringLiteral("tpOverlapKind"), tr("TP overlap method"),
        {{tr("Userbuffers (Transformer Engine)"), TpOverlapKind::Userbuffers},
         {tr("Async TP (PyTorch, torchtitan)"), TpOverlapKind::AsyncTp}},
        [](Workload &w) -> TpOverlapKind & { return w.config.tpOverlapKind; },
        tr("How the TP communication overlap runs when it is on: Transformer Engine's "
           "userbuffers hold 16 SMs beside some GEMMs; PyTorch's async TP splits the GEMMs "
           "into TP chunks and moves data on copy engines"));
    // It matters only with TP communication overlap on and TP > 1.
    m_refreshers.push_back(
        [tpKind](const Workload &w) { tpKind->setEnabled(w.config.overlapTp && w.config.tp > 1); });
    enumRow<CpKind>(
        form, QStringLiteral("cpKind"), tr("Context parallelism"),
        {{tr("All-gather of K/V (Llama 3)"), CpKind::AllGather},
         {tr("Ring (p2p, overlapped)"), CpKind::Ring}},
        [](Workload &w) -> CpKind & { return w.config.cpKind; },
        tr("How CP ranks exchange keys and values"));
    buildListRows(form);
    enumRow<CudaGraphScope>(
        form, QStringLiteral("cudaGraphs"), tr("CUDA graphs"),
        {{tr("None (eager)"), CudaGraphScope::None},
         {tr("Layers (experts eager)"), CudaGraphScope::Layers},
         {tr("Full iteration"), CudaGraphScope::FullIteration}},
        [](Workload &w) -> CudaGraphScope & { return w.config.cudaGraphs; },
        tr("What CUDA graphs replay, with no host launch time: the static parts of each layer "
           "(a MoE layer's routed experts stay eager), or every micro-batch's forward and "
           "backward, experts and token dispatch included (no host synchronisation)"));
    boolRow(form, QStringLiteral("fusedElementwise"), tr("Fused element-wise"),
            B([](Workload &w) -> bool & { return w.config.fusedElementwise; }),
            tr("Norms, RoPE and activations as fused kernels (Transformer Engine, "
               "torch.compile); off: PyTorch eager, op by op with FP32 up-casts"));
    doubleRow(
        form, QStringLiteral("launchOverhead"), tr("Host time per launch"), 0, 1e6, 1, 1e6,
        tr(" us"), [](Workload &w) -> double & { return w.config.launchOverhead; },
        tr("Host time per kernel launch outside CUDA graphs on a DGX H100's Xeon (Grace "
           "hosts take 2.75x); 0: the host never bounds the step (Megatron-Core eager: "
           "about 24.2)"));
    boolRow(form, QStringLiteral("wgradAccumulationFusion"), tr("Gradient accumulation fusion"),
            B([](Workload &w) -> bool & { return w.config.wgradAccumulationFusion; }),
            tr("Weight-gradient GEMMs accumulate into the main gradients "
               "(--gradient-accumulation-fusion)"));
    doubleRow(
        form, QStringLiteral("dpBucketBytes"), tr("DP gradient bucket"), 0, 1e9, 1, 1e-6, tr(" MB"),
        [](Workload &w) -> double & { return w.config.dpBucketBytes; },
        tr("Gradient bytes reduced per DP bucket (Megatron: 40M fp32 elements = 160 MB)"));
}

} // namespace weft
