#pragma once
// RankLegend: the key to the accelerator colours (pipeline stage, DP replica or TP group), an
// overlay in the top-left corner of the canvas, hidden when accelerators are not coloured.

#include <QWidget>

namespace weft {

class TopologyView;

class RankLegend : public QWidget
{
    Q_OBJECT
public:
    explicit RankLegend(TopologyView *view);
    /// Keeps the legend in the top-left corner of the viewport.
    void reposition();
    /// Re-reads the scene's rank colouring (size, visibility, rows).
    void refresh();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TopologyView *m_view;
};

} // namespace weft
