#pragma once
// FaultLegend: the what-if key in the bottom-left corner of the canvas while the design carries
// faults: how many are in effect, how many are down and how many degraded, and what the red and
// amber marks mean. Hidden when the design is healthy; canvas exports draw it with draw().

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
    [[nodiscard]] static QSize sizeFor(const TopologyScene &scene, const QFont &font);
    static void draw(QPainter &p, QPoint at, const TopologyScene &scene, const QFont &font);

public slots:
    /// Re-reads the document's scenario (visibility, counts, size).
    void sync();
    /// Keeps the legend in the bottom-left corner of the viewport.
    void reposition();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TopologyView *m_view;
};

} // namespace weft
