#include "gui/docks/workloadform.h"

#include "document/designdocument.h"
#include "gui/widgets/elidingcombobox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace weft {

namespace {

QString paramsText(double params)
{
    return params >= 1e12 ? QObject::tr("%1 T").arg(params / 1e12, 0, 'f', 2)
        : params >= 1e9   ? QObject::tr("%1 B").arg(params / 1e9, 0, 'f', 1)
                          : QObject::tr("%1 M").arg(params / 1e6, 0, 'f', 0);
}

// Which section a validate() finding belongs under.
enum class Section { Model, Parallelism, Batch };

Section sectionOf(const std::string &code)
{
    static const char *model[] = {"model-size-not-positive", "hidden-not-divisible-by-heads",
                                  "heads-not-divisible-by-kv-heads", "top-k-above-experts"};
    static const char *batch[]
        = {"batch-not-divisible", "interleaved-micro-batches", "vpp-ignored"};
    for (const char *c : model)
        if (code == c)
            return Section::Model;
    for (const char *c : batch)
        if (code == c)
            return Section::Batch;
    return Section::Parallelism;
}

QGroupBox *section(QVBoxLayout *lay, const QString &title, QFormLayout **form)
{
    auto *box = new QGroupBox(title);
    *form = new QFormLayout(box);
    (*form)->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // In a narrow dock a field that does not fit beside its label goes under it (a combo box
    // clipped "Fused (generation's own)" to "Fused (generation's ov").
    (*form)->setRowWrapPolicy(QFormLayout::WrapLongRows);
    lay->addWidget(box);
    return box;
}

} // namespace

void WorkloadForm::fitWidth(QWidget *editor)
{
    editor->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    editor->setMinimumWidth(90);
}

void WorkloadForm::withSpecialText(QSpinBox *spin, const QString &text)
{
    spin->setSpecialValueText(text);
    spin->setMinimumWidth(std::max(spin->minimumWidth(), spin->sizeHint().width()));
}

WorkloadForm::WorkloadForm(QWidget *parent)
    : QWidget(parent)
{
    auto *lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    QFormLayout *form = nullptr;
    section(lay, tr("Model"), &form);
    buildModel(form);
    section(lay, tr("Attention and MLP variants"), &form);
    buildAttention(form);
    section(lay, tr("Parallelism"), &form);
    buildParallelism(form);
    section(lay, tr("Batch and schedule"), &form);
    buildBatch(form);
    section(lay, tr("Memory, precision and overlap"), &form);
    buildPrecision(form);
    section(lay, tr("Training stack: kernels, host, MoE"), &form);
    buildStack(form);
    lay->addStretch(1);
}

void WorkloadForm::setDocument(DesignDocument *doc)
{
    m_doc = doc;
    refresh();
}

QWidget *WorkloadForm::field(const QString &key) const
{
    auto it = m_fields.find(key);
    return it == m_fields.end() ? nullptr : it->second;
}

void WorkloadForm::refresh()
{
    if (!m_doc || !m_doc->design().workload)
        return;
    const Workload &w = *m_doc->design().workload;
    for (const auto &r : m_refreshers)
        r(w);
    showIssues(w);
}

void WorkloadForm::commit(const QString &what, const std::function<void(Workload &)> &edit,
                          bool dpFills)
{
    if (!m_doc || !m_doc->design().workload)
        return;
    const Workload &before = *m_doc->design().workload;
    Workload w = before;
    edit(w);
    QString text = tr("Change %1").arg(what);
    const long long accelerators = static_cast<long long>(m_doc->design().acceleratorCount());
    const long long others = 1LL * w.config.tp * w.config.pp * w.config.cp;
    if (dpFills && before.config.worldSize() == accelerators && others > 0
        && accelerators % others == 0 && (accelerators / others) % std::max(1, w.config.ep) == 0
        && accelerators / others != w.config.dp) {
        w.config.dp = static_cast<int>(accelerators / others);
        text = tr("Change %1 (DP %2 keeps %3 accelerators busy)")
                   .arg(what)
                   .arg(w.config.dp)
                   .arg(accelerators);
    }
    m_doc->setWorkload(std::move(w), text);
}

