#pragma once
// Find (Edit > Find): objects of a design matching a query, by name, kind or id.

#include "document/fragment.h"

#include <QString>

namespace weft {

/// Ids matching `query`: "kind:accelerator|switch|domain|leaf|spine|core|scale-up" by kind or
/// role, "#12" or "id:12" by node id, otherwise a case-insensitive substring of the name (nodes
/// and groups). An empty query matches nothing.
IdSet findObjects(const Design &design, const QString &query);

} // namespace weft
