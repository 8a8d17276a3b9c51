#pragma once
// What-if trials (issue 19): the distribution of the step time under random failures as a
// cumulative curve (x: step time in ms; y: share of trials at or below it, %), the healthy
// design's step time as a dashed vertical line, and the median, p95 and worst named in the
// legend. Its table (CSV) lists each trial's step time and slowdown.

#include "chart.h"
#include "whatif/trials.h"

#include <vector>

namespace weft {

struct WhatIfChartData
{
    QString design; ///< design name (kept for the caller; the title names the failures only)
    int failures = 0; ///< cables failed per trial
    double healthyStepTime = 0; ///< s
    std::vector<double> stepTimes; ///< s, one per trial that ran (any order)
};

/// The chart data of a finished run: the trials that simulated, the healthy step time.
WhatIfChartData whatIfChartData(const QString &design, int failures, const WhatIfResult &result);

class WhatIfChart : public Chart
{
    Q_OBJECT
public:
    explicit WhatIfChart(QWidget *parent = nullptr);

    /// Plots `data`; refuses (returns false, *error set, chart emptied) a non-positive healthy
    /// step time or a step time that is not a positive finite number.
    bool setData(const WhatIfChartData &data, QString *error = nullptr);
    [[nodiscard]] const WhatIfChartData &data() const { return m_data; }

    [[nodiscard]] QString chartId() const override { return QStringLiteral("whatif"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    /// The step times with 5% of their span (at least 1% of the healthy step) on each side, so
    /// the healthy line stays off the axis; 0 to 100% of the trials.
    void fitView() override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;

private:
    WhatIfChartData m_data;
    std::vector<double> m_sorted; ///< step times, ascending
};

} // namespace weft
