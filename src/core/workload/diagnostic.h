#pragma once
// Findings about workloads and simulations use the core's one Finding type (model/finding.h);
// these names keep the workload and simulator code readable.
#include "model/finding.h"

namespace weft {
using Diagnostic = Finding;
using DiagnosticLevel = Severity;
} // namespace weft
