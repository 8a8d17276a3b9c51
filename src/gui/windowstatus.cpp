#include "gui/windowstatus.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyview.h"
#include "gui/simulation/simstatus.h"

#include <QLabel>
#include <QStatusBar>

namespace weft {

WindowStatus::WindowStatus(QStatusBar *bar, DesignDocument *doc, SimulationRunner *runner,
                           TopologyView *view)
    : QObject(bar)
    , m_bar(bar)
    , m_doc(doc)
    , m_sim(new SimStatus(doc, runner))
    , m_counts(new QLabel)
    , m_zoom(new QLabel(tr("Zoom 100%")))
{
    m_counts->setObjectName(QStringLiteral("designCounts"));
    bar->addWidget(m_sim, 1);
    bar->addPermanentWidget(m_counts);
    bar->addPermanentWidget(m_zoom);
    connect(view, &TopologyView::zoomChanged, m_zoom, [this](double z) {
        m_zoom->setText(tr("Zoom %1%").arg(z * 100, 0, 'f', z < 0.1 ? 1 : 0));
    });
    for (auto sig : {&DesignDocument::added, &DesignDocument::removed})
        connect(doc, sig, this, &WindowStatus::updateCounts);
    connect(doc, &DesignDocument::reset, this, &WindowStatus::updateCounts);
    updateCounts();
}

void WindowStatus::showMessage(const QString &text)
{
    m_bar->showMessage(text, 8000);
}

void WindowStatus::updateCounts()
{
    const Design &d = m_doc->design();
    m_counts->setText(tr("%1 accelerators · %2 nodes · %3 links")
                          .arg(d.acceleratorCount())
                          .arg(d.nodes().size())
                          .arg(d.links().size()));
}

} // namespace weft
