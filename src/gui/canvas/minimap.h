#pragma once
// Minimap: a small overview in the corner of the canvas. The scene is rendered into a cached
// image only after the design changes (debounced), so panning costs one blit; the visible area
// is drawn on top, and clicking or dragging centres the view there.

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

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    void render();
    [[nodiscard]] QRectF sourceRect() const;
    void centreAt(QPointF widgetPos);

    TopologyView *m_view;
    QImage m_image;
    QTimer m_timer;
};

} // namespace weft
