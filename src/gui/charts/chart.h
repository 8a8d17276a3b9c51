#pragma once
// Base of Weft's charts: a QCustomPlot with a title row, a legend below the axes, report-size
// fonts, colours that follow the widget palette (light or dark), zoom and pan on the axes
// (mouse wheel and drag; double-click resets), and hover tooltips naming the value under the
// mouse. Subclasses hold their data, build their plottables in build() and describe a data
// point in describe(); they never touch styling of axes, legend or background.

#include "chartdata.h"
#include "chartstyle.h"
#include "qcp.h"

namespace weft {

class Chart : public QCustomPlot
{
    Q_OBJECT
public:
    explicit Chart(QWidget *parent = nullptr);

    /// Short identifier used for file names and the CSV ("breakdown", "timeline", ...).
    [[nodiscard]] virtual QString chartId() const = 0;
    /// The plotted data as a table whose header states the units (for CSV export).
    [[nodiscard]] virtual ChartTable table() const = 0;

    /// Title drawn above the axes (and used as the PDF/SVG title).
    void setTitle(const QString &title);
    [[nodiscard]] QString title() const;
    /// A note drawn below the legend (and exported with the chart), e.g. which sweep variants
    /// are not plotted and why; an empty text removes it. refresh() clears it before build().
    void setFootnote(const QString &text);
    [[nodiscard]] QString footnote() const;

    /// What to do to fill the chart ("Simulate (F5) ..."): while it plots nothing, the axes
    /// and legend are hidden and this text is shown in their place (an empty text: the bare
    /// axes). Refreshes the chart.
    void setEmptyHint(const QString &text);
    [[nodiscard]] QString emptyHint() const { return m_emptyHint; }
    /// True while the chart plots nothing and shows its hint instead.
    [[nodiscard]] bool showsHint() const { return m_hint != nullptr; }
    /// True when some plottable holds data.
    [[nodiscard]] bool hasData() const;

    /// Text describing the data under `pos` (widget pixels), empty when nothing is there. The
    /// hover tooltip shows it.
    [[nodiscard]] QString toolTipAt(const QPointF &pos) const;

    /// Rebuilds the plot from the data with the current palette and rescales the axes.
    void refresh();
    /// Rescales the axes to the data (what a double-click does after zooming or panning).
    void resetView();
    /// Lays out what depends on the drawing width in pixels (legend columns, tick density);
    /// the exporter calls it with the page width and again with width() afterwards.
    void adaptToWidth(int width);

    [[nodiscard]] const ChartTheme &theme() const { return m_theme; }
    [[nodiscard]] const ChartFonts &fonts() const { return m_fonts; }
    /// The error of the last rejected setData(), empty when the data was accepted.
    [[nodiscard]] QString dataError() const { return m_dataError; }

protected:
    /// Creates the plottables, items and axis settings (ticker, labels, ranges) from the data.
    virtual void build() = 0;
    /// Axis ranges that fit the data; the default rescales every axis to its plottables.
    virtual void fitView();
    /// Subclass part of adaptToWidth() (e.g. how many ticks fit); the default does nothing.
    virtual void adaptTicksToWidth(int width);
    /// Colours of the chart's own over the theme's (e.g. an axis title in its line's colour),
    /// applied after every theme change; the default changes nothing.
    virtual void restyle() { }
    /// Tooltip text for data point `index` of `plottable` (found under the mouse).
    [[nodiscard]] virtual QString describe(QCPAbstractPlottable *plottable, int index) const = 0;

    /// Stores the result of validating new data: on error the chart is emptied, the error is
    /// kept in dataError() and written to *error. Returns true when `error` is empty.
    bool acceptData(const QString &validationError, QString *error);

    /// Uses QCPAxisTickerText with `labels` at keys 0, 1, ...; labels at most `maxShown` of
    /// them (every k-th, the first always) and rotates them when crowded.
    void setCategoryTicks(QCPAxis *axis, const QStringList &labels, int maxShown = 24);
    /// Stacks `bars` on `below` (nullptr: `bars` is the bottom part) with neither an outline nor
    /// a gap, so that a part a few pixels high keeps its colour: QCustomPlot's 1 px stacking gap
    /// and outlines in the background colour hid a 56 ms part of a 4.7 s step. Adjacent parts
    /// differ by their fill.
    static void stackOn(QCPBars *bars, QCPBars *below);

    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    void applyTheme();

    QCPTextElement *m_title = nullptr; // owned by the plot layout
    QCPTextElement *m_footnote = nullptr; // owned by the plot layout while shown
    ChartTheme m_theme;
    ChartFonts m_fonts;
    QString m_dataError;
    QString m_emptyHint;
    QCPItemText *m_hint = nullptr; // owned by the plot while shown
    bool m_refreshing = false;
};

/// Formats a number for tooltips and tables with `decimals` after the point.
QString formatNumber(double value, int decimals);
/// Full-precision text of a value for CSV (round-trips through QString::toDouble).
QString csvNumber(double value);

} // namespace weft
