#include "gui/canvas/linklayer.h"

#include "document/designdocument.h"
#include "document/faultedit.h"
#include "gui/canvas/linkcrossings.h"
#include "gui/canvas/linkheat.h"
#include "gui/canvas/linkports.h"
#include "gui/canvas/topologyscene.h"

#include <QGraphicsView>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace weft {

namespace {

struct PenSpec
{
    QColor colour;
    double width;
};

// Without a result: tier colour, 2 px for bundles of parallel links.
PenSpec plainPen(const LinkLayer::Bundle &b, const CanvasStyle &st)
{
    return {b.scaleUp ? st.scaleUpLink : st.link, b.links.size() > 1 ? 2.0 : 1.0};
}

// With a result: the busiest link of the bundle on the utilization scale, width by capacity;
// idle links faint; everything outside a highlighted group dimmed.
PenSpec heatPen(const LinkLayer::Bundle &b, const LinkHeat &heat, const CanvasStyle &st)
{
    double u = -1, capacity = 0;
    bool inGroup = false;
    for (LinkId id : b.links) {
        u = std::max(u, heat.utilization(id));
        if (const LinkResult *l = heat.link(id))
            capacity = std::max(capacity, l->capacity);
        inGroup = inGroup || heat.highlighted(id);
    }
    QColor colour
        = u > 0 ? LinkHeat::scaleColour(std::round(LinkHeat::scalePosition(u) * 31) / 31) : st.link;
    double width = LinkHeat::width(capacity);
    if (u <= 0)
        colour.setAlphaF(0.45f);
    if (heat.hasHighlight() && !inGroup) {
        colour = st.mutedText;
        colour.setAlphaF(0.18f);
    } else if (heat.hasHighlight()) {
        width += 1;
    }
    return {colour, width};
}

// The part of `l` inside `r` (Liang-Barsky); a null line when it misses.
QLineF clipToRect(const QLineF &l, const QRectF &r)
{
    double t0 = 0, t1 = 1;
    const double p[4] = {-l.dx(), l.dx(), -l.dy(), l.dy()};
    const double q[4]
        = {l.x1() - r.left(), r.right() - l.x1(), l.y1() - r.top(), r.bottom() - l.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return {};
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    return t1 > t0 ? QLineF(l.pointAt(t0), l.pointAt(t1)) : QLineF();
}

} // namespace

LinkLayer::LinkLayer(const DesignDocument *doc, EndpointFn endpoint)
    : m_doc(doc)
    , m_endpoint(std::move(endpoint))
{
    setZValue(1);
    setFlag(ItemUsesExtendedStyleOption); // exposedRect for culling
    m_rerender = new QTimer;
    m_rerender->setSingleShot(true);
    m_rerender->setInterval(150);
    QObject::connect(m_rerender, &QTimer::timeout, m_rerender, [this] { refresh(); });
}

LinkLayer::~LinkLayer()
{
    delete m_rerender;
}

void LinkLayer::invalidate()
{
    m_dirty = true;
    refresh();
}

void LinkLayer::refresh()
{
    m_cache = QImage();
    update();
    if (m_overlay)
        m_overlay->update();
}

void LinkLayer::setExtent(const QRectF &rect)
{
    prepareGeometryChange();
    m_extent = rect;
    if (m_overlay)
        m_overlay->setExtent(rect);
}

std::size_t LinkLayer::bundleCount() const
{
    rebuild();
    return m_bundles.size();
}

const std::vector<LinkLayer::Bundle> &LinkLayer::bundles() const
{
    rebuild();
    return m_bundles;
}

void LinkLayer::rebuild() const
{
    if (!m_dirty)
        return;
    m_dirty = false;
    m_bundles.clear();
    m_crossings.clear();
    const Design &d = m_doc->design();
    struct PairHash
    {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t> &p) const
        {
            return std::hash<std::uint64_t> {}(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
        }
    };
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::size_t, PairHash> index;
    index.reserve(d.links().size() / 2);
    struct Box
    {
        QRectF rect;
        LinkPorts ports;
        std::vector<std::pair<std::size_t, bool>> ends; ///< bundle, and whether its p1 is here
    };
    std::unordered_map<std::uint64_t, Box> boxes;
    for (const Link &l : d.links()) {
        Endpoint a = m_endpoint(l.a);
        Endpoint b = m_endpoint(l.b);
        if (a.key == b.key) // both ends inside one collapsed domain
            continue;
        if (a.key > b.key)
            std::swap(a, b);
        auto [it, fresh] = index.try_emplace({a.key, b.key}, m_bundles.size());
        if (fresh) {
            Bundle bundle;
            bundle.line = QLineF(a.pos, b.pos);
            bundle.keys[0] = a.key;
            bundle.keys[1] = b.key;
            bundle.box = QRectF(a.pos, b.pos).normalized().adjusted(-1, -1, 1, 1);
            const LinkTechSpec *tech = d.linkTech(l);
            bundle.scaleUp = tech
                && (tech->technology == Technology::NVLink
                    || tech->technology == Technology::InfinityFabric);
            m_bundles.push_back(std::move(bundle));
        }
        Bundle &bundle = m_bundles[it->second];
        bundle.links.push_back(l.id);
        bundle.lanes += l.lanes;
        if (fresh)
            for (const auto &[end, other, p1] :
                 {std::tuple {&a, &b, true}, std::tuple {&b, &a, false}})
                if (!end->box.isEmpty()) {
                    Box &box = boxes.try_emplace(end->key, Box {end->box, {}, {}}).first->second;
                    box.ports.add(other->pos);
                    box.ends.emplace_back(it->second, p1);
                }
    }
    // Lines of collapsed boxes end on the boxes' sides, not under them (LinkPorts).
    for (const auto &[key, box] : boxes) {
        const std::vector<QPointF> at = box.ports.place(box.rect);
        for (std::size_t i = 0; i < at.size(); ++i) {
            Bundle &b = m_bundles[box.ends[i].first];
            if (box.ends[i].second)
                b.line.setP1(at[i]);
            else
                b.line.setP2(at[i]);
            b.box = QRectF(b.line.p1(), b.line.p2()).normalized().adjusted(-1, -1, 1, 1);
        }
    }
    std::vector<std::pair<std::uint64_t, QRectF>> rects;
    rects.reserve(boxes.size());
    for (const auto &[key, box] : boxes)
        rects.emplace_back(key, box.rect);
    findCrossings(rects);
}

void LinkLayer::findCrossings(const std::vector<std::pair<std::uint64_t, QRectF>> &boxes) const
{
    if (m_bundles.size() > kWholeLines) // long lines are stubs: they cross nothing
        return;
    for (std::size_t i = 0; i < m_bundles.size(); ++i) {
        const Bundle &b = m_bundles[i];
        for (const auto &[key, rect] : boxes) {
            if (key == b.keys[0] || key == b.keys[1] || !b.box.intersects(rect))
                continue;
            if (const QLineF part = clipToRect(b.line, rect); part.length() > 0.5)
                m_crossings.push_back({part, i});
        }
    }
}

const std::vector<LinkLayer::Crossing> &LinkLayer::crossings() const
{
    rebuild();
    return m_crossings;
}

QPen LinkLayer::penOf(const Bundle &b) const
{
    const auto *sc = static_cast<const TopologyScene *>(scene());
    if (!sc)
        return {};
    const CanvasStyle &st = sc->style();
    const IdSet &sel = m_doc->selection();
    QPen pen
        = !sel.links.empty() && sel.links.count(b.links.front()) ? QPen(st.selection, 3.0) : [&] {
              const auto [colour, width]
                  = sc->linkHeat().active() ? heatPen(b, sc->linkHeat(), st) : plainPen(b, st);
              return QPen(colour, width);
          }();
    pen.setCosmetic(true);
    return pen;
}

std::vector<LinkId> LinkLayer::linksAt(QPointF pos, double tolerance) const
{
    rebuild();
    const Bundle *best = nullptr;
    double bestDist = tolerance;
    for (const Bundle &b : m_bundles) {
        if (!b.box.adjusted(-tolerance, -tolerance, tolerance, tolerance).contains(pos))
            continue;
        const QPointF d = b.line.p2() - b.line.p1();
        const double len2 = d.x() * d.x() + d.y() * d.y();
        const double t = len2 > 0
            ? std::clamp(QPointF::dotProduct(pos - b.line.p1(), d) / len2, 0.0, 1.0)
            : 0.0;
        const QPointF q = b.line.p1() + t * d;
        const double dist = std::hypot(pos.x() - q.x(), pos.y() - q.y());
        if (dist <= bestDist) {
            bestDist = dist;
            best = &b;
        }
    }
    return best ? best->links : std::vector<LinkId> {};
}

void LinkLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget)
{
    rebuild();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    auto *view = widget ? qobject_cast<QGraphicsView *>(widget->parentWidget()) : nullptr;
    if (!view) { // printing, export, tests: draw directly
        drawBundles(painter, option->exposedRect, lod);
        return;
    }
    const bool sameZoom = std::abs(lod / m_cacheLod - 1) < 1e-6;
    if (m_cache.isNull() || !m_cacheRect.contains(option->exposedRect)) {
        // Render the visible area plus a quarter viewport each side at the current zoom.
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        m_cacheRect = visible
                          .adjusted(-visible.width() / 4, -visible.height() / 4,
                                    visible.width() / 4, visible.height() / 4)
                          .intersected(m_extent);
        const qreal dpr = widget->devicePixelRatioF();
        const QSize size = (m_cacheRect.size() * lod * dpr).toSize();
        if (size.isEmpty() || size.width() > 8192 || size.height() > 8192) {
            m_cache = QImage();
            drawBundles(painter, option->exposedRect, lod);
            return;
        }
        m_cache = QImage(size, QImage::Format_ARGB32_Premultiplied);
        m_cache.fill(Qt::transparent);
        QPainter p(&m_cache);
        p.scale(lod * dpr, lod * dpr);
        p.translate(-m_cacheRect.topLeft());
        drawBundles(&p, m_cacheRect, lod);
        m_cacheLod = lod;
    } else if (!sameZoom) {
        m_rerender->start(); // zooming: show the scaled image now, sharp lines shortly
    }
    painter->drawImage(m_cacheRect, m_cache);
}

