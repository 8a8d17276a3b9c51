#include "chart.h"

#include "groupednumberticker.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QLocale>
#include <QToolTip>
#include <QtMath>
#include <algorithm>
#include <cmath>

namespace weft {

Chart::Chart(QWidget *parent)
    : QCustomPlot(parent)
    , m_fonts(ChartFonts::fromBase(font()))
{
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), m_fonts.title);
    plotLayout()->addElement(0, 0, m_title);

    // The legend goes below the axes so it never hides data; it wraps into rows.
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setMargins(QMargins(6, 2, 6, 2));
    legend->setVisible(true);

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    setNoAntialiasingOnDrag(true);
    // Unantialiased 1 px lines turn 1 or 2 px wide at fractional export scales (144 dpi).
    setAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    setMinimumSize(320, 220);
    applyTheme();
}

void Chart::setTitle(const QString &title)
{
    m_title->setText(title);
    replot();
}

QString Chart::title() const
{
    return m_title->text();
}

void Chart::setFootnote(const QString &text)
{
    if (text.isEmpty()) {
        if (m_footnote) {
            plotLayout()->remove(m_footnote);
            plotLayout()->simplify();
            m_footnote = nullptr;
        }
        return;
    }
    if (!m_footnote) {
        m_footnote = new QCPTextElement(this, QString(), m_fonts.annotation);
        const int row = plotLayout()->rowCount();
        plotLayout()->addElement(row, 0, m_footnote);
        plotLayout()->setRowStretchFactor(row, 0.001);
        m_footnote->setMargins(QMargins(6, 2, 6, 4));
    }
    m_footnote->setText(text);
    m_footnote->setTextColor(m_theme.foreground);
}

QString Chart::footnote() const
{
    return m_footnote ? m_footnote->text() : QString();
}

QString Chart::toolTipAt(const QPointF &pos) const
{
    int index = -1;
    QCPAbstractPlottable *plottable = plottableAt(pos, false, &index);
    if (!plottable || index < 0)
        return {};
    return describe(plottable, index);
}

void Chart::refresh()
{
    if (m_refreshing)
        return;
    m_refreshing = true;
    m_theme = ChartTheme::fromPalette(palette()); // build() colours idle spans, outlines from it
    clearPlottables();
    clearItems();
    m_hint = nullptr;
    setFootnote({});
    for (QCPAxis *axis : axisRect()->axes()) {
        axis->setVisible(true);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new GroupedNumberTicker));
        axis->setScaleType(QCPAxis::stLinear);
        axis->setLabel(QString());
        axis->setTickLabelRotation(0);
        axis->setRangeReversed(false);
        axis->grid()->setVisible(axis == xAxis || axis == yAxis);
    }
    xAxis2->setVisible(false);
    yAxis2->setVisible(false);
    build();
    applyTheme();
    adaptToWidth(width());
    fitView();
    if (!hasData() && !m_emptyHint.isEmpty()) {
        // Nothing to plot: say what to do instead of squashing empty axes and their ticks.
        for (QCPAxis *axis : axisRect()->axes())
            axis->setVisible(false);
        legend->setVisible(false);
        m_hint = new QCPItemText(this);
        m_hint->setPositionAlignment(Qt::AlignCenter);
        m_hint->position->setType(QCPItemPosition::ptViewportRatio); // the widget's centre
        m_hint->position->setCoords(0.5, 0.5);
        m_hint->setText(m_emptyHint);
        m_hint->setFont(m_fonts.axisLabel);
        m_hint->setColor(m_theme.foreground);
        m_hint->setTextAlignment(Qt::AlignCenter);
        m_hint->setClipToAxisRect(false);
    }
    replot();
    m_refreshing = false;
}

bool Chart::hasData() const
{
    for (int i = 0; i < plottableCount(); ++i) {
        QCPAbstractPlottable *p = const_cast<Chart *>(this)->plottable(i); // QCP lacks const
        if (!p->interface1D() || p->interface1D()->dataCount() > 0)
            return true; // a plottable without the 1D interface (Gantt bars) is only kept with data
    }
    return false;
}

void Chart::setEmptyHint(const QString &text)
{
    m_emptyHint = text;
    refresh();
}

void Chart::resetView()
{
    fitView();
    replot();
}

void Chart::adaptToWidth(int width)
{
    // itemCount() counts the empty cells left by removed plottables; count the real items.
    int items = 0;
    int widest = 0;
    const QFontMetrics metrics(m_fonts.legend);
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i))) {
            ++items;
            widest = std::max(widest, metrics.horizontalAdvance(item->plottable()->name()));
        }
    }
    legend->setVisible(items > 0);
    if (items > 0) {
        // Icon, padding and margins of a QCPPlottableLegendItem, plus the column spacing.
        const int itemWidth = widest + legend->iconSize().width() + legend->iconTextPadding() + 24;
        const int fit = std::max(1, (width - 12) / std::max(1, itemWidth));
        const int columns = std::min(fit, items);
        const int rows = (items + columns - 1) / columns;
        legend->setWrap((items + rows - 1) / rows); // balanced rows
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
    adaptTicksToWidth(width);
}

