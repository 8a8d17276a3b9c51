#include "gui/canvas/canvasexporter.h"

#include "gui/canvas/topologyscene.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
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

void paint(TopologyScene &scene, QPainter &painter, const QRectF &target, const QRectF &source)
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(target, scene.style().background);
    scene.render(&painter, target, source, Qt::KeepAspectRatio);
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

QByteArray CanvasExporter::toSvg(TopologyScene &scene, const CanvasExportOptions &options)
{
    const QRectF source = sourceRect(scene, options);
    const QSizeF page = pageSize(source, options.maxPageSide);
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
        paint(scene, painter, QRectF(QPointF(0, 0), page), source);
    }
    return buffer.data();
}

bool CanvasExporter::save(TopologyScene &scene, const QString &path, CanvasFormat format,
                          const CanvasExportOptions &options, QString *error)
{
    const QRectF source = sourceRect(scene, options);
    const QSizeF page = pageSize(source, options.maxPageSide);
    switch (format) {
    case CanvasFormat::Svg: {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        f.write(toSvg(scene, options));
        if (!f.commit())
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return true;
    }
    case CanvasFormat::Pdf: {
        QPdfWriter pdf(path);
        pdf.setResolution(96);
        pdf.setCreator(QStringLiteral("Weft"));
        pdf.setTitle(QStringLiteral("Weft canvas"));
        // Page in points (1/72 inch) from 1/96-inch units; no margins: the picture has its own.
        pdf.setPageSize(
            QPageSize(page * 72.0 / 96.0, QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter;
        if (!painter.begin(&pdf))
            return fail(error, QStringLiteral("cannot write %1").arg(path));
        paint(scene, painter, QRectF(QPointF(0, 0), page), source);
        painter.end();
        if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
            return fail(error, QStringLiteral("cannot write %1").arg(path));
        return true;
    }
    case CanvasFormat::Png: {
        const double scale = std::min(
            options.dpi / 96.0, kMaxPngSide / std::max({source.width(), source.height(), 1.0}));
        const QSize pixels(std::max(1, int(std::ceil(source.width() * scale))),
                           std::max(1, int(std::ceil(source.height() * scale))));
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
            paint(scene, painter, QRectF(QPointF(0, 0), QSizeF(pixels)), source);
        }
        const int dotsPerMeter = int(std::lround(options.dpi / 0.0254)); // recorded in the PNG
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit())
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return true;
    }
    }
    return fail(error, QStringLiteral("unknown canvas format"));
}

} // namespace weft
