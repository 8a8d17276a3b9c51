#pragma once
// A QCustomPlot plottable for Gantt charts: horizontal bars from `start` to `end` on the key
// (time) axis, centred on a row of the value axis, all in one brush. One GanttBars per kind of
// activity gives one legend entry per kind; QCPBars cannot leave gaps inside a row.

#include "qcp.h"

namespace weft {

class GanttBars : public QCPAbstractPlottable
{
    Q_OBJECT
public:
    struct Bar
    {
        double row = 0; ///< value-axis coordinate of the row centre
        double start = 0; ///< key-axis coordinates
        double end = 0;
        QString label; ///< drawn inside the bar when it fits
    };

    GanttBars(QCPAxis *keyAxis, QCPAxis *valueAxis);

    void addBar(const Bar &bar) { m_bars.push_back(bar); }
    [[nodiscard]] const std::vector<Bar> &bars() const { return m_bars; }
    /// Bar thickness in value-axis units (rows are 1 apart).
    void setThickness(double thickness) { m_thickness = thickness; }
    void setLabelFont(const QFont &font) { m_labelFont = font; }
    void setLabelColor(const QColor &color) { m_labelColor = color; }

    /// 0 when `pos` is inside a bar (details: a QCPDataSelection of that bar's index), else -1.
    double selectTest(const QPointF &pos, bool onlySelectable,
                      QVariant *details = nullptr) const override;
    QCPRange getKeyRange(bool &foundRange,
                         QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool &foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange &inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter *painter) override;
    void drawLegendIcon(QCPPainter *painter, const QRectF &rect) const override;

private:
    [[nodiscard]] QRectF pixelRect(const Bar &bar) const;

    std::vector<Bar> m_bars;
    double m_thickness = 0.7;
    QFont m_labelFont;
    QColor m_labelColor = Qt::black;
};

} // namespace weft
