#pragma once
// RankLegend: the key to the accelerator colours (pipeline stage, DP replica or TP group), an
// overlay in the top-left corner of the canvas, hidden when accelerators are not coloured.
// A click on it collapses it to its title (and back); in a crowded viewport it starts collapsed
// (LegendLayout). Canvas exports draw it with draw().

#include "gui/canvas/legendfold.h"

#include <QWidget>

namespace weft {

class TopologyScene;
class TopologyView;

class RankLegend : public QWidget
{
    Q_OBJECT
public:
    explicit RankLegend(TopologyView *view);
    /// Has the view place the legends again (top-left corner, see LegendLayout).
    void reposition();
    /// Re-reads the scene's rank colouring (size, visibility, rows).
    void refresh();
    /// Shown as its title only: the user's choice, else whether the viewport is crowded.
    [[nodiscard]] bool isCollapsed() const { return m_fold.folded(); }
    /// The user's choice (a click), kept from then on.
    void setCollapsed(bool collapsed);
    /// A crowded viewport: collapsed unless the user opened it (TopologyView::arrangeLegends).
    void setCompact(bool compact);
    /// Size when open (empty when accelerators are not coloured).
    [[nodiscard]] QSize fullSize() const;

    /// Size of the legend of `scene` in `font` (empty when accelerators are not coloured),
    /// and the legend drawn with its top-left at `at`: the same picture as on screen.
    [[nodiscard]] static QSize sizeFor(const TopologyScene &scene, const QFont &font,
                                       bool collapsed = false);
    static void draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                     bool collapsed = false);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    TopologyView *m_view;
    LegendFold m_fold;
};

} // namespace weft
