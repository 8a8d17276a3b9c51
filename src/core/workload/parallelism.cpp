#include "workload/parallelism.h"

#include <algorithm>
#include <numeric>

namespace weft {

int TrainingConfig::microBatches() const
{
    const long long per = 1LL * std::max(1, microBatch) * std::max(1, dp);
    return static_cast<int>(std::max<long long>(1, globalBatch / per));
}

int TrainingConfig::expertDp() const
{
    const long long inner = 1LL * std::max(1, tp) * std::max(1, cp) * std::max(1, dp);
    const long long expert = 1LL * std::max(1, expertTp()) * std::max(1, ep);
    return inner % expert == 0 ? static_cast<int>(inner / expert) : 0;
}

int TrainingConfig::chunks() const
{
    return std::max(1, pp) * (schedule == PipelineSchedule::Interleaved ? std::max(1, vpp) : 1);
}

int TrainingConfig::effectiveZero() const
{
    return fsdp ? 3 : std::max(zeroStage, distributedOptimizer ? 1 : 0);
}

double TrainingConfig::shardRanks() const
{
    const double all = double(std::max(1, dp)) * std::max(1, cp);
    return fsdpShardGroup > 0 ? std::min(all, double(fsdpShardGroup)) : all;
}

std::vector<int> splitLayers(const TransformerSpec &m, const TrainingConfig &c)
{
    const int n = c.chunks();
    if (static_cast<int>(c.stageLayers.size()) == n)
        return c.stageLayers;
    std::vector<int> out(static_cast<std::size_t>(n), 0);
    if (m.layers <= 0 || n <= 0)
        return out;
    const int base = m.layers / n + (m.layers % n != 0 ? 1 : 0); // ceil, without overflow
    std::fill(out.begin(), out.end(), base);
    // base = ceil(l / n), so fewer than n chunks lose one layer each: the ones at the ends first
    // (last, first, second last, second ...), which carry the embedding and the loss.
    const int deficit = base * n - m.layers;
    for (int i = 0; i < deficit; ++i) {
        const int idx = (i % 2 == 0) ? n - 1 - i / 2 : i / 2;
        --out[static_cast<std::size_t>(idx)];
    }
    return out;
}

namespace {

void error(std::vector<Finding> &f, const char *code, std::string msg)
{
    f.push_back({Severity::Error, code, std::move(msg), {}});
}

std::string str(long long v)
{
    return std::to_string(v);
}

} // namespace

std::vector<Finding> validate(const TransformerSpec &m, const TrainingConfig &c,
                              std::size_t accelerators)
{
    std::vector<Finding> f;
    if (c.tp < 1 || c.pp < 1 || c.dp < 1 || c.cp < 1 || c.ep < 1 || c.vpp < 1 || c.microBatch < 1
        || c.globalBatch < 1 || c.etp < 0) {
        error(f, "degree-not-positive",
              "tp, pp, dp, cp, ep, vpp, micro-batch and global batch must all be at least 1 (etp "
              "at least 0: same as TP)");
        return f;
    }
    if (!(c.moeImbalance >= 1) || c.moeImbalance > 1000) {
        error(f, "moe-imbalance-invalid",
              "MoE load imbalance " + std::to_string(c.moeImbalance)
                  + " must be in [1, 1000] (busiest expert rank over the mean)");
        return f;
    }
    if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.kvHeads < 1 || m.seq < 1 || m.vocab < 1
        || m.ffn < 1) {
        error(f, "model-size-not-positive",
              "model '" + m.name
                  + "': layers, hidden, heads, kv heads, ffn, vocab and seq must be >= 1");
        return f;
    }
    if (m.hidden % m.heads != 0)
        error(f, "hidden-not-divisible-by-heads",
              "hidden " + str(m.hidden) + " is not divisible by heads " + str(m.heads));
    if (m.heads % m.kvHeads != 0)
        error(f, "heads-not-divisible-by-kv-heads",
              "heads " + str(m.heads) + " is not divisible by kv heads " + str(m.kvHeads));
    if (m.heads % c.tp != 0)
        error(f, "heads-not-divisible-by-tp",
              "heads " + str(m.heads) + " are not divisible by TP " + str(c.tp));
    if (m.kvHeads % c.tp != 0 && c.tp % m.kvHeads != 0)
        error(f, "kv-heads-not-divisible-by-tp",
              "kv heads " + str(m.kvHeads) + " and TP " + str(c.tp) + " do not divide each other");
    if (m.ffn % c.tp != 0 && (!m.isMoe() || m.moeLayers() < m.layers)) // a dense MLP exists
        error(f, "ffn-not-divisible-by-tp",
              "ffn " + str(m.ffn) + " is not divisible by TP " + str(c.tp));
    if (m.isMla() && (m.qkNopeHeadDim < 1 || m.qkRopeHeadDim < 0 || m.vHeadDim < 1))
        error(f, "mla-dims-invalid",
              "MLA needs qk_nope_head_dim and v_head_dim >= 1 (kv_lora_rank " + str(m.kvLoraRank)
                  + ")");
    if (m.isMoe()) {
        if (m.experts % c.ep != 0)
            error(f, "experts-not-divisible-by-ep",
                  "experts " + str(m.experts) + " are not divisible by EP " + str(c.ep));
        if (m.topK > m.experts)
            error(f, "top-k-above-experts",
                  "top-k " + str(m.topK) + " exceeds experts " + str(m.experts));
    } else if (c.ep > 1) {
        error(f, "ep-without-experts", "EP " + str(c.ep) + " needs a MoE model (experts > 0)");
    }
    // Megatron-Core parallel folding (parallel_state.initialize_model_parallel): the experts
    // use etp x ep x expert-DP over the same tp x cp x dp ranks of each pipeline stage.
    // Expert TP defaults to TP (Megatron-Core), which a user may not have meant: say so, and
    // whether expert TP 1 would fit.
    if (c.expertDp() == 0)
        error(f, "expert-parallel-not-divisible",
              "TP x CP x DP = " + str(1LL * c.tp * c.cp * c.dp) + " is not divisible by ETP x EP = "
                  + str(c.expertTp()) + " x " + str(c.ep) + " = " + str(1LL * c.expertTp() * c.ep)
                  + " (Megatron-Core: the world size per pipeline stage must be divisible by the "
                    "expert tensor x expert model parallel size)"
                  + (c.etp == 0 && c.tp > 1 ? std::string("; expert TP is TP unless set")
                             + ((1LL * c.tp * c.cp * c.dp) % c.ep == 0
                                    ? ": with expert TP 1 it divides"
                                    : "")
                                            : std::string()));
    if (m.isMoe() && m.expertFfn % c.expertTp() != 0)
        error(f, "expert-ffn-not-divisible-by-etp",
              "expert ffn " + str(m.expertFfn) + " is not divisible by ETP " + str(c.expertTp()));
    // Megatron-LM validate_args: "When using MoE and tensor parallelism, sequence parallelism
    // must be used."
    if (m.isMoe() && c.tp > 1 && !c.sequenceParallel)
        error(f, "moe-tp-needs-sequence-parallel",
              "MoE with TP " + str(c.tp)
                  + " needs sequence parallelism (Megatron-Core refuses MoE with TP > 1 without "
                    "it)");
    if (m.seq % c.cp != 0)
        error(f, "seq-not-divisible-by-cp",
              "sequence " + str(m.seq) + " is not divisible by CP " + str(c.cp));
    if (c.globalBatch % (1LL * c.microBatch * c.dp) != 0)
        error(f, "batch-not-divisible",
              "global batch " + str(c.globalBatch)
                  + " is not divisible by micro-batch x DP = " + str(1LL * c.microBatch * c.dp));
    // Megatron-Core TransformerConfig.__post_init__ with overlap_moe_expert_parallel_comm: "If
    // enabling EP A2A overlap, virtual_pipeline_model_parallel_size must be specified when
    // pipeline_model_parallel_size > 1" and "disable full recomputation when enabling
    // overlap_moe_expert_parallel_comm". Weft still simulates what it is given.
    if (c.overlapEp && m.isMoe() && c.ep > 1) {
        if (c.schedule == PipelineSchedule::GPipe)
            f.push_back({Severity::Warning,
                         "ep-overlap-without-pairs",
                         "the EP all-to-all overlap pairs 1F1B's forwards with backwards; GPipe "
                         "has no such pairs, so the exchanges stay exposed",
                         {}});
        else if (c.pp > 1 && c.schedule != PipelineSchedule::Interleaved)
            f.push_back({Severity::Warning,
                         "ep-overlap-needs-interleaving",
                         "the EP all-to-all overlap with PP " + str(c.pp)
                             + " needs the interleaved schedule (Megatron-Core refuses it without "
                               "virtual stages); simulated as it would run: each pair holds its "
                               "forward's output until its backward ends, so neighbouring stages "
                               "wait for each other",
                         {}});
        if (c.recompute == Recompute::Full)
            f.push_back({Severity::Warning,
                         "ep-overlap-full-recompute",
                         "the EP all-to-all overlap with full recomputation: Megatron-Core refuses "
                         "it (use selective recomputation)",
                         {}});
    }
    if (c.vpp > 1 && c.schedule != PipelineSchedule::Interleaved)
        f.push_back({Severity::Warning,
                     "vpp-ignored",
                     "virtual stages " + str(c.vpp) + " are only used by the interleaved schedule",
                     {}});
    // The embedding and the loss may take the first and the last virtual stage alone
    // (Megatron-Core --account-for-embedding-in-pipeline-split and --account-for-loss-in-
    // pipeline-split; splitLayers leaves those chunks without a layer), no other may be empty.
    const int endsAlone = c.chunks() > 2 ? 2 : c.chunks() - 1;
    if (m.layers < c.chunks() - endsAlone)
        error(f, "layers-below-stages",
              "layers " + str(m.layers) + " are fewer than PP x virtual stages = " + str(c.chunks())
                  + " less the " + str(endsAlone) + " the embedding and the loss may take alone");
    if (c.schedule == PipelineSchedule::Interleaved && c.pp > 1 && c.microBatches() % c.pp != 0)
        error(f, "interleaved-micro-batches",
              "the interleaved schedule needs micro-batches (" + str(c.microBatches())
                  + ") divisible by PP " + str(c.pp));
    if (!c.stageLayers.empty()) {
        const int sum = std::accumulate(c.stageLayers.begin(), c.stageLayers.end(), 0);
        if (static_cast<int>(c.stageLayers.size()) != c.chunks() || sum != m.layers)
            error(f, "stage-layers-mismatch",
                  "explicit stage layers: " + str(static_cast<long long>(c.stageLayers.size()))
                      + " entries summing to " + str(sum) + ", expected " + str(c.chunks())
                      + " entries summing to " + str(m.layers));
    }
    if (c.fsdpShardGroup < 0
        || (c.fsdpShardGroup > 0 && (1LL * c.dp * c.cp) % c.fsdpShardGroup != 0))
        error(f, "hsdp-shard-group-invalid",
              "HSDP shard group " + str(c.fsdpShardGroup)
                  + " must divide DP x CP = " + str(1LL * c.dp * c.cp));
    if (c.dtype == DataType::FP4 && c.fp8Recipe != Fp8Recipe::Nvfp4)
        error(f, "fp4-recipe", "FP4 linears need the nvfp4 recipe");
    if (c.dtype != DataType::FP4 && c.fp8Recipe == Fp8Recipe::Nvfp4 && c.dtype != DataType::BF16)
        error(f, "nvfp4-needs-fp4", "the nvfp4 recipe needs dtype fp4");
    if (c.launchOverhead < 0 || c.launchOverhead > 1)
        error(f, "launch-overhead-invalid", "launch overhead per kernel must be in [0, 1] s");
    if (c.zeroStage < 0 || c.zeroStage > 3)
        error(f, "zero-stage-invalid", "ZeRO stage " + str(c.zeroStage) + " is not 0, 1, 2 or 3");
    if (c.dtype == DataType::FP8 && c.tp < 1)
        error(f, "dtype-invalid", "invalid datatype");
    if (c.worldSize() > static_cast<long long>(accelerators))
        error(f, "world-size-exceeds-accelerators",
              "world size tp x cp x dp x pp = " + str(c.worldSize()) + " exceeds the "
                  + str(static_cast<long long>(accelerators)) + " accelerators of the design");
    return f;
}

