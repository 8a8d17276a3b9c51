#pragma once
// NodeItem: draws one accelerator or switch. It holds only the node's id and a const pointer to
// the document and repaints from the model; the scene moves it when the document says so.

#include "model/ids.h"

#include <QGraphicsItem>

namespace weft {

class DesignDocument;

class NodeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 1 };
    NodeItem(const DesignDocument *doc, NodeId id);

    [[nodiscard]] NodeId nodeId() const { return m_id; }
    [[nodiscard]] int type() const override { return Type; }
    /// Takes position and size from the model.
    void syncFromModel();
    [[nodiscard]] QRectF boundingRect() const override;
    /// The node's box in item coordinates (without outline and label).
    [[nodiscard]] QRectF box() const { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    const DesignDocument *m_doc;
    NodeId m_id;
    QRectF m_rect;
};

} // namespace weft
