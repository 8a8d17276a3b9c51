#pragma once
// Findings about workloads and simulations use the core's one Finding type.
#include "model/finding.h"
