// Canvas benchmark: builds the 16,384-GPU fabric, opens it in a document + scene + view, and
// renders the full view and zoomed views offscreen N times, printing ms per frame.
//   QT_QPA_PLATFORM=offscreen ./bench_gui_canvas [frames=20]
#include "canvasfixtures.h"
#include "document/designdocument.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/linklayer.h"
#include "gui/canvas/topologyscene.h"
#include "gui/canvas/topologyview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <cstdio>

using namespace weft;

namespace {

// Paints the whole viewport through its paintEvent (the on-screen path) into a pixmap.
double renderMs(TopologyView &view, int frames)
{
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < frames; ++i)
        (void)view.viewport()->grab();
    return double(t.nsecsElapsed()) / 1e6 / frames;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    const int frames = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
    QElapsedTimer t;
    t.start();
    Design design = fixtures::largeFabric();
    const double buildMs = t.nsecsElapsed() / 1e6;
    std::printf("fabric: %zu accelerators, %zu nodes, %zu links, %zu groups (built in %.0f ms)\n",
                design.acceleratorCount(), design.nodes().size(), design.links().size(),
                design.groups().size(), buildMs);

    t.restart();
    DesignDocument doc(builtinCatalog());
    doc.resetDesign(std::move(design));
    TopologyScene scene(&doc);
    TopologyView view(&scene);
    view.resize(1600, 1000);
    view.show();
    view.fitAll();
    std::printf(
        "open (document + scene + first bundles): %.0f ms; %zu scene items, %zu link bundles\n",
        t.nsecsElapsed() / 1e6 + 0.0, std::size_t(scene.items().size()),
        scene.linkLayer()->bundleCount());
    std::printf("content %.0f x %.0f at (%.0f, %.0f)\n", scene.contentBounds().width(),
                scene.contentBounds().height(), scene.contentBounds().left(),
                scene.contentBounds().top());
    const double first = renderMs(view, 1);
    std::printf("first full-view frame: %.1f ms\n", first);

    std::printf("full view (zoom %.4f): %.1f ms/frame over %d frames\n", view.zoom(),
                renderMs(view, frames), frames);
    view.setZoom(0.05);
    std::printf("zoom 0.05: %.1f ms/frame\n", renderMs(view, frames));
    view.setZoom(0.3);
    view.centerOn(scene.contentBounds().center());
    std::printf("zoom 0.3 (domains): %.1f ms/frame\n", renderMs(view, frames));
    view.setZoom(1.0);
    std::printf("zoom 1.0 (domains, labels): %.1f ms/frame\n", renderMs(view, frames));
    // The link image is re-rendered once a zoom gesture settles (and after edits): its cost.
    double rerender = 0;
    for (int i = 0; i < frames; ++i) {
        scene.linkLayer()->refresh();
        rerender += renderMs(view, 1);
    }
    std::printf("zoom 1.0 frame with link re-render: %.1f ms\n", rerender / frames);
    // Expand the first 64 domains (what a user looking closely would do) and render there.
    for (std::size_t i = 0; i < 64; ++i)
        doc.setCollapsed(doc.design().groups()[i].id, false);
    view.centerOn(scene.groupItem(doc.design().groups()[0].id)->sceneBoundingRect().center());
    std::printf("zoom 1.0 with 64 domains expanded: %.1f ms/frame\n", renderMs(view, frames));
    view.fitAll();
    std::printf("full view with 64 domains expanded: %.1f ms/frame\n", renderMs(view, frames));
    rerender = 0;
    for (int i = 0; i < frames; ++i) {
        scene.linkLayer()->refresh();
        rerender += renderMs(view, 1);
    }
    std::printf("full view frame with link re-render: %.1f ms\n", rerender / frames);
    // Pan: scroll by a viewport quarter per frame at zoom 0.3.
    view.setZoom(0.3);
    QElapsedTimer pan;
    pan.start();
    for (int i = 0; i < frames; ++i) {
        view.centerOn(view.mapToScene(view.viewport()->rect().center()) + QPointF(300, 0));
        renderMs(view, 1);
    }
    std::printf("pan at zoom 0.3: %.1f ms/frame\n", pan.nsecsElapsed() / 1e6 / frames);
    return 0;
}
