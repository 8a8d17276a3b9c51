#pragma once
// Writes the canvas picture of a design to a file, rendered by the real TopologyScene: SVG
// (QSvgGenerator; self-contained, no external references), PDF (vector, QPdfWriter) and PNG
// (raster at a chosen DPI). Used by File > Export canvas... and `weft-cli export`. Needs a
// QApplication (offscreen is fine); the scene need not be shown. A picture is a report figure:
// light colours whatever the theme (unless asked otherwise), and the legends of the canvas
// (rank colours, link utilization) in a column to the right of the design, never over it.

#include <QRectF>
#include <QString>

namespace weft {

class TopologyScene;

enum class CanvasFormat { Svg, Pdf, Png };

/// Parses "svg", "pdf" or "png" (case-insensitive); false for anything else.
bool parseCanvasFormat(const QString &text, CanvasFormat *format);
/// The format a file name's suffix names (.svg, .pdf, .png); false when it names none.
bool canvasFormatFromPath(const QString &path, CanvasFormat *format);

struct CanvasExportOptions
{
    /// Scene rectangle to draw; empty: the whole design (content bounds plus a margin).
    QRectF source;
    /// PNG resolution; one scene unit is one device-independent pixel (1/96 inch), so a PNG
    /// has source size x dpi / 96 pixels (capped at kMaxPngSide per side).
    double dpi = 192;
    /// The page: one scene unit is 1/96 inch unless the source is larger than this many
    /// units per side, then the picture is scaled down to fit (labels follow the canvas's
    /// level of detail).
    double maxPageSide = 20000;
    /// Light report colours (Weft's light theme); false: the scene's current style.
    bool reportStyle = true;
    /// The legends the canvas shows (rank colours, link utilization), beside the design.
    bool legends = true;
};

class CanvasExporter
{
public:
    static constexpr int kMaxPngSide = 16384;

    /// Writes `path` in `format`. Returns false and sets *error naming the file and the cause.
    static bool save(TopologyScene &scene, const QString &path, CanvasFormat format,
                     const CanvasExportOptions &options = {}, QString *error = nullptr);
    /// The SVG document as bytes.
    static QByteArray toSvg(TopologyScene &scene, const CanvasExportOptions &options = {});
    /// The scene rectangle `options` selects (whole design when empty).
    static QRectF sourceRect(const TopologyScene &scene, const CanvasExportOptions &options);

    /// Where things go on the page, in 1/96 inch: the design and the legends' corners.
    struct PageLayout
    {
        QSizeF page;
        QRectF canvas; ///< where the source rectangle is drawn
        QPointF rankLegend, heatLegend, faultLegend; ///< top-left corners (unused when not drawn)
        bool drawRank = false, drawHeat = false, drawFault = false;
    };
    [[nodiscard]] static PageLayout layout(const TopologyScene &scene,
                                           const CanvasExportOptions &options);
};

} // namespace weft
