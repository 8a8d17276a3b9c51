#pragma once
// Utilization of one link (each direction, or several links) over the step: a step line per
// series, one value per simulator time bucket, in percent of capacity against time in ms.

#include "datachart.h"

namespace weft {

class LinkSeriesChart : public DataChart<LinkSeriesChartData>
{
    Q_OBJECT
public:
    explicit LinkSeriesChart(QWidget *parent = nullptr);

    [[nodiscard]] QString chartId() const override { return QStringLiteral("link-utilization"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;
};

} // namespace weft
