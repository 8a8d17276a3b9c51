#pragma once
// Hardware catalog files: the built-in catalog (resources/catalog/*.json, compiled in) and
// users' own catalog files in the same format, which add or override entries by key.
//
// Format: {"format": "weft.catalog", "version": 1, "accelerators": [...], "switches": [...],
// "link_technologies": [...], "scale_up_presets": [...]} (see io/hardwarejson.h for fields).

#include "io/fileerror.h"
#include "model/catalog.h"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace weft {

/// The built-in catalog, parsed once. The embedded files are checked by the test suite, so a
/// broken one fails the build's tests rather than a user's session.
const Catalog &builtinCatalog();

/// Parses one catalog file's text; `sourceName` names it in errors. Checks that presets refer
/// to specs present in this file or in `base` (pass builtinCatalog() to extend it).
std::variant<Catalog, FileError> parseCatalog(std::string_view text, const std::string &sourceName,
                                              const Catalog &base = {});

/// The file text of `catalog` in the format above (UTF-8, pretty-printed, entries sorted by key,
/// ends with a newline); parseCatalog() reads it back unchanged. Used to save users' catalogs.
std::string serializeCatalog(const Catalog &catalog);

/// Reads and parses a catalog file from disk.
std::variant<Catalog, FileError> loadCatalogFile(const std::string &path, const Catalog &base = {});

/// The names and texts of the embedded catalog files (generated at build time).
const std::vector<std::pair<const char *, const char *>> &builtinCatalogFiles();

} // namespace weft
