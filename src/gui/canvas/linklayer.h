#pragma once
// LinkLayer: one item that draws every link, as bundles. Links whose ends show as the same pair
// of visible items (nodes, or collapsed domain boxes) are one line with a count, so a 100k-link
// design draws a few tens of thousands of lines with QPainter::drawLines, culled against the
// exposed rectangle, instead of 100k items in the scene index (the scene's BSP index holds only
// nodes and domains). Rebuilt lazily after changes.

#include "document/fragment.h"

#include <QGraphicsItem>
#include <QImage>
#include <QPen>
#include <QTimer>
#include <functional>

namespace weft {

class DesignDocument;
class LinkCrossings;

class LinkLayer : public QGraphicsItem
{
public:
    /// A visible endpoint: the item a link end is drawn at (node, or its collapsed domain).
    struct Endpoint
    {
        std::uint64_t key = 0; ///< unique per visible item
        QPointF pos;
        /// A collapsed domain's box: its links end at ports spread along the side facing their
        /// other end (LinkPorts), not at its centre, so that a line never runs under the box
        /// beside it (a row of racks looked cabled to each other). Empty for a node.
        QRectF box;
    };
    using EndpointFn = std::function<Endpoint(NodeId)>;

    LinkLayer(const DesignDocument *doc, EndpointFn endpoint);
    ~LinkLayer() override;

    /// Marks the bundles stale (after any change to links, positions or collapsed state).
    void invalidate();
    void setExtent(const QRectF &rect);
    /// Links of the bundle nearest to `pos` within `tolerance` scene units (empty when none).
    [[nodiscard]] std::vector<LinkId> linksAt(QPointF pos, double tolerance) const;
    /// Number of drawn lines (bundles) — for tests and the benchmark.
    [[nodiscard]] std::size_t bundleCount() const;
    struct Bundle;
    /// The lines as drawn (rebuilt first when stale).
    [[nodiscard]] const std::vector<Bundle> &bundles() const;

    [[nodiscard]] QRectF boundingRect() const override { return m_extent; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    /// Drops the cached image (selection or style change) and repaints.
    void refresh();
    /// The item that draws the crossings over the boxes (kept in step with this layer).
    void setOverlay(LinkCrossings *overlay) { m_overlay = overlay; }

    /// Up to this many bundles every line is drawn whole; more draw long lines as stubs.
    static constexpr std::size_t kWholeLines = 2000;

    /// Links drawn as one line between two visible endpoints.
    struct Bundle
    {
        QLineF line;
        QRectF box;
        bool scaleUp = false;
        int lanes = 0;
        std::vector<LinkId> links;
        std::uint64_t keys[2] = {0, 0}; ///< the visible endpoints (Endpoint::key)
    };
    /// Part of a bundle's line passing over a collapsed box it does not end at.
    struct Crossing
    {
        QLineF segment;
        std::size_t bundle = 0;
    };
    /// Where whole lines pass collapsed boxes they do not belong to (none with stubs).
    [[nodiscard]] const std::vector<Crossing> &crossings() const;
    /// The pen bundle `b` is drawn with (tier or utilization colour, selection).
    [[nodiscard]] QPen penOf(const Bundle &b) const;

private:
    /// Draws the bundles intersecting `exposed` at level of detail `lod`.
    void drawBundles(QPainter *painter, const QRectF &exposed, double lod) const;
    void rebuild() const;
    /// Fills m_crossings from the boxes of the collapsed domains (key, scene rectangle).
    void findCrossings(const std::vector<std::pair<std::uint64_t, QRectF>> &boxes) const;

    const DesignDocument *m_doc;
    EndpointFn m_endpoint;
    QRectF m_extent;
    mutable bool m_dirty = true;
    // Cache: the lines of the visible area plus a margin, rendered once per zoom level, so
    // panning blits an image; while zooming the image is scaled until a re-render (debounced).
    QImage m_cache;
    QRectF m_cacheRect;
    double m_cacheLod = 0;
    QTimer *m_rerender = nullptr;
    mutable std::vector<Bundle> m_bundles;
    mutable std::vector<Crossing> m_crossings;
    LinkCrossings *m_overlay = nullptr;
};

} // namespace weft
