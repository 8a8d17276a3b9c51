#pragma once
// Step-time breakdown as stacked bars, one bar per design (side by side when comparing): the
// critical-path parts of simulator.md (compute, exposed TP/CP/EP/PP, bubble, exposed DP,
// optimizer) stacked in that order, in ms below 1 s and in s above, with the total over each bar.
// Parts that are zero in every design get no series.

#include "datachart.h"

namespace weft {

class BreakdownChart : public DataChart<BreakdownChartData>
{
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget *parent = nullptr);

    /// Seconds per displayed unit: 1e-3 when the largest total is below 1 s, else 1.
    [[nodiscard]] double unitSeconds() const;

    [[nodiscard]] QString chartId() const override { return QStringLiteral("breakdown"); }
    [[nodiscard]] ChartTable table() const override;

    /// What a bar stands for: the x-axis title and the table's first column ("design").
    [[nodiscard]] QString categoryName() const { return m_category; }
    void setCategoryName(const QString &name);

protected:
    void build() override;
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    QString m_category = QStringLiteral("design");
};

/// The Okabe-Ito colour of a breakdown part (the same in every chart and theme).
QColor breakdownPartColour(BreakdownPart part);

} // namespace weft
