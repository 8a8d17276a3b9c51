#include "timelinechart.h"

#include "ganttbars.h"

#include <algorithm>
#include <array>

namespace weft {

namespace {

constexpr double kMs = 1e3;

QColor kindColour(TimelineKind kind)
{
    switch (kind) {
    case TimelineKind::Forward:
        return okabeIto(OkabeIto::SkyBlue);
    case TimelineKind::Backward:
        return okabeIto(OkabeIto::Blue);
    case TimelineKind::Communication:
        return okabeIto(OkabeIto::Orange);
    case TimelineKind::Optimizer:
        return okabeIto(OkabeIto::BluishGreen);
    }
    return {};
}

// Gaps shorter than this fraction of the step are rounding, not idle time.
constexpr double kIdleEpsilon = 1e-9;

} // namespace

TimelineChart::TimelineChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Pipeline timeline"));
    // The plot's height is known once laid out: the labels are thinned to it then (a guess
    // from the widget's height labelled the 8 stages of a 300 px Results dock every other
    // one though all fit).
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        const int fit = rowsThatFit(axisRect()->height());
        if (fit != m_labelled && !m_data.rows.empty()) {
            labelRows(fit);
            replot(QCustomPlot::rpQueuedReplot);
        }
    });
    refresh();
}

std::vector<TimelineChart::PlottedSpan> TimelineChart::plottedSpans(std::size_t row) const
{
    std::vector<PlottedSpan> spans;
    if (row >= m_data.rows.size())
        return spans;
    for (const TimelineSpan &s : m_data.rows[row].spans)
        spans.push_back({s, false});
    std::stable_sort(spans.begin(), spans.end(), [](const PlottedSpan &a, const PlottedSpan &b) {
        return a.span.start < b.span.start;
    });
    std::vector<PlottedSpan> result;
    const double epsilon = kIdleEpsilon * m_data.stepTime;
    double busyUntil = 0;
    for (const PlottedSpan &s : spans) {
        if (s.span.start - busyUntil > epsilon)
            result.push_back(
                {TimelineSpan {TimelineKind::Forward, busyUntil, s.span.start, -1}, true});
        result.push_back(s);
        busyUntil = std::max(busyUntil, s.span.end);
    }
    if (m_data.stepTime - busyUntil > epsilon)
        result.push_back(
            {TimelineSpan {TimelineKind::Forward, busyUntil, m_data.stepTime, -1}, true});
    return result;
}

void TimelineChart::build()
{
    adaptTicksToWidth(width());
    yAxis->setRangeReversed(true); // first stage on top, as in every pipeline-schedule figure
    yAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("pipeline stage"));
    xAxis->setLabel(tr("time in step (ms)"));

    std::array<GanttBars *, kTimelineKindCount> byKind {};
    for (int k = 0; k < kTimelineKindCount; ++k) {
        const auto kind = static_cast<TimelineKind>(k);
        auto *bars = new GanttBars(xAxis, yAxis);
        bars->setName(timelineKindName(kind));
        bars->setBrush(kindColour(kind));
        bars->setPen(QPen(theme().background, 0.5));
        bars->setLabelFont(fonts().annotation);
        bars->setLabelColor(kind == TimelineKind::Backward ? QColor(Qt::white) : QColor(Qt::black));
        bars->setProperty("idle", false);
        byKind[std::size_t(k)] = bars;
    }
    auto *idle = new GanttBars(xAxis, yAxis);
    idle->setName(tr("idle"));
    idle->setBrush(theme().idle);
    idle->setPen(Qt::NoPen);
    idle->setProperty("idle", true);

    for (std::size_t r = 0; r < m_data.rows.size(); ++r) {
        for (const PlottedSpan &p : plottedSpans(r)) {
            const QString label
                = p.span.microBatch >= 0 ? QString::number(p.span.microBatch) : QString();
            const GanttBars::Bar bar {double(r), p.span.start * kMs, p.span.end * kMs,
                                      p.idle ? QString() : label};
            (p.idle ? idle : byKind[std::size_t(p.span.kind)])->addBar(bar);
        }
    }
    // Idle is drawn first, under everything; kinds that never occur get no series.
    idle->setLayer(QStringLiteral("grid"));
    for (GanttBars *bars : byKind) {
        if (bars->bars().empty())
            removePlottable(bars);
    }
    if (idle->bars().empty())
        removePlottable(idle);
}

void TimelineChart::adaptTicksToWidth(int)
{
    // Before a layout: the widget's height less the title, x axis and legend (about 110 px).
    labelRows(rowsThatFit(height() - 110));
}

int TimelineChart::rowsThatFit(int plotHeight) const
{
    const int lineHeight = QFontMetrics(fonts().tickLabel).height();
    return std::clamp(plotHeight / std::max(1, lineHeight), 1, 24);
}

void TimelineChart::labelRows(int fit)
{
    QStringList rowNames;
    for (const TimelineRow &row : m_data.rows)
        rowNames << row.label;
    m_labelled = fit;
    setCategoryTicks(yAxis, rowNames, fit);
}

void TimelineChart::fitView()
{
    const double end = std::max(m_data.stepTime * kMs, 1e-3);
    xAxis->setRange(-0.01 * end, 1.01 * end);
    yAxis->setRange(-0.6, std::max(0.6, double(m_data.rows.size()) - 0.4));
}

QString TimelineChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *bars = qobject_cast<GanttBars *>(plottable);
    if (!bars || index < 0 || std::size_t(index) >= bars->bars().size())
        return {};
    const GanttBars::Bar &bar = bars->bars()[std::size_t(index)];
    const auto row = std::size_t(bar.row);
    const QString rowName = row < m_data.rows.size() ? m_data.rows[row].label : QString();
    QString what = bars->name();
    if (!bar.label.isEmpty())
        what += tr(", micro-batch %1").arg(bar.label);
    return tr("%1\n%2\n%3 to %4 ms (%5 ms)")
        .arg(rowName, what, formatNumber(bar.start, 3), formatNumber(bar.end, 3),
             formatNumber(bar.end - bar.start, 3));
}

ChartTable TimelineChart::table() const
{
    ChartTable t;
    t.header
        = QStringList {QStringLiteral("row"), QStringLiteral("kind"), QStringLiteral("micro_batch"),
                       QStringLiteral("start_s"), QStringLiteral("end_s")};
    for (std::size_t r = 0; r < m_data.rows.size(); ++r) {
        for (const PlottedSpan &p : plottedSpans(r)) {
            t.rows.push_back(
                {m_data.rows[r].label,
                 p.idle ? QStringLiteral("idle") : timelineKindName(p.span.kind),
                 p.span.microBatch >= 0 ? QString::number(p.span.microBatch) : QString(),
                 csvNumber(p.span.start), csvNumber(p.span.end)});
        }
    }
    return t;
}

} // namespace weft
