#pragma once
// TopologyScene: the items viewing one DesignDocument. It creates, moves and deletes items on
// the document's signals and never changes the design. Nodes inside a collapsed scale-up domain
// get no item at all (the domain box stands for them), which keeps large designs light.

#include "document/fragment.h"
#include "gui/canvas/canvasstyle.h"
#include "gui/canvas/linkheat.h"
#include "gui/canvas/rankcolouring.h"

#include <QGraphicsScene>
#include <QPalette>
#include <unordered_map>

namespace weft {

class DesignDocument;
class GroupItem;
class LinkLayer;
class NodeItem;

/// What is under a scene point: the topmost node or domain, else a link bundle.
struct CanvasHit
{
    NodeId node;
    GroupId group;
    std::vector<LinkId> links;
};

class TopologyScene : public QGraphicsScene
{
    Q_OBJECT
public:
    explicit TopologyScene(DesignDocument *doc, QObject *parent = nullptr);
    ~TopologyScene() override;

    [[nodiscard]] DesignDocument *document() const { return m_doc; }
    [[nodiscard]] const CanvasStyle &style() const { return m_style; }
    /// Re-derives colours from `palette` (theme change).
    void setStylePalette(const QPalette &palette);
    /// The palette the style was made from (the application's at construction).
    [[nodiscard]] const QPalette &stylePalette() const { return m_palette; }

    [[nodiscard]] CanvasHit hitAt(QPointF scenePos, double linkTolerance) const;
    /// Nodes and domains whose shapes lie inside `rect` (rubber band).
    [[nodiscard]] IdSet idsInRect(const QRectF &rect) const;
    /// Scene rectangle covering the ids (zoom to selection).
    [[nodiscard]] QRectF boundsOf(const IdSet &ids) const;
    /// Bounding rectangle of everything drawn.
    [[nodiscard]] QRectF contentBounds() const { return m_content; }
    [[nodiscard]] NodeItem *nodeItem(NodeId id) const;
    [[nodiscard]] GroupItem *groupItem(GroupId id) const;
    [[nodiscard]] LinkLayer *linkLayer() const { return m_links; }
    /// The simulation result shown on the links (utilization colours, group highlight).
    [[nodiscard]] const LinkHeat &linkHeat() const { return m_heat; }
    /// Colours the links by `result` (null: plain links); `stale` when the design changed since.
    void setSimResult(std::shared_ptr<const SimResult> result, bool stale = false);
    void setResultStale(bool stale);
    /// Ranks and group colours of the workload's placement (read by node and domain items).
    [[nodiscard]] const RankColouring &rankColouring() const { return m_ranks; }
    /// Colours accelerators by pipeline stage, DP replica or TP group (view state).
    void setRankColourMode(RankColouring::Mode mode);

signals:
    /// The shown result, its staleness or the highlighted group changed.
    void linkHeatChanged();
    /// The rank colouring changed (mode or placement): overlays such as the legend repaint.
    void rankColouringChanged();

private:
    void rebuild();
    void onAdded(const IdSet &ids);
    void onRemoved(const IdSet &ids);
    void onChanged(const IdSet &ids);
    void onSelectionChanged();
    /// Creates or removes member items of `group` to match its collapsed state.
    void syncGroup(GroupId group);
    void ensureNodeItem(NodeId id);
    void removeNodeItem(NodeId id);
    [[nodiscard]] bool hiddenInCollapsedDomain(NodeId id) const;
    void updateExtent();
    /// Puts the collapsed boxes an expanded domain's frame covers behind that frame.
    void restackGroups();
    void onWorkloadChanged();

    DesignDocument *m_doc;
    QPalette m_palette;
    CanvasStyle m_style;
    LinkLayer *m_links = nullptr;
    std::unordered_map<NodeId, NodeItem *> m_nodes;
    std::unordered_map<GroupId, GroupItem *> m_groups;
    RankColouring m_ranks;
    IdSet m_shownSelection;
    LinkHeat m_heat;
    QRectF m_content;
};

} // namespace weft
