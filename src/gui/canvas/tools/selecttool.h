#pragma once
// SelectTool: click and Ctrl/Shift-click selection, rubber-band selection on empty canvas, and
// dragging the selection (one undo step per drag, snapped to the grid unless Alt is held).
// With a workload placed, a single accelerator dropped onto another swaps their ranks instead
// of moving (product.md, Main window: Partitions).

#include "gui/canvas/tools/tool.h"
#include "model/ids.h"

#include <QPoint>
#include <memory>
#include <vector>

class QRubberBand;

namespace weft {

class SelectTool : public Tool
{
public:
    explicit SelectTool(TopologyView *view);
    ~SelectTool() override;
    void press(QMouseEvent *event, QPointF scenePos) override;
    void move(QMouseEvent *event, QPointF scenePos) override;
    void release(QMouseEvent *event, QPointF scenePos) override;
    void cancel() override;

private:
    /// The accelerator other than `dragged` under `scenePos`, if any.
    [[nodiscard]] NodeId acceleratorUnder(QPointF scenePos, NodeId dragged) const;
    /// Ends a one-accelerator drag over another accelerator as a rank swap; false if it is not.
    bool finishAsSwap(QPointF scenePos);

    enum class Mode { Idle, Pressed, Moving, RubberBand };
    Mode m_mode = Mode::Idle;
    QPoint m_pressViewPos;
    QPointF m_pressScenePos;
    QPointF m_anchorStart; ///< position of the node under the mouse at press (snapped target)
    QPointF m_applied; ///< total offset already applied in this gesture
    int m_gesture = 0;
    std::vector<NodeId> m_moving;
    bool m_additive = false;
    std::unique_ptr<QRubberBand> m_band;
};

} // namespace weft
