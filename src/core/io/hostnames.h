#pragma once
// Host and switch names of real clusters ("dgx-001", "leaf-12"): natural order and prefixes,
// shared by the importers.

#include <string>

namespace weft {

/// Natural order: digit runs compare by value ("dgx-2" < "dgx-10"; "dgx-02" == "dgx-2" ties on
/// length).
bool naturalLess(const std::string &a, const std::string &b);

/// The name without its trailing digits: "dgx-001" -> "dgx-".
std::string namePrefix(const std::string &host);

} // namespace weft
