#pragma once
// TopologyView: the canvas widget. Zoom (wheel, keys, fit, to selection), pan (middle or right
// drag, Space+drag), drops from the palette, the current Tool for the left button, and the
// context menu (a right click that does not drag; the Menu key): the what-if actions of
// FaultMenu on what is under the pointer.

#include "gui/canvas/fractionprompt.h"
#include "gui/canvas/legendlayout.h"
#include "gui/canvas/tools/tool.h"
#include "model/design.h"

#include <QGraphicsView>
#include <QPointer>

class QMenu;
#include <memory>

namespace weft {

class DesignDocument;
class FaultLegend;
class HeatLegend;
class Minimap;
class RankLegend;
class TopologyScene;

class TopologyView : public QGraphicsView
{
    Q_OBJECT
public:
    enum class ToolKind { Select, Connect };

    explicit TopologyView(TopologyScene *scene, QWidget *parent = nullptr);
    ~TopologyView() override;

    /// The scene shown, or nullptr once it has been detached or destroyed (QGraphicsScene's
    /// destructor detaches itself from its views while the view lives on, e.g. at window
    /// teardown). A view without its scene ignores input, paints nothing and announces no move.
    [[nodiscard]] TopologyScene *topologyScene() const;
    [[nodiscard]] DesignDocument *document() const;
    [[nodiscard]] double zoom() const { return transform().m11(); }
    [[nodiscard]] ToolKind toolKind() const { return m_toolKind; }
    [[nodiscard]] Tool *tool() const { return m_tool.get(); }
    [[nodiscard]] Minimap *minimap() const { return m_minimap; }
    [[nodiscard]] HeatLegend *heatLegend() const { return m_heatLegend; }
    [[nodiscard]] RankLegend *rankLegend() const { return m_rankLegend; }
    [[nodiscard]] FaultLegend *faultLegend() const { return m_faultLegend; }

    /// Places the legends (LegendLayout): in their corners, clear of each other, only their
    /// titles when at full size they would crowd the viewport. The legends call it when they
    /// change; the view on resizing.
    void arrangeLegends();

    /// The context menu for viewport point `pos` (owned by the caller; shown by a right click).
    [[nodiscard]] QMenu *contextMenuAt(QPoint pos);
    /// How degradations ask their fraction (tests replace the dialog).
    void setFractionPrompt(FractionPrompt prompt) { m_prompt = std::move(prompt); }

    /// Writes the zoom and the scene point at the viewport's centre into `view` (saved with
    /// the design).
    void storeViewState(ViewState &view) const;
    /// Shows `view` once the widget has its size (after show()): its zoom and centre, or the
    /// whole design when it has none.
    void restoreViewState(const ViewState &view);

public slots:
    void setToolKind(weft::TopologyView::ToolKind kind);
    void zoomIn();
    void zoomOut();
    /// Sets the zoom to `factor` (clamped to the usable range), keeping the centre.
    void setZoom(double factor);
    void fitAll();
    void zoomToSelection();

signals:
    /// A message for the user (refused connection, ...).
    void message(const QString &text);
    void zoomChanged(double zoom);
    void viewportMoved();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void keyReleaseEvent(QKeyEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent *event) override;
    /// A theme change restyles the scene (canvas colours follow the palette).
    void changeEvent(QEvent *event) override;
    /// The Menu key opens the context menu; a mouse right click opens it on release instead
    /// (the right button also pans).
    void contextMenuEvent(QContextMenuEvent *event) override;
    /// Tooltips: a link bundle shows its simulated traffic.
    bool viewportEvent(QEvent *event) override;

private:
    void scaleBy(double factor);
    /// Where the shown legends are, in viewport coordinates.
    [[nodiscard]] LegendRects legendRects() const;
    /// fitAll() ran and the view has not been zoomed or panned since.
    [[nodiscard]] bool stillFitted() const;
    /// Emits viewportMoved() while a scene is attached (none is during the scene's teardown).
    void announceMove();

    QPointer<TopologyScene> m_scene;
    ToolKind m_toolKind = ToolKind::Select;
    std::unique_ptr<Tool> m_tool;
    Minimap *m_minimap = nullptr;
    HeatLegend *m_heatLegend = nullptr;
    RankLegend *m_rankLegend = nullptr;
    bool m_fitted = false; ///< fitAll() ran; the view is fitted while it has not moved since
    QTransform m_fitTransform;
    QPointF m_fitCentre;
    bool m_spaceHeld = false;
    bool m_arranging = false; ///< in arrangeLegends(): the legends' resizing must not recurse
    FaultLegend *m_faultLegend = nullptr;
    FractionPrompt m_prompt = FractionDialog::ask;
    bool m_panning = false;
    QPoint m_panLast;
    QPoint m_panStart;
    Qt::MouseButton m_panButton = Qt::NoButton;
};

} // namespace weft
