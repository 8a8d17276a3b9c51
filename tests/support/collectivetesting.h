#pragma once
// Helpers of the collective tests: a design's accelerators in design order, a CollectiveSpec in
// one call, and algorithm names for QCOMPARE.

#include "sim/collectives.h"

#include <QString>
#include <vector>

namespace weft::test {

/// Every accelerator of `d`, in design order.
inline std::vector<NodeId> accelerators(const Design &d)
{
    std::vector<NodeId> v;
    for (const Node &n : d.nodes())
        if (n.isAccelerator())
            v.push_back(n.id);
    return v;
}

inline CollectiveSpec spec(CollectiveKind k, std::vector<NodeId> members, double bytes,
                           CollectiveAlgorithm a = CollectiveAlgorithm::Auto)
{
    CollectiveSpec s;
    s.kind = k;
    s.members = std::move(members);
    s.bytes = bytes;
    s.algorithm = a;
    return s;
}

/// Compared as names: QCOMPARE on these enums would find weft::toString by ADL and free its
/// static string.
inline QString name(CollectiveAlgorithm a)
{
    return QString::fromLatin1(toString(a));
}

} // namespace weft::test
