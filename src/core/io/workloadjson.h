#pragma once
// JSON encoding of a workload (model, training configuration, placement): the `workload` section
// of design files and the CLI's workload input. Keys state their unit: *_tokens, *_seqs
// (sequences), *_mb (1e6 bytes); sizes without a unit are element counts.

#include "io/jsonreader.h"
#include "workload/workload.h"

#include <nlohmann/json.hpp>
#include <variant>

namespace weft {

/// {"model": {...}, "training": {...}, "placement": {...}}; every field written explicitly.
nlohmann::ordered_json toJson(const Workload &w);

/// Reads a workload. `model.preset` names a preset whose fields the other keys override; without
/// it layers, hidden, heads, ffn, vocab and seq_tokens are required. Throws JsonFieldError
/// naming the JSON path of a missing or invalid field or an unknown preset/enum name.
Workload workloadFromJson(const JsonReader &r);

/// Reads a workload file (`weft-cli generate --workload FILE.json`): the object above, or a
/// design file whose "workload" member is one. Returns the workload or a FileError naming the
/// file, the JSON path and the problem.
std::variant<Workload, FileError> readWorkloadFile(const std::string &path);

} // namespace weft
