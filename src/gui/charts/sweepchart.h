#pragma once
// A sweep: step time (s, left axis, solid lines with filled markers) and MFU (%, right axis,
// dashed lines with open markers) against one parameter (scale-up domain size, TP degree,
// oversubscription, micro-batch, NIC rate ...), one colour per compared series; a single series
// draws MFU in a second colour, each axis title in its line's colour. Ticks sit on
// the swept values when there are few of them; the parameter axis may be log2.

#include "datachart.h"

namespace weft {

class SweepChart : public DataChart<SweepChartData>
{
    Q_OBJECT
public:
    explicit SweepChart(QWidget *parent = nullptr);

    [[nodiscard]] QString chartId() const override { return QStringLiteral("sweep"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void restyle() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

    /// Sorts every series' points by parameter (lines join neighbours).
    void normalize(SweepChartData &data) override;

private:
    [[nodiscard]] QString parameterTitle() const;
};

} // namespace weft
