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
    if (!m_view->topologyScene())
        return;
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
    if (!m_view->topologyScene())
        return;
    const qreal dpr = devicePixelRatioF();
    m_image = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(dpr);
    m_image.fill(m_view->topologyScene()->style().background);
    m_source = sourceRect();
    m_target = QRectF();
    if (!m_source.isEmpty()) {
        // QGraphicsScene::render aligns a kept-aspect source to the target's top-left: give it
        // a target of the source's own aspect, centred, so that image and rectangle agree.
        const double s = std::min(width() / m_source.width(), height() / m_source.height());
        const QSizeF drawn = m_source.size() * s;
        m_target = QRectF(QPointF((width() - drawn.width()) / 2, (height() - drawn.height()) / 2),
                          drawn);
        QPainter p(&m_image);
        m_view->topologyScene()->render(&p, m_target, m_source, Qt::KeepAspectRatio);
    }
    updateVisibility();
    update();
}

QPointF Minimap::toWidget(QPointF scene) const
{
    const double s = m_target.width() / m_source.width();
    return m_target.topLeft() + (scene - m_source.topLeft()) * s;
}

QRectF Minimap::viewportRect() const
{
    if (m_source.isEmpty() || m_target.isEmpty())
        return {};
    const QRectF vis = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    return QRectF(toWidget(vis.topLeft()), toWidget(vis.bottomRight()));
}

void Minimap::paintEvent(QPaintEvent *)
{
    if (!m_view->topologyScene())
        return;
    QPainter p(this);
    const CanvasStyle &st = m_view->topologyScene()->style();
    p.drawImage(QPointF(0, 0), m_image);
    if (const QRectF r = viewportRect(); !r.isEmpty()) {
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
    if (m_source.isEmpty() || m_target.isEmpty())
        return;
    const double s = m_target.width() / m_source.width();
    m_view->centerOn(m_source.topLeft() + (widgetPos - m_target.topLeft()) / s);
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
