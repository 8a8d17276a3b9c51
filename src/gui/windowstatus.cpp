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
    , m_autosave(new QLabel(tr("Autosave failed")))
{
    m_counts->setObjectName(QStringLiteral("designCounts"));
    m_autosave->setObjectName(QStringLiteral("autosaveProblem"));
    m_autosave->setStyleSheet(QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    m_autosave->hide();
    bar->addPermanentWidget(m_autosave);
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

// A failed autosave no longer protects the unsaved work against a crash: said where it stays
// visible (it failed silently, every minute), with the cause in the tooltip.
void WindowStatus::setAutosaveProblem(const QString &why)
{
    if (why.isEmpty()) {
        if (!m_autosave->isHidden())
            showMessage(tr("Autosave works again."));
        m_autosave->hide();
        return;
    }
    const QString text = tr("Autosave failed: %1. Unsaved changes are not protected against a "
                            "crash; save them (File > Save As) where there is room.")
                             .arg(why);
    m_autosave->setToolTip(text);
    m_autosave->show();
    showMessage(text);
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
