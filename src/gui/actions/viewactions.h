#pragma once
// ViewActions: zoom in/out/fit/to selection, tools (select, connect), minimap, and expanding or
// collapsing the selected scale-up domains (all of them when nothing is selected).

#include <QObject>

class QAction;
class QActionGroup;
class QMenu;
class QToolBar;

namespace weft {

class TopologyView;

class ViewActions : public QObject
{
    Q_OBJECT
public:
    ViewActions(TopologyView *view, QObject *parent);
    void addTo(QMenu *menu, QToolBar *toolbar);

    QAction *zoomIn, *zoomOut, *fit, *zoomSelection, *selectTool, *connectTool, *minimap, *expand,
        *collapse;

private:
    void setCollapsed(bool collapsed);
    TopologyView *m_view;
};

} // namespace weft
