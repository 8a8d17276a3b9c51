#pragma once
// Upgrades of older design files: a chain of `version N -> N+1` transforms of the parsed JSON,
// applied in order before the current reader sees the document. Internal to core/io.
//
// Version 0 is a FABRICATED pre-release layout that never shipped; it exists so the migration
// path (and the .bak written by the storage layer) is exercised by tests from day one. It
// differs from version 1 in two ways: accelerators and switches are two arrays,
// `accelerators` and `switches` (no `kind` member), instead of one `nodes` array; and links
// give their lane rate as `bandwidth_gbps` instead of `rate_gbps`.
// Fixture: tests/data/io/v0/*.weft with their version-1 equivalents.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace weft {

/// One step of the chain: turns a version-`from` document into a version-`from + 1` one.
/// Throws JsonFieldError (with paths in the version-`from` layout) when the document is not
/// shaped as that version expects.
struct DesignMigration
{
    int from;
    const char *summary; ///< what the step changes, for the user ("merged ... into nodes")
    void (*apply)(nlohmann::json &doc);
};

/// The chain, ordered: designMigrations()[i].from == i, ending at kDesignFormatVersion - 1.
const std::vector<DesignMigration> &designMigrations();

/// Applies every step from `version` to the current version; sets doc["version"]. Returns one
/// line per step ("version 0 -> 1: ...").
std::vector<std::string> upgradeDesign(nlohmann::json &doc, int version);

} // namespace weft