QSpinBox *WorkloadForm::intRow(QFormLayout *form, const QString &key, const QString &label, int lo,
                               int hi, std::function<int &(Workload &)> ref, const QString &tip,
                               bool dpFills)
{
    auto *spin = new QSpinBox;
    spin->setRange(lo, hi);
    spin->setKeyboardTracking(false); // commit on Enter, focus out or an arrow step
    spin->setToolTip(tip);
    spin->setObjectName(key);
    fitWidth(spin);
    const bool isModel = key.startsWith(QLatin1String("model."));
    connect(spin, &QSpinBox::valueChanged, this, [this, ref, label, dpFills, isModel](int v) {
        if (!m_doc || !m_doc->design().workload)
            return;
        Workload probe = *m_doc->design().workload;
        if (ref(probe) == v)
            return;
        commit(
            label,
            [ref, v, isModel](Workload &w) {
                ref(w) = v;
                if (isModel && modelPreset(w.model.name)) // no longer the preset
                    w.model.name += "-custom";
            },
            dpFills);
    });
    m_refreshers.push_back([spin, ref](const Workload &w) {
        const QSignalBlocker block(spin);
        Workload copy = w;
        spin->setValue(ref(copy));
    });
    form->addRow(label, spin);
    m_fields[key] = spin;
    return spin;
}

QCheckBox *WorkloadForm::boolRow(QFormLayout *form, const QString &key, const QString &label,
                                 std::function<bool &(Workload &)> ref, const QString &tip)
{
    auto *box = new QCheckBox;
    box->setToolTip(tip);
    box->setObjectName(key);
    const bool isModel = key.startsWith(QLatin1String("model."));
    connect(box, &QCheckBox::clicked, this, [this, ref, label, isModel](bool on) {
        commit(label, [ref, on, isModel](Workload &w) {
            ref(w) = on;
            if (isModel && modelPreset(w.model.name))
                w.model.name += "-custom";
        });
    });
    m_refreshers.push_back([box, ref](const Workload &w) {
        const QSignalBlocker block(box);
        Workload copy = w;
        box->setChecked(ref(copy));
    });
    form->addRow(label, box);
    m_fields[key] = box;
    return box;
}

template<class E>
QComboBox *WorkloadForm::enumRow(QFormLayout *form, const QString &key, const QString &label,
                                 const std::vector<std::pair<QString, E>> &options,
                                 std::function<E &(Workload &)> ref, const QString &tip)
{
    auto *combo = new QComboBox; // not fitWidth: no narrower than its longest item
    combo->setToolTip(tip);
    combo->setObjectName(key);
    for (const auto &[text, value] : options)
        combo->addItem(text, int(value));
    connect(combo, &QComboBox::activated, this, [this, combo, ref, label](int i) {
        if (!m_doc || !m_doc->design().workload)
            return;
        const E v = E(combo->itemData(i).toInt());
        Workload probe = *m_doc->design().workload;
        if (ref(probe) != v)
            commit(label, [ref, v](Workload &w) { ref(w) = v; });
    });
    m_refreshers.push_back([combo, ref](const Workload &w) {
        const QSignalBlocker block(combo);
        Workload copy = w;
        combo->setCurrentIndex(combo->findData(int(ref(copy))));
    });
    form->addRow(label, combo);
    m_fields[key] = combo;
    return combo;
}

QLabel *WorkloadForm::issuesLabel(QFormLayout *form)
{
    auto *label = new QLabel;
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->hide();
    form->addRow(label);
    return label;
}

