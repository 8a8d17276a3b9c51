#pragma once
// Memory per accelerator against its HBM capacity: stacked bars of weights, gradients,
// optimizer states and activations in GB (1e9 bytes), with the capacity as a step line.

#include "chart.h"

namespace weft {

class MemoryChart : public Chart
{
    Q_OBJECT
public:
    explicit MemoryChart(QWidget *parent = nullptr);

    /// Plots `data`. Invalid data empties the chart, returns false and sets *error.
    bool setData(const MemoryChartData &data, QString *error = nullptr);
    [[nodiscard]] const MemoryChartData &data() const { return m_data; }

    [[nodiscard]] QString chartId() const override { return QStringLiteral("memory"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    MemoryChartData m_data;
    QCPGraph *m_capacity = nullptr;
};

} // namespace weft
