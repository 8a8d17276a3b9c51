#include "gui/canvas/linkheat.h"

#include "gui/tierlabel.h"

#include <QLocale>
#include <algorithm>
#include <array>
#include <cmath>

namespace weft {

namespace {

// matplotlib's viridis at 0, 1/8, ..., 1.
constexpr std::array<QRgb, 9> kViridis {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                        0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};

QString bytesText(double bytes)
{
    return QLocale::system().formattedDataSize(static_cast<qint64>(bytes), 1,
                                               QLocale::DataSizeSIFormat);
}

QString percent(double u)
{
    return QStringLiteral("%1%").arg(u * 100, 0, 'f', 1);
}

QString nodeName(const Design &design, NodeId id)
{
    const Node *n = design.node(id);
    return n ? QString::fromStdString(n->name).toHtmlEscaped() : QStringLiteral("?");
}

} // namespace

void LinkHeat::setResult(std::shared_ptr<const SimResult> result, bool stale)
{
    m_result = std::move(result);
    m_stale = stale;
    m_index.clear();
    m_highlight.clear();
    m_highlightGroup = nullptr;
    if (!m_result)
        return;
    m_index.reserve(m_result->links.size());
    for (std::size_t i = 0; i < m_result->links.size(); ++i)
        m_index.emplace(m_result->links[i].id, i);
}

const LinkResult *LinkHeat::link(LinkId id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &m_result->links[it->second];
}

double LinkHeat::utilization(LinkId id) const
{
    const LinkResult *l = link(id);
    return l ? std::max(l->dir[0].avgUtilization, l->dir[1].avgUtilization) : -1.0;
}

QColor LinkHeat::colour(double u)
{
    return scaleColour(scalePosition(u));
}

double LinkHeat::scalePosition(double u)
{
    return std::sqrt(std::clamp(u, 0.0, 1.0));
}

QColor LinkHeat::scaleColour(double t)
{
    const double x = std::clamp(t, 0.0, 1.0) * (kViridis.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(x), kViridis.size() - 2);
    const double f = x - static_cast<double>(i);
    const QColor a(kViridis[i]), b(kViridis[i + 1]);
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
                            float(a.greenF() + f * (b.greenF() - a.greenF())),
                            float(a.blueF() + f * (b.blueF() - a.blueF())));
}

double LinkHeat::width(double capacity)
{
    if (capacity <= 0)
        return 1.0;
    return std::clamp(1.0 + std::log2(capacity / 50e9), 1.0, 4.0);
}

const GroupTraffic *LinkHeat::highlightGroup(const std::set<NodeId> &nodes)
{
    m_highlight.clear();
    m_highlightGroup = nullptr;
    if (!m_result || nodes.size() < 2)
        return nullptr;
    for (const GroupTraffic &g : m_result->groups) {
        if (g.members.size() != nodes.size()
            || !std::all_of(g.members.begin(), g.members.end(),
                            [&](NodeId n) { return nodes.count(n) != 0; }))
            continue;
        m_highlightGroup = &g;
        m_highlight.insert(g.links.begin(), g.links.end());
        return &g;
    }
    return nullptr;
}

QString LinkHeat::trafficText(const Design &design, LinkId id) const
{
    const LinkResult *l = link(id);
    if (!l)
        return {};
    QStringList lines;
    for (int d = 0; d < 2; ++d) {
        const LinkDirResult &r = l->dir[d];
        lines << QObject::tr("%1 → %2: %3 moved, utilization average %4, peak %5")
                     .arg(nodeName(design, d ? l->to : l->from),
                          nodeName(design, d ? l->from : l->to), bytesText(r.bytes),
                          percent(r.avgUtilization), percent(r.peakUtilization));
    }
    return lines.join(QStringLiteral("<br>"));
}

QString LinkHeat::toolTip(const Design &design, const std::vector<LinkId> &links) const
{
    const auto name = [&](NodeId id) { return nodeName(design, id); };
    QString html;
    int listed = 0;
    for (LinkId id : links) {
        const LinkResult *l = link(id);
        if (!l)
            continue;
        if (++listed > 8) {
            html += QObject::tr("<p>… and %1 more links</p>").arg(links.size() - 8);
            break;
        }
        html += QObject::tr("<p><b>%1 ↔ %2</b> (%3)<br>capacity %4 GB/s (%5 Gb/s) per direction")
                    .arg(name(l->from), name(l->to), tierLabel(QString::fromStdString(l->tier)))
                    .arg(l->capacity / 1e9, 0, 'f', 1)
                    .arg(l->capacity * 8 / 1e9, 0, 'f', 0);
        html += QStringLiteral("<br>%1</p>").arg(trafficText(design, id));
    }
    if (listed == 0)
        return {};
    if (m_stale)
        html += QObject::tr("<p><i>The design changed after this simulation.</i></p>");
    return html;
}

} // namespace weft
