#pragma once
// Distribution of average link utilization per tier (scale-up, leaf, spine, core, ...): one
// Tukey box plot per tier (quartiles, whiskers at 1.5 IQR, outliers as dots) plus the mean, in
// percent of link capacity. Tiers without links get no box.

#include "datachart.h"

namespace weft {

class UtilizationChart : public DataChart<UtilizationChartData>
{
    Q_OBJECT
public:
    explicit UtilizationChart(QWidget *parent = nullptr);

    [[nodiscard]] QString chartId() const override { return QStringLiteral("utilization"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    QCPGraph *m_means = nullptr;
};

/// Okabe-Ito colour of a fabric tier by name ("scale-up", "leaf", "spine", "core", "nic", or
/// "<tier> · <design>" when comparing); other names get series colours by `index`.
QColor tierColour(const QString &name, int index);

} // namespace weft
