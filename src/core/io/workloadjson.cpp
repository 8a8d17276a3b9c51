#include "io/workloadjson.h"

#include <fstream>
#include <sstream>

namespace weft {

namespace {

constexpr long long kMaxCount = 1LL << 31;

// Upper bounds of the workload's sizes: far above any published model (GPT-3: 96 layers, hidden
// 12,288; PaLM 540B: 118 layers, hidden 18,432; Llama 3 405B: 126 layers; Gemma: vocabulary
// 256k; DeepSeek-V3: 256 routed experts) and batch (Llama 3 405B: 2,048 sequences per step),
// small enough that checking and simulating them takes well under a second, not minutes.
constexpr long long kMaxLayers = 4096;
constexpr long long kMaxWidth = 1LL << 20; ///< hidden, ffn and expert_ffn
constexpr long long kMaxHeads = 1LL << 16;
constexpr long long kMaxVocab = 1LL << 24;
constexpr long long kMaxSeqTokens = 1LL << 24; ///< 16M tokens of context
constexpr long long kMaxExperts = 1LL << 16;
constexpr long long kMaxDegree = 1LL << 20; ///< tp, pp, dp, cp, ep: kMaxNodes accelerators
constexpr long long kMaxBatchSeqs = 1LL << 20; ///< micro and global batch, in sequences

template<class E> E enumField(const JsonReader &r, const char *key, E fallback, const char *choices)
{
    if (!r.has(key))
        return fallback;
    const std::string s = r.string(key);
    E out = fallback;
    if (!fromString(s, out))
        r.fail(key, "unknown value '" + s + "' (use " + choices + ")");
    return out;
}

int count(const JsonReader &r, const char *key, int lo, int fallback, long long hi = kMaxCount - 1)
{
    return static_cast<int>(r.integer(key, lo, hi, fallback));
}

TransformerSpec modelFromJson(const JsonReader &r)
{
    TransformerSpec m;
    const bool preset = r.has("preset");
    if (preset) {
        const std::string key = r.string("preset");
        const auto p = modelPreset(key);
        if (!p)
            r.fail("preset", "unknown model preset '" + key + "'");
        m = *p;
    }
    auto need = [&](const char *key, int current, long long hi) {
        return preset ? count(r, key, 1, current, hi) : static_cast<int>(r.integer(key, 1, hi));
    };
    m.name = r.string("name", m.name);
    m.layers = need("layers", m.layers, kMaxLayers);
    m.hidden = need("hidden", m.hidden, kMaxWidth);
    m.heads = need("heads", m.heads, kMaxHeads);
    m.kvHeads = count(r, "kv_heads", 1, r.has("heads") && !r.has("kv_heads") ? m.heads : m.kvHeads,
                      kMaxHeads);
    m.ffn = need("ffn", m.ffn, kMaxWidth);
    m.gatedMlp = r.boolean("gated_mlp", m.gatedMlp);
    m.vocab = need("vocab", m.vocab, kMaxVocab);
    m.seq = need("seq_tokens", m.seq, kMaxSeqTokens);
    m.tiedEmbeddings = r.boolean("tied_embeddings", m.tiedEmbeddings);
    m.qkNorm = r.boolean("qk_norm", m.qkNorm);
    m.rope = r.boolean("rope", m.rope);
    m.ropeAttentionFactor = r.nonNegative("rope_attention_factor", m.ropeAttentionFactor);
    m.dropout = r.boolean("dropout", m.dropout);
    m.experts = count(r, "experts", 0, m.experts, kMaxExperts);
    m.topK = count(r, "top_k", 0, m.topK, kMaxExperts);
    m.expertFfn = count(r, "expert_ffn", 0, m.expertFfn, kMaxWidth);
    m.sharedExperts = count(r, "shared_experts", 0, m.sharedExperts, kMaxExperts);
    m.firstDenseLayers = count(r, "first_dense_layers", 0, m.firstDenseLayers, kMaxLayers);
    m.moeEvery = count(r, "moe_every", 1, m.moeEvery, kMaxLayers);
    m.routerGroupTopK = count(r, "router_group_topk", 0, m.routerGroupTopK, kMaxExperts);
    m.headDim = count(r, "head_dim", 0, m.headDim, kMaxWidth);
    if (auto a = r.optional("mla")) { // multi-head latent attention (DeepSeek-V2 sec. 2.1.2)
        m.qLoraRank = count(*a, "q_lora_rank", 0, m.qLoraRank, kMaxWidth);
        m.kvLoraRank = count(*a, "kv_lora_rank", 1, m.kvLoraRank, kMaxWidth);
        m.qkNopeHeadDim = count(*a, "qk_nope_head_dim", 1, m.qkNopeHeadDim, kMaxWidth);
        m.qkRopeHeadDim = count(*a, "qk_rope_head_dim", 0, m.qkRopeHeadDim, kMaxWidth);
        m.vHeadDim = count(*a, "v_head_dim", 1, m.vHeadDim, kMaxWidth);
    }
    m.slidingWindow = count(r, "sliding_window", 0, m.slidingWindow, kMaxSeqTokens);
    m.windowEvery = count(r, "window_every", 1, m.windowEvery, kMaxLayers);
    m.windowOffset = count(r, "window_offset", 0, m.windowOffset, kMaxLayers);
    m.attentionSinks = r.boolean("attention_sinks", m.attentionSinks);
    m.activationClamp = r.nonNegative("activation_clamp", m.activationClamp);
    m.linearBias = r.boolean("linear_bias", m.linearBias);
    return m;
}

TrainingConfig trainingFromJson(const JsonReader &r)
{
    TrainingConfig c;
    c.tp = count(r, "tp", 1, c.tp, kMaxDegree);
    c.pp = count(r, "pp", 1, c.pp, kMaxDegree);
    c.dp = count(r, "dp", 1, c.dp, kMaxDegree);
    c.cp = count(r, "cp", 1, c.cp, kMaxDegree);
    c.ep = count(r, "ep", 1, c.ep, kMaxDegree);
    c.etp = count(r, "etp", 0, c.etp, kMaxDegree);
    c.dispatcher = enumField(r, "dispatcher", c.dispatcher, "alltoall, deepep, hybridep");
    if (r.has("moe_imbalance")) {
        c.moeImbalance = r.nonNegative("moe_imbalance", c.moeImbalance);
        if (c.moeImbalance < 1 || c.moeImbalance > 1000)
            r.fail("moe_imbalance", "must be from 1 (balanced) to 1000");
    }
    c.vpp = count(r, "vpp", 1, c.vpp, kMaxLayers);
    c.microBatch = count(r, "micro_batch_seqs", 1, c.microBatch, kMaxBatchSeqs);
    c.globalBatch = count(r, "global_batch_seqs", 1, c.globalBatch, kMaxBatchSeqs);
    c.schedule = enumField(r, "schedule", c.schedule, "gpipe, 1f1b, interleaved-1f1b");
    c.recompute = enumField(r, "recompute", c.recompute, "none, selective, full");
    c.sequenceParallel = r.boolean("sequence_parallel", c.sequenceParallel);
    c.zeroStage = static_cast<int>(r.integer("zero_stage", 0, 3, c.zeroStage));
    c.distributedOptimizer = r.boolean("distributed_optimizer", c.distributedOptimizer);
    c.dtype = enumField(r, "dtype", c.dtype, "bf16, fp8, fp4");
    c.fp8Recipe
        = enumField(r, "fp8_recipe", c.dtype == DataType::FP4 ? Fp8Recipe::Nvfp4 : c.fp8Recipe,
                    "delayed, tensorwise, blockwise, mxfp8, nvfp4");
    c.fp8ParamGather = r.boolean("fp8_param_gather", c.fp8ParamGather);
    c.attention = enumField(r, "attention", c.attention, "flash, fa2, unfused");
    c.cpKind = enumField(r, "cp_kind", c.cpKind, "all-gather, ring");
    if (r.has("recompute_modules")) {
        std::string bad;
        if (!recomputeModulesFromString(r.string("recompute_modules"), c.recomputeModules, bad))
            r.fail(
                "recompute_modules",
                "unknown module '" + bad
                    + "' (core_attn, mlp, layernorm, act, up_proj, moe, moe_act, shared_experts)");
    }
    c.fsdp = r.boolean("fsdp", c.fsdp);
    c.fsdpShardGroup = count(r, "hsdp_shard_group", 0, c.fsdpShardGroup, kMaxDegree);
    // Files of Weft before the full-iteration scope say true (the layers' graphs) or false.
    if (r.has("cuda_graphs") && r.raw().at("cuda_graphs").is_boolean())
        c.cudaGraphs
            = r.boolean("cuda_graphs", false) ? CudaGraphScope::Layers : CudaGraphScope::None;
    else
        c.cudaGraphs = enumField(r, "cuda_graphs", c.cudaGraphs,
                                 "none, layers, full-iteration, or a boolean");
    c.routerFusion = r.boolean("moe_router_fusion", c.routerFusion);
    c.fusedElementwise = r.boolean("fused_elementwise", c.fusedElementwise);
    c.launchOverhead = r.nonNegative("launch_overhead_us", c.launchOverhead * 1e6) * 1e-6;
    c.gradReduceFp32 = r.boolean("grad_reduce_fp32", c.gradReduceFp32);
    c.wgradAccumulationFusion
        = r.boolean("gradient_accumulation_fusion", c.wgradAccumulationFusion);
    c.dpBucketBytes = r.nonNegative("dp_bucket_mb", c.dpBucketBytes / 1e6) * 1e6;
    if (auto o = r.optional("overlap")) {
        c.overlapDpGrad = o->boolean("dp_grad", c.overlapDpGrad);
        c.overlapTp = o->boolean("tp", c.overlapTp);
        c.tpOverlapKind = enumField(*o, "tp_kind", c.tpOverlapKind, "userbuffers, async-tp");
        c.overlapPp = o->boolean("pp", c.overlapPp);
        c.overlapEp = o->boolean("ep", c.overlapEp);
        c.overlapSharedExperts = o->boolean("shared_experts", c.overlapSharedExperts);
    }
    if (auto a = r.optional("stage_layers")) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const nlohmann::json &v = a->at(i).raw();
            if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > kMaxLayers)
                a->at(i).fail("must be an integer from 0 to " + std::to_string(kMaxLayers)
                              + " (layers in one stage)");
            c.stageLayers.push_back(v.get<int>());
        }
    }
    return c;
}

} // namespace

