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

private:
    QCPGraph *m_capacity = nullptr;
};

} // namespace weft
