#include "gui/canvas/linklayer.h"

#include "document/designdocument.h"
#include "gui/canvas/topologyscene.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <cmath>
#include <unordered_map>

namespace weft {

LinkLayer::LinkLayer(const DesignDocument *doc, EndpointFn endpoint)
    : m_doc(doc), m_endpoint(std::move(endpoint))
{
    setZValue(1);
    setFlag(ItemUsesExtendedStyleOption); // exposedRect for culling
}

void LinkLayer::invalidate()
{
    m_dirty = true;
    update();
}

void LinkLayer::setExtent(const QRectF &rect)
{
    prepareGeometryChange();
    m_extent = rect;
}

std::size_t LinkLayer::bundleCount() const
{
    rebuild();
    return m_bundles.size();
}

void LinkLayer::rebuild() const
{
    if (!m_dirty)
        return;
    m_dirty = false;
    m_bundles.clear();
    const Design &d = m_doc->design();
    struct PairHash
    {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t> &p) const
        {
            return std::hash<std::uint64_t>{}(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
        }
    };
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::size_t, PairHash> index;
    index.reserve(d.links().size() / 2);
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
    }
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
        const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(pos - b.line.p1(), d) / len2, 0.0, 1.0)
                                  : 0.0;
        const QPointF q = b.line.p1() + t * d;
        const double dist = std::hypot(pos.x() - q.x(), pos.y() - q.y());
        if (dist <= bestDist) {
            bestDist = dist;
            best = &b;
        }
    }
    return best ? best->links : std::vector<LinkId>{};
}

void LinkLayer::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    rebuild();
    const auto *sc = static_cast<const TopologyScene *>(scene());
    if (!sc)
        return;
    const CanvasStyle &st = sc->style();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF exposed = option->exposedRect;
    const IdSet &sel = m_doc->selection();
    // Buckets: [scaleUp][bundled] plus selected; one drawLines call per bucket.
    std::vector<QLineF> lines[2][2];
    std::vector<QLineF> selected;
    std::vector<const Bundle *> labelled;
    for (const Bundle &b : m_bundles) {
        if (!b.box.intersects(exposed))
            continue;
        const bool isSel = !sel.links.empty() && sel.links.count(b.links.front());
        if (isSel)
            selected.push_back(b.line);
        else
            lines[b.scaleUp][b.links.size() > 1].push_back(b.line);
        if (b.links.size() > 1 && lod >= kLabelZoom)
            labelled.push_back(&b);
    }
    painter->save();
    // Thin lines at low zoom are sub-pixel anyway; antialiasing them costs time, not quality.
    painter->setRenderHint(QPainter::Antialiasing, lod >= 0.5);
    for (int s = 0; s < 2; ++s)
        for (int bundled = 0; bundled < 2; ++bundled) {
            if (lines[s][bundled].empty())
                continue;
            QPen pen(s ? st.scaleUpLink : st.link, bundled ? 2.5 : 1.0);
            pen.setCosmetic(true);
            painter->setPen(pen);
            painter->drawLines(lines[s][bundled].data(), int(lines[s][bundled].size()));
        }
    if (!selected.empty()) {
        QPen pen(st.selection, 3.0);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawLines(selected.data(), int(selected.size()));
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