nlohmann::ordered_json toJson(const Workload &w)
{
    const TransformerSpec &m = w.model;
    const TrainingConfig &c = w.config;
    nlohmann::ordered_json model {{"name", m.name},
                                  {"layers", m.layers},
                                  {"hidden", m.hidden},
                                  {"heads", m.heads},
                                  {"kv_heads", m.kvHeads},
                                  {"ffn", m.ffn},
                                  {"gated_mlp", m.gatedMlp},
                                  {"vocab", m.vocab},
                                  {"seq_tokens", m.seq},
                                  {"tied_embeddings", m.tiedEmbeddings},
                                  {"rope", m.rope},
                                  {"dropout", m.dropout},
                                  {"experts", m.experts},
                                  {"top_k", m.topK},
                                  {"expert_ffn", m.expertFfn},
                                  {"shared_experts", m.sharedExperts},
                                  {"first_dense_layers", m.firstDenseLayers},
                                  {"moe_every", m.moeEvery}};
    // MoE routing and attention variants, written only when used (older readers and files
    // stay as they were).
    if (m.routerGroupTopK > 0)
        model["router_group_topk"] = m.routerGroupTopK;
    if (m.headDim > 0)
        model["head_dim"] = m.headDim;
    if (m.isMla())
        model["mla"] = {{"q_lora_rank", m.qLoraRank},
                        {"kv_lora_rank", m.kvLoraRank},
                        {"qk_nope_head_dim", m.qkNopeHeadDim},
                        {"qk_rope_head_dim", m.qkRopeHeadDim},
                        {"v_head_dim", m.vHeadDim}};
    if (m.slidingWindow > 0) {
        model["sliding_window"] = m.slidingWindow;
        model["window_every"] = m.windowEvery;
        model["window_offset"] = m.windowOffset;
    }
    if (m.attentionSinks)
        model["attention_sinks"] = true;
    if (m.qkNorm)
        model["qk_norm"] = true;
    if (m.ropeAttentionFactor != 1)
        model["rope_attention_factor"] = m.ropeAttentionFactor;
    if (m.activationClamp > 0)
        model["activation_clamp"] = m.activationClamp;
    if (m.linearBias)
        model["linear_bias"] = true;
    nlohmann::ordered_json training {
        {"tp", c.tp},
        {"pp", c.pp},
        {"dp", c.dp},
        {"cp", c.cp},
        {"ep", c.ep},
        {"vpp", c.vpp},
        {"micro_batch_seqs", c.microBatch},
        {"global_batch_seqs", c.globalBatch},
        {"schedule", toString(c.schedule)},
        {"recompute", toString(c.recompute)},
        {"sequence_parallel", c.sequenceParallel},
        {"zero_stage", c.zeroStage},
        {"distributed_optimizer", c.distributedOptimizer},
        {"dtype", toString(c.dtype)},
        {"fp8_recipe", toString(c.fp8Recipe)},
        {"fp8_param_gather", c.fp8ParamGather},
        {"attention", toString(c.attention)},
        {"cp_kind", toString(c.cpKind)},
        {"recompute_modules", recomputeModulesToString(c.recomputeModules)},
        {"fsdp", c.fsdp},
        {"hsdp_shard_group", c.fsdpShardGroup},
        {"cuda_graphs", toString(c.cudaGraphs)},
        {"fused_elementwise", c.fusedElementwise},
        {"launch_overhead_us", c.launchOverhead * 1e6},
        {"grad_reduce_fp32", c.gradReduceFp32},
        {"gradient_accumulation_fusion", c.wgradAccumulationFusion},
        {"dp_bucket_mb", c.dpBucketBytes / 1e6},
        {"overlap",
         {{"dp_grad", c.overlapDpGrad},
          {"tp", c.overlapTp},
          {"pp", c.overlapPp},
          {"ep", c.overlapEp}}}};
    if (!c.stageLayers.empty())
        training["stage_layers"] = c.stageLayers;
    if (c.etp > 0)
        training["etp"] = c.etp;
    if (c.dispatcher != TokenDispatcher::AllToAll)
        training["dispatcher"] = toString(c.dispatcher);
    if (c.moeImbalance != 1.0)
        training["moe_imbalance"] = c.moeImbalance;
    if (c.overlapSharedExperts)
        training["overlap"]["shared_experts"] = true;
    if (c.tpOverlapKind != TpOverlapKind::Userbuffers)
        training["overlap"]["tp_kind"] = toString(c.tpOverlapKind);
    if (!c.routerFusion)
        training["moe_router_fusion"] = false;
    nlohmann::ordered_json placement {{"order", w.placement.order}};
    if (!w.placement.explicitMap.empty()) {
        nlohmann::ordered_json map = nlohmann::ordered_json::array();
        for (NodeId id : w.placement.explicitMap)
            map.push_back(id.value);
        placement["map"] = map;
    }
    return {{"model", model}, {"training", training}, {"placement", placement}};
}

