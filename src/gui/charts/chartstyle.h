#pragma once
// Colours and fonts of Weft's charts. Series colours come from the Okabe-Ito palette (Okabe &
// Ito 2008, "Color Universal Design"), distinguishable with the common colour-vision
// deficiencies; its black is replaced by grey (#999999) so it stays visible on dark themes.
// Axis, grid and background colours follow the widget's QPalette (light or dark).

#include <QColor>
#include <QFont>
#include <QPalette>

namespace weft {

/// The eight Okabe-Ito colours (black swapped for grey).
enum class OkabeIto { Orange, SkyBlue, BluishGreen, Yellow, Blue, Vermillion, ReddishPurple, Grey };
QColor okabeIto(OkabeIto colour);

/// Colour of the i-th series of a comparison (i >= 0, cycles); yellow comes last because it
/// has poor contrast on a light background.
QColor seriesColour(int index);

/// Colours for axes, text, grid and background derived from a palette.
struct ChartTheme
{
    QColor background;
    QColor foreground; ///< text, axes, tick marks
    QColor grid;
    QColor subGrid;
    QColor idle; ///< idle spans of the timeline, neutral and quiet
    bool dark = false;
    /// Theme from a widget palette: background from QPalette::Base, text from QPalette::Text;
    /// dark when the background's lightness is below 50 %.
    static ChartTheme fromPalette(const QPalette &palette);
};

/// Fonts at report size, from the application font family: tick labels and legend 9 pt, axis
/// titles 10 pt, chart title 11 pt bold.
struct ChartFonts
{
    QFont tickLabel;
    QFont axisLabel;
    QFont legend;
    QFont title;
    QFont annotation; ///< text inside bars, 8 pt
    static ChartFonts fromBase(const QFont &base);
};

/// A palette with dark window and base colours, light text (for tests and previews).
QPalette darkChartPalette();
/// A palette with white base and black text.
QPalette lightChartPalette();

} // namespace weft
