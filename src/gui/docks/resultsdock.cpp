#include "gui/docks/resultsdock.h"

#include "document/designdocument.h"
#include "gui/charts/breakdownchart.h"
#include "gui/charts/chartspanel.h"
#include "gui/charts/linkserieschart.h"
#include "gui/charts/memorychart.h"
#include "gui/charts/simresultcharts.h"
#include "gui/charts/timelinechart.h"
#include "gui/charts/utilizationchart.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simulationrunner.h"

#include <QLabel>
#include <QVBoxLayout>

namespace weft {

ResultsDock::ResultsDock(DesignDocument *doc, SimulationRunner *runner, QWidget *parent)
    : QDockWidget(tr("Results"), parent)
    , m_doc(doc)
    , m_runner(runner)
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
    showResult();
}

QString ResultsDock::summary() const
{
    return m_summary->text();
}

void ResultsDock::updateSummary()
{
    const auto result = m_runner->result();
    QString text;
    if (!m_doc->design().workload)
        text = tr("No workload: add one in the Partitions dock to simulate a training step.");
    else if (!result)
        text = tr("Not simulated yet.");
    else
        text = summaryText(*result);
    if (result && m_runner->isStale())
        text += tr(" (out of date: the design changed; Simulation > Simulate)");
    m_summary->setText(text);
}

void ResultsDock::showResult()
{
    updateSummary();
    const auto result = m_runner->result();
    if (!result || !result->ok)
        return;
    const QString name = m_doc->displayName();
    m_charts->breakdownChart()->setData(BreakdownChartData {{stepBreakdown(*result, name)}});
    m_charts->timelineChart()->setData(timelineChartData(*result));
    m_charts->utilizationChart()->setData(utilizationChartData(*result));
    m_charts->memoryChart()->setData(memoryChartData(*result));
    showSelectedLink();
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
