#include "gui/canvas/topologyview.h"

#include "document/designdocument.h"
#include "document/tieredlayout.h"
#include "gui/canvas/catalogmime.h"
#include "gui/canvas/faultlegend.h"
#include "gui/canvas/faultmenu.h"
#include "gui/canvas/heatlegend.h"
#include "gui/canvas/legendlayout.h"
#include "gui/canvas/minimap.h"
#include "gui/canvas/rankgroupdrop.h"
#include "gui/canvas/ranklegend.h"
#include "gui/canvas/tools/connecttool.h"
#include "gui/canvas/tools/selecttool.h"
#include "gui/canvas/topologyscene.h"

#include <QContextMenuEvent>
#include <QDragEnterEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace weft {

namespace {
constexpr double kMinZoom = 0.002;
constexpr double kMaxZoom = 8.0;
} // namespace

TopologyView::TopologyView(TopologyScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(NoDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    setViewportUpdateMode(MinimalViewportUpdate);
    // Items restore their own painter state where they change it.
    setOptimizationFlags(DontSavePainterState);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    m_minimap = new Minimap(this);
    m_heatLegend = new HeatLegend(this);
    m_rankLegend = new RankLegend(this);
    m_faultLegend = new FaultLegend(this);
    setToolKind(ToolKind::Select);
    // A legend that appears or changes size (a result arrives, the colouring changes) would
    // cover a fitted design: fit again while the view is where Fit left it.
    for (auto sig : {&TopologyScene::linkHeatChanged, &TopologyScene::rankColouringChanged})
        connect(scene, sig, this, [this] {
            QTimer::singleShot(0, this, [this] {
                if (stillFitted())
                    fitAll();
            });
        });
}

TopologyView::~TopologyView() = default;

DesignDocument *TopologyView::document() const
{
    return m_scene->document();
}

void TopologyView::setToolKind(ToolKind kind)
{
    if (m_tool)
        m_tool->cancel();
    m_toolKind = kind;
    if (kind == ToolKind::Connect)
        m_tool = std::make_unique<ConnectTool>(this);
    else
        m_tool = std::make_unique<SelectTool>(this);
    viewport()->setCursor(m_tool->cursor());
}

void TopologyView::scaleBy(double factor)
{
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    factor = target / zoom();
    if (std::abs(factor - 1) < 1e-9)
        return;
    scale(factor, factor);
    emit zoomChanged(zoom());
    announceMove();
}

void TopologyView::zoomIn()
{
    const ViewportAnchor a = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    scaleBy(1.25);
    setTransformationAnchor(a);
}

void TopologyView::zoomOut()
{
    const ViewportAnchor a = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    scaleBy(1 / 1.25);
    setTransformationAnchor(a);
}

void TopologyView::setZoom(double factor)
{
    const ViewportAnchor a = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    scaleBy(factor / zoom());
    setTransformationAnchor(a);
}

void TopologyView::fitAll()
{
    if (!topologyScene())
        return;
    const QRectF r = m_scene->contentBounds();
    if (r.isEmpty())
        return;
    // The legends sit in the corners: fit the design below or above them or between them,
    // whichever shows it larger, so that they cover none of it. The air around the design is
    // counted in pixels: a margin in scene units vanishes at the zoom of a large fabric (40
    // units are one pixel at 2.8%, and the 16k example touched the viewport's edge).
    constexpr double kAir = 16;
    const QRectF content = r;
    const QRectF vp = viewport()->rect();
    std::vector<QRectF> targets;
    for (const QRect &t : LegendLayout::clearAreas(viewport()->rect(), legendRects()))
        targets.push_back(QRectF(t));
    const auto zoomIn = [&content](const QRectF &t) {
        return std::min((t.width() - 2 * kAir) / content.width(),
                        (t.height() - 2 * kAir) / content.height());
    };
    QRectF best;
    double bestZoom = 0;
    for (const QRectF &t : targets) {
        if (t.width() < 50 + 2 * kAir || t.height() < 50 + 2 * kAir)
            continue;
        if (const double z = zoomIn(t); z > bestZoom) {
            bestZoom = z;
            best = t;
        }
    }
    if (bestZoom <= 0) { // a window too small for the legends and the design: fit anyway
        best = vp;
        const double z = zoomIn(vp);
        bestZoom
            = z > 0 ? z : std::min(vp.width() / content.width(), vp.height() / content.height());
    }
    // A tiny design should not fill the screen with giant boxes.
    setZoom(std::min(bestZoom, 1.5));
    const QPointF offset = (best.center() - vp.center()) / zoom();
    centerOn(content.center() - offset);
    m_fitted = true;
    m_fitTransform = transform();
    m_fitCentre = mapToScene(viewport()->rect().center());
    emit zoomChanged(zoom());
    announceMove();
}

bool TopologyView::stillFitted() const
{
    // Within a pixel or two of where Fit left it: a dock or a scroll bar that comes or goes
    // when a result arrives moves the viewport's centre by a fraction of a pixel, which is
    // many scene units at the zoom of a large fabric, and is no move of the user's.
    if (!m_fitted || transform().m11() != m_fitTransform.m11()
        || transform().m22() != m_fitTransform.m22())
        return false;
    const QPointF moved = mapToScene(viewport()->rect().center()) - m_fitCentre;
    return std::abs(moved.x()) * zoom() <= 2 && std::abs(moved.y()) * zoom() <= 2;
}

LegendRects TopologyView::legendRects() const
{
    const QPoint origin = viewport()->pos(); // the legends are children of the view
    const auto rectOf = [origin](const QWidget *w) {
        return w && !w->isHidden() ? QRect(w->pos() - origin, w->size()) : QRect();
    };
    return {rectOf(m_rankLegend), rectOf(m_heatLegend), rectOf(m_faultLegend)};
}

void TopologyView::arrangeLegends()
{
    if (m_arranging || !m_rankLegend || !m_heatLegend || !m_faultLegend || !topologyScene())
        return;
    m_arranging = true;
    const QSize vp = viewport()->size();
    const bool crowded = LegendLayout::crowded(
        vp, {m_rankLegend->fullSize(), m_heatLegend->fullSize(), m_faultLegend->fullSize()});
    m_rankLegend->setCompact(crowded);
    m_heatLegend->setCompact(crowded);
    m_faultLegend->setCompact(crowded);
    const auto shown = [](const QWidget *w) { return w->isHidden() ? QSize() : w->size(); };
    const LegendRects at
        = LegendLayout::place(vp, {shown(m_rankLegend), shown(m_heatLegend), shown(m_faultLegend)});
    const QPoint origin = viewport()->pos();
    for (const auto &[w, r] : {std::pair<QWidget *, QRect> {m_rankLegend, at.rank},
                               {m_heatLegend, at.heat},
                               {m_faultLegend, at.fault}})
        if (!r.isNull()) {
            w->move(origin + r.topLeft());
            w->raise();
        }
    m_arranging = false;
}

void TopologyView::zoomToSelection()
{
    if (!topologyScene())
        return;
    const QRectF r = m_scene->boundsOf(document()->selection());
    if (r.isEmpty())
        return;
    fitInView(r.adjusted(-60, -60, 60, 60), Qt::KeepAspectRatio);
    if (zoom() > 2)
        setZoom(2);
    emit zoomChanged(zoom());
    announceMove();
}

void TopologyView::mousePressEvent(QMouseEvent *event)
{
    const bool pan = event->button() == Qt::MiddleButton || event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && m_spaceHeld);
    if (pan) {
        m_panning = true;
        m_panLast = event->position().toPoint();
        m_panStart = m_panLast;
        m_panButton = event->button();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    if (event->button() == Qt::LeftButton)
        m_tool->press(event, mapToScene(event->position().toPoint()));
    event->accept();
}

void TopologyView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPoint d = event->position().toPoint() - m_panLast;
        m_panLast = event->position().toPoint();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        return;
    }
    if (event->buttons() & Qt::LeftButton)
        m_tool->move(event, mapToScene(event->position().toPoint()));
}

