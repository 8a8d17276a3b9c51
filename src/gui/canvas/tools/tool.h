#pragma once
// Tool: the mouse handling of one canvas mode (after Tiled's tools). The view forwards the left
// button to the current tool; panning and zooming stay in the view.

#include <QCursor>
#include <QPointF>

class QMouseEvent;

namespace weft {

class TopologyView;

class Tool
{
public:
    explicit Tool(TopologyView *view)
        : m_view(view)
    {
    }
    virtual ~Tool() = default;
    Tool(const Tool &) = delete;
    Tool &operator=(const Tool &) = delete;

    virtual void press(QMouseEvent *event, QPointF scenePos) = 0;
    virtual void move(QMouseEvent *event, QPointF scenePos) = 0;
    virtual void release(QMouseEvent *event, QPointF scenePos) = 0;
    /// Abandons a gesture in progress (Escape, tool switch).
    virtual void cancel() { }
    [[nodiscard]] virtual QCursor cursor() const { return Qt::ArrowCursor; }

protected:
    TopologyView *m_view;
};

} // namespace weft
