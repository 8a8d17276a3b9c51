#pragma once
// HeatLegend: the key of the link colours, drawn over the top-right corner of the canvas while a
// simulation result colours the links: the utilization scale with its units, what width and
// faint lines mean, the highlighted parallel group and whether the result is out of date.

#include <QWidget>

namespace weft {

class TopologyView;

class HeatLegend : public QWidget
{
    Q_OBJECT
public:
    explicit HeatLegend(TopologyView *view);

    /// The lines of text under the scale (for tests): width, idle, group, staleness.
    [[nodiscard]] QStringList notes() const;

public slots:
    /// Shows or hides itself and repaints from the scene's LinkHeat.
    void sync();
    /// Moves to the top-right corner of the viewport.
    void reposition();

private:
    static QString title();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    TopologyView *m_view;
};

} // namespace weft
