#pragma once
// A 256-GPU design with a workload for the Partitions tests and screenshots: 32 DGX H100
// domains on a rail-optimized 2-tier QM9700 fabric (the core generator), training Llama 3 70B
// with TP 8, PP 4, DP 8 in Megatron order.

#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"

namespace weft::fixtures {

inline Workload llama70bTp8Pp4Dp8()
{
    Workload w;
    w.model = *modelPreset("llama3-70b");
    w.config.tp = 8;
    w.config.pp = 4;
    w.config.dp = 8;
    w.config.microBatch = 1;
    w.config.globalBatch = 256;
    w.config.recompute = Recompute::Selective;
    w.config.sequenceParallel = true;
    w.config.distributedOptimizer = true;
    return w;
}

/// Mixtral 8x7B (MoE, 8 experts) with TP 2, EP 4, DP 16 on 32 accelerators: 8 expert-DP
/// groups (TP x EP) of 4 ranks, each holding the same experts on 4 different DP outer indices.
inline Workload mixtralTp2Ep4Dp16()
{
    Workload w;
    w.model = *modelPreset("mixtral-8x7b");
    w.config.tp = 2;
    w.config.dp = 16;
    w.config.ep = 4;
    w.config.sequenceParallel = true; // Megatron refuses MoE with TP > 1 without it
    w.config.globalBatch = 16;
    w.config.distributedOptimizer = true;
    return w;
}

/// 32 x dgx-h100, rail-optimized, 2 tiers of qm9700; with the workload above when asked.
inline Design cluster256(bool withWorkload = true)
{
    FabricParams p;
    p.scaleUpPreset = "dgx-h100";
    p.domains = 32;
    p.fabric = FabricKind::RailOptimized;
    p.tiers = 2;
    p.switchModel = "qm9700";
    p.suSize = 32;
    GenerateResult r = generateFabric(p, builtinCatalog());
    Design d = std::move(*r.design);
    if (withWorkload)
        d.workload = llama70bTp8Pp4Dp8();
    return d;
}

} // namespace weft::fixtures
