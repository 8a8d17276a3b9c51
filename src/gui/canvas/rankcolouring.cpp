#include "gui/canvas/rankcolouring.h"

#include "model/design.h"

#include <QCoreApplication>
#include <algorithm>

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

QColor RankColouring::colour(NodeId id) const
{
    const std::vector<int> *index = indexOfMode();
    const int r = rank(id);
    if (!index || r < 0 || std::size_t(r) >= index->size())
        return {};
    const auto &p = palette(m_dark);
    return p[std::size_t((*index)[std::size_t(r)]) % p.size()];
}

std::vector<RankColouring::LegendEntry> RankColouring::legend() const
{
    const std::vector<int> *index = indexOfMode();
    if (!index || index->empty())
        return {};
    const int groups = *std::max_element(index->begin(), index->end()) + 1;
    const auto &p = palette(m_dark);
    const int rows = std::min<int>(groups, int(p.size()));
    const QString name = m_mode == Mode::Stage ? trc("Stage")
        : m_mode == Mode::DpReplica            ? trc("Replica")
                                               : trc("TP group");
    const QString plural = m_mode == Mode::Stage ? trc("Stages")
        : m_mode == Mode::DpReplica              ? trc("Replicas")
                                                 : trc("TP groups");
    std::vector<LegendEntry> out;
    for (int c = 0; c < rows; ++c) {
        // Colours repeat every palette size: list the indices sharing one (at most three).
        QStringList ids;
        int count = 0;
        for (int g = c; g < groups; g += int(p.size()), ++count)
            if (count < 3)
                ids << QString::number(g);
        if (count > 3)
            ids << QStringLiteral("…");
        out.push_back(
            {p[std::size_t(c)],
             (count == 1 ? name : plural) + QLatin1Char(' ') + ids.join(QStringLiteral(", "))});
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

QColor RankColouring::textOn(const QColor &fill)
{
    // Relative luminance (ITU-R BT.709 weights) above ~0.45 reads better with black text.
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace weft
