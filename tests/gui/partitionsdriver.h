#pragma once
// Helpers of the GUI tests that drive the placement: the resolved rank map, domains and their
// accelerators, and typing a committed value into a spin box.

#include "document/placementedit.h"
#include "model/design.h"
#include "workload/placement.h"

#include <QSpinBox>
#include <QTest>

namespace weft::test {

inline RankMap ranksOf(const Design &d)
{
    std::vector<Finding> f;
    return RankMap(d, d.workload->config, d.workload->placement, f);
}

inline std::vector<NodeId> mapOf(const Design &d)
{
    return *resolvedMap(d, *d.workload);
}

inline std::vector<GroupId> domains(const Design &d)
{
    std::vector<GroupId> out;
    for (const Group &g : d.groups())
        if (g.kind == GroupKind::ScaleUpDomain)
            out.push_back(g.id);
    return out;
}

inline std::vector<NodeId> acceleratorsOf(const Design &d, GroupId g)
{
    std::vector<NodeId> out;
    for (const NodeId id : acceleratorsInOrder(d))
        if (d.node(id)->group == g)
            out.push_back(id);
    return out;
}

// Types `text` into a spin box and presses Enter, as a user commits a value.
inline void typeInto(QSpinBox *spin, const QString &text)
{
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

} // namespace weft::test
