#include "gui/canvas/minimap.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QMouseEvent>
#include <QPainter>

namespace weft {

Minimap::Minimap(TopologyView *view)
    : QWidget(view)
    , m_view(view)
{
    setFixedSize(220, 150);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    m_timer.setSingleShot(true);
    m_timer.setInterval(300);
    connect(&m_timer, &QTimer::timeout, this, &Minimap::render);
    DesignDocument *doc = view->document();
    for (auto signal : {&DesignDocument::added, &DesignDocument::removed, &DesignDocument::changed})
        connect(doc, signal, this, &Minimap::invalidate);
    connect(doc, &DesignDocument::reset, this, &Minimap::invalidate);
    connect(view, &TopologyView::viewportMoved, this, [this] {
        updateVisibility();
        update();
    });
    invalidate();
}

void Minimap::reposition()
{
    const QWidget *vp = m_view->viewport();
    move(vp->width() - width() - 12, vp->height() - height() - 12);
    raise();
}

void Minimap::invalidate()
{
    m_timer.start();
}

void Minimap::setWanted(bool wanted)
{
    m_wanted = wanted;
    updateVisibility();
}

void Minimap::updateVisibility()
{
    const QRectF content = m_view->topologyScene()->contentBounds();
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    setVisible(m_wanted && !content.isEmpty() && !visible.contains(content));
}

QRectF Minimap::sourceRect() const
{
    return m_view->topologyScene()->contentBounds().adjusted(-40, -40, 40, 40);
}

void Minimap::render()
{
    const qreal dpr = devicePixelRatioF();
    m_image = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(dpr);
    m_image.fill(m_view->topologyScene()->style().background);
    const QRectF src = sourceRect();
    if (!src.isEmpty()) {
        QPainter p(&m_image);
        m_view->topologyScene()->render(&p, QRectF(QPointF(0, 0), QSizeF(size())), src,
                                        Qt::KeepAspectRatio);
    }
    updateVisibility();
    update();
}

void Minimap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const CanvasStyle &st = m_view->topologyScene()->style();
    p.drawImage(QPointF(0, 0), m_image);
    // Map the view's visible scene rectangle into minimap coordinates (KeepAspectRatio fit).
    const QRectF src = sourceRect();
    if (!src.isEmpty()) {
        const double s = std::min(width() / src.width(), height() / src.height());
        const QPointF offset((width() - src.width() * s) / 2, (height() - src.height() * s) / 2);
        const QRectF vis = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
        const QRectF r(offset + (vis.topLeft() - src.topLeft()) * s, vis.size() * s);
        QColor fill = st.selection;
        fill.setAlpha(40);
        p.setBrush(fill);
        p.setPen(QPen(st.selection, 1.5));
        p.drawRect(r.intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(st.frame, 1));
    p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
}

void Minimap::centreAt(QPointF widgetPos)
{
    const QRectF src = sourceRect();
    if (src.isEmpty())
        return;
    const double s = std::min(width() / src.width(), height() / src.height());
    const QPointF offset((width() - src.width() * s) / 2, (height() - src.height() * s) / 2);
    m_view->centerOn(src.topLeft() + (widgetPos - offset) / s);
}

void Minimap::mousePressEvent(QMouseEvent *event)
{
    centreAt(event->position());
}

void Minimap::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        centreAt(event->position());
}

} // namespace weft
