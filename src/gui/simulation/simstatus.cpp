#include "gui/simulation/simstatus.h"

#include "document/designdocument.h"
#include "gui/simulation/resultsummary.h"
#include "gui/simulation/simulationrunner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <algorithm>

namespace weft {

SimStatus::SimStatus(DesignDocument *doc, SimulationRunner *runner, QWidget *parent)
    : QWidget(parent)
    , m_doc(doc)
    , m_runner(runner)
    , m_label(new QLabel)
    , m_progress(new QProgressBar)
    , m_cancel(new QToolButton)
{
    setObjectName(QStringLiteral("SimStatus"));
    m_label->setObjectName(QStringLiteral("SimStatusText"));
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(140);
    m_progress->setFormat(tr("Simulating %p%"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Cancel the simulation (Shift+F5)"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, runner, &SimulationRunner::cancel);
    connect(runner, &SimulationRunner::progress, m_progress,
            [this](double f) { m_progress->setValue(static_cast<int>(f * 100)); });
    connect(runner, &SimulationRunner::started, this, &SimStatus::sync);
    for (auto signal : {&SimulationRunner::finished, &SimulationRunner::resultChanged,
                        &SimulationRunner::findingsChanged})
        connect(runner, signal, this, &SimStatus::sync);
    connect(runner, &SimulationRunner::staleChanged, this, &SimStatus::sync);
    sync();
}

QString SimStatus::text() const
{
    return m_label->text();
}

void SimStatus::sync()
{
    const bool running = m_runner->isSimulating();
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (!running)
        m_progress->setValue(0);
    const auto result = m_runner->result();
    const QString text = statusSummary(m_doc->design().acceleratorCount() > 0,
                                       m_doc->design().workload.has_value(), result.get(),
                                       m_runner->isStale(), m_runner->findings(),
                                       m_runner->resultFaults(), m_runner->healthyStepTime());
    m_label->setText(text);
    m_label->setToolTip(text);
}

} // namespace weft
