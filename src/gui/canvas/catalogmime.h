#pragma once
// The drag payload of palette entries: a CatalogItem as MIME data.

#include "document/designdocument.h"

#include <QMimeData>
#include <memory>
#include <optional>

namespace weft {

inline constexpr const char *kCatalogMime = "application/x-weft-catalog-item";

/// MIME data carrying `item` (for QDrag and for tests that simulate a drop).
std::unique_ptr<QMimeData> catalogMimeData(const CatalogItem &item);
/// The item in `mime`, or nothing when it carries no palette entry.
std::optional<CatalogItem> catalogItemFrom(const QMimeData *mime);

} // namespace weft
