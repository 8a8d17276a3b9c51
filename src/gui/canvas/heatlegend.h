#pragma once
// HeatLegend: the key of the link colours, drawn over the top-right corner of the canvas while a
// simulation result colours the links: the utilization scale with its units, what width and
// faint lines mean, the highlighted parallel group and whether the result is out of date.
// A click on it collapses it to its title (and back); in a crowded viewport it starts collapsed
// (LegendLayout). Canvas exports draw it with draw().

#include "gui/canvas/legendfold.h"

#include <QWidget>

namespace weft {

class LinkHeat;
class TopologyScene;
class TopologyView;

class HeatLegend : public QWidget
{
    Q_OBJECT
public:
    explicit HeatLegend(TopologyView *view);

    /// The lines of text under the scale (for tests): width, idle, group, staleness.
    [[nodiscard]] QStringList notes() const;
    [[nodiscard]] static QStringList notes(const LinkHeat &heat);
    /// Shown as its title only: the user's choice, else whether the viewport is crowded.
    [[nodiscard]] bool isCollapsed() const { return m_fold.folded(); }
    /// The user's choice (a click), kept from then on.
    void setCollapsed(bool collapsed);
    /// A crowded viewport: collapsed unless the user opened it (TopologyView::arrangeLegends).
    void setCompact(bool compact);
    /// Size when open (empty when the links carry no result).
    [[nodiscard]] QSize fullSize() const;

    /// Size of the legend of `scene` in `font` (empty when the links carry no result), and
    /// the legend drawn with its top-left at `at`: the same picture as on screen.
    [[nodiscard]] static QSize sizeFor(const TopologyScene &scene, const QFont &font,
                                       bool collapsed = false);
    static void draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                     bool collapsed = false);

public slots:
    /// Shows or hides itself and repaints from the scene's LinkHeat.
    void sync();
    /// Has the view place the legends again (top-right corner, see LegendLayout).
    void reposition();

private:
    static QString title();
    static QString foldedTitle(); ///< shown when folded: short enough for a small window

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    TopologyView *m_view;
    LegendFold m_fold;
};

} // namespace weft
