#pragma once
// ConnectTool: press on a node, drag (a temporary line follows the mouse, as in Qt's
// diagramscene example), release on another node to link them with DesignDocument::connectNodes.

#include "gui/canvas/tools/tool.h"
#include "model/ids.h"

#include <memory>

class QGraphicsLineItem;

namespace weft {

class ConnectTool : public Tool
{
public:
    explicit ConnectTool(TopologyView *view);
    ~ConnectTool() override;
    void press(QMouseEvent *event, QPointF scenePos) override;
    void move(QMouseEvent *event, QPointF scenePos) override;
    void release(QMouseEvent *event, QPointF scenePos) override;
    void cancel() override;
    [[nodiscard]] QCursor cursor() const override { return Qt::CrossCursor; }
    /// The temporary line while dragging (tests look at it), or nullptr.
    [[nodiscard]] const QGraphicsLineItem *rubberLine() const { return m_line.get(); }

private:
    NodeId m_from;
    std::unique_ptr<QGraphicsLineItem> m_line;
};

} // namespace weft
