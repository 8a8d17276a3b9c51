#include "plancharts.h"

#include "chartexporter.h"
#include "chartstyle.h"
#include "collectivechart.h"
#include "gui/simulation/resultsummary.h"
#include "sim/memoryheadroom.h"

#include <QApplication>
#include <algorithm>
#include <cmath>

namespace weft {

namespace {
constexpr double kGB = 1e9;
} // namespace

PlanParetoChart::PlanParetoChart(QWidget *parent)
    : DataChart(parent)
{
    setTitle(tr("Throughput against memory per GPU"));
    refresh();
}

ChartTable PlanParetoChart::table() const
{
    ChartTable t;
    t.header = {QStringLiteral("candidate"), QStringLiteral("rank"),
                QStringLiteral("peak memory per GPU (bytes)"), QStringLiteral("tokens/s"),
                QStringLiteral("pareto")};
    for (const PlanPoint &p : m_data.points)
        t.rows.push_back({p.label, QString::number(p.rank), csvNumber(p.memoryBytes),
                          csvNumber(p.tokensPerSecond),
                          p.pareto ? QStringLiteral("true") : QStringLiteral("false")});
    return t;
}

void PlanParetoChart::build()
{
    xAxis->setLabel(tr("peak memory per GPU (GB)"));
    yAxis->setLabel(tr("throughput (tokens/s)"));
    QVector<double> x, y, fx, fy, tx, ty;
    std::vector<const PlanPoint *> front;
    for (const PlanPoint &p : m_data.points) {
        if (p.rank > 0) {
            tx << p.memoryBytes / kGB;
            ty << p.tokensPerSecond;
        } else {
            x << p.memoryBytes / kGB;
            y << p.tokensPerSecond;
        }
        if (p.pareto)
            front.push_back(&p);
    }
    std::sort(front.begin(), front.end(), [](const PlanPoint *a, const PlanPoint *b) {
        return a->memoryBytes < b->memoryBytes;
    });
    for (const PlanPoint *p : front) {
        fx << p->memoryBytes / kGB;
        fy << p->tokensPerSecond;
    }
    QCPGraph *all = addGraph();
    all->setName(tr("simulated candidates"));
    all->setLineStyle(QCPGraph::lsNone);
    all->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, seriesColour(0), 5));
    all->setData(x, y);
    all->setProperty("kind", 0);
    QCPGraph *top = addGraph();
    top->setName(tr("top candidates (numbered by rank)"));
    top->setLineStyle(QCPGraph::lsNone);
    top->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, seriesColour(1), seriesColour(1), 8));
    top->setData(tx, ty);
    top->setProperty("kind", 1);
    QCPGraph *pareto = addGraph();
    // Pruned and stopped candidates are never simulated: the front is that of the simulated ones.
    pareto->setName(tr("Pareto front of the simulated candidates"));
    pareto->setLineStyle(QCPGraph::lsStepLeft);
    pareto->setPen(QPen(seriesColour(2), 2));
    pareto->setData(fx, fy, true);
    pareto->setProperty("kind", 2);
    addPointLabels();
    if (m_data.capacityBytes > 0) {
        const double gb = m_data.capacityBytes / kGB;
        addMemoryLine(gb, tr("HBM %1 GB").arg(gigabytesText(m_data.capacityBytes)), Qt::DashLine,
                      true);
        addMemoryLine(gb * (1 - kMemoryHeadroom),
                      tr("%1% of HBM").arg((1 - kMemoryHeadroom) * 100, 0, 'f', 0), Qt::DotLine,
                      false);
    }
}

void PlanParetoChart::addMemoryLine(double gb, const QString &text, Qt::PenStyle style, bool atTop)
{
    auto *line = new QCPItemStraightLine(this);
    line->point1->setCoords(gb, 0);
    line->point2->setCoords(gb, 1);
    line->setPen(QPen(theme().foreground, 1, style));
    auto *label = new QCPItemText(this);
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(gb, atTop ? 0.02 : 0.98);
    label->setPositionAlignment(Qt::AlignRight | (atTop ? Qt::AlignTop : Qt::AlignBottom));
    label->setPadding(QMargins(0, 0, 4, 0));
    label->setText(text);
    label->setFont(fonts().annotation);
    label->setColor(theme().foreground);
    label->setProperty("memoryLine", true);
}

PlanParetoChart::View PlanParetoChart::view() const
{
    View v;
    if (m_data.points.empty())
        return v;
    double memLo = m_data.points.front().memoryBytes, memHi = memLo;
    double tokLo = m_data.points.front().tokensPerSecond, tokHi = tokLo;
    for (const PlanPoint &p : m_data.points) {
        memLo = std::min(memLo, p.memoryBytes);
        memHi = std::max(memHi, p.memoryBytes);
        tokLo = std::min(tokLo, p.tokensPerSecond);
        tokHi = std::max(tokHi, p.tokensPerSecond);
    }
    if (m_data.capacityBytes > 0) {
        memLo = std::min(memLo, m_data.capacityBytes * (1 - kMemoryHeadroom));
        memHi = std::max(memHi, m_data.capacityBytes);
    }
    memLo /= kGB;
    memHi /= kGB;
    const double memPad = 0.06 * std::max(memHi - memLo, 0.1 * std::max(memHi, 1e-9));
    v.x0 = std::max(0.0, memLo - memPad);
    v.x1 = memHi + memPad;
    // At least 4% of the best, centred on the candidates: equal throughputs keep a readable axis.
    const double widen = std::max(0.0, 0.04 * tokHi - (tokHi - tokLo)) / 2;
    tokLo -= widen;
    tokHi += widen;
    const double tokSpan = std::max(tokHi - tokLo, 1e-9);
    // Room above the best for the rank labels, below the leanest for the headroom label.
    v.y0 = std::max(0.0, tokLo - 0.25 * tokSpan);
    v.y1 = tokHi + 0.2 * tokSpan;
    return v;
}

