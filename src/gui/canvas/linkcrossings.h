#pragma once
// LinkCrossings: the parts of link lines that pass over a collapsed domain box they do not end
// at, drawn again above the boxes in the line's own pen, so that the line visibly runs on over
// the box (thin: the box's text stays readable). The links themselves lie under the boxes;
// without this a line from a spine to the leaves of a lower pod vanished into an upper rack and
// came out of its bottom, and the racks looked cabled to each other. Only while lines are drawn
// whole (LinkLayer::kWholeLines).

#include <QGraphicsItem>

namespace weft {

class LinkLayer;

class LinkCrossings : public QGraphicsItem
{
public:
    explicit LinkCrossings(const LinkLayer *layer);

    void setExtent(const QRectF &rect);
    [[nodiscard]] QRectF boundingRect() const override { return m_extent; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    const LinkLayer *m_layer;
    QRectF m_extent;
};

} // namespace weft
