#include "gui/widgets/workloadsummary.h"

#include "gui/simulation/resultsummary.h"
#include "model/design.h"
#include "sim/schedule.h"
#include "workload/placement.h"

#include <QFormLayout>
#include <QLabel>
#include <algorithm>

namespace weft {

namespace {

const QString kBad = QStringLiteral("color:#d55e00; font-weight:bold");

QLabel *row(QFormLayout *form, const QString &label, const QString &key)
{
    auto *value = new QLabel;
    value->setObjectName(key);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setWordWrap(true);
    form->addRow(label, value);
    return value;
}

void setText(QLabel *label, const QString &text, bool bad)
{
    label->setText(text);
    label->setStyleSheet(bad ? kBad : QString());
}

// "a" or "a to b" of the smallest and largest of `values`.
QString rangeText(const std::vector<int> &values)
{
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return *lo == *hi ? QString::number(*lo) : QObject::tr("%1 to %2").arg(*lo).arg(*hi);
}

} // namespace

const AcceleratorSpec *WorkloadSummary::tightestAccelerator(const Design &d)
{
    const AcceleratorSpec *best = nullptr;
    for (const NodeId id : acceleratorsInOrder(d))
        if (const AcceleratorSpec *s = d.acceleratorSpec(*d.node(id));
            s && (!best || s->hbmBytes < best->hbmBytes))
            best = s;
    return best;
}

QString WorkloadSummary::layersPerStageText(const std::vector<int> &chunkLayers, int pp)
{
    if (chunkLayers.empty() || pp < 1)
        return {};
    const int vpp = std::max(1, int(chunkLayers.size()) / pp);
    std::vector<int> stage(std::size_t(pp), 0);
    for (std::size_t k = 0; k < chunkLayers.size(); ++k)
        stage[k % std::size_t(pp)] += chunkLayers[k]; // chunk k runs on stage k % pp
    const QString perStage = tr("%1 layers per stage").arg(rangeText(stage));
    if (vpp == 1)
        return perStage;
    return tr("%1, in %2 chunks of %3").arg(perStage).arg(vpp).arg(rangeText(chunkLayers));
}

WorkloadSummary::WorkloadSummary(QWidget *parent)
    : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_world = row(form, tr("World size"), QStringLiteral("world"));
    m_microBatches = row(form, tr("Micro-batches per step"), QStringLiteral("microBatches"));
    m_layers = row(form, tr("Layers per stage"), QStringLiteral("layers"));
    m_params = row(form, tr("Parameters per GPU"), QStringLiteral("params"));
    m_memory = row(form, tr("Memory per GPU"), QStringLiteral("memory"));
}

QLabel *WorkloadSummary::value(const QString &key) const
{
    return findChild<QLabel *>(key);
}

void WorkloadSummary::refresh(const Design &d)
{
    if (!d.workload)
        return;
    const TransformerSpec &m = d.workload->model;
    const TrainingConfig &c = d.workload->config;
    const long long world = c.worldSize();
    const long long acc = static_cast<long long>(d.acceleratorCount());
    QString w = tr("%1 ranks on %2 accelerators").arg(world).arg(acc);
    if (world < acc)
        w += tr(" (%1 idle)").arg(acc - world);
    setText(m_world, world > acc ? tr("%1: %2 too many").arg(w).arg(world - acc) : w, world > acc);

    const auto findings = validate(m, c, static_cast<std::size_t>(acc));
    const bool runnable = !hasError(findings);
    const long long perStep = 1LL * std::max(1, c.microBatch) * std::max(1, c.dp);
    setText(m_microBatches,
            tr("%1 (B %2 / (b %3 × DP %4))")
                .arg(c.microBatches())
                .arg(c.globalBatch)
                .arg(c.microBatch)
                .arg(c.dp),
            c.globalBatch % perStep != 0);
    if (!runnable) {
        for (QLabel *l : {m_layers, m_params, m_memory})
            setText(l, tr("— (fix the problems below)"), false);
        return;
    }
    setText(m_layers, layersPerStageText(splitLayers(m, c), c.pp), false);
    double params = 0;
    int paramStage = 0;
    for (int st = 0; st < c.pp; ++st)
        if (const double p = stageParams(m, c, st).total(); p > params)
            params = p, paramStage = st;
    setText(m_params, tr("%1 B (stage %2)").arg(params / 1e9, 0, 'f', 2).arg(paramStage), false);
    m_params->setToolTip(tr("Parameters held by one GPU of the largest stage, before ZeRO "
                            "sharding: dense / TP, experts / (TP x EP), embedding and output "
                            "layer on the first and last stage"));
    const AcceleratorSpec *spec = tightestAccelerator(d);
    if (!spec) {
        setText(m_memory, tr("— (no accelerator spec)"), false);
        return;
    }
    const std::vector<MemoryBreakdown> mem = stageMemories(m, c, *spec);
    const auto worst = std::max_element(
        mem.begin(), mem.end(), [](const auto &a, const auto &b) { return a.total() < b.total(); });
    const bool over = worst->total() > spec->hbmBytes;
    setText(m_memory,
            tr("%1 of %2 GB (stage %3)%4")
                .arg(worst->total() / 1e9, 0, 'f', 1)
                .arg(gigabytesText(spec->hbmBytes))
                .arg(int(worst - mem.begin()))
                .arg(over ? tr(": does not fit in HBM") : QString()),
            over);
    m_memory->setToolTip(tr("Fullest stage on %1: weights %2 GB, gradients %3 GB, optimizer %4 "
                            "GB, activations %5 GB (peak of the schedule)")
                             .arg(QString::fromStdString(spec->name))
                             .arg(worst->weights / 1e9, 0, 'f', 1)
                             .arg(worst->gradients / 1e9, 0, 'f', 1)
                             .arg(worst->optimizer / 1e9, 0, 'f', 1)
                             .arg(worst->activations / 1e9, 0, 'f', 1));
}

} // namespace weft
