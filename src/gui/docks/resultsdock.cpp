#include "gui/docks/resultsdock.h"

#include "document/designdocument.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartspanel.h"
#include "gui/charts/collectivechart.h"
#include "gui/charts/comparechartdata.h"
#include "gui/charts/linkserieschart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/reportchartdata.h"
#include "gui/charts/simresultcharts.h"
#include "gui/charts/sweepchart.h"
#include "gui/charts/sweepchartdata.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"
#include "gui/simulation/comparison.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simulationrunner.h"

#include <QLabel>
#include <QVBoxLayout>

namespace weft {

namespace {

// Shows `data` in `chart`, or empties the chart when there is none.
template<typename ChartType, typename Data>
void setOrClear(ChartType *chart, const std::optional<Data> &data)
{
    chart->setData(data ? *data : Data {});
}

} // namespace

ResultsDock::ResultsDock(DesignDocument *doc, SimulationRunner *runner, Comparison *comparison,
                         QWidget *parent)
    : QDockWidget(tr("Results"), parent)
    , m_doc(doc)
    , m_runner(runner)
    , m_comparison(comparison)
    , m_summary(new QLabel)
    , m_charts(new ChartsPanel)
{
    setObjectName(QStringLiteral("ResultsDock"));
    m_summary->setObjectName(QStringLiteral("ResultsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *body = new QWidget;
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_charts, 1);
    setWidget(body);
    connect(runner, &SimulationRunner::resultChanged, this, &ResultsDock::showResult);
    connect(runner, &SimulationRunner::staleChanged, this, &ResultsDock::updateSummary);
    connect(runner, &SimulationRunner::findingsChanged, this, &ResultsDock::updateSummary);
    connect(doc, &DesignDocument::selectionChanged, this, &ResultsDock::showSelectedLink);
    connect(comparison, &Comparison::changed, this, &ResultsDock::showCharts);
    // The charts name the current design (its file alone, "<file> (current)" beside others):
    // follow Save As.
    connect(doc, &DesignDocument::filePathChanged, this, &ResultsDock::showCharts);
    // The hints follow the design: an accelerator or a workload added changes what to do.
    connect(doc, &DesignDocument::reset, this, &ResultsDock::updateHints);
    connect(doc, &DesignDocument::workloadChanged, this, &ResultsDock::updateHints);
    connect(doc, &DesignDocument::added, this, &ResultsDock::updateHints);
    connect(doc, &DesignDocument::removed, this, &ResultsDock::updateHints);
    showResult();
}

QString ResultsDock::summary() const
{
    return m_summary->text();
}

void ResultsDock::updateSummary()
{
    const auto result = m_runner->result();
    m_summary->setText(statusSummary(m_doc->design().acceleratorCount() > 0,
                                     m_doc->design().workload.has_value(), result.get(),
                                     m_runner->isStale(), m_runner->findings(),
                                     m_runner->resultFaults(), m_runner->healthyStepTime()));
}

void ResultsDock::showResult()
{
    updateSummary();
    const auto result = m_runner->result();
    m_current = {}; // empty charts without a result
    if (result && result->ok) {
        const Design &d = m_doc->design();
        // The collective sweep simulates its group alone: cheap for the designs that re-simulate
        // on every edit, left out above that so the UI thread never waits on it.
        m_current = reportChartData(
            *result, d, d.acceleratorCount() <= std::size_t(SimulationRunner::autoLimit()));
        if (d.acceleratorCount() > std::size_t(SimulationRunner::autoLimit()))
            m_current.collectiveNote
                = tr("The collective chart is left out above %L1 GPUs (its sweep would hold\n"
                     "up the window): weft-cli collective measures a group's all-reduce.")
                      .arg(SimulationRunner::autoLimit());
    }
    updateHints();
    showCharts();
}

void ResultsDock::updateHints()
{
    const Design &d = m_doc->design();
    const auto result = m_runner->result();
    const QString hint
        = resultChartHint(d.acceleratorCount() > 0, d.workload.has_value(), result.get());
    const auto set = [](Chart *chart, const QString &text) {
        if (chart->emptyHint() != text) // each change redraws the chart
            chart->setEmptyHint(text);
    };
    ChartsPanel *c = m_charts;
    for (Chart *chart : std::initializer_list<Chart *> {c->breakdownChart(), c->timelineChart(),
                                                        c->utilizationChart(), c->memoryChart()})
        set(chart, hint);
    // A simulated step without a collective chart: say why (no group, or what is unroutable).
    set(c->collectiveChart(),
        result && result->ok && !m_current.collectiveNote.isEmpty() ? m_current.collectiveNote
                                                                    : hint);
}

void ResultsDock::showCharts()
{
    ReportChartData data = m_current;
    if (!m_comparison->isEmpty()) { // side by side: the current result first, when there is one
        std::vector<LabelledCharts> designs;
        if (const auto result = m_runner->result(); result && result->ok)
            designs.push_back({currentDesignLabel(*m_doc), data});
        for (const ComparedDesign &e : m_comparison->entries())
            designs.push_back({e.label, e.charts});
        const auto linkSeries = data.linkSeries; // one link of the current design
        data = compareChartData(designs);
        data.linkSeries = linkSeries;
    } else if (data.breakdown && !data.breakdown->designs.empty()) {
        data.breakdown->designs.front().design = m_doc->displayName(); // named as it is now
    }
    setOrClear(m_charts->breakdownChart(), data.breakdown);
    setOrClear(m_charts->timelineChart(), data.timeline);
    setOrClear(m_charts->utilizationChart(), data.utilization);
    setOrClear(m_charts->linkSeriesChart(), data.linkSeries);
    setOrClear(m_charts->memoryChart(), data.memory);
    setOrClear(m_charts->collectiveChart(), data.collective);
    showSelectedLink();
}

void ResultsDock::showSweep(const SweepChartData &data, bool addSeries)
{
    SweepChart *chart = m_charts->sweepChart();
    chart->setData(addSeries ? combineSweepChartData(chart->data(), data) : data);
    m_charts->setCurrentWidget(chart);
    if (!isVisible())
        show();
    raise();
}

void ResultsDock::showSelectedLink()
{
    const auto result = m_runner->result();
    const IdSet &sel = m_doc->selection();
    if (!result || !result->ok || sel.links.size() != 1 || !sel.nodes.empty())
        return;
    const Design &d = m_doc->design();
    const LinkSeriesChartData data
        = linkSeriesChartData(*result, *sel.links.begin(), [&d](NodeId id) {
              const Node *n = d.node(id);
              return n ? QString::fromStdString(n->name) : QString::number(id.value);
          });
    if (data.series.empty())
        return;
    m_charts->linkSeriesChart()->setData(data);
    m_charts->setCurrentWidget(m_charts->linkSeriesChart());
}

} // namespace weft
