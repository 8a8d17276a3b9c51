#include "gui/actions/viewactions.h"

#include "document/designdocument.h"
#include "gui/canvas/minimap.h"
#include "gui/canvas/topologyview.h"

#include <QAction>
#include <QActionGroup>
#include <QIcon>
#include <QMenu>
#include <QToolBar>

namespace weft {

namespace {

QAction *make(QObject *parent, const QString &text, const char *icon, const QKeySequence &key)
{
    auto *a = new QAction(QIcon(QStringLiteral(":/weft/icons/%1.svg").arg(QLatin1String(icon))),
                          text, parent);
    a->setShortcut(key);
    return a;
}

} // namespace

ViewActions::ViewActions(TopologyView *view, QObject *parent)
    : QObject(parent)
    , m_view(view)
{
    zoomIn = make(this, tr("Zoom &In"), "zoom-in", QKeySequence::ZoomIn);
    zoomOut = make(this, tr("Zoom &Out"), "zoom-out", QKeySequence::ZoomOut);
    fit = make(this, tr("&Fit to Window"), "zoom-fit", QKeySequence(Qt::CTRL | Qt::Key_0));
    zoomSelection = make(this, tr("Zoom to &Selection"), "zoom-selection",
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
    selectTool = make(this, tr("&Select"), "pointer", QKeySequence(Qt::Key_S));
    connectTool = make(this, tr("&Connect"), "connect", QKeySequence(Qt::Key_C));
    selectTool->setToolTip(tr("Select and move (S)"));
    connectTool->setToolTip(tr("Connect two nodes with a link (C)"));
    for (QAction *a : {selectTool, connectTool})
        a->setCheckable(true);
    auto *tools = new QActionGroup(this);
    tools->addAction(selectTool);
    tools->addAction(connectTool);
    selectTool->setChecked(true);
    minimap = make(this, tr("&Minimap"), "minimap", QKeySequence(Qt::CTRL | Qt::Key_M));
    minimap->setCheckable(true);
    minimap->setChecked(true);
    expand = make(this, tr("&Expand Domains"), "expand", QKeySequence(Qt::CTRL | Qt::Key_E));
    collapse = make(this, tr("C&ollapse Domains"), "collapse",
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    expand->setStatusTip(tr("Expand the selected scale-up domains (all when nothing is selected)"));
    collapse->setStatusTip(
        tr("Collapse the selected scale-up domains (all when nothing is selected)"));

    connect(zoomIn, &QAction::triggered, view, &TopologyView::zoomIn);
    connect(zoomOut, &QAction::triggered, view, &TopologyView::zoomOut);
    connect(fit, &QAction::triggered, view, &TopologyView::fitAll);
    connect(zoomSelection, &QAction::triggered, view, &TopologyView::zoomToSelection);
    connect(selectTool, &QAction::triggered, this,
            [view] { view->setToolKind(TopologyView::ToolKind::Select); });
    connect(connectTool, &QAction::triggered, this,
            [view] { view->setToolKind(TopologyView::ToolKind::Connect); });
    connect(minimap, &QAction::toggled, view->minimap(), &Minimap::setWanted);
    connect(expand, &QAction::triggered, this, [this] { setCollapsed(false); });
    connect(collapse, &QAction::triggered, this, [this] { setCollapsed(true); });
}

void ViewActions::addTo(QMenu *menu, QToolBar *toolbar)
{
    menu->addActions({zoomIn, zoomOut, fit, zoomSelection});
    menu->addSeparator();
    menu->addActions({expand, collapse, minimap});
    toolbar->addActions({selectTool, connectTool});
    toolbar->addSeparator();
    toolbar->addActions({zoomIn, zoomOut, fit});
}

void ViewActions::setCollapsed(bool collapsed)
{
    DesignDocument *doc = m_view->document();
    // Selected domains, or the domains of selected nodes; with nothing selected, all domains.
    std::set<GroupId> groups = doc->selection().groups;
    for (const NodeId id : doc->selection().nodes)
        if (const Node *n = doc->design().node(id); n && n->group.valid())
            groups.insert(n->group);
    if (doc->selection().groups.empty() && doc->selection().nodes.empty())
        for (const Group &g : doc->design().groups())
            if (g.kind == GroupKind::ScaleUpDomain)
                groups.insert(g.id);
    doc->setCollapsed(groups, collapsed);
}

} // namespace weft
