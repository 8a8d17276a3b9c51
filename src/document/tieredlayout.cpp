#include "document/tieredlayout.h"

#include <algorithm>
#include <cmath>

namespace weft {

int domainColumns(int members)
{
    if (members <= 8)
        return std::max(members, 4);
    return int(std::ceil(std::sqrt(2.0 * members)));
}

void placeDomainMembers(Design &design, const Group &group, QPointF origin)
{
    std::vector<NodeId> switches, accelerators;
    for (const NodeId id : group.members)
        if (const Node *n = design.node(id))
            (n->isSwitch() ? switches : accelerators).push_back(id);
    const int cols = domainColumns(int(accelerators.size()));
    double y = origin.y();
    for (const auto *list : {&switches, &accelerators}) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            Node *n = design.node((*list)[i]);
            const int col = int(i) % cols;
            const int row = int(i) / cols;
            n->x = origin.x() + col * layout::kStepX;
            n->y = y + row * layout::kStepY;
        }
        if (!list->empty())
            y += ((int(list->size()) + cols - 1) / cols) * layout::kStepY;
    }
}

namespace {

// Places `count` boxes of size `cell` in rows of at most `width`, centred, starting at `y`;
// `place(i, centre)` positions box i. Returns the y below the last row.
template<class Place>
double wrapRows(std::size_t count, QSizeF cell, double width, double y, Place place)
{
    if (count == 0)
        return y;
    const std::size_t perRow = std::max<std::size_t>(1, std::size_t(width / cell.width()));
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t row = i / perRow;
        const std::size_t inRow = std::min(perRow, count - row * perRow);
        const double left = -double(inRow) * cell.width() / 2;
        place(i,
              QPointF(left + (i % perRow + 0.5) * cell.width(), y + (row + 0.5) * cell.height()));
    }
    return y + double((count + perRow - 1) / perRow) * cell.height();
}

} // namespace

void applyTieredLayout(Design &design)
{
    std::vector<NodeId> tiers[4]; // core, spine, leaf (and loose scale-up switches), free accels
    std::vector<const Group *> domains;
    for (const Group &g : design.groups())
        if (g.kind == GroupKind::ScaleUpDomain)
            domains.push_back(&g);
    for (const Node &n : design.nodes()) {
        const Group *g = design.group(n.group);
        if (g && g->kind == GroupKind::ScaleUpDomain)
            continue;
        if (n.isAccelerator())
            tiers[3].push_back(n.id);
        else if (n.role == SwitchRole::Core)
            tiers[0].push_back(n.id);
        else if (n.role == SwitchRole::Spine)
            tiers[1].push_back(n.id);
        else
            tiers[2].push_back(n.id);
    }

    // Domain cell: the widest member grid of any domain.
    int maxAcc = 1, maxRows = 1;
    for (const Group *g : domains) {
        int acc = 0, sw = 0;
        for (const NodeId id : g->members)
            if (const Node *n = design.node(id))
                ++(n->isSwitch() ? sw : acc);
        const int cols = domainColumns(acc);
        maxAcc = std::max(maxAcc, acc);
        maxRows = std::max(maxRows, (acc + cols - 1) / cols + (sw + cols - 1) / cols);
    }
    const int cols = domainColumns(maxAcc);
    const QSizeF domainCell((cols - 1) * layout::kStepX + 2 * layout::kDomainMargin
                                + layout::kSwitchWidth + 24,
                            (maxRows - 1) * layout::kStepY + 2 * layout::kDomainMargin
                                + layout::kDomainHeader + layout::kSwitchHeight + 40);
    const QSizeF switchCell(layout::kSwitchWidth + 16, 90);
    // Rows of domains about twice as wide as the block of domains is tall (a view fitted to
    // the window reads well), at least 1,600 units and at most 48 domains wide.
    const double area = double(domains.size()) * domainCell.width() * domainCell.height();
    const double width
        = std::clamp(std::sqrt(2.0 * area), 1600.0, std::max(1600.0, 48 * domainCell.width()));

    double y = 0;
    for (int t = 0; t < 3; ++t)
        y = wrapRows(tiers[t].size(), switchCell, width, y,
                     [&](std::size_t i, QPointF c) {
                         Node *n = design.node(tiers[t][i]);
                         n->x = c.x();
                         n->y = c.y();
                     })
            + (tiers[t].empty() ? 0 : 60);
    y = wrapRows(domains.size(), domainCell, width, y, [&](std::size_t i, QPointF c) {
        const QPointF origin(c.x() - domainCell.width() / 2 + layout::kDomainMargin + 12
                                 + layout::kSwitchWidth / 2,
                             c.y() - domainCell.height() / 2 + layout::kDomainMargin
                                 + layout::kDomainHeader + layout::kSwitchHeight / 2);
        placeDomainMembers(design, *domains[i], origin);
    });
    wrapRows(tiers[3].size(), QSizeF(layout::kStepX, layout::kStepY), width, y + 40,
             [&](std::size_t i, QPointF c) {
                 Node *n = design.node(tiers[3][i]);
                 n->x = c.x();
                 n->y = c.y();
             });
}

bool needsLayout(const Design &design)
{
    return !design.nodes().empty()
        && std::all_of(design.nodes().begin(), design.nodes().end(),
                       [](const Node &n) { return n.x == 0 && n.y == 0; });
}

} // namespace weft
