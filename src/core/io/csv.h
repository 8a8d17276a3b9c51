#pragma once
// RFC 4180 CSV fields for the core's CSV writers (results, sweeps, bill of materials) and a
// reader for their output: comma separated, "\n" line ends, fields holding a comma, quote or
// line break quoted with doubled quotes.

#include <string>
#include <vector>

namespace weft {

/// `s` as one CSV field, quoted only when it needs to be.
std::string csvField(const std::string &s);

/// A number written so that reading it back gives the same double (17 significant digits).
std::string csvNumber(double v);

/// Splits CSV text into rows of fields (quoted fields may hold commas, quotes and line breaks).
/// A trailing line end does not make an empty row. Throws std::invalid_argument on an
/// unterminated quote, naming the row.
std::vector<std::vector<std::string>> parseCsv(const std::string &text);

} // namespace weft
