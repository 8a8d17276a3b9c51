#pragma once
// Writes a chart to files: PNG at a chosen size and DPI, PDF (vector, QCustomPlot::savePdf),
// SVG (vector, QSvgGenerator; self-contained: no images, no external references) and CSV of the
// plotted data with units in the header. Works on charts that were never shown (offscreen).

#include <QFlags>
#include <QSize>
#include <QString>
#include <QStringList>

namespace weft {

class Chart;
struct ChartTable;

enum class ChartFormat { Png = 0x1, Pdf = 0x2, Svg = 0x4, Csv = 0x8 };
Q_DECLARE_FLAGS(ChartFormats, ChartFormat)
Q_DECLARE_OPERATORS_FOR_FLAGS(ChartFormats)

/// Parses "png,pdf,svg,csv" (any subset, any order, case-insensitive). Returns false and names
/// the unknown entry in *error.
bool parseChartFormats(const QString &text, ChartFormats *formats, QString *error);
/// File extension of one format, without dot ("png").
QString chartFormatExtension(ChartFormat format);

/// Page size and resolution of an export. `size` is in device-independent pixels (1/96 inch)
/// and is also the PDF/SVG page size in those units; a PNG has size * dpi / 96 pixels and
/// records the DPI in its header.
struct ChartExportOptions
{
    QSize size {800, 500};
    double dpi = 192;

    static constexpr int kMinSide = 16, kMaxSide = 20000; ///< width and height, px
    static constexpr double kMinDpi = 24, kMaxDpi = 2400;
    /// Whether size and DPI lie in the ranges above (the exporter refuses others).
    [[nodiscard]] bool isValid() const;
    friend bool operator==(const ChartExportOptions &, const ChartExportOptions &) = default;
};

class ChartExporter
{
public:
    /// Each returns false and sets *error naming the file and the cause on failure; files
    /// are written whole or not at all where the format allows (CSV, SVG through QSaveFile).
    static bool savePng(Chart &chart, const QString &path, const ChartExportOptions &options,
                        QString *error = nullptr);
    static bool savePdf(Chart &chart, const QString &path, const ChartExportOptions &options,
                        QString *error = nullptr);
    static bool saveSvg(Chart &chart, const QString &path, const ChartExportOptions &options,
                        QString *error = nullptr);
    static bool saveCsv(const Chart &chart, const QString &path, QString *error = nullptr);

    /// The SVG document of the chart as bytes.
    static QByteArray toSvg(Chart &chart, const ChartExportOptions &options);
    /// RFC 4180 CSV: comma separated, CRLF-free (\n) lines, fields with comma, quote or newline
    /// quoted with doubled quotes.
    static QString toCsv(const ChartTable &table);

    /// Writes `dir`/<chart id>.<ext> for every format in `formats`, creating `dir`. Returns the
    /// written paths; on the first failure stops, returns what was written and sets *error.
    static QStringList exportChart(Chart &chart, const QString &dir, ChartFormats formats,
                                   const ChartExportOptions &options, QString *error = nullptr);
};

} // namespace weft