void TopologyView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning) {
        m_panning = false;
        viewport()->setCursor(m_spaceHeld ? QCursor(Qt::OpenHandCursor) : m_tool->cursor());
        const QPoint at = event->position().toPoint();
        if (m_panButton == Qt::RightButton && event->button() == Qt::RightButton
            && (at - m_panStart).manhattanLength() < 4 && topologyScene()) {
            QMenu *menu = contextMenuAt(at); // a click, not a drag
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(viewport()->mapToGlobal(at));
        }
        return;
    }
    if (event->button() == Qt::LeftButton)
        m_tool->release(event, mapToScene(event->position().toPoint()));
}

void TopologyView::mouseDoubleClickEvent(QMouseEvent *event)
{
    // Double-click a domain (box or frame) to expand or collapse it.
    const CanvasHit hit = m_scene->hitAt(mapToScene(event->position().toPoint()), 0);
    GroupId g = hit.group;
    if (!g.valid() && hit.node.valid())
        g = document()->design().node(hit.node)->group;
    if (const Group *group = document()->design().group(g);
        group && group->kind == GroupKind::ScaleUpDomain)
        document()->setCollapsed(g, !group->collapsed);
}

void TopologyView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        scaleBy(std::pow(1.2, steps));
    event->accept();
}

void TopologyView::keyPressEvent(QKeyEvent *event)
{
    if (!topologyScene())
        return;
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = true;
        viewport()->setCursor(Qt::OpenHandCursor);
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        m_tool->cancel();
        document()->setSelection({});
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void TopologyView::keyReleaseEvent(QKeyEvent *event)
{
    if (!topologyScene())
        return;
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        viewport()->setCursor(m_tool->cursor());
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void TopologyView::dragEnterEvent(QDragEnterEvent *event)
{
    if (catalogItemFrom(event->mimeData()) || rankGroupFrom(event->mimeData()))
        event->acceptProposedAction();
    else
        event->ignore(); // e.g. a .weft file: the main window opens it
}

void TopologyView::dragMoveEvent(QDragMoveEvent *event)
{
    if (rankGroupFrom(event->mimeData())
        && groupDropTargets(*m_scene, mapToScene(event->position().toPoint())).empty())
        event->ignore(); // a group lands only on accelerators or a domain
    else if (catalogItemFrom(event->mimeData()) || rankGroupFrom(event->mimeData()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void TopologyView::dropEvent(QDropEvent *event)
{
    if (const auto group = rankGroupFrom(event->mimeData())) {
        QString error;
        const auto targets = groupDropTargets(*m_scene, mapToScene(event->position().toPoint()));
        if (!document()->placeGroup(*group, targets, &error))
            emit message(error);
        event->acceptProposedAction();
        return;
    }
    const auto item = catalogItemFrom(event->mimeData());
    if (!item) {
        event->ignore();
        return;
    }
    QPointF pos = mapToScene(event->position().toPoint());
    const CanvasHit hit = m_scene->hitAt(pos, 0);
    GroupId into = hit.group;
    if (!into.valid() && hit.node.valid())
        into = document()->design().node(hit.node)->group;
    if (!(event->modifiers() & Qt::AltModifier))
        pos = QPointF(std::round(pos.x() / layout::kGrid) * layout::kGrid,
                      std::round(pos.y() / layout::kGrid) * layout::kGrid);
    QString error;
    if (document()->addFromCatalog(*item, pos, into, &error).empty())
        emit message(error);
    event->acceptProposedAction();
}

void TopologyView::drawBackground(QPainter *painter, const QRectF &exposed)
{
    painter->fillRect(exposed, m_scene->style().background);
    // render() may pass an unbounded rectangle: draw the grid over the visible area only.
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const QRectF rect = exposed.intersected(visible);
    if (zoom() < 0.6 || !rect.isValid() || visible.width() * visible.height() > 4e6)
        return;
    // Dotted snap grid (every 4th grid step), only where it is legible.
    const double step = layout::kGrid * 4;
    QPen pen(m_scene->style().grid, 2);
    pen.setCosmetic(true);
    painter->setPen(pen);
    std::vector<QPointF> dots;
    for (double x = std::floor(rect.left() / step) * step; x < rect.right(); x += step)
        for (double y = std::floor(rect.top() / step) * step; y < rect.bottom(); y += step)
            dots.emplace_back(x, y);
    painter->drawPoints(dots.data(), int(dots.size()));
}

TopologyScene *TopologyView::topologyScene() const
{
    return scene() ? m_scene.data() : nullptr;
}

void TopologyView::announceMove()
{
    if (scene())
        emit viewportMoved();
}

void TopologyView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    announceMove();
}

bool TopologyView::viewportEvent(QEvent *event)
{
    if (!topologyScene())
        return true; // detached: no painting, no input (every handler needs the scene)
    if (event->type() != QEvent::ToolTip)
        return QGraphicsView::viewportEvent(event);
    const auto *help = static_cast<QHelpEvent *>(event);
    const LinkHeat &heat = m_scene->linkHeat();
    QString text;
    if (heat.result()) {
        const CanvasHit hit = m_scene->hitAt(mapToScene(help->pos()), 4.0 / zoom());
        if (!hit.node.valid() && !hit.group.valid() && !hit.links.empty())
            text = heat.toolTip(m_scene->document()->design(), hit.links);
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, viewport());
    return true;
}

void TopologyView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    m_minimap->reposition();
    arrangeLegends();
    announceMove();
}

void TopologyView::changeEvent(QEvent *event)
{
    if (topologyScene()
        && (event->type() == QEvent::PaletteChange
            || event->type() == QEvent::ApplicationPaletteChange)) {
        m_scene->setStylePalette(palette());
        viewport()->update();
    }
    QGraphicsView::changeEvent(event);
}

QMenu *TopologyView::contextMenuAt(QPoint pos)
{
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("CanvasMenu"));
    if (!topologyScene())
        return menu;
    const CanvasHit hit = m_scene->hitAt(mapToScene(pos), 4.0 / zoom());
    FaultMenu::populate(menu, document(), hit, m_prompt,
                        [this](const QString &text) { emit message(text); });
    return menu;
}

void TopologyView::contextMenuEvent(QContextMenuEvent *event)
{
    event->accept();
    if (event->reason() != QContextMenuEvent::Keyboard || !topologyScene())
        return; // the mouse: on release (mouseReleaseEvent)
    const QPoint under = viewport()->mapFromGlobal(QCursor::pos());
    const QPoint at = viewport()->rect().contains(under) ? under : viewport()->rect().center();
    QMenu *menu = contextMenuAt(at);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(viewport()->mapToGlobal(at));
}

void TopologyView::storeViewState(ViewState &view) const
{
    view.zoom = zoom();
    const QPointF c = mapToScene(viewport()->rect().center());
    view.centerX = c.x();
    view.centerY = c.y();
}

void TopologyView::restoreViewState(const ViewState &v)
{
    QTimer::singleShot(0, this, [this, v] {
        if (v.zoom > 0 && (v.centerX != 0 || v.centerY != 0)) {
            setZoom(v.zoom);
            centerOn(v.centerX, v.centerY);
        } else {
            fitAll();
        }
    });
}

} // namespace weft
