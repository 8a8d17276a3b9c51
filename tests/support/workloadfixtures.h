#pragma once
// A 256-GPU design with a workload for the Partitions tests and screenshots: 32 DGX H100
// domains on a rail-optimized 2-tier QM9700 fabric (the core generator), training Llama 3 70B
// with TP 8, PP 4, DP 8 in Megatron order.

#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"

#include <QtGlobal>

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

/// Llama 3 8B at 4k tokens with the given TP, PP and DP, `microBatchesPerReplica` micro-batches
/// of one sequence per DP replica, the distributed optimizer.
inline Workload llama8b(int tp, int pp, int dp, int microBatchesPerReplica)
{
    Workload w;
    w.model = *modelPreset("llama3-8b");
    w.model.seq = 4096;
    w.config.tp = tp;
    w.config.pp = pp;
    w.config.dp = dp;
    w.config.globalBatch = dp * microBatchesPerReplica;
    w.config.distributedOptimizer = true;
    return w;
}

/// `racks` GB200 NVL72 racks on a two-tier fat tree of `switchModel` (NIC `nicRate` bytes/s per
/// GPU) in scalable units of `suSize` racks.
inline Design gb200Racks(int racks, int suSize, const char *switchModel, double nicRate)
{
    FabricParams p;
    p.scaleUpPreset = "gb200-nvl72";
    p.domains = racks;
    p.fabric = FabricKind::FatTree;
    p.switchModel = switchModel;
    p.nicRate = nicRate;
    p.suSize = suSize;
    GenerateResult r = generateFabric(p, builtinCatalog());
    Q_ASSERT(r.ok());
    return std::move(*r.design);
}

} // namespace weft::fixtures