Workload workloadFromJson(const JsonReader &r)
{
    Workload w;
    w.model = modelFromJson(r.object("model"));
    if (auto t = r.optional("training"))
        w.config = trainingFromJson(*t);
    if (auto p = r.optional("placement")) {
        w.placement.order = p->string("order", w.placement.order);
        if (auto map = p->optional("map"))
            for (std::size_t i = 0; i < map->size(); ++i) {
                const nlohmann::json &v = map->at(i).raw();
                if (!v.is_number_unsigned() || v.get<unsigned long long>() >= 0xFFFFFFFFULL)
                    map->at(i).fail("must be a node id (non-negative integer)");
                w.placement.explicitMap.push_back(NodeId(v.get<std::uint32_t>()));
            }
    }
    return w;
}

std::variant<Workload, FileError> readWorkloadFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileError {path, "", "cannot be opened"};
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::parse_error &e) {
        return FileError {path, "", std::string("not valid JSON: ") + e.what()};
    }
    try {
        const JsonReader root(doc, "");
        if (!doc.is_object())
            root.fail("must be a JSON object");
        if (root.has("workload"))
            return workloadFromJson(root.object("workload"));
        return workloadFromJson(root);
    } catch (const JsonFieldError &e) {
        return FileError {path, e.path(), e.what()};
    }
}

} // namespace weft
