#pragma once
// FaultLegend: the what-if key in the bottom-left corner of the canvas while the design carries
// faults: how many are in effect, how many are down and how many degraded, and what the red and
// amber marks mean. Hidden when the design is healthy; in a crowded viewport only its title
// (LegendLayout). Canvas exports draw it with draw().

#include <QWidget>

namespace weft {

class TopologyScene;
class TopologyView;

class FaultLegend : public QWidget
{
    Q_OBJECT
public:
    explicit FaultLegend(TopologyView *view);
    /// The first line ("What if: 3 faults in effect (2 down, 1 degraded)"); empty when healthy.
    [[nodiscard]] QString title() const;
    [[nodiscard]] static QString titleFor(const TopologyScene &scene);

    /// Size of the legend of `scene` in `font` (empty when the design has no fault), and the
    /// legend drawn with its top-left at `at`: the same picture as on screen.
    [[nodiscard]] static QSize sizeFor(const TopologyScene &scene, const QFont &font,
                                       bool titleOnly = false);
    static void draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font,
                     bool titleOnly = false);
    /// A crowded viewport: the title only (TopologyView::arrangeLegends).
    void setCompact(bool compact);
    [[nodiscard]] bool isCompact() const { return m_compact; }
    /// Size with its notes (empty when the design is healthy).
    [[nodiscard]] QSize fullSize() const;

public slots:
    /// Re-reads the document's scenario (visibility, counts, size).
    void sync();
    /// Has the view place the legends again (bottom-left corner, see LegendLayout).
    void reposition();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TopologyView *m_view;
    bool m_compact = false;
};

} // namespace weft
