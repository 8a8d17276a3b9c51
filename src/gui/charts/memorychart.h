#pragma once
// Memory per accelerator against its HBM capacity: stacked bars of weights, gradients,
// optimizer states and activations in GB (1e9 bytes), with the capacity as a step line.

#include "datachart.h"

namespace weft {

class MemoryChart : public DataChart<MemoryChartData>
{
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    [[nodiscard]] QString chartId() const override { return QStringLiteral("memory"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;
    /// Thins the total labels above the bars to those that fit side by side (every k-th, and
    /// every bar over its capacity).
    void adaptTicksToWidth(int width) override;

public:
    /// The total labels above the bars (one per bar; the thinned ones hidden).
    [[nodiscard]] const QList<QCPItemText *> &totalLabels() const { return m_totals; }

private:
    QCPGraph *m_capacity = nullptr;
    QList<QCPItemText *> m_totals; // owned by the plot
};

} // namespace weft