const char *toString(PipelineSchedule s)
{
    switch (s) {
    case PipelineSchedule::GPipe:
        return "gpipe";
    case PipelineSchedule::OneFOneB:
        return "1f1b";
    case PipelineSchedule::Interleaved:
        return "interleaved-1f1b";
    }
    return "?";
}
const char *toString(Recompute r)
{
    switch (r) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "?";
}
const char *toString(AttentionKernel a)
{
    switch (a) {
    case AttentionKernel::Flash:
        return "flash";
    case AttentionKernel::FlashAttention2:
        return "fa2";
    case AttentionKernel::Unfused:
        return "unfused";
    }
    return "?";
}
const char *toString(Fp8Recipe r)
{
    switch (r) {
    case Fp8Recipe::Delayed:
        return "delayed";
    case Fp8Recipe::Tensorwise:
        return "tensorwise";
    case Fp8Recipe::Blockwise:
        return "blockwise";
    case Fp8Recipe::Mxfp8:
        return "mxfp8";
    case Fp8Recipe::Nvfp4:
        return "nvfp4";
    }
    return "?";
}
const char *toString(CpKind k)
{
    return k == CpKind::Ring ? "ring" : "all-gather";
}

const char *toString(TpOverlapKind k)
{
    return k == TpOverlapKind::AsyncTp ? "async-tp" : "userbuffers";
}

