#pragma once
// The `.weft` design file, format version 1 (product.md, Files). Pretty-printed JSON with a
// fixed key order so that the same design always gives the same bytes:
//
//   {"format": "weft.design", "version": 1, "generator": {"name": "weft", "version": "0.1.0"},
//    "design": {"name", "description"},
//    "fabric_generator": {...FabricParams, optional},
//    "workload": {"model", "training", "placement"} (optional; io/workloadjson.h),
//    "view": {"zoom", "center_x", "center_y"},
//    "hardware": {"accelerators": [...], "switches": [...], "link_technologies": [...]},
//    "groups": [{"id", "kind", "name", "preset", "parent"?, "collapsed", "members": [node ids]}],
//    "nodes": [{"id", "kind", "name", "spec", "role" (switches), "rail"?, "plane"?, "x", "y"}],
//    "links": [{"id", "a", "b", "tech", "rate_gbps", "lanes", "latency_ns"}],
//    "faults": [{"kind", "link" | "node", "factor"?}] (optional: the what-if scenario,
//               io/faultjson.h; written only when the design has faults),
//    "extensions": {...}}
//
// Units are in the key names: *_gbps is Gb/s (1e9 bit/s) line rate per lane and direction,
// *_ns nanoseconds; positions are scene units. Groups, nodes and links are written one object
// per line (large designs stay compact). A node's group is the group whose `members` list it.
// resources/schema/weft-design-v1.schema.json is the JSON Schema of this layout. "faults" was
// added without a version change: files without it read as before (no faults), and an older
// Weft keeps the member as an extension.
//
// Unknown members are kept: unknown top-level members go to the `extensions` section; unknown
// members of any object (a node, a link, a spec, the design or view section) go to that object's
// own `extensions` member. In memory they live in Design::extensions as one JSON object keyed by
// locator: "file" (the top-level section), "design", "view", "fabric_generator", "hardware",
// "node:<id>", "link:<id>", "group:<id>", "accelerator:<key>", "switch:<key>",
// "link_technology:<key>". Entries of objects no longer in the design are dropped on save.

#include "io/fileerror.h"
#include "model/design.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// The format version this Weft writes. Older files are migrated on load (io/migrations.h),
/// newer ones refused.
inline constexpr int kDesignFormatVersion = 1;

/// Limits checked before anything is allocated for a design. A 131,072-GPU cluster has ~140k
/// nodes and ~400k links, far inside them; a file asking for more is refused as absurd.
inline constexpr std::size_t kMaxDesignFileBytes = std::size_t(512) << 20; ///< 512 MiB of text
inline constexpr std::size_t kMaxJsonValues = std::size_t(64) << 20; ///< values in the file
inline constexpr std::size_t kMaxNodes = std::size_t(1) << 20; ///< 1,048,576 nodes
inline constexpr std::size_t kMaxLinks = std::size_t(1) << 22; ///< 4,194,304 links
inline constexpr std::size_t kMaxGroups = std::size_t(1) << 20; ///< 1,048,576 groups
inline constexpr int kMaxLanes = 65536; ///< lanes in one link
/// Canvas coordinates of a node (scene units; a 131,072-GPU layout spans ~1e6).
inline constexpr double kMaxCoordinate = 1e8;

/// Outcome of parseDesign(): the design, or an error naming the file, JSON Pointer and problem.
struct ParseResult
{
    std::optional<Design> design; ///< set on success
    FileError error; ///< set when `design` is empty
    int fileVersion = -1; ///< format version the file declared (-1: not read)
    std::vector<std::string> migrations; ///< one line per upgrade step applied, oldest first

    [[nodiscard]] bool ok() const { return design.has_value(); }
    [[nodiscard]] bool migrated() const { return !migrations.empty(); }
};

/// The file text of `design` (UTF-8, ends with a newline). Deterministic; never throws
/// (invalid UTF-8 in names is replaced by U+FFFD).
std::string serializeDesign(const Design &design);

/// Parses file text; `sourceName` (usually the path) is copied into errors. Never throws.
/// Refuses: empty or binary text, invalid JSON (line and column), a different `format`,
/// newer versions, wrong types, missing required fields, out-of-range values (rates <= 0,
/// lanes < 1, negative latency), duplicate ids, references to missing ids (a fault naming a link
/// or node the design does not have, at its JSON location), a node in two groups,
/// and sizes above the limits above. Structural checks that a valid file may still fail
/// (port budgets, unknown spec keys, group cycles) are left to validateDesign().
ParseResult parseDesign(std::string_view text, const std::string &sourceName);

} // namespace weft