void WorkloadForm::buildModel(QFormLayout *form)
{
    auto *preset = new ElidingComboBox;
    preset->setObjectName(QStringLiteral("preset"));
    preset->setToolTip(tr("Start from a published model; editing a field makes it custom."));
    qsizetype longest = 0;
    for (const std::string &key : modelPresetKeys()) {
        const TransformerSpec m = *modelPreset(key);
        preset->addItem(tr("%1 (%2)").arg(QString::fromStdString(key), paramsText(m.totalParams())),
                        QString::fromStdString(key));
        longest = std::max(longest, preset->itemText(preset->count() - 1).size());
    }
    // Room for every preset's name (a custom model's, of any length, is shortened by the box and
    // given whole in its tooltip).
    preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset->setMinimumContentsLength(int(longest));
    preset->addItem(QString()); // the custom model, named on refresh
    connect(preset, &QComboBox::activated, this, [this, preset](int i) {
        const std::string key = preset->itemData(i).toString().toStdString();
        const auto spec = modelPreset(key);
        if (!spec || !m_doc || !m_doc->design().workload
            || m_doc->design().workload->model.name == key)
            return;
        commit(tr("model to %1").arg(QString::fromStdString(key)),
               [&spec](Workload &w) { w.model = *spec; });
    });
    m_refreshers.push_back([preset](const Workload &w) {
        const QSignalBlocker block(preset);
        const int i = preset->findData(QString::fromStdString(w.model.name));
        const int custom = preset->count() - 1;
        preset->setItemText(
            custom,
            tr("Custom: %1 (%2)")
                .arg(QString::fromStdString(w.model.name), paramsText(w.model.totalParams())));
        preset->setCurrentIndex(i >= 0 ? i : custom);
    });
    form->addRow(tr("Preset"), preset);
    m_fields[QStringLiteral("preset")] = preset;

    using R = std::function<int &(Workload &)>;
    const int big = 1 << 30;
    intRow(form, QStringLiteral("model.layers"), tr("Layers"), 1, 100000,
           R([](Workload &w) -> int & { return w.model.layers; }), tr("Transformer layers (l)"));
    intRow(form, QStringLiteral("model.hidden"), tr("Hidden size"), 1, big,
           R([](Workload &w) -> int & { return w.model.hidden; }), tr("Hidden size (h)"));
    intRow(form, QStringLiteral("model.heads"), tr("Attention heads"), 1, 1 << 16,
           R([](Workload &w) -> int & { return w.model.heads; }), tr("Query heads (a)"));
    intRow(form, QStringLiteral("model.kvHeads"), tr("KV heads"), 1, 1 << 16,
           R([](Workload &w) -> int & { return w.model.kvHeads; }),
           tr("Key/value heads (g); equal to the heads for multi-head attention, fewer for GQA"));
    intRow(form, QStringLiteral("model.ffn"), tr("FFN size"), 1, big,
           R([](Workload &w) -> int & { return w.model.ffn; }), tr("Dense MLP hidden size (f)"));
    boolRow(
        form, QStringLiteral("model.gatedMlp"), tr("Gated MLP (SwiGLU)"),
        [](Workload &w) -> bool & { return w.model.gatedMlp; },
        tr("Three MLP matrices instead of two"));
    intRow(form, QStringLiteral("model.vocab"), tr("Vocabulary"), 1, big,
           R([](Workload &w) -> int & { return w.model.vocab; }), tr("Vocabulary size (V)"));
    intRow(form, QStringLiteral("model.seq"), tr("Sequence length"), 1, big,
           R([](Workload &w) -> int & { return w.model.seq; }), tr("Tokens per sequence (s)"));
    boolRow(
        form, QStringLiteral("model.tiedEmbeddings"), tr("Tied embeddings"),
        [](Workload &w) -> bool & { return w.model.tiedEmbeddings; },
        tr("The output layer shares the input embedding matrix"));
    intRow(form, QStringLiteral("model.experts"), tr("Experts (MoE)"), 0, 1 << 16,
           R([](Workload &w) -> int & { return w.model.experts; }),
           tr("Routed experts per MoE layer; 0 for a dense model"));
    intRow(form, QStringLiteral("model.topK"), tr("Experts per token"), 0, 1 << 10,
           R([](Workload &w) -> int & { return w.model.topK; }), tr("Top-k routing"));
    intRow(form, QStringLiteral("model.expertFfn"), tr("Expert FFN size"), 0, big,
           R([](Workload &w) -> int & { return w.model.expertFfn; }),
           tr("Hidden size of one expert's MLP"));
    intRow(form, QStringLiteral("model.sharedExperts"), tr("Shared experts"), 0, 1 << 10,
           R([](Workload &w) -> int & { return w.model.sharedExperts; }),
           tr("Always-active experts (DeepSeek)"));
    intRow(form, QStringLiteral("model.firstDenseLayers"), tr("First dense layers"), 0, 100000,
           R([](Workload &w) -> int & { return w.model.firstDenseLayers; }),
           tr("Leading layers that keep a dense MLP"));
    intRow(form, QStringLiteral("model.moeEvery"), tr("MoE every n-th layer"), 1, 1000,
           R([](Workload &w) -> int & { return w.model.moeEvery; }),
           tr("1: every layer after the dense ones is MoE"));
    m_modelIssues = issuesLabel(form);
}

