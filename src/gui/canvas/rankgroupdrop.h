#pragma once
// Dragging a parallel group (a TP group, pipeline stage, DP replica, CP or EP group) from the
// Partitions dock onto the canvas: its MIME payload and the accelerators a drop lands on.

#include "document/placementedit.h"

#include <QMimeData>
#include <QPointF>
#include <memory>
#include <optional>

namespace weft {

class TopologyScene;

inline constexpr const char *kRankGroupMime = "application/x-weft-rank-group";

/// MIME data carrying `group` (for QDrag and for tests that simulate a drop).
std::unique_ptr<QMimeData> rankGroupMimeData(const RankGroupRef &group);
/// The group in `mime`, or nothing when it carries none.
std::optional<RankGroupRef> rankGroupFrom(const QMimeData *mime);

/// Accelerators a group dropped at `scenePos` goes to, in placement order: the selected
/// accelerators (and those of selected domains) when the drop is on a selected one, else the
/// accelerators of the scale-up domain under the point (by rail), else the accelerator there.
std::vector<NodeId> groupDropTargets(const TopologyScene &scene, QPointF scenePos);

} // namespace weft
