#pragma once
// Small generated designs with small models for the planner tests (issue 16): spaces small
// enough to simulate every candidate.

#include "generate/fabricgenerator.h"
#include "io/catalogfile.h"
#include "plan/planner.h"
#include "plan/planspace.h"

#include <stdexcept>

namespace weft::test {

/// `domains` scale-up domains of `preset` on a rail-optimized two-tier fabric.
inline Design planFabric(const std::string &preset, int domains)
{
    FabricParams p;
    p.scaleUpPreset = preset;
    p.domains = domains;
    GenerateResult g = generateFabric(p, builtinCatalog());
    if (!g.ok())
        throw std::runtime_error(g.errors.front());
    Design d = std::move(*g.design);
    d.name = preset + "-x" + std::to_string(domains);
    return d;
}

/// A 4-layer dense transformer (GQA, gated MLP) of about 1.3 B parameters.
inline TransformerSpec smallDense()
{
    TransformerSpec m;
    m.name = "small-dense";
    m.layers = 4;
    m.hidden = 4096;
    m.heads = 32;
    m.kvHeads = 8;
    m.ffn = 14336;
    m.gatedMlp = true;
    m.vocab = 32000;
    m.seq = 2048;
    return m;
}

/// A 4-layer MoE transformer: 8 experts, top-2.
inline TransformerSpec smallMoe()
{
    TransformerSpec m = smallDense();
    m.name = "small-moe";
    m.experts = 8;
    m.topK = 2;
    m.expertFfn = 8192;
    return m;
}

/// `design` training `model` with global batch `batch` (the planner's base workload).
inline Design withModel(Design d, const TransformerSpec &model, int batch)
{
    Workload w;
    w.model = model;
    w.config.globalBatch = batch;
    w.config.dp = static_cast<int>(d.acceleratorCount());
    d.workload = w;
    return d;
}

/// A reduced space: TP 1/2/4/8, CP 1/2, PP 1/2/4, EP as given, both schedules with v 1/2,
/// micro-batch 1/2, no or full recomputation, ZeRO 0/1.
inline PlanSpace smallSpace(const Design &d, std::vector<int> ep = {1})
{
    PlanSpace s = defaultPlanSpace(d, *d.workload);
    const auto set = [&s](const char *knob, std::vector<int> v) {
        s.values[static_cast<std::size_t>(planKnobIndex(knob))] = std::move(v);
    };
    set("tp", {1, 2, 4, 8});
    set("cp", {1, 2});
    set("pp", {1, 2, 4});
    set("ep", std::move(ep));
    set("vpp", {1, 2});
    set("micro_batch", {1, 2});
    set("recompute", {static_cast<int>(Recompute::None), static_cast<int>(Recompute::Full)});
    set("zero_stage", {0, 1});
    return s;
}

/// Options simulating every feasible candidate (no bound) on 2 threads, without the losing
/// layouts: the reference the planner's shortcuts are compared against.
inline PlanOptions exhaustiveOptions(int top)
{
    PlanOptions o;
    o.top = top;
    o.useBound = false;
    o.jobs = 2;
    o.losers = false;
    return o;
}

} // namespace weft::test
