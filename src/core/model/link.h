#pragma once
// Full-duplex links between two nodes.

#include "model/ids.h"

#include <string>

namespace weft {

/// A full-duplex link (or a bundle of `lanes` parallel lanes/cables) between nodes `a` and `b`.
/// The capacity per direction is `lanes * rate`; each direction is shared separately.
struct Link
{
    LinkId id;
    NodeId a;
    NodeId b;
    std::string tech;          ///< key into Design::hardware.linkTechs
    double rate = 0;           ///< line rate of one lane per direction, bytes/s
    int lanes = 1;             ///< parallel lanes or cables bundled in this link
    double latency = 0;        ///< one-way latency, seconds

    /// Line rate per direction of the whole bundle, bytes/s.
    [[nodiscard]] double capacity() const { return rate * lanes; }
    [[nodiscard]] NodeId other(NodeId n) const { return n == a ? b : a; }
};

} // namespace weft
