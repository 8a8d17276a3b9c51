#pragma once
// Pipeline timeline (Gantt): one row per pipeline stage (or rank), forward, backward,
// communication and optimizer spans in distinct Okabe-Ito colours, idle (every gap up to the
// step time) in a quiet neutral; micro-batch numbers inside the bars; time axis in ms.

#include "datachart.h"

namespace weft {

class GanttBars;

class TimelineChart : public DataChart<TimelineChartData>
{
    Q_OBJECT
public:
    explicit TimelineChart(QWidget *parent = nullptr);

    /// A span as plotted: an operation, or an idle gap (`idle` true, `span.kind` unused).
    struct PlottedSpan
    {
        TimelineSpan span;
        bool idle = false;
    };
    /// Spans of row `row` sorted by start, with the idle gaps in [0, step time] filled in.
    [[nodiscard]] std::vector<PlottedSpan> plottedSpans(std::size_t row) const;

    [[nodiscard]] QString chartId() const override { return QStringLiteral("timeline"); }
    [[nodiscard]] ChartTable table() const override;

protected:
    void build() override;
    void fitView() override;
    /// Thins the stage labels to those that fit the plot's height without overlapping.
    void adaptTicksToWidth(int width) override;
    [[nodiscard]] QString describe(QCPAbstractPlottable *plottable, int index) const override;
};

} // namespace weft
