#pragma once
// RankLegend: the key to the accelerator colours (pipeline stage, DP replica or TP group), an
// overlay in the top-left corner of the canvas, hidden when accelerators are not coloured.
// A click on it collapses it to its title (and back); canvas exports draw it with draw().

#include <QWidget>

namespace weft {

class TopologyScene;
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
    [[nodiscard]] bool isCollapsed() const { return m_collapsed; }
    void setCollapsed(bool collapsed);

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
    bool m_collapsed = false;
};

} // namespace weft
