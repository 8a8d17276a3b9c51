#include "utilizationchart.h"

#include "gui/tierlabel.h"

#include <algorithm>

namespace weft {

namespace {
constexpr double kPercent = 100;
} // namespace

QColor tierColour(const QString &name, int index)
{
    // "leaf · design B" when comparing designs: the tier is the part before the dot.
    const QString tier = name.section(QStringLiteral(" · "), 0, 0);
    if (tier == QLatin1String("scale-up"))
        return okabeIto(OkabeIto::Blue);
    if (tier == QLatin1String("leaf"))
        return okabeIto(OkabeIto::Orange);
    if (tier == QLatin1String("spine"))
        return okabeIto(OkabeIto::BluishGreen);
    if (tier == QLatin1String("core"))
        return okabeIto(OkabeIto::Vermillion);
    if (tier == QLatin1String("nic"))
        return okabeIto(OkabeIto::ReddishPurple);
    return seriesColour(index + 5);
}

UtilizationChart::UtilizationChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Link utilization per tier"));
    refresh();
}

void UtilizationChart::build()
{
    QStringList names;
    for (const TierUtilization &t : m_data.tiers)
        names << tierLabel(t.tier);
    setCategoryTicks(xAxis, names);
    xAxis->setLabel(tr("fabric tier"));
    xAxis->grid()->setVisible(false);
    yAxis->setLabel(tr("average link utilization (%)"));

    m_means = nullptr;
    std::vector<double> meanKeys;
    std::vector<double> meanValues;
    for (std::size_t i = 0; i < m_data.tiers.size(); ++i) {
        const TierUtilization &tier = m_data.tiers[i];
        if (tier.utilization.empty())
            continue;
        BoxStatistics s = boxStatistics(tier.utilization);
        QVector<double> outliers;
        for (double v : s.outliers)
            outliers << v * kPercent;
        auto *box = new QCPStatisticalBox(xAxis, yAxis);
        box->setName(tr("%1 (n = %2)").arg(tierLabel(tier.tier)).arg(tier.utilization.size()));
        const QColor colour = tierColour(tier.tier, int(i));
        QColor fill = colour;
        fill.setAlphaF(0.55f);
        box->setBrush(fill);
        box->setPen(QPen(colour.darker(theme().dark ? 100 : 130), 1.5));
        box->setWhiskerPen(QPen(theme().foreground, 1, Qt::SolidLine));
        box->setWhiskerBarPen(QPen(theme().foreground, 1.5));
        box->setMedianPen(QPen(theme().foreground, 2.5));
        box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, 5));
        box->setWidth(0.5);
        box->setProperty("tier", int(i));
        box->addData(double(i), s.minimum * kPercent, s.lowerQuartile * kPercent,
                     s.median * kPercent, s.upperQuartile * kPercent, s.maximum * kPercent,
                     outliers);
        meanKeys.push_back(double(i));
        meanValues.push_back(s.mean * kPercent);
    }
    if (!meanKeys.empty()) {
        m_means = addGraph();
        m_means->setName(tr("mean"));
        m_means->setLineStyle(QCPGraph::lsNone);
        m_means->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond,
                                                 QPen(theme().foreground, 1.5),
                                                 QBrush(theme().background), 9));
        m_means->setData(QVector<double>(meanKeys.begin(), meanKeys.end()),
                         QVector<double>(meanValues.begin(), meanValues.end()), true);
    }
}

void UtilizationChart::fitView()
{
    double top = 100;
    for (const TierUtilization &t : m_data.tiers) {
        for (double u : t.utilization)
            top = std::max(top, u * kPercent);
    }
    xAxis->setRange(-0.6, std::max(0.6, double(m_data.tiers.size()) - 0.4));
    yAxis->setRange(0, top * 1.05);
}

QString UtilizationChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    if (plottable == m_means && m_means) {
        const double key = m_means->data()->at(index)->key;
        const auto tier = std::size_t(key);
        return tr("%1\nmean %2 %")
            .arg(tier < m_data.tiers.size() ? tierLabel(m_data.tiers[tier].tier) : QString(),
                 formatNumber(m_means->data()->at(index)->value, 1));
    }
    auto *box = qobject_cast<QCPStatisticalBox *>(plottable);
    if (!box || index < 0 || index >= box->dataCount())
        return {};
    const auto tier = std::size_t(box->property("tier").toInt());
    if (tier >= m_data.tiers.size())
        return {};
    const QCPStatisticalBoxData &d = *box->data()->at(index);
    return tr("%1: %2 link directions\nmedian %3 %, quartiles %4 to %5 %\nwhiskers %6 to %7 %, %8 "
              "outliers")
        .arg(tierLabel(m_data.tiers[tier].tier))
        .arg(m_data.tiers[tier].utilization.size())
        .arg(formatNumber(d.median, 1), formatNumber(d.lowerQuartile, 1),
             formatNumber(d.upperQuartile, 1), formatNumber(d.minimum, 1),
             formatNumber(d.maximum, 1))
        .arg(d.outliers.size());
}

ChartTable UtilizationChart::table() const
{
    ChartTable t;
    t.header = QStringList {QStringLiteral("tier"), QStringLiteral("link_direction"),
                            QStringLiteral("avg_utilization_fraction")};
    for (const TierUtilization &tier : m_data.tiers) {
        for (std::size_t i = 0; i < tier.utilization.size(); ++i)
            t.rows.push_back({tier.tier, QString::number(i), csvNumber(tier.utilization[i])});
    }
    return t;
}

} // namespace weft