void Chart::adaptTicksToWidth(int) { }

void Chart::fitView()
{
    rescaleAxes();
}

bool Chart::acceptData(const QString &validationError, QString *error)
{
    m_dataError = validationError;
    if (error)
        *error = validationError;
    refresh();
    return validationError.isEmpty();
}

void Chart::setCategoryTicks(QCPAxis *axis, const QStringList &labels, int maxShown)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // Label at most maxShown categories so the labels stay readable; the tooltip names the rest.
    maxShown = std::max(1, maxShown);
    const int step = std::max<int>(1, int((labels.size() + maxShown - 1) / maxShown));
    // Long labels (a generated design's description) wrap at spaces onto lines of about
    // kWrap characters rather than turning the plot into a margin of rotated text.
    constexpr qsizetype kWrap = 28;
    qsizetype longest = 0;
    for (qsizetype i = 0; i < labels.size(); i += step) {
        // A label's own line breaks are kept; each of its lines wraps on its own.
        QStringList lines;
        for (const QString &given : labels[i].split(u'\n')) {
            lines << QString();
            for (const QString &word : given.split(u' ', Qt::SkipEmptyParts)) {
                if (!lines.back().isEmpty() && lines.back().size() + 1 + word.size() > kWrap)
                    lines << QString();
                lines.back() += (lines.back().isEmpty() ? QString() : QStringLiteral(" ")) + word;
            }
        }
        for (const QString &line : lines)
            longest = std::max(longest, line.size());
        ticker->addTick(double(i), lines.join(u'\n'));
    }
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    const qsizetype shown = (labels.size() + step - 1) / step;
    const double rotation = shown * longest > 70 ? -35 : 0;
    axis->setTickLabelRotation(rotation);
    // QCustomPlot leaves out a tick label that the widget's side would clip; a label rotated
    // below a horizontal axis ends at its tick and reaches left by its rotated width, so the
    // first one (half a category from the axis's start) needs that much room on the left
    // (none otherwise: no other code sets the minimum margins).
    if (axis->orientation() != Qt::Horizontal)
        return;
    int reach = 0;
    if (rotation != 0 && !ticker->ticks().isEmpty()) {
        const QFontMetrics fm(axis->tickLabelFont());
        const QStringList lines = ticker->ticks().first().split(u'\n');
        int width = 0;
        for (const QString &line : lines)
            width = std::max(width, fm.horizontalAdvance(line));
        const double a = qDegreesToRadians(-rotation);
        reach = int(std::ceil(width * std::cos(a)
                              + fm.lineSpacing() * double(lines.size()) * std::sin(a)))
            + 4;
    }
    QMargins m = axis->axisRect()->minimumMargins();
    m.setLeft(reach);
    axis->axisRect()->setMinimumMargins(m);
}

void Chart::stackOn(QCPBars *bars, QCPBars *below)
{
    bars->setPen(Qt::NoPen);
    bars->setStackingGap(0);
    if (below)
        bars->moveAbove(below);
}

bool Chart::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QCustomPlot::event(event);
}

void Chart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_fonts = ChartFonts::fromBase(font());
        refresh();
    }
    QCustomPlot::changeEvent(event);
}

void Chart::resizeEvent(QResizeEvent *event)
{
    adaptToWidth(event->size().width());
    QCustomPlot::resizeEvent(event);
}

void Chart::mouseDoubleClickEvent(QMouseEvent *event)
{
    resetView();
    QCustomPlot::mouseDoubleClickEvent(event);
}

void Chart::applyTheme()
{
    m_theme = ChartTheme::fromPalette(palette());
    const QColor fg = m_theme.foreground;
    setBackground(QBrush(m_theme.background));
    for (QCPAxis *axis : axisRect()->axes()) {
        axis->setBasePen(QPen(fg, 1));
        axis->setTickPen(QPen(fg, 1));
        axis->setSubTickPen(QPen(fg, 1));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->setTickLabelFont(m_fonts.tickLabel);
        axis->setLabelFont(m_fonts.axisLabel);
        axis->grid()->setPen(QPen(m_theme.grid, 1));
        axis->grid()->setSubGridPen(QPen(m_theme.subGrid, 1));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    legend->setBrush(QBrush(m_theme.background));
    legend->setBorderPen(Qt::NoPen);
    legend->setTextColor(fg);
    legend->setFont(m_fonts.legend);
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = legend->item(i)) {
            item->setTextColor(fg);
            item->setFont(m_fonts.legend);
        }
    }
    m_title->setTextColor(fg);
    m_title->setFont(m_fonts.title);
    if (m_footnote) {
        m_footnote->setTextColor(fg);
        m_footnote->setFont(m_fonts.annotation);
    }
    restyle();
}

QString formatNumber(double value, int decimals)
{
    return QLocale::c().toString(value, 'f', decimals);
}

QString csvNumber(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace weft
