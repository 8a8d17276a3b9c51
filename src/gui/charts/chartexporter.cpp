#include "chartexporter.h"

#include "chart.h"
#include "storage/designstorage.h"

#include <QBuffer>
#include <QDir>
#include <QSvgGenerator>
#include <cmath>

namespace weft {

namespace {

// Lays the chart out for the page width while it is rendered, then back for its widget.
class PageWidth
{
public:
    PageWidth(Chart &chart, int width)
        : m_chart(chart)
    {
        m_chart.adaptToWidth(width);
    }
    ~PageWidth() { m_chart.adaptToWidth(m_chart.width()); }
    PageWidth(const PageWidth &) = delete;
    PageWidth &operator=(const PageWidth &) = delete;

private:
    Chart &m_chart;
};

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

bool validOptions(const ChartExportOptions &o, const QString &path, QString *error)
{
    using O = ChartExportOptions;
    const auto side = [](int v) { return v >= O::kMinSide && v <= O::kMaxSide; };
    if (!side(o.size.width()) || !side(o.size.height()))
        return fail(error,
                    QStringLiteral("%1: chart size %2 x %3 px is outside %4..%5")
                        .arg(path)
                        .arg(o.size.width())
                        .arg(o.size.height())
                        .arg(O::kMinSide)
                        .arg(O::kMaxSide));
    if (!std::isfinite(o.dpi) || o.dpi < O::kMinDpi || o.dpi > O::kMaxDpi)
        return fail(error,
                    QStringLiteral("%1: resolution %2 dpi is outside %3..%4")
                        .arg(path)
                        .arg(o.dpi)
                        .arg(O::kMinDpi)
                        .arg(O::kMaxDpi));
    return true;
}

QString csvField(const QString &field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"'))
        && !field.contains(QLatin1Char('\n')))
        return field;
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

bool ChartExportOptions::isValid() const
{
    return validOptions(*this, QString(), nullptr);
}

bool parseChartFormats(const QString &text, ChartFormats *formats, QString *error)
{
    ChartFormats result;
    for (const QString &raw : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = raw.trimmed().toLower();
        if (name == QLatin1String("png"))
            result |= ChartFormat::Png;
        else if (name == QLatin1String("pdf"))
            result |= ChartFormat::Pdf;
        else if (name == QLatin1String("svg"))
            result |= ChartFormat::Svg;
        else if (name == QLatin1String("csv"))
            result |= ChartFormat::Csv;
        else
            return fail(error,
                        QStringLiteral("unknown chart format '%1' (expected png, pdf, svg or csv)")
                            .arg(raw));
    }
    if (!result)
        return fail(error, QStringLiteral("no chart format given (expected png, pdf, svg or csv)"));
    *formats = result;
    return true;
}

QString chartFormatExtension(ChartFormat format)
{
    switch (format) {
    case ChartFormat::Png:
        return QStringLiteral("png");
    case ChartFormat::Pdf:
        return QStringLiteral("pdf");
    case ChartFormat::Svg:
        return QStringLiteral("svg");
    case ChartFormat::Csv:
        return QStringLiteral("csv");
    }
    return {};
}

bool ChartExporter::savePng(Chart &chart, const QString &path, const ChartExportOptions &options,
                            QString *error)
{
    if (!validOptions(options, path, error))
        return false;
    const double scale = options.dpi / 96.0;
    const PageWidth page(chart, options.size.width());
    QImage image = chart.toPixmap(options.size.width(), options.size.height(), scale).toImage();
    const int dotsPerMeter = int(std::lround(options.dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return fail(error, QStringLiteral("%1: cannot encode the chart as PNG").arg(path));
    return writeFileAtomically(path, bytes, error);
}

bool ChartExporter::savePdf(Chart &chart, const QString &path, const ChartExportOptions &options,
                            QString *error)
{
    if (!validOptions(options, path, error))
        return false;
    // QCustomPlot draws through QPrinter's PDF engine: text stays text, lines stay paths.
    const PageWidth page(chart, options.size.width());
    if (!chart.savePdf(path, options.size.width(), options.size.height(), QCP::epAllowCosmetic,
                       QStringLiteral("Weft"), chart.title()))
        return fail(error, QStringLiteral("%1: cannot write the PDF").arg(path));
    return true;
}

QByteArray ChartExporter::toSvg(Chart &chart, const ChartExportOptions &options)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(options.size);
    generator.setViewBox(QRect(QPoint(0, 0), options.size));
    generator.setResolution(96);
    generator.setTitle(chart.title());
    generator.setDescription(QStringLiteral("Weft chart '%1'").arg(chart.chartId()));
    const PageWidth page(chart, options.size.width());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return {};
    // Vectorized, no cached pixmaps: tick labels become <text>, not embedded images.
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    chart.toPainter(&painter, options.size.width(), options.size.height());
    painter.end();
    return bytes;
}

bool ChartExporter::saveSvg(Chart &chart, const QString &path, const ChartExportOptions &options,
                            QString *error)
{
    if (!validOptions(options, path, error))
        return false;
    const QByteArray bytes = toSvg(chart, options);
    if (bytes.isEmpty())
        return fail(error, QStringLiteral("%1: cannot render the chart as SVG").arg(path));
    return writeFileAtomically(path, bytes, error);
}

QString ChartExporter::toCsv(const ChartTable &table)
{
    QString out;
    auto line = [&out](const QStringList &fields) {
        QStringList escaped;
        for (const QString &f : fields)
            escaped << csvField(f);
        out += escaped.join(QLatin1Char(',')) + QLatin1Char('\n');
    };
    line(table.header);
    for (const QStringList &row : table.rows)
        line(row);
    return out;
}

bool ChartExporter::saveCsv(const Chart &chart, const QString &path, QString *error)
{
    return writeFileAtomically(path, toCsv(chart.table()).toUtf8(), error);
}

QStringList ChartExporter::exportChart(Chart &chart, const QString &dir, ChartFormats formats,
                                       const ChartExportOptions &options, QString *error)
{
    QStringList written;
    if (!QDir().mkpath(dir)) {
        fail(error, QStringLiteral("%1: cannot create the directory").arg(dir));
        return written;
    }
    for (ChartFormat format :
         {ChartFormat::Png, ChartFormat::Pdf, ChartFormat::Svg, ChartFormat::Csv}) {
        if (!formats.testFlag(format))
            continue;
        const QString path
            = QDir(dir).filePath(chart.chartId() + QLatin1Char('.') + chartFormatExtension(format));
        bool ok = false;
        switch (format) {
        case ChartFormat::Png:
            ok = savePng(chart, path, options, error);
            break;
        case ChartFormat::Pdf:
            ok = savePdf(chart, path, options, error);
            break;
        case ChartFormat::Svg:
            ok = saveSvg(chart, path, options, error);
            break;
        case ChartFormat::Csv:
            ok = saveCsv(chart, path, error);
            break;
        }
        if (!ok)
            return written;
        written << path;
    }
    return written;
}

} // namespace weft