void WorkloadForm::buildParallelism(QFormLayout *form)
{
    using R = std::function<int &(Workload &)>;
    const int deg = 1 << 20;
    intRow(form, QStringLiteral("tp"), tr("TP (tensor)"), 1, deg,
           R([](Workload &w) -> int & { return w.config.tp; }),
           tr("Tensor-parallel degree; DP follows to keep the accelerators filled"), true);
    intRow(form, QStringLiteral("pp"), tr("PP (pipeline)"), 1, deg,
           R([](Workload &w) -> int & { return w.config.pp; }),
           tr("Pipeline stages; DP follows to keep the accelerators filled"), true);
    intRow(form, QStringLiteral("dp"), tr("DP (data)"), 1, deg,
           R([](Workload &w) -> int & { return w.config.dp; }), tr("Data-parallel replicas"));
    intRow(form, QStringLiteral("cp"), tr("CP (context)"), 1, deg,
           R([](Workload &w) -> int & { return w.config.cp; }),
           tr("Context-parallel degree (sequence split); DP follows"), true);
    intRow(form, QStringLiteral("ep"), tr("EP (expert)"), 1, deg,
           R([](Workload &w) -> int & { return w.config.ep; }),
           tr("Expert-parallel degree inside DP x CP (MoE models)"));
    intRow(form, QStringLiteral("vpp"), tr("Virtual stages"), 1, 1024,
           R([](Workload &w) -> int & { return w.config.vpp; }),
           tr("Model chunks per pipeline rank (interleaved schedule)"));
    boolRow(
        form, QStringLiteral("sequenceParallel"), tr("Sequence parallelism"),
        [](Workload &w) -> bool & { return w.config.sequenceParallel; },
        tr("Shard norms and dropout over TP (reduce-scatter + all-gather)"));
    m_parallelIssues = issuesLabel(form);
}

void WorkloadForm::buildBatch(QFormLayout *form)
{
    using R = std::function<int &(Workload &)>;
    intRow(form, QStringLiteral("microBatch"), tr("Micro-batch"), 1, 1 << 20,
           R([](Workload &w) -> int & { return w.config.microBatch; }),
           tr("Sequences per micro-batch (b)"));
    intRow(form, QStringLiteral("globalBatch"), tr("Global batch"), 1, 1 << 30,
           R([](Workload &w) -> int & { return w.config.globalBatch; }),
           tr("Sequences per step (B)"));
    enumRow<PipelineSchedule>(
        form, QStringLiteral("schedule"), tr("Schedule"),
        {{tr("GPipe"), PipelineSchedule::GPipe},
         {tr("1F1B"), PipelineSchedule::OneFOneB},
         {tr("Interleaved 1F1B"), PipelineSchedule::Interleaved}},
        [](Workload &w) -> PipelineSchedule & { return w.config.schedule; },
        tr("Pipeline schedule"));
    enumRow<Recompute>(
        form, QStringLiteral("recompute"), tr("Recomputation"),
        {{tr("None"), Recompute::None},
         {tr("Selective (modules below)"), Recompute::Selective},
         {tr("Full"), Recompute::Full}},
        [](Workload &w) -> Recompute & { return w.config.recompute; },
        tr("Activation recomputation (Korthikanti et al. 2022); selective recomputes the modules "
           "named under Training stack, the attention core when none are"));
    m_batchIssues = issuesLabel(form);
}