void LinkLayer::drawBundles(QPainter *painter, const QRectF &exposed, double lod) const
{
    const auto *sc = static_cast<const TopologyScene *>(scene());
    if (!sc)
        return;
    const CanvasStyle &st = sc->style();
    const IdSet &sel = m_doc->selection();
    // Level of detail, in screen pixels: (1) ends are snapped to 6-px cells (20 px in far views)
    // and lines that coincide after snapping are drawn once, so a far view of 50k bundles draws a
    // few thousand lines; (2) lines longer than 360 px are drawn as 120-px stubs at both ends
    // ("partial edge drawing", Bruckdorfer & Kaufmann, Graph Drawing 2012), which bounds the pixels
    // filled per line and leaves the view readable where thousands of uplinks cross it. Selected
    // bundles are always drawn whole.
    const double cell = (lod < 0.15 ? 20.0 : 6.0) / lod;
    const double longLine = 360.0 / lod;
    const double stub = 120.0 / lod;
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(4096);
    const auto cellOf = [cell](QPointF p) {
        return (std::uint64_t(std::uint32_t(std::int32_t(std::floor(p.x() / cell)))) << 32)
            | std::uint32_t(std::int32_t(std::floor(p.y() / cell)));
    };
    const LinkHeat &heat = sc->linkHeat();
    const bool heated = heat.active();
    // Lines are batched by pen: key = colour (ARGB) << 8 | width in half pixels.
    std::unordered_map<std::uint64_t, std::vector<QLineF>> lines;
    std::vector<QLineF> selected;
    std::vector<const Bundle *> labelled;
    // What-if faults: a bundle with a link down is drawn red, dashed and crossed at its middle;
    // the links of a switch that is down faint red and dashed; one with a degraded link (a cable
    // down, a lower rate) amber and dashed; over everything.
    const Design &design = m_doc->design();
    const IdSet faulted = design.scenario.empty() ? IdSet {} : faultSubjects(design);
    std::vector<QLineF> down, withSwitch, degraded; // withSwitch: links of a switch down
    for (const Bundle &b : m_bundles) {
        if (!b.box.intersects(exposed))
            continue;
        if (!faulted.empty()) {
            int worst = 0; // 1 degraded, 2 down with a switch that is down, 3 down itself
            for (const LinkId id : b.links) {
                if (faulted.links.count(id)) {
                    const Fault *f = faultOn(design, id);
                    worst = std::max(worst, f && f->kind == Fault::Kind::LinkDown ? 3 : 1);
                }
                if (!faulted.nodes.empty())
                    if (const Link *l = design.link(id))
                        for (const NodeId end : {l->a, l->b})
                            if (faulted.nodes.count(end))
                                if (const Fault *f = faultOn(design, end);
                                    f && f->kind == Fault::Kind::SwitchDown)
                                    worst = std::max(worst, 2);
            }
            if (worst) {
                (worst == 3 ? down : worst == 2 ? withSwitch : degraded).push_back(b.line);
                if (sel.links.empty() || !sel.links.count(b.links.front()))
                    continue;
            }
        }
        if (!sel.links.empty() && sel.links.count(b.links.front())) {
            selected.push_back(b.line);
            continue;
        }
        std::uint64_t ka = cellOf(b.line.p1()), kb = cellOf(b.line.p2());
        if (ka > kb)
            std::swap(ka, kb);
        if (!seen.insert(ka * 0x9E3779B97F4A7C15ull ^ (kb + (ka << 7))).second)
            continue;
        const auto [colour, width] = heated ? heatPen(b, heat, st) : plainPen(b, st);
        std::vector<QLineF> &out
            = lines[(std::uint64_t(colour.rgba()) << 8) | std::uint64_t(width * 2)];
        const double len = b.line.length();
        if (len > longLine && m_bundles.size() > kWholeLines) { // small designs: whole lines
            const QPointF dir = (b.line.p2() - b.line.p1()) / len * stub;
            for (const QLineF &part :
                 {QLineF(b.line.p1(), b.line.p1() + dir), QLineF(b.line.p2(), b.line.p2() - dir)})
                if (QRectF(part.p1(), part.p2())
                        .normalized()
                        .adjusted(-1, -1, 1, 1)
                        .intersects(exposed))
                    out.push_back(part);
        } else {
            out.push_back(b.line);
            if (b.links.size() > 1 && lod >= kLabelZoom)
                labelled.push_back(&b);
        }
    }
    painter->save();
    // Thin lines at low zoom are sub-pixel anyway; antialiasing them costs time, not quality.
    painter->setRenderHint(QPainter::Antialiasing, lod >= 0.5);
    // Dim and idle pens first, so hot links are drawn on top.
    std::vector<std::uint64_t> keys;
    keys.reserve(lines.size());
    for (const auto &entry : lines)
        keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end(), [](std::uint64_t a, std::uint64_t b) {
        return std::pair(qAlpha(QRgb(a >> 8)), a) < std::pair(qAlpha(QRgb(b >> 8)), b);
    });
    for (std::uint64_t key : keys) {
        const std::vector<QLineF> &batch = lines[key];
        QPen pen(QColor::fromRgba(QRgb(key >> 8)), double(key & 0xff) / 2);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLines(batch.data(), int(batch.size()));
    }
    if (!selected.empty()) {
        QPen pen(st.selection, 3.0);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLines(selected.data(), int(selected.size()));
    }
    QColor faintDown = st.faultDown;
    faintDown.setAlphaF(0.45f);
    for (const auto &[batch, colour, width, cross] :
         {std::tuple {&withSwitch, faintDown, 1.5, false},
          std::tuple {&degraded, st.faultDegraded, 2.5, false},
          std::tuple {&down, st.faultDown, 2.5, true}}) {
        if (batch->empty())
            continue;
        QPen pen(colour, width, Qt::DashLine);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLines(batch->data(), int(batch->size()));
        if (!cross)
            continue;
        QPen solid(colour, 2.5);
        solid.setCosmetic(true);
        painter->setPen(solid);
        const double r = 5.0 / lod; // a 10-px cross
        for (const QLineF &l : *batch) {
            const QPointF c = l.center();
            painter->drawLine(c + QPointF(-r, -r), c + QPointF(r, r));
            painter->drawLine(c + QPointF(-r, r), c + QPointF(r, -r));
        }
    }
    if (!labelled.empty() && labelled.size() < 2000) {
        QFont f = painter->font();
        f.setPointSizeF(7);
        painter->setFont(f);
        const QFontMetrics fm(f);
        for (const Bundle *b : labelled) {
            const QString text = QString::number(b->links.size());
            QRectF r = fm.boundingRect(text);
            r.adjust(-3, -1, 3, 1);
            r.moveCenter(b->line.center());
            painter->setPen(Qt::NoPen);
            painter->setBrush(st.background);
            painter->drawRoundedRect(r, 3, 3);
            painter->setPen(b->scaleUp ? st.scaleUpLink : st.frame);
            painter->drawText(r, Qt::AlignCenter, text);
        }
    }
    painter->restore();
}

} // namespace weft
