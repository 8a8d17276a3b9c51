#pragma once
// Collective bandwidth like nccl-tests: bus bandwidth (GB/s, 1e9 bytes/s) against message size
// on a log2 axis labelled 1K ... 8G; one line with markers per series (collective, group,
// simulated or measured), each series with its own colour, marker and dash.

#include "chart.h"

namespace weft {

class CollectiveChart : public Chart
{
    Q_OBJECT
public:
    explicit CollectiveChart(QWidget *parent = nullptr);

    /// Plots `data`. Invalid data empties the chart, returns false and sets *error.
    bool setData(const CollectiveChartData &data, QString *error = nullptr);
    [[nodiscard]] const CollectiveChartData &data() const { return m_data; }

    [[nodiscard]] QString chartId() const override
    {
        return QStringLiteral("collective-bandwidth");
    }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    void adaptTicksToWidth(int width) override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    CollectiveChartData m_data;
};

/// Marker shape of the i-th series (cycles), so series differ without colour too.
QCPScatterStyle::ScatterShape seriesMarker(int index);

} // namespace weft