void WorkloadForm::buildPrecision(QFormLayout *form)
{
    intRow(
        form, QStringLiteral("zeroStage"), tr("ZeRO stage"), 0, 3,
        [](Workload &w) -> int & { return w.config.zeroStage; },
        tr("0: none, 1: optimizer, 2: + gradients, 3: + weights sharded over DP"));
    boolRow(
        form, QStringLiteral("distributedOptimizer"), tr("Distributed optimizer"),
        [](Workload &w) -> bool & { return w.config.distributedOptimizer; },
        tr("Megatron's distributed optimizer (shards like ZeRO-1)"));
    enumRow<DataType>(
        form, QStringLiteral("dtype"), tr("Datatype"),
        {{tr("BF16"), DataType::BF16}, {tr("FP8"), DataType::FP8}, {tr("FP4"), DataType::FP4}},
        [](Workload &w) -> DataType & { return w.config.dtype; },
        tr("Datatype of the linear layers' GEMMs (attention core, embedding, LM head and router "
           "stay BF16); FP4 on Blackwell"));
    enumRow<AttentionKernel>(
        form, QStringLiteral("attention"), tr("Attention kernel"),
        {{tr("Fused (generation's own)"), AttentionKernel::Flash},
         {tr("FlashAttention-2"), AttentionKernel::FlashAttention2},
         {tr("Unfused"), AttentionKernel::Unfused}},
        [](Workload &w) -> AttentionKernel & { return w.config.attention; },
        tr("Fused: FlashAttention-2 on Ampere, FlashAttention-3 / cuDNN on Hopper, cuDNN on "
           "Blackwell; FlashAttention-2 on any GPU (PyTorch SDPA); unfused attention writes the "
           "score matrix to HBM"));
    boolRow(
        form, QStringLiteral("gradReduceFp32"), tr("FP32 gradient reduction"),
        [](Workload &w) -> bool & { return w.config.gradReduceFp32; },
        tr("DP reduces fp32 gradients (Megatron's default with BF16)"));
    boolRow(
        form, QStringLiteral("overlapDpGrad"), tr("Overlap DP gradients"),
        [](Workload &w) -> bool & { return w.config.overlapDpGrad; },
        tr("DP gradient reduction overlaps the backward pass"));
    boolRow(
        form, QStringLiteral("overlapTp"), tr("Overlap TP"),
        [](Workload &w) -> bool & { return w.config.overlapTp; },
        tr("TP collectives overlap compute"));
    boolRow(
        form, QStringLiteral("overlapPp"), tr("Overlap PP"),
        [](Workload &w) -> bool & { return w.config.overlapPp; },
        tr("Pipeline send/receive overlaps compute"));
    boolRow(
        form, QStringLiteral("overlapEp"), tr("Overlap EP (1F1B A2A)"),
        [](Workload &w) -> bool & { return w.config.overlapEp; },
        tr("MoE dispatch and combine run beside the other micro-batch's compute in the steady "
           "1F1B phase (Megatron-Core combined 1F1B A2A overlap)"));
    boolRow(
        form, QStringLiteral("overlapSharedExperts"), tr("Overlap shared experts"),
        [](Workload &w) -> bool & { return w.config.overlapSharedExperts; },
        tr("Shared experts compute beside the exposed MoE dispatch and combine "
           "(--moe-shared-expert-overlap)"));
    boolRow(
        form, QStringLiteral("routerFusion"), tr("Fused MoE router"),
        [](Workload &w) -> bool & { return w.config.routerFusion; },
        tr("The router's element-wise kernels fused (--moe-router-fusion): 31 kernels per MoE "
           "layer instead of 72, host launch time saved outside CUDA graphs"));
}

// The enum rows of workloadformstack.cpp's sections, instantiated with the template's body.
#define WEFT_ENUM_ROW(E)                                                                           \
    template QComboBox *WorkloadForm::enumRow<E>(QFormLayout *, const QString &, const QString &,  \
                                                 const std::vector<std::pair<QString, E>> &,       \
                                                 std::function<E &(Workload &)>, const QString &);
WEFT_ENUM_ROW(TokenDispatcher)
WEFT_ENUM_ROW(Fp8Recipe)
WEFT_ENUM_ROW(CpKind)
WEFT_ENUM_ROW(TpOverlapKind)
WEFT_ENUM_ROW(CudaGraphScope)
#undef WEFT_ENUM_ROW

void WorkloadForm::showIssues(const Workload &w)
{
    const auto findings = validate(w.model, w.config, m_doc->design().acceleratorCount());
    QStringList model, parallel, batch;
    for (const Finding &f : findings) {
        const QString colour
            = f.severity == Severity::Error ? QStringLiteral("#d55e00") : QStringLiteral("#b8860b");
        const QString line
            = QStringLiteral("<span style=\"color:%1\">%2 %3</span>")
                  .arg(colour,
                       f.severity == Severity::Error ? QStringLiteral("✖") : QStringLiteral("⚠"),
                       QString::fromStdString(f.message).toHtmlEscaped());
        switch (sectionOf(f.code)) {
        case Section::Model:
            model << line;
            break;
        case Section::Parallelism:
            parallel << line;
            break;
        case Section::Batch:
            batch << line;
            break;
        }
    }
    const auto show = [](QLabel *label, const QStringList &lines) {
        label->setText(lines.join(QStringLiteral("<br>")));
        label->setVisible(!lines.isEmpty());
    };
    show(m_modelIssues, model);
    show(m_parallelIssues, parallel);
    show(m_batchIssues, batch);
}

} // namespace weft
