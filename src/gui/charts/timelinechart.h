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

private:
    /// Labels the rows, at most `fit` of them (every n-th when fewer than the rows).
    void labelRows(int fit);
    /// Rows whose labels fit `plotHeight` pixels, one line height each.
    [[nodiscard]] int rowsThatFit(int plotHeight) const;

    int m_labelled = -1; ///< the `fit` the row labels were made for
};

} // namespace weft
