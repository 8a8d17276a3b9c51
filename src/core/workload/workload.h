#pragma once
// What a design trains: the model, how it is parallelised and where its ranks run.

#include "workload/model.h"
#include "workload/parallelism.h"
#include "workload/placement.h"

namespace weft {

/// The workload stored with a design (Design::workload) and simulated on its fabric.
struct Workload
{
    TransformerSpec model;
    TrainingConfig config;
    Placement placement;
};

} // namespace weft