void PlanParetoChart::addPointLabels()
{
    // Ranked points closer than about a label's size (4% of each axis range: a label like
    // "3\u20134" is ~15 px wide and ~12 px tall on a ~350 x 270 px plot) are one place on the
    // chart: the ranks there get one label ("1\u20135"), not labels printed over each other.
    const View v = view();
    const double dx = 0.015 * (v.x1 - v.x0), dy = 0.015 * (v.y1 - v.y0);
    const double labelX = 0.04 * (v.x1 - v.x0), labelY = 0.04 * (v.y1 - v.y0);
    struct Place
    {
        double x, y;
        std::vector<int> ranks;
        QString layout; ///< a Pareto point's short label
    };
    std::vector<Place> places;
    const auto placeOf = [&](double x, double y) -> Place & {
        for (Place &q : places)
            if (std::abs(q.x - x) <= labelX && std::abs(q.y - y) <= labelY)
                return q;
        places.push_back({x, y, {}, {}});
        return places.back();
    };
    for (const PlanPoint &p : m_data.points)
        if (p.rank > 0)
            placeOf(p.memoryBytes / kGB, p.tokensPerSecond).ranks.push_back(p.rank);
    // The Pareto front's other points by their layout, leftmost first, none closer than 15% of
    // the memory axis to a labelled one (their labels would overlap) nor repeating the label
    // before it.
    std::vector<const PlanPoint *> front;
    for (const PlanPoint &p : m_data.points)
        if (p.pareto && p.rank == 0)
            front.push_back(&p);
    std::sort(front.begin(), front.end(), [](const PlanPoint *a, const PlanPoint *b) {
        return a->memoryBytes < b->memoryBytes;
    });
    QString previous;
    for (const PlanPoint *p : front) {
        const double x = p->memoryBytes / kGB;
        const bool crowded = std::any_of(places.begin(), places.end(), [&](const Place &q) {
            return std::abs(q.x - x) < 10 * dx && std::abs(q.y - p->tokensPerSecond) < 3 * dy;
        });
        if (!crowded && p->shortLabel != previous) {
            places.push_back({x, p->tokensPerSecond, {}, p->shortLabel});
            previous = p->shortLabel;
        }
    }
    for (const Place &q : places) {
        auto *label = new QCPItemText(this);
        label->position->setCoords(q.x, q.y);
        if (q.ranks.empty()) {
            // Right of the point, like the ranks: a front near the memory axis is not clipped.
            label->setText(q.layout);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            label->setPadding(QMargins(5, 2, 0, 0));
            label->setColor(seriesColour(2)); // the front's colour
        } else {
            label->setText(rankListLabel(q.ranks));
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(4, 0, 0, 2));
            label->setColor(theme().foreground);
        }
        label->setFont(fonts().annotation);
        label->setProperty("pointLabel", true);
    }
}

void PlanParetoChart::fitView()
{
    const View v = view();
    xAxis->setRange(v.x0, v.x1);
    yAxis->setRange(v.y0, v.y1);
}

QString PlanParetoChart::describe(QCPAbstractPlottable *plottable, int index) const
{
    auto *graph = qobject_cast<QCPGraph *>(plottable);
    if (!graph || index < 0 || index >= graph->dataCount())
        return {};
    const double mem = graph->dataMainKey(index) * kGB;
    const double tok = graph->dataMainValue(index);
    for (const PlanPoint &p : m_data.points)
        if (p.memoryBytes == mem && p.tokensPerSecond == tok)
            return tr("%1%2\n%3 tokens/s, %4 GB per GPU")
                .arg(p.rank > 0 ? tr("#%1 ").arg(p.rank) : QString(), p.label)
                .arg(formatNumber(tok, 0))
                .arg(formatNumber(mem / kGB, 1));
    return {};
}

PlanBreakdownChart::PlanBreakdownChart(QWidget *parent)
    : BreakdownChart(parent)
{
    setTitle(tr("Step-time breakdown of the top candidates"));
    setCategoryName(tr("candidate"));
}

QStringList renderPlanCharts(const TrainingPlan &r, const QString &dir, QString *error)
{
    QStringList written;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        if (error)
            *error = QStringLiteral("rendering charts needs a QApplication (use "
                                    "QT_QPA_PLATFORM=offscreen when there is no display)");
        return written;
    }
    const ChartFormats formats = ChartFormat::Png | ChartFormat::Pdf | ChartFormat::Svg;
    const ChartExportOptions options;
    const auto render = [&](Chart &chart, const QString &dataError) {
        if (!dataError.isEmpty()) {
            if (error)
                *error = QStringLiteral("chart '%1': %2").arg(chart.chartId(), dataError);
            return false;
        }
        chart.setPalette(lightChartPalette());
        chart.resize(options.size);
        chart.refresh();
        QString exportError;
        written << ChartExporter::exportChart(chart, dir, formats, options, &exportError);
        if (!exportError.isEmpty() && error)
            *error = QStringLiteral("chart '%1': %2").arg(chart.chartId(), exportError);
        return exportError.isEmpty();
    };
    PlanParetoChart pareto;
    QString e;
    pareto.setData(planParetoData(r), &e);
    if (!render(pareto, e))
        return written;
    PlanBreakdownChart breakdown;
    breakdown.setData(planBreakdownData(r), &e);
    render(breakdown, e);
    return written;
}

} // namespace weft
