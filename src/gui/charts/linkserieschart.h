#pragma once
// Utilization of one link (each direction, or several links) over the step: a step line per
// series, one value per simulator time bucket, in percent of capacity against time in ms.

#include "chart.h"

namespace weft {

class LinkSeriesChart : public Chart
{
    Q_OBJECT
public:
    explicit LinkSeriesChart(QWidget *parent = nullptr);

    /// Plots `data`. Invalid data empties the chart, returns false and sets *error.
    bool setData(const LinkSeriesChartData &data, QString *error = nullptr);
    [[nodiscard]] const LinkSeriesChartData &data() const { return m_data; }

    [[nodiscard]] QString chartId() const override { return QStringLiteral("link-utilization"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    LinkSeriesChartData m_data;
};

} // namespace weft
