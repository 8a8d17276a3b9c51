#pragma once
// One line per finding, the same in every weft-cli command: "error [code] message (subjects)".

#include "model/design.h"
#include "model/finding.h"

#include <QString>
#include <vector>

namespace weft::cli {

/// "<severity> [<code>] <message> (<subjects>)": the finding's nodes and groups by their names
/// in `design` ("nodes d0.gpu4, d0.gpu5"; "#id" when unnamed), its links by id ("link #12", as
/// --fail names them) and its other subjects as given ("stage:0"), at most 8 of each list with
/// the total when there are more; no parenthesis when it names nothing.
QString describeFinding(const Finding &f, const Design &design);

/// Number of findings of severity Error and of the other severities in `findings`.
struct FindingCounts
{
    int errors = 0;
    int warnings = 0;
};
FindingCounts countFindings(const std::vector<Finding> &findings);

/// "1 error", "3 errors" (`one`, `many` the singular and plural nouns).
QString countText(long long n, const char *one, const char *many);

} // namespace weft::cli
