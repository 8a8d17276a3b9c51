#include "gui/canvas/canvasexporter.h"

#include "gui/canvas/faultlegend.h"
#include "gui/canvas/heatlegend.h"
#include "gui/canvas/ranklegend.h"
#include "gui/canvas/topologyscene.h"
#include "gui/theme.h"
#include "storage/designstorage.h"

#include <QApplication>
#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr double kMargin = 24; // scene units around the whole design

/// Page size in 1/96 inch for `source`, scaled down to fit `maxSide`.
QSizeF pageSize(const QRectF &source, double maxSide)
{
    const double scale = std::min(1.0, maxSide / std::max({source.width(), source.height(), 1.0}));
    return source.size() * scale;
}

QFont legendFont()
{
    return QApplication::font();
}

// Paints the page of `l` scaled by `scale` device units per 1/96 inch, in the report style
// when asked (the scene's own style is restored afterwards).
void paint(TopologyScene &scene, QPainter &painter, double scale, const QRectF &source,
           const CanvasExporter::PageLayout &l, const CanvasExportOptions &options)
{
    const QPalette screen = scene.stylePalette();
    if (options.reportStyle)
        scene.setStylePalette(themePalette(Theme::Light));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.scale(scale, scale);
    painter.fillRect(QRectF(QPointF(0, 0), l.page), scene.style().background);
    scene.render(&painter, l.canvas, source, Qt::KeepAspectRatio);
    if (l.drawRank)
        RankLegend::draw(painter, l.rankLegend.toPoint(), scene, legendFont());
    if (l.drawHeat)
        HeatLegend::draw(painter, l.heatLegend.toPoint(), scene, legendFont());
    if (l.drawFault)
        FaultLegend::draw(painter, l.faultLegend.toPoint(), scene, legendFont());
    if (options.reportStyle)
        scene.setStylePalette(screen);
}

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

bool parseCanvasFormat(const QString &text, CanvasFormat *format)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("svg"))
        *format = CanvasFormat::Svg;
    else if (t == QLatin1String("pdf"))
        *format = CanvasFormat::Pdf;
    else if (t == QLatin1String("png"))
        *format = CanvasFormat::Png;
    else
        return false;
    return true;
}

bool canvasFormatFromPath(const QString &path, CanvasFormat *format)
{
    return parseCanvasFormat(QFileInfo(path).suffix(), format);
}

QRectF CanvasExporter::sourceRect(const TopologyScene &scene, const CanvasExportOptions &options)
{
    if (!options.source.isEmpty())
        return options.source;
    QRectF r = scene.contentBounds();
    if (r.isEmpty())
        r = scene.itemsBoundingRect();
    if (r.isEmpty())
        r = QRectF(0, 0, 400, 300);
    return r.adjusted(-kMargin, -kMargin, kMargin, kMargin);
}

CanvasExporter::PageLayout CanvasExporter::layout(const TopologyScene &scene,
                                                  const CanvasExportOptions &options)
{
    constexpr double kPad = 16;
    PageLayout l;
    const QRectF source = sourceRect(scene, options);
    l.canvas = QRectF(QPointF(0, 0), pageSize(source, options.maxPageSide));
    const QSize rank = options.legends ? RankLegend::sizeFor(scene, legendFont()) : QSize();
    const QSize heat = options.legends ? HeatLegend::sizeFor(scene, legendFont()) : QSize();
    const QSize fault = options.legends ? FaultLegend::sizeFor(scene, legendFont()) : QSize();
    l.drawRank = !rank.isEmpty();
    l.drawHeat = !heat.isEmpty();
    l.drawFault = !fault.isEmpty();
    double column = 0, y = kPad;
    if (l.drawRank) {
        l.rankLegend = QPointF(l.canvas.right() + kPad, y);
        y += rank.height() + kPad;
        column = rank.width();
    }
    if (l.drawHeat) {
        l.heatLegend = QPointF(l.canvas.right() + kPad, y);
        y += heat.height() + kPad;
        column = std::max(column, double(heat.width()));
    }
    if (l.drawFault) {
        l.faultLegend = QPointF(l.canvas.right() + kPad, y);
        y += fault.height() + kPad;
        column = std::max(column, double(fault.width()));
    }
    l.page = l.canvas.size();
    if (column > 0)
        l.page = QSizeF(l.canvas.width() + column + 2 * kPad, std::max(l.canvas.height(), y));
    return l;
}

QByteArray CanvasExporter::toSvg(TopologyScene &scene, const CanvasExportOptions &options)
{
    const QRectF source = sourceRect(scene, options);
    const PageLayout l = layout(scene, options);
    const QSizeF page = l.page;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator gen;
    gen.setOutputDevice(&buffer);
    gen.setResolution(96);
    gen.setSize(page.toSize());
    gen.setViewBox(QRectF(QPointF(0, 0), page));
    gen.setTitle(scene.document() ? QStringLiteral("Weft canvas") : QString());
    gen.setDescription(QStringLiteral("Canvas of a Weft design"));
    {
        QPainter painter(&gen);
        paint(scene, painter, 1, source, l, options);
    }
    return buffer.data();
}

bool CanvasExporter::save(TopologyScene &scene, const QString &path, CanvasFormat format,
                          const CanvasExportOptions &options, QString *error)
{
    const QRectF source = sourceRect(scene, options);
    const PageLayout l = layout(scene, options);
    const QSizeF page = l.page;
    switch (format) {
    case CanvasFormat::Svg:
        return writeFileAtomically(path, toSvg(scene, options), error);
    case CanvasFormat::Pdf: {
        // Into memory first, then through the atomic writer: a full disk gave "cannot write"
        // with no cause and left an empty file (QPdfWriter writes straight to the path).
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setResolution(96);
        pdf.setCreator(QStringLiteral("Weft"));
        pdf.setTitle(QStringLiteral("Weft canvas"));
        // Page in points (1/72 inch) from 1/96-inch units; no margins: the picture has its own.
        pdf.setPageSize(
            QPageSize(page * 72.0 / 96.0, QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (!painter.begin(&pdf))
            return fail(error, QStringLiteral("cannot draw the PDF of %1").arg(path));
        paint(scene, painter, 1, source, l, options);
        painter.end();
        return writeFileAtomically(path, buffer.data(), error);
    }
    case CanvasFormat::Png: {
        const double scale = std::min(options.dpi / 96.0,
                                      kMaxPngSide / std::max({page.width(), page.height(), 1.0}));
        const QSize pixels(std::max(1, int(std::ceil(page.width() * scale))),
                           std::max(1, int(std::ceil(page.height() * scale))));
        QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
        if (image.isNull())
            return fail(error,
                        QStringLiteral("cannot allocate a %1 x %2 image for %3")
                            .arg(pixels.width())
                            .arg(pixels.height())
                            .arg(path));
        {
            // Painted at the default 96 DPI so point-sized fonts keep their size relative to
            // the scene; the render transform does the scaling.
            QPainter painter(&image);
            paint(scene, painter, scale, source, l, options);
        }
        const int dotsPerMeter = int(std::lround(options.dpi / 0.0254)); // recorded in the PNG
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        QBuffer png;
        png.open(QIODevice::WriteOnly);
        if (!image.save(&png, "PNG"))
            return fail(error, QStringLiteral("cannot encode the PNG of %1").arg(path));
        return writeFileAtomically(path, png.data(), error);
    }
    }
    return fail(error, QStringLiteral("unknown canvas format"));
}

} // namespace weft
