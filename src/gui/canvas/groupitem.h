#pragma once
// GroupItem: a scale-up domain. Collapsed, it is one box with its preset and counts (the level
// of detail that keeps 16k-GPU designs fast); expanded, a frame behind its member nodes.

#include "model/group.h"
#include "model/ids.h"

#include <QGraphicsItem>
#include <utility>

namespace weft {

class DesignDocument;

class GroupItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 2 };
    GroupItem(const DesignDocument *doc, GroupId id);

    [[nodiscard]] GroupId groupId() const { return m_id; }
    [[nodiscard]] int type() const override { return Type; }
    /// Recomputes the frame from the members' positions and the collapsed state.
    void syncFromModel();
    [[nodiscard]] bool collapsed() const { return m_collapsed; }
    /// A collapsed box under an expanded domain's frame goes behind that frame (the frame is
    /// drawn over the boxes it covers, its members and lines over both).
    void setCovered(bool covered);
    [[nodiscard]] bool covered() const { return m_covered; }
    /// Scene point where links to the collapsed box end.
    [[nodiscard]] QPointF anchor() const { return mapToScene(m_rect.center()); }
    /// The box or frame in scene coordinates.
    [[nodiscard]] QRectF frame() const { return mapRectToScene(m_rect); }
    [[nodiscard]] QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    /// A collapsed domain's accelerators as a row of cells in their rank colours, or nothing
    /// when accelerators are not coloured. Returns the height used.
    double paintRankStrip(QPainter *painter, const QRectF &area) const;
    /// What-if faults on the members of `g` or links ending at them, and whether one is down.
    [[nodiscard]] std::pair<int, bool> faultsInside(const Group &g) const;

    const DesignDocument *m_doc;
    GroupId m_id;
    QRectF m_rect;
    void updateStacking();
    void updateToolTip();

    bool m_collapsed = true;
    bool m_covered = false;
    int m_accelerators = 0;
    int m_switches = 0;
};

} // namespace weft
