#pragma once
// Rules for adding hardware by hand: what a new link between two nodes looks like, port budgets,
// and the expansion of a scale-up preset into a domain. Pure functions over a Design + Catalog.

#include "document/fragment.h"
#include "model/catalog.h"

#include <QPointF>
#include <QString>
#include <optional>

namespace weft {

/// Ports (lanes) in use at node `id`: the sum of the lanes of its links.
int portsInUse(const Design &design, NodeId id);
/// Scale-out links (to anything outside its domain and not a scale-up switch) at accelerator `id`.
int nicsInUse(const Design &design, NodeId id);
/// The scale-up preset of `group` in `catalog`, or nullptr.
const ScaleUpPreset *presetOf(const Catalog &catalog, const Group *group);

/// A link between `a` and `b` with defaults from the ends: scale-up technology and lanes inside
/// a domain or to a scale-up switch; otherwise the switch's technology at the lower of the port
/// and NIC rates. Returns the link (no id) and the tech spec it needs in `tech`; sets `error`
/// and returns std::nullopt for a self-link, a missing technology, or a port budget overflow.
std::optional<Link> defaultLink(const Design &design, const Catalog &catalog, NodeId a, NodeId b,
                                LinkTechSpec *tech, QString *error);

/// A new scale-up domain of `preset` with its accelerators, scale-up switches and their links,
/// member grid starting at `origin`; ids are fresh for `design`.
Fragment buildDomain(const Design &design, const Catalog &catalog, const ScaleUpPreset &preset,
                     QPointF origin);

} // namespace weft
