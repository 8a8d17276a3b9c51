#pragma once
// Small generated designs with workloads for the sweep, report and export tests: a few DGX H100
// domains on a rail-optimized fabric (generated, so fabric parameters can be swept) and a
// TP-heavy two-layer transformer whose TP group spans domains of 8.

#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"

#include <stdexcept>

namespace weft::test {

/// `domains` x dgx-h100 with TP `tp` x DP (filling the accelerators), micro-batch 1 and 4
/// micro-batches per replica of a 2-layer model with 16 KV heads (TP up to 16 divides it).
inline Design sweepDesign(int domains = 4, int tp = 16, double oversubscription = 1.0)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = domains;
    p.oversubscription = oversubscription;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok())
        throw std::runtime_error(g.errors.front());
    Design d = std::move(*g.design);
    d.name = "sweep-test";
    Workload w;
    w.model.name = "tp-heavy";
    w.model.layers = 2;
    w.model.hidden = 8192;
    w.model.heads = 64;
    w.model.kvHeads = 16;
    w.model.ffn = 28672;
    w.model.gatedMlp = true;
    w.model.vocab = 32000;
    w.model.seq = 2048;
    w.config.tp = tp;
    w.config.dp = domains * 8 / tp;
    w.config.microBatch = 1;
    w.config.globalBatch = 4 * w.config.dp;
    d.workload = w;
    return d;
}

} // namespace weft::test
