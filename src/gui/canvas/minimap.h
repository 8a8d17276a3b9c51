#pragma once
// Minimap: a small overview in the corner of the canvas. The scene is rendered into a cached
// image only after the design changes (debounced), so panning costs one blit; the visible area
// is drawn on top, and clicking or dragging centres the view there. It shows only while part of
// the design is outside the view: when everything is visible (after Fit, say) it would cover the
// design's bottom-right corner and add nothing.

#include <QImage>
#include <QTimer>
#include <QWidget>

namespace weft {

class TopologyView;

class Minimap : public QWidget
{
    Q_OBJECT
public:
    explicit Minimap(TopologyView *view);
    /// Moves the minimap to the bottom-right corner of the view's viewport.
    void reposition();
    /// Schedules a re-render of the cached overview.
    void invalidate();
    /// Whether the user wants the minimap (View > Minimap); it still hides while the whole
    /// design is in view.
    void setWanted(bool wanted);
    [[nodiscard]] bool isWanted() const { return m_wanted; }
    /// Shows or hides the minimap for the current view and design.
    void updateVisibility();
    /// Renders the overview now (the timer does it after changes).
    void render();

    /// The cached overview image.
    [[nodiscard]] const QImage &overview() const { return m_image; }
    /// Where in the widget the rendered scene rectangle (the design plus a margin) is drawn:
    /// centred, aspect ratio kept.
    [[nodiscard]] QRectF contentRect() const { return m_target; }
    /// The view's visible scene rectangle in widget coordinates (same mapping as the image).
    [[nodiscard]] QRectF viewportRect() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    [[nodiscard]] QRectF sourceRect() const;
    void centreAt(QPointF widgetPos);
    /// Scene point -> widget point with the mapping of the cached image.
    [[nodiscard]] QPointF toWidget(QPointF scene) const;

    TopologyView *m_view;
    QImage m_image;
    QRectF m_source; ///< the scene rectangle the image shows
    QRectF m_target; ///< where it is drawn in the widget
    QTimer m_timer;
    bool m_wanted = true;
};

} // namespace weft