const char *toString(TokenDispatcher d)
{
    switch (d) {
    case TokenDispatcher::AllToAll:
        return "alltoall";
    case TokenDispatcher::DeepEP:
        return "deepep";
    case TokenDispatcher::HybridEP:
        return "hybridep";
    }
    return "?";
}

const char *toString(CudaGraphScope g)
{
    switch (g) {
    case CudaGraphScope::None:
        return "none";
    case CudaGraphScope::Layers:
        return "layers";
    case CudaGraphScope::FullIteration:
        return "full-iteration";
    }
    return "?";
}

bool fromString(const std::string &s, CudaGraphScope &out)
{
    for (CudaGraphScope g :
         {CudaGraphScope::None, CudaGraphScope::Layers, CudaGraphScope::FullIteration})
        if (s == toString(g)) {
            out = g;
            return true;
        }
    return false;
}

bool fromString(const std::string &s, TokenDispatcher &out)
{
    for (TokenDispatcher d :
         {TokenDispatcher::AllToAll, TokenDispatcher::DeepEP, TokenDispatcher::HybridEP})
        if (s == toString(d)) {
            out = d;
            return true;
        }
    return false;
}

bool fromString(const std::string &s, PipelineSchedule &out)
{
    if (s == "gpipe")
        out = PipelineSchedule::GPipe;
    else if (s == "1f1b")
        out = PipelineSchedule::OneFOneB;
    else if (s == "interleaved-1f1b" || s == "interleaved")
        out = PipelineSchedule::Interleaved;
    else
        return false;
    return true;
}
bool fromString(const std::string &s, Recompute &out)
{
    if (s == "none")
        out = Recompute::None;
    else if (s == "selective")
        out = Recompute::Selective;
    else if (s == "full")
        out = Recompute::Full;
    else
        return false;
    return true;
}
bool fromString(const std::string &s, AttentionKernel &out)
{
    for (AttentionKernel a :
         {AttentionKernel::Flash, AttentionKernel::FlashAttention2, AttentionKernel::Unfused})
        if (s == toString(a)) {
            out = a;
            return true;
        }
    return false;
}
bool fromString(const std::string &s, Fp8Recipe &out)
{
    for (Fp8Recipe r : {Fp8Recipe::Delayed, Fp8Recipe::Tensorwise, Fp8Recipe::Blockwise,
                        Fp8Recipe::Mxfp8, Fp8Recipe::Nvfp4})
        if (s == toString(r)) {
            out = r;
            return true;
        }
    if (s == "current" || s == "cs") { // Transformer Engine's "current scaling"
        out = Fp8Recipe::Tensorwise;
        return true;
    }
    return false;
}
bool fromString(const std::string &s, TpOverlapKind &out)
{
    if (s == "async-tp" || s == "async_tp" || s == "asynctp")
        out = TpOverlapKind::AsyncTp;
    else if (s == "userbuffers" || s == "ub")
        out = TpOverlapKind::Userbuffers;
    else
        return false;
    return true;
}

