#pragma once
// A sweep: step time (s, left axis, solid lines with filled markers) and MFU (%, right axis,
// dashed lines with open markers) against one parameter (scale-up domain size, TP degree,
// oversubscription, micro-batch, NIC rate ...), one colour per compared series. Ticks sit on
// the swept values when there are few of them; the parameter axis may be log2.

#include "chart.h"

namespace weft {

class SweepChart : public Chart
{
    Q_OBJECT
public:
    explicit SweepChart(QWidget *parent = nullptr);

    /// Plots `data`; points are sorted by parameter. Invalid data empties the chart, returns
    /// false and sets *error.
    bool setData(const SweepChartData &data, QString *error = nullptr);
    [[nodiscard]] const SweepChartData &data() const { return m_data; }

    [[nodiscard]] QString chartId() const override { return QStringLiteral("sweep"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    [[nodiscard]] QString parameterTitle() const;

    SweepChartData m_data;
};

} // namespace weft
