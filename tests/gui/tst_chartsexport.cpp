// Chart export: PNG at the requested pixel size and DPI, PDF with real text and vector paths,
// self-contained SVG with text elements, CSV equal to the data, and the headless report
// entry point. Set WEFT_CHART_SHOTS_DIR to keep the light and dark PNGs of every chart.

#include "chartsamples.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartexporter.h"
#include "gui/charts/chartreport.h"
#include "gui/charts/collectivechart.h"
#include "gui/charts/linkserieschart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/sweepchart.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"

#include <QImageReader>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace weft;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The decompressed content of every FlateDecode stream of a PDF, concatenated.
QByteArray inflatePdfStreams(const QByteArray &pdf)
{
    QByteArray out;
    qsizetype pos = 0;
    while ((pos = pdf.indexOf("stream", pos)) >= 0) {
        if (pos >= 3 && pdf.mid(pos - 3, 3) == "end") {
            pos += 6;
            continue;
        }
        const qsizetype dictStart = pdf.lastIndexOf("<<", pos);
        const bool flate = pdf.mid(dictStart, pos - dictStart).contains("/FlateDecode");
        qsizetype start = pos + 6;
        if (pdf.at(start) == '\r')
            ++start;
        if (pdf.at(start) == '\n')
            ++start;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0)
            break;
        const QByteArray body = pdf.mid(start, end - start);
        if (flate) {
            // qUncompress wants the expected size as a 4-byte big-endian prefix; it grows as
            // needed.
            QByteArray prefixed(4, '\0');
            const quint32 guess = quint32(body.size() * 16 + 1024);
            prefixed[0] = char(guess >> 24);
            prefixed[1] = char(guess >> 16);
            prefixed[2] = char(guess >> 8);
            prefixed[3] = char(guess);
            out += qUncompress(prefixed + body);
        } else {
            out += body;
        }
        pos = end + 9;
    }
    return out;
}

// Splits simple CSV (our writer's quoting) into rows of fields.
std::vector<QStringList> parseCsv(const QString &text)
{
    std::vector<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row << field;
            field.clear();
            rows.push_back(row);
            row.clear();
        } else {
            field += c;
        }
    }
    return rows;
}

std::vector<std::unique_ptr<Chart>> everyChart()
{
    std::vector<std::unique_ptr<Chart>> charts;
    auto add = [&charts](auto chart, const auto &data) {
        chart->setData(data);
        charts.push_back(std::move(chart));
    };
    add(std::make_unique<BreakdownChart>(), samples::breakdownData());
    add(std::make_unique<TimelineChart>(), samples::timelineData());
    add(std::make_unique<UtilizationChart>(), samples::utilizationData());
    add(std::make_unique<LinkSeriesChart>(), samples::linkSeriesData());
    add(std::make_unique<MemoryChart>(), samples::memoryData());
    add(std::make_unique<CollectiveChart>(), samples::collectiveData());
    add(std::make_unique<SweepChart>(), samples::sweepData());
    return charts;
}

} // namespace

