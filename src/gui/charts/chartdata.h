#pragma once
// Plain data the charts plot, independent of the simulator's SimResult (adapters fill these).
// Units are SI as in the core: seconds, bytes, bytes/s; utilization and MFU are fractions
// (0..1). The charts convert to ms, GB, GB/s and % only for display.

#include <QString>
#include <QStringList>
#include <array>
#include <vector>

namespace weft {

/// The parts of the step-time critical path (simulator.md, Outputs), in stacking order.
enum class BreakdownPart {
    Compute,
    TpExposed,
    CpExposed,
    EpExposed,
    PpExposed,
    Bubble,
    DpExposed,
    Optimizer
};
inline constexpr int kBreakdownPartCount = 8;

/// Display name of a breakdown part ("compute", "exposed TP", ...).
QString breakdownPartName(BreakdownPart part);

/// One design's step time split into its parts, seconds each; indexed by BreakdownPart.
struct StepBreakdown
{
    QString design;
    std::array<double, kBreakdownPartCount> seconds {};
    [[nodiscard]] double total() const;
};

/// Step-time breakdown of one or more designs (compared side by side).
struct BreakdownChartData
{
    std::vector<StepBreakdown> designs;
};

/// What an accelerator is doing during a span of the pipeline timeline. Idle is not a kind:
/// it is every gap in [0, step time] not covered by a span.
enum class TimelineKind { Forward, Backward, Communication, Optimizer };
inline constexpr int kTimelineKindCount = 4;
QString timelineKindName(TimelineKind kind);

/// One operation on the timeline, seconds from the start of the step.
struct TimelineSpan
{
    TimelineKind kind = TimelineKind::Forward;
    double start = 0;
    double end = 0;
    int microBatch = -1; ///< shown inside the bar when >= 0
};

/// One row of the Gantt chart: a pipeline stage or one rank.
struct TimelineRow
{
    QString label;
    std::vector<TimelineSpan> spans;
};

struct TimelineChartData
{
    double stepTime = 0; ///< seconds; the time axis and the idle gaps end here
    std::vector<TimelineRow> rows;
};

/// Average utilization (fraction of capacity over the step) of every link direction of a tier.
struct TierUtilization
{
    QString tier; ///< "scale-up", "leaf", "spine", "core", ...; "leaf · <design>" when comparing
    std::vector<double> utilization;
};

struct UtilizationChartData
{
    std::vector<TierUtilization> tiers;
};

/// Utilization of one link direction per equal time bucket over the step (fractions).
struct LinkSeries
{
    QString label;
    std::vector<double> utilization;
};

struct LinkSeriesChartData
{
    double stepTime = 0; ///< seconds; bucket i covers [i, i+1) * stepTime / bucket count
    std::vector<LinkSeries> series;
    QString note; ///< footnote: why this link (the report plots the step's busiest)
};

/// Memory of one accelerator (or of all accelerators of one stage), bytes.
struct AcceleratorMemory
{
    QString label;
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double capacity = 0; ///< HBM capacity
    /// CUDA context and workspaces, NCCL buffers and allocator fragmentation (MemoryBreakdown's
    /// allowances): without them the chart said 74.9 GB where the memory-headroom warning of
    /// the same stage said 81.3 GB (95%) on the 16k example.
    double other = 0;
    [[nodiscard]] double total() const
    {
        return weights + gradients + optimizer + activations + other;
    }
};

struct MemoryChartData
{
    std::vector<AcceleratorMemory> accelerators;
};

/// One measured or simulated collective size: message bytes and bus bandwidth in bytes/s
/// (nccl-tests' busbw definition, PERFORMANCE.md of nccl-tests).
struct BusBandwidthPoint
{
    double messageBytes = 0;
    double busBandwidth = 0;
};

struct CollectiveSeries
{
    QString label; ///< e.g. "all-reduce, TP group 0 (sim)"
    std::vector<BusBandwidthPoint> points;
};

struct CollectiveChartData
{
    std::vector<CollectiveSeries> series;
};

/// One variant of a sweep: the parameter value, its step time (s) and MFU (fraction).
struct SweepPoint
{
    double parameter = 0;
    double stepTime = 0;
    double mfu = 0;
};

struct SweepSeries
{
    QString label;
    std::vector<SweepPoint> points;
};

struct SweepChartData
{
    QString parameter; ///< axis title, e.g. "scale-up domain size"
    QString parameterUnit; ///< e.g. "GPUs"; empty for a plain number
    bool logScale = false; ///< log2 parameter axis (domain sizes, message sizes)
    std::vector<SweepSeries> series;
    /// Variants that are not plotted, each with its reason ("TP degree 16: peak memory ...");
    /// the chart lists them under the legend so no failure disappears silently.
    QStringList notPlotted;
};

/// Checks the data a chart is about to plot. Returns an empty string when it is valid, else a
/// message naming the offending element (design, row, span, series, point) and the value:
/// non-finite or negative numbers, spans that end before they start or after the step, empty
/// series, non-positive message sizes on the log axis.
QString validateChartData(const BreakdownChartData &data);
QString validateChartData(const TimelineChartData &data);
QString validateChartData(const UtilizationChartData &data);
QString validateChartData(const LinkSeriesChartData &data);
QString validateChartData(const MemoryChartData &data);
QString validateChartData(const CollectiveChartData &data);
QString validateChartData(const SweepChartData &data);

/// Five-number summary for a box plot, Tukey style: whiskers at the most extreme values within
/// 1.5 IQR of the quartiles, the rest are outliers. Quartiles interpolate linearly between
/// order statistics (Hyndman & Fan 1996, definition 7, the default of R and NumPy).
struct BoxStatistics
{
    double minimum = 0; ///< lower whisker
    double lowerQuartile = 0;
    double median = 0;
    double upperQuartile = 0;
    double maximum = 0; ///< upper whisker
    double mean = 0;
    std::vector<double> outliers;
};
/// Summary of `values` (must not be empty).
BoxStatistics boxStatistics(std::vector<double> values);

/// A table of plotted values for CSV export; the header names each column with its unit.
struct ChartTable
{
    QStringList header;
    std::vector<QStringList> rows;
};

} // namespace weft
