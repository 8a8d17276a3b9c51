#include "memorychart.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace weft {

namespace {

constexpr double kGB = 1e9;

struct Part
{
    const char *name;
    double AcceleratorMemory::*field;
    OkabeIto colour;
};

constexpr std::array<Part, 5> kParts
    = {{{"weights", &AcceleratorMemory::weights, OkabeIto::Blue},
        {"gradients", &AcceleratorMemory::gradients, OkabeIto::SkyBlue},
        {"optimizer states", &AcceleratorMemory::optimizer, OkabeIto::BluishGreen},
        {"activations", &AcceleratorMemory::activations, OkabeIto::Orange},
        {"CUDA context, NCCL buffers, fragmentation", &AcceleratorMemory::other,
         OkabeIto::ReddishPurple}}};

} // namespace

MemoryChart::MemoryChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Memory per accelerator"));
    refresh();
}

void MemoryChart::build()
{
    QStringList names;
    bool stages = !m_data.accelerators.empty();
    for (const AcceleratorMemory &a : m_data.accelerators) {
        names << a.label;
        stages = stages && a.label.contains(QLatin1String("stage "));
    }
    setCategoryTicks(xAxis, names);
    // A simulation result gives one bar per pipeline stage (its fullest accelerator).
    xAxis->setLabel(stages ? tr("pipeline stage (its fullest accelerator)") : tr("accelerator"));
    xAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("memory (GB)"));

    QCPBars *below = nullptr;
    for (std::size_t p = 0; p < kParts.size(); ++p) {
        auto *bars = new QCPBars(xAxis, yAxis);
        bars->setName(tr(kParts[p].name));
        bars->setBrush(okabeIto(kParts[p].colour));
        bars->setWidth(0.65);
        bars->setProperty("part", int(p));
        for (std::size_t i = 0; i < m_data.accelerators.size(); ++i)
            bars->addData(double(i), m_data.accelerators[i].*kParts[p].field / kGB);
        stackOn(bars, below);
        below = bars;
    }
    // Total above each bar, flagged when it exceeds the capacity.
    m_totals.clear();
    for (std::size_t i = 0; i < m_data.accelerators.size(); ++i) {
        const AcceleratorMemory &a = m_data.accelerators[i];
        const bool over = a.total() > a.capacity;
        auto *label = new QCPItemText(this);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->position->setCoords(double(i), a.total() / kGB);
        label->setText(over ? tr("%1 (over)").arg(formatNumber(a.total() / kGB, 1))
                            : formatNumber(a.total() / kGB, 1));
        label->setFont(fonts().annotation);
        label->setColor(over ? okabeIto(OkabeIto::Vermillion) : theme().foreground);
        label->setPadding(QMargins(0, 0, 0, 3));
        label->setClipToAxisRect(false);
        // Over the capacity line on a plate of the background: a total near the capacity (95%
        // on the 16k example) was struck through by the dashed line.
        label->setLayer(QStringLiteral("axes"));
        label->setBrush(theme().background);
        label->setProperty("over", over);
        m_totals << label;
    }
    adaptTicksToWidth(width());
    // Capacity: a step line one bar wide per accelerator (capacities may differ).
    m_capacity = nullptr;
    if (m_data.accelerators.empty())
        return;
    QVector<double> keys;
    QVector<double> values;
    for (std::size_t i = 0; i < m_data.accelerators.size(); ++i) {
        keys << double(i) - 0.5;
        values << m_data.accelerators[i].capacity / kGB;
    }
    keys << double(m_data.accelerators.size()) - 0.5;
    values << values.back();
    m_capacity = addGraph();
    m_capacity->setName(tr("HBM capacity"));
    m_capacity->setLineStyle(QCPGraph::lsStepLeft);
    m_capacity->setPen(QPen(okabeIto(OkabeIto::Vermillion), 2.5, Qt::DashLine));
    m_capacity->setData(keys, values, true);
}

void MemoryChart::adaptTicksToWidth(int width)
{
    if (m_totals.isEmpty())
        return;
    // 16 stages in a 600 px dock ran "79.2" into "79.2": label every k-th bar, k such that a
    // label and some air (12 px) fit in k bars. The axis rect is the width less the y axis with
    // its label and the margins (~90 px; at 70 the 16 totals in a 650 px dock still touched).
    const QFontMetrics metrics(fonts().annotation);
    int widest = 0; // of the plain totals: the few over capacity show regardless
    for (const QCPItemText *label : m_totals)
        if (!label->property("over").toBool())
            widest = std::max(widest, metrics.horizontalAdvance(label->text()));
    const double bar = std::max(1, width - 90) / (double(m_totals.size()) + 0.2);
    const int step = std::max(1, int(std::ceil((widest + 12) / bar)));
    for (qsizetype i = 0; i < m_totals.size(); ++i)
        m_totals[i]->setVisible(i % step == 0 || m_totals[i]->property("over").toBool());
}

void MemoryChart::fitView()
{
    double top = 0;
    for (const AcceleratorMemory &a : m_data.accelerators)
        top = std::max({top, a.total() / kGB, a.capacity / kGB});
    xAxis->setRange(-0.6, std::max(0.6, double(m_data.accelerators.size()) - 0.4));
    yAxis->setRange(0, top > 0 ? top * 1.12 : 1);
}

QString MemoryChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    std::size_t acc = 0;
    if (plottable == m_capacity && m_capacity)
        acc = std::size_t(std::min(index, int(m_data.accelerators.size()) - 1));
    else if (qobject_cast<QCPBars *>(plottable))
        acc = std::size_t(index);
    else
        return {};
    if (acc >= m_data.accelerators.size())
        return {};
    const AcceleratorMemory &a = m_data.accelerators[acc];
    QString text = a.label;
    if (plottable != m_capacity) {
        const Part &part = kParts[std::size_t(plottable->property("part").toInt())];
        text += tr("\n%1: %2 GB").arg(tr(part.name), formatNumber(a.*part.field / kGB, 2));
    }
    const double share = a.capacity > 0 ? 100 * a.total() / a.capacity : 0;
    return text
        + tr("\ntotal %1 GB of %2 GB (%3 %)")
              .arg(formatNumber(a.total() / kGB, 2), formatNumber(a.capacity / kGB, 2),
                   formatNumber(share, 1));
}

ChartTable MemoryChart::table() const
{
    ChartTable t;
    t.header = QStringList {QStringLiteral("accelerator"),       QStringLiteral("weights_bytes"),
                            QStringLiteral("gradients_bytes"),   QStringLiteral("optimizer_bytes"),
                            QStringLiteral("activations_bytes"), QStringLiteral("other_bytes"),
                            QStringLiteral("total_bytes"),       QStringLiteral("capacity_bytes")};
    for (const AcceleratorMemory &a : m_data.accelerators) {
        t.rows.push_back({a.label, csvNumber(a.weights), csvNumber(a.gradients),
                          csvNumber(a.optimizer), csvNumber(a.activations), csvNumber(a.other),
                          csvNumber(a.total()), csvNumber(a.capacity)});
    }
    return t;
}

} // namespace weft