class TestChartsExport : public QObject
{
    Q_OBJECT
private slots:
    void pngHasTheRequestedPixelSizeAndDpi_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("dpi");
        QTest::addColumn<QSize>("pixels");
        QTest::newRow("screen") << QSize(800, 500) << 96.0 << QSize(800, 500);
        QTest::newRow("retina") << QSize(800, 500) << 192.0 << QSize(1600, 1000);
        QTest::newRow("print") << QSize(640, 400) << 300.0 << QSize(2000, 1250);
    }

    void pngHasTheRequestedPixelSizeAndDpi()
    {
        QFETCH(QSize, size);
        QFETCH(double, dpi);
        QTemporaryDir dir;
        BreakdownChart chart;
        chart.setData(samples::breakdownData());
        const QString path = dir.filePath(QStringLiteral("b.png"));
        QString error;
        QVERIFY2(ChartExporter::savePng(chart, path, {size, dpi}, &error), qPrintable(error));
        QImageReader reader(path);
        QCOMPARE(QByteArray(reader.format()), QByteArray("png"));
        const QImage image = reader.read();
        QTEST(image.size(), "pixels");
        QVERIFY(qAbs(image.dotsPerMeterX() * 0.0254 - dpi) < 0.5);
    }

    void pdfHasTextAndVectorPaths()
    {
        QTemporaryDir dir;
        SweepChart chart;
        chart.setData(samples::sweepData());
        const QString path = dir.filePath(QStringLiteral("s.pdf"));
        QString error;
        QVERIFY2(ChartExporter::savePdf(chart, path, {}, &error), qPrintable(error));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.contains("/Type /Font") || pdf.contains("/Type/Font"));
        QVERIFY(pdf.contains("/FontFile")); // embedded font program
        QVERIFY(!pdf.contains("/Subtype /Image") && !pdf.contains("/Subtype/Image"));
        const QByteArray content = inflatePdfStreams(pdf);
        QVERIFY(content.contains("BT"));
        QVERIFY(content.contains(" Tj") || content.contains(" TJ") || content.contains("]TJ"));
        // Lines and curves of the plot: many moveto/lineto operators.
        QVERIFY2(content.count(" l\n") + content.count(" l ") > 50, content.left(400).constData());
        QVERIFY(content.count(" m\n") + content.count(" m ") > 20);
    }

    void svgIsSelfContainedWithText()
    {
        QTemporaryDir dir;
        for (const auto &chart : everyChart()) {
            const QString path = dir.filePath(chart->chartId() + QStringLiteral(".svg"));
            QString error;
            QVERIFY2(ChartExporter::saveSvg(*chart, path, {}, &error), qPrintable(error));
            const QString svg = QString::fromUtf8(readAll(path));
            QVERIFY2(svg.contains(QStringLiteral("<text")), qPrintable(chart->chartId()));
            QVERIFY2(!svg.contains(QStringLiteral("<image")), qPrintable(chart->chartId()));
            // Only in-document references (#id); the xmlns declarations are not references.
            static const QRegularExpression externalRef(
                QStringLiteral("(?:xlink:)?href\\s*=\\s*\"(?!#)[^\"]*\""));
            QVERIFY2(!externalRef.match(svg).hasMatch(),
                     qPrintable(externalRef.match(svg).captured(0)));
            QVERIFY(!svg.contains(QStringLiteral("url(http"))
                    && !svg.contains(QStringLiteral("file:")));
            QVERIFY(svg.contains(chart->title().toHtmlEscaped()));
            QVERIFY(QSvgRenderer(path).isValid());
        }
    }

    void svgRendersLikeThePng()
    {
        // The SVG holds the whole chart: rendered back it matches the raster export closely.
        const QString keep = qEnvironmentVariable("WEFT_CHART_SHOTS_DIR");
        const ChartExportOptions options {QSize(800, 500), 96};
        for (const auto &chart : everyChart()) {
            QTemporaryDir dir;
            const QString png = dir.filePath(QStringLiteral("c.png"));
            QVERIFY(ChartExporter::savePng(*chart, png, options));
            const QImage raster = QImage(png).convertToFormat(QImage::Format_RGB32);
            QImage fromSvg(options.size, QImage::Format_RGB32);
            fromSvg.fill(Qt::white);
            QSvgRenderer renderer(ChartExporter::toSvg(*chart, options));
            QPainter painter(&fromSvg);
            renderer.render(&painter);
            painter.end();
            if (!keep.isEmpty())
                fromSvg.save(
                    QDir(keep).filePath(chart->chartId() + QStringLiteral("-svg-rendered.png")));
            double difference = 0;
            for (int y = 0; y < raster.height(); ++y) {
                for (int x = 0; x < raster.width(); ++x) {
                    const QRgb a = raster.pixel(x, y);
                    const QRgb b = fromSvg.pixel(x, y);
                    difference += qAbs(qRed(a) - qRed(b)) + qAbs(qGreen(a) - qGreen(b))
                        + qAbs(qBlue(a) - qBlue(b));
                }
            }
            const double mean = difference / (3.0 * raster.width() * raster.height());
            QVERIFY2(mean < 6,
                     qPrintable(
                         QStringLiteral("%1: mean difference %2").arg(chart->chartId()).arg(mean)));
        }
    }

    void csvEqualsTheData()
    {
        QTemporaryDir dir;
        BreakdownChart chart;
        BreakdownChartData data = samples::breakdownData();
        data.designs[0].design = QStringLiteral("rail, \"optimized\"");
        chart.setData(data);
        const QString path = dir.filePath(QStringLiteral("b.csv"));
        QVERIFY(ChartExporter::saveCsv(chart, path));
        const auto rows = parseCsv(QString::fromUtf8(readAll(path)));
        QCOMPARE(rows.size(), data.designs.size() + 1);
        QCOMPARE(rows[0].first(), QStringLiteral("design"));
        QCOMPARE(rows[0][1], QStringLiteral("compute_s"));
        QCOMPARE(rows[0][7], QStringLiteral("exposed_dp_s"));
        QCOMPARE(rows[0].last(), QStringLiteral("total_s"));
        for (std::size_t d = 0; d < data.designs.size(); ++d) {
            QCOMPARE(rows[d + 1][0], data.designs[d].design);
            for (int p = 0; p < kBreakdownPartCount; ++p)
                QCOMPARE(rows[d + 1][p + 1].toDouble(), data.designs[d].seconds[std::size_t(p)]);
        }

        SweepChart sweep;
        const SweepChartData s = samples::sweepData();
        sweep.setData(s);
        const auto sweepRows = parseCsv(ChartExporter::toCsv(sweep.table()));
        QCOMPARE(
            sweepRows[0],
            (QStringList {QStringLiteral("series"), QStringLiteral("scale-up_domain_size_gpus"),
                          QStringLiteral("step_time_s"), QStringLiteral("mfu_fraction")}));
        QCOMPARE(sweepRows.size(), std::size_t(9));
        QCOMPARE(sweepRows[8][0], s.series[1].label);
        QCOMPARE(sweepRows[8][1].toDouble(), s.series[1].points[3].parameter);
        QCOMPARE(sweepRows[8][2].toDouble(), s.series[1].points[3].stepTime);
        QCOMPARE(sweepRows[8][3].toDouble(), s.series[1].points[3].mfu);
    }

    void everyChartHasATableWithUnits()
    {
        for (const auto &chart : everyChart()) {
            const ChartTable t = chart->table();
            QVERIFY2(!t.rows.empty(), qPrintable(chart->chartId()));
            for (const QStringList &row : t.rows)
                QCOMPARE(row.size(), t.header.size());
            const bool hasUnit
                = std::any_of(t.header.begin(), t.header.end(), [](const QString &h) {
                      return h.endsWith(QLatin1String("_s")) || h.endsWith(QLatin1String("_bytes"))
                          || h.endsWith(QLatin1String("_fraction"))
                          || h.endsWith(QLatin1String("_per_s"));
                  });
            QVERIFY2(hasUnit, qPrintable(t.header.join(QLatin1Char(','))));
        }
    }

    void exportChartWritesEveryFormat()
    {
        QTemporaryDir dir;
        MemoryChart chart;
        chart.setData(samples::memoryData());
        QString error;
        const QStringList written = ChartExporter::exportChart(
            chart, dir.filePath(QStringLiteral("sub")),
            ChartFormat::Png | ChartFormat::Pdf | ChartFormat::Svg | ChartFormat::Csv, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(written.size(), 4);
        for (const char *ext : {"png", "pdf", "svg", "csv"})
            QVERIFY(
                QFileInfo(dir.filePath(QStringLiteral("sub/memory.") + QLatin1String(ext))).size()
                > 100);
    }

    void exportErrorsNameTheFile()
    {
        BreakdownChart chart;
        chart.setData(samples::breakdownData());
        QString error;
        const QString bad = QStringLiteral("/nonexistent-dir/x/b.csv");
        QVERIFY(!ChartExporter::saveCsv(chart, bad, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY(
            !ChartExporter::savePng(chart, QStringLiteral("x.png"), {QSize(800, 500), 0}, &error));
        QVERIFY2(error.contains(QStringLiteral("dpi")), qPrintable(error));
        ChartFormats formats;
        QVERIFY(!parseChartFormats(QStringLiteral("png,jpeg"), &formats, &error));
        QVERIFY2(error.contains(QStringLiteral("'jpeg'")), qPrintable(error));
        QVERIFY(parseChartFormats(QStringLiteral("PNG, csv"), &formats, &error));
        QCOMPARE(formats, ChartFormat::Png | ChartFormat::Csv);
    }

    void reportRendersEveryChartHeadless()
    {
        QTemporaryDir dir;
        ReportChartData data;
        data.breakdown = samples::breakdownData();
        data.timeline = samples::timelineData();
        data.utilization = samples::utilizationData();
        data.linkSeries = samples::linkSeriesData();
        data.memory = samples::memoryData();
        data.collective = samples::collectiveData();
        data.sweep = samples::sweepData();
        QString error;
        const QStringList written = renderReportCharts(
            data, dir.path(), ChartFormat::Svg | ChartFormat::Csv, {QSize(640, 400), 96}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(written.size(), 14);
        for (const QString &id : {QStringLiteral("breakdown"), QStringLiteral("timeline"),
                                  QStringLiteral("utilization"), QStringLiteral("link-utilization"),
                                  QStringLiteral("memory"), QStringLiteral("collective-bandwidth"),
                                  QStringLiteral("sweep")}) {
            QVERIFY2(written.contains(dir.filePath(id + QStringLiteral(".svg"))), qPrintable(id));
            QVERIFY2(written.contains(dir.filePath(id + QStringLiteral(".csv"))), qPrintable(id));
        }

        data.memory->accelerators[0].capacity = -1;
        const QStringList partial
            = renderReportCharts(data, dir.path(), ChartFormat::Csv, {}, &error);
        QVERIFY2(error.contains(QStringLiteral("chart 'memory'"))
                     && error.contains(QStringLiteral("capacity")),
                 qPrintable(error));
        QCOMPARE(partial.size(), 4); // the charts before memory
    }

    void rendersEveryChartInLightAndDark()
    {
        const QString keep = qEnvironmentVariable("WEFT_CHART_SHOTS_DIR");
        QTemporaryDir tmp;
        const QString dir = keep.isEmpty() ? tmp.path() : keep;
        QDir().mkpath(dir);
        for (const auto &chart : everyChart()) {
            for (const bool dark : {false, true}) {
                chart->setPalette(dark ? darkChartPalette() : lightChartPalette());
                const QString path = QDir(dir).filePath(
                    chart->chartId()
                    + (dark ? QStringLiteral("-dark.png") : QStringLiteral("-light.png")));
                QString error;
                QVERIFY2(ChartExporter::savePng(*chart, path, {QSize(800, 500), 144}, &error),
                         qPrintable(error));
                const QImage image(path);
                QCOMPARE(image.size(), QSize(1200, 750));
                const QColor corner = image.pixelColor(2, 2);
                QVERIFY2(dark ? corner.lightnessF() < 0.2 : corner.lightnessF() > 0.9,
                         qPrintable(path));
                // Text and data are drawn: many pixels differ from the background.
                int differing = 0;
                for (int y = 0; y < image.height(); y += 5) {
                    for (int x = 0; x < image.width(); x += 5)
                        differing += image.pixel(x, y) != image.pixel(2, 2);
                }
                QVERIFY2(differing > 1000, qPrintable(path));
            }
        }
    }
};

QTEST_MAIN(TestChartsExport)
#include "tst_chartsexport.moc"
