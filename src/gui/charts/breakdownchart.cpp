#include "breakdownchart.h"

#include <algorithm>

namespace weft {

namespace {

QString unitName(double unitSeconds)
{
    return unitSeconds < 1 ? QStringLiteral("ms") : QStringLiteral("s");
}

// Snake-case CSV column of a part, e.g. "exposed_tp_s".
QString columnName(BreakdownPart part)
{
    return breakdownPartName(part).toLower().replace(QLatin1Char(' '), QLatin1Char('_'))
        + QStringLiteral("_s");
}

} // namespace

QColor breakdownPartColour(BreakdownPart part)
{
    switch (part) {
    case BreakdownPart::Compute:
        return okabeIto(OkabeIto::Blue);
    case BreakdownPart::TpExposed:
        return okabeIto(OkabeIto::Orange);
    case BreakdownPart::CpExposed:
        return okabeIto(OkabeIto::Yellow);
    case BreakdownPart::EpExposed:
        return okabeIto(OkabeIto::ReddishPurple);
    case BreakdownPart::PpExposed:
        return okabeIto(OkabeIto::SkyBlue);
    case BreakdownPart::Bubble:
        return okabeIto(OkabeIto::Grey);
    case BreakdownPart::DpExposed:
        return okabeIto(OkabeIto::Vermillion);
    case BreakdownPart::Optimizer:
        return okabeIto(OkabeIto::BluishGreen);
    }
    return {};
}

BreakdownChart::BreakdownChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Step-time breakdown"));
    refresh();
}

void BreakdownChart::setCategoryName(const QString &name)
{
    m_category = name;
    refresh();
}

double BreakdownChart::unitSeconds() const
{
    double largest = 0;
    for (const StepBreakdown &d : m_data.designs)
        largest = std::max(largest, d.total());
    return largest < 1 ? 1e-3 : 1.0;
}

void BreakdownChart::build()
{
    const double unit = unitSeconds();
    QStringList names;
    for (const StepBreakdown &d : m_data.designs)
        names << d.design;
    setCategoryTicks(xAxis, names);
    xAxis->setLabel(m_category);
    yAxis->setLabel(tr("time per step (%1)").arg(unitName(unit)));
    xAxis->grid()->setVisible(false);

    QCPBars *below = nullptr;
    for (int p = 0; p < kBreakdownPartCount; ++p) {
        const auto part = static_cast<BreakdownPart>(p);
        const bool used
            = std::any_of(m_data.designs.begin(), m_data.designs.end(),
                          [p](const StepBreakdown &d) { return d.seconds[std::size_t(p)] > 0; });
        if (!used)
            continue;
        auto *bars = new QCPBars(xAxis, yAxis);
        bars->setName(breakdownPartName(part));
        bars->setBrush(breakdownPartColour(part));
        bars->setWidth(0.6);
        bars->setProperty("part", p);
        for (std::size_t i = 0; i < m_data.designs.size(); ++i)
            bars->addData(double(i), m_data.designs[i].seconds[std::size_t(p)] / unit);
        stackOn(bars, below);
        below = bars;
    }
    // Total above each bar: what a reader of a report looks for first.
    for (std::size_t i = 0; i < m_data.designs.size(); ++i) {
        auto *label = new QCPItemText(this);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->position->setCoords(double(i), m_data.designs[i].total() / unit);
        label->setText(formatNumber(m_data.designs[i].total() / unit, unit < 1 ? 1 : 2));
        label->setFont(fonts().annotation);
        label->setColor(theme().foreground);
        label->setPadding(QMargins(0, 0, 0, 3));
        label->setClipToAxisRect(false);
    }
}

void BreakdownChart::fitView()
{
    const double unit = unitSeconds();
    double largest = 0;
    for (const StepBreakdown &d : m_data.designs)
        largest = std::max(largest, d.total() / unit);
    xAxis->setRange(-0.6, std::max<double>(0.6, double(m_data.designs.size()) - 0.4));
    yAxis->setRange(0, largest > 0 ? largest * 1.12 : 1);
}

QString BreakdownChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *bars = qobject_cast<QCPBars *>(plottable);
    if (!bars || index < 0 || std::size_t(index) >= m_data.designs.size())
        return {};
    const StepBreakdown &d = m_data.designs[std::size_t(index)];
    const int p = bars->property("part").toInt();
    const double seconds = d.seconds[std::size_t(p)];
    const double unit = unitSeconds();
    const double share = d.total() > 0 ? 100 * seconds / d.total() : 0;
    return tr("%1\n%2: %3 %4 (%5 % of %6 %4)")
        .arg(d.design, bars->name(), formatNumber(seconds / unit, 2), unitName(unit),
             formatNumber(share, 1), formatNumber(d.total() / unit, 2));
}

ChartTable BreakdownChart::table() const
{
    ChartTable t;
    t.header << m_category;
    for (int p = 0; p < kBreakdownPartCount; ++p)
        t.header << columnName(static_cast<BreakdownPart>(p));
    t.header << QStringLiteral("total_s");
    for (const StepBreakdown &d : m_data.designs) {
        QStringList row {d.design};
        for (double s : d.seconds)
            row << csvNumber(s);
        row << csvNumber(d.total());
        t.rows.push_back(row);
    }
    return t;
}

} // namespace weft
