#pragma once
// Versions of the libraries core/io is built with, for the About dialog and `--version`.

#include <string>

namespace weft {

/// The nlohmann_json version, "3.11.2".
std::string jsonLibraryVersion();

} // namespace weft
