#include "gui/canvas/rankcolouring.h"

#include "model/design.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace weft {

namespace {

QString trc(const char *text)
{
    return QCoreApplication::translate("RankColouring", text);
}

} // namespace

void RankColouring::recompute(const Design &d)
{
    m_rank.clear();
    m_stage.clear();
    m_replica.clear();
    m_tpGroup.clear();
    m_stages = m_replicas = m_tpGroups = 0;
    if (!d.workload)
        return;
    std::vector<Finding> findings;
    const RankMap rm(d, d.workload->config, d.workload->placement, findings);
    if (!rm.valid())
        return;
    for (int r = 0; r < rm.worldSize(); ++r)
        m_rank.emplace(rm.node(r), r);
    m_stage = groupIndexOfRanks(rm, RankGroupKind::Stage);
    m_replica = groupIndexOfRanks(rm, RankGroupKind::DpReplica);
    m_tpGroup = groupIndexOfRanks(rm, RankGroupKind::Tp);
    const auto count = [](const std::vector<int> &v) {
        return v.empty() ? 0 : *std::max_element(v.begin(), v.end()) + 1;
    };
    m_stages = count(m_stage);
    m_replicas = count(m_replica);
    m_tpGroups = count(m_tpGroup);
}

int RankColouring::rank(NodeId id) const
{
    auto it = m_rank.find(id);
    return it == m_rank.end() ? -1 : it->second;
}

const std::vector<int> *RankColouring::indexOfMode() const
{
    switch (m_mode) {
    case Mode::None:
        return nullptr;
    case Mode::Stage:
        return &m_stage;
    case Mode::DpReplica:
        return &m_replica;
    case Mode::TpGroup:
        return &m_tpGroup;
    }
    return nullptr;
}

int RankColouring::groupOf(NodeId id) const
{
    const std::vector<int> *index = indexOfMode();
    const int r = rank(id);
    if (!index || r < 0 || std::size_t(r) >= index->size())
        return -1;
    return (*index)[std::size_t(r)];
}

int RankColouring::groupCount() const
{
    switch (m_mode) {
    case Mode::None:
        return 0;
    case Mode::Stage:
        return m_stages;
    case Mode::DpReplica:
        return m_replicas;
    case Mode::TpGroup:
        return m_tpGroups;
    }
    return 0;
}

bool RankColouring::needsLabels() const
{
    return groupCount() > int(palette(m_dark).size());
}

QString RankColouring::groupLabel(NodeId id) const
{
    const int g = groupOf(id);
    if (g < 0)
        return {};
    const char *prefix = m_mode == Mode::Stage ? "S" : m_mode == Mode::DpReplica ? "R" : "T";
    return QLatin1String(prefix) + QString::number(g);
}

QColor RankColouring::groupColour(int g, int groups, bool dark)
{
    const auto &p = palette(dark);
    if (groups <= int(p.size()))
        return p[std::size_t(g) % p.size()];
    return sequential(groups > 1 ? double(g) / (groups - 1) : 0, dark);
}

QColor RankColouring::colour(NodeId id) const
{
    const int g = groupOf(id);
    return g < 0 ? QColor() : groupColour(g, groupCount(), m_dark);
}

std::vector<RankColouring::LegendEntry> RankColouring::legend() const
{
    const int groups = groupCount();
    if (groups == 0)
        return {};
    const auto &p = palette(m_dark);
    const QString name = m_mode == Mode::Stage ? trc("Stage")
        : m_mode == Mode::DpReplica            ? trc("Replica")
                                               : trc("TP group");
    std::vector<LegendEntry> out;
    const int rows = std::min<int>(groups, int(p.size()));
    for (int r = 0; r < rows; ++r) {
        // Beyond the palette: evenly spread samples of the scale, first and last included.
        const int g = groups <= rows ? r : int(std::lround(double(r) * (groups - 1) / (rows - 1)));
        out.push_back(
            {groupColour(g, groups, m_dark), name + QLatin1Char(' ') + QString::number(g)});
    }
    return out;
}

QString RankColouring::legendTitle() const
{
    switch (m_mode) {
    case Mode::None:
        return {};
    case Mode::Stage:
        return trc("Pipeline stage");
    case Mode::DpReplica:
        return trc("DP replica");
    case Mode::TpGroup:
        return trc("TP group");
    }
    return {};
}

const std::vector<QColor> &RankColouring::palette(bool dark)
{
    // Paul Tol, "Colour schemes and templates" (2021): qualitative schemes distinguishable under
    // the common colour-vision deficiencies. Muted suits light backgrounds; light (made for
    // labels with black text) keeps its contrast on a dark canvas; pear and olive are not
    // neighbours there, as neighbouring indices often sit in neighbouring domains.
    static const std::vector<QColor> muted {
        QColor(0xcc, 0x66, 0x77), QColor(0x33, 0x22, 0x88), QColor(0xdd, 0xcc, 0x77),
        QColor(0x11, 0x77, 0x33), QColor(0x88, 0xcc, 0xee), QColor(0x88, 0x22, 0x55),
        QColor(0x44, 0xaa, 0x99), QColor(0x99, 0x99, 0x33), QColor(0xaa, 0x44, 0x99)};
    static const std::vector<QColor> light {
        QColor(0x77, 0xaa, 0xdd), QColor(0xee, 0x88, 0x66), QColor(0xee, 0xdd, 0x88),
        QColor(0xff, 0xaa, 0xbb), QColor(0x99, 0xdd, 0xff), QColor(0x44, 0xbb, 0x99),
        QColor(0xbb, 0xcc, 0x33), QColor(0xdd, 0xdd, 0xdd), QColor(0xaa, 0xaa, 0x00)};
    return dark ? light : muted;
}

QColor RankColouring::sequential(double t, bool dark)
{
    // viridis at 0, 1/8, ..., 1 (matplotlib's _cm_listed.py), linearly interpolated.
    static const QColor stops[]
        = {QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2c, 0x7a), QColor(0x3b, 0x51, 0x8b),
           QColor(0x2c, 0x71, 0x8e), QColor(0x21, 0x90, 0x8d), QColor(0x27, 0xad, 0x81),
           QColor(0x5c, 0xc8, 0x63), QColor(0xaa, 0xdc, 0x32), QColor(0xfd, 0xe7, 0x25)};
    constexpr double kFrom[2] = {0.0, 0.2}, kTo[2] = {0.9, 1.0}; // light, dark canvas
    const double u = kFrom[dark] + std::clamp(t, 0.0, 1.0) * (kTo[dark] - kFrom[dark]);
    const double x = u * 8;
    const int i = std::min(7, int(x));
    const double f = x - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
                            float(a.greenF() + f * (b.greenF() - a.greenF())),
                            float(a.blueF() + f * (b.blueF() - a.blueF())));
}

QColor RankColouring::textOn(const QColor &fill)
{
    // Relative luminance (ITU-R BT.709 weights) above ~0.45 reads better with black text.
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace weft