bool fromString(const std::string &s, CpKind &out)
{
    if (s == "ring" || s == "p2p")
        out = CpKind::Ring;
    else if (s == "all-gather" || s == "allgather")
        out = CpKind::AllGather;
    else
        return false;
    return true;
}

namespace {

constexpr std::pair<RecomputeModule, const char *> kModules[] = {
    {kRecomputeCoreAttn, "core_attn"},  {kRecomputeMlp, "mlp"},
    {kRecomputeLayerNorm, "layernorm"}, {kRecomputeAct, "act"},
    {kRecomputeUpProj, "up_proj"},      {kRecomputeMoe, "moe"},
    {kRecomputeMoeAct, "moe_act"},      {kRecomputeSharedExperts, "shared_experts"},
};

} // namespace

std::string recomputeModulesToString(unsigned bits)
{
    std::string out;
    for (const auto &[bit, name] : kModules)
        if (bits & bit)
            out += (out.empty() ? "" : ",") + std::string(name);
    return out;
}

bool recomputeModulesFromString(const std::string &s, unsigned &out, std::string &bad)
{
    unsigned bits = 0;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        const std::size_t end = std::min(s.find(',', pos), s.size());
        std::string name = s.substr(pos, end - pos);
        // "layernorm, moe_act" as typed: the blanks around a name are not part of it
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        if (!name.empty()) {
            bool found = false;
            for (const auto &[bit, key] : kModules)
                if (name == key || (name == "norm" && bit == kRecomputeLayerNorm)
                    || (name == "mla_up_proj" && bit == kRecomputeUpProj)) {
                    bits |= bit;
                    found = true;
                }
            if (!found) {
                bad = name;
                return false;
            }
        }
        pos = end + 1;
    }
    out = bits;
    return true;
}

} // namespace weft
