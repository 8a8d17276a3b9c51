#pragma once
// Collective bandwidth like nccl-tests: bus bandwidth (GB/s, 1e9 bytes/s) against message size
// on a log2 axis labelled 1K ... 8G; one line with markers per series (collective, group,
// simulated or measured), each series with its own colour, marker and dash.

#include "datachart.h"

namespace weft {

class CollectiveChart : public DataChart<CollectiveChartData>
{
    Q_OBJECT
public:
    explicit CollectiveChart(QWidget *parent = nullptr);

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
};

/// Marker shape of the i-th series (cycles), so series differ without colour too.
QCPScatterStyle::ScatterShape seriesMarker(int index);

} // namespace weft
