#include "io/libraryversions.h"

#include <nlohmann/json.hpp>

namespace weft {

std::string jsonLibraryVersion()
{
    return std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "."
        + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "."
        + std::to_string(NLOHMANN_JSON_VERSION_PATCH);
}

} // namespace weft
