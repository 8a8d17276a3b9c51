#include "workload/model.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace weft {

bool TransformerSpec::isMoeLayer(int i) const
{
    if (!isMoe() || i < firstDenseLayers)
        return false;
    const int every = moeEvery > 0 ? moeEvery : 1;
    return (i - firstDenseLayers) % every == 0;
}

int TransformerSpec::moeLayers() const
{
    int n = 0;
    for (int i = 0; i < layers; ++i)
        n += isMoeLayer(i) ? 1 : 0;
    return n;
}

double TransformerSpec::layerExpertParams(int i) const
{
    if (!isMoeLayer(i))
        return 0;
    const double mats = gatedMlp ? 3 : 2;
    return double(experts) * mats * double(hidden) * expertFfn;
}

double TransformerSpec::qkHeadDim() const
{
    if (isMla())
        return double(qkNopeHeadDim) + qkRopeHeadDim;
    return headDim > 0 ? double(headDim) : double(hidden) / std::max(1, heads);
}

double TransformerSpec::vHeadDimOf() const
{
    if (isMla())
        return vHeadDim;
    return qkHeadDim();
}

double TransformerSpec::keyWidth() const
{
    return isMla() ? double(heads) * qkHeadDim() : double(kvHeads) * qkHeadDim();
}

double TransformerSpec::valueWidth() const
{
    return isMla() ? double(heads) * vHeadDim : double(kvHeads) * vHeadDimOf();
}

double TransformerSpec::attentionParams() const
{
    const double h = hidden;
    const double out = heads * vHeadDimOf() * h; // output projection
    if (!isMla())
        return h * (queryWidth() + keyWidth() + valueWidth()) + out;
    // DeepSeek-V2 sec. 2.1.2: W_DQ (h x d_c'), W_UQ and W_QR (d_c' x heads (nope + rope)), or a
    // plain W_Q without a query latent; W_DKV and W_KR (h x (d_c + rope)); W_UK and W_UV (d_c x
    // heads (nope + v)); the RMSNorms of both latents.
    const double q = qLoraRank > 0 ? h * qLoraRank + double(qLoraRank) * queryWidth() + qLoraRank
                                   : h * queryWidth();
    const double kv = h * (double(kvLoraRank) + qkRopeHeadDim)
        + double(kvLoraRank) * heads * (double(qkNopeHeadDim) + vHeadDim) + kvLoraRank;
    return q + kv + out;
}

bool TransformerSpec::isWindowLayer(int i) const
{
    if (slidingWindow <= 0)
        return false;
    const int every = windowEvery > 0 ? windowEvery : 1;
    return i % every == windowOffset % every;
}

double TransformerSpec::attendedKeys(int i) const
{
    const double s = seq;
    if (!isWindowLayer(i) || slidingWindow >= seq)
        return s;
    const double w = slidingWindow;
    return std::min(s, 2 * (w - w * (w - 1) / (2 * s)));
}

double TransformerSpec::layerParams(int i) const
{
    const double h = hidden;
    const double attn = attentionParams(); // QKV (or MLA) + output projection
    const double mats = gatedMlp ? 3 : 2;
    double mlp = 0;
    if (isMoeLayer(i))
        mlp = layerExpertParams(i) + mats * h * double(expertFfn) * sharedExperts + h * experts;
    else
        mlp = mats * h * double(ffn);
    return attn + mlp + 4 * h; // two norms (weight + bias)
}

double TransformerSpec::totalParams() const
{
    double p = embeddingParams() * (tiedEmbeddings ? 1 : 2);
    for (int i = 0; i < layers; ++i)
        p += layerParams(i);
    return p;
}

namespace {

TransformerSpec dense(const char *name, int l, int h, int a, int g, int f, bool gated, int V, int s)
{
    TransformerSpec m;
    m.name = name;
    m.layers = l;
    m.hidden = h;
    m.heads = a;
    m.kvHeads = g;
    m.ffn = f;
    m.gatedMlp = gated;
    m.vocab = V;
    m.seq = s;
    return m;
}

// The Llama-family conventions: rotary position embeddings, no dropout.
TransformerSpec modern(TransformerSpec m)
{
    m.rope = true;
    m.dropout = false;
    return m;
}

// DeepSeek-V3's multi-head latent attention (its Hugging Face config.json; Kimi K2 the same).
TransformerSpec mla(TransformerSpec m)
{
    m.qLoraRank = 1536;
    m.kvLoraRank = 512;
    m.qkNopeHeadDim = 128;
    m.qkRopeHeadDim = 64;
    m.vHeadDim = 128;
    return m;
}

const std::map<std::string, TransformerSpec> &presets()
{
    static const std::map<std::string, TransformerSpec> all = [] {
        std::map<std::string, TransformerSpec> p;
        auto add = [&p](TransformerSpec m) { p[m.name] = m; };
        // Brown et al. 2020, Table 2.1 (Megatron pads the vocabulary to 51200).
        add(dense("gpt3-175b", 96, 12288, 96, 96, 49152, false, 51200, 2048));
        // Llama 3 herd paper (Dubey et al. 2024), Table 3.
        // RoPE and no dropout (Touvron et al. 2023 sec. 2.2; Dubey et al. 2024 sec. 3.1).
        add(modern(dense("llama3-8b", 32, 4096, 32, 8, 14336, true, 128256, 8192)));
        add(modern(dense("llama3-70b", 80, 8192, 64, 8, 28672, true, 128256, 8192)));
        add(modern(dense("llama3-405b", 126, 16384, 128, 8, 53248, true, 128256, 8192)));
        // Mixtral of experts (Jiang et al. 2024), Table 1.
        TransformerSpec mix
            = modern(dense("mixtral-8x7b", 32, 4096, 32, 8, 14336, true, 32000, 4096));
        mix.experts = 8;
        mix.topK = 2;
        mix.expertFfn = 14336;
        add(mix);
        // Mixtral 8x22B: Hugging Face mistralai/Mixtral-8x22B-v0.1 config.json (56 layers,
        // hidden 6144, 48 heads, 8 kv heads, intermediate 16384, vocab 32768, 8 experts, top-2);
        // sequence 4096 as the Megatron-Core MoE README's reference mapping trains it.
        TransformerSpec mix22
            = modern(dense("mixtral-8x22b", 56, 6144, 48, 8, 16384, true, 32768, 4096));
        mix22.experts = 8;
        mix22.topK = 2;
        mix22.expertFfn = 16384;
        add(mix22);
        // DeepSeek-V3 technical report (2024), sec. 4.2 and its Hugging Face config.json: 61
        // layers, hidden 7168, 128 heads, first 3 dense (18432), 1 shared + 256 routed experts
        // of 2048, 8 active, node-limited to 4 of 8 groups (sec. 2.1.2); MLA with q_lora_rank
        // 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128;
        // vocabulary 129280. Sequence 4096 (the pre-training length, sec. 4.2).
        TransformerSpec ds
            = mla(modern(dense("deepseek-v3", 61, 7168, 128, 128, 18432, true, 129280, 4096)));
        ds.experts = 256;
        ds.topK = 8;
        ds.expertFfn = 2048;
        ds.sharedExperts = 1;
        ds.firstDenseLayers = 3;
        ds.routerGroupTopK = 4;
        add(ds);
        // Kimi K2 (Moonshot AI): Hugging Face moonshotai/Kimi-K2-Instruct config.json, the
        // DeepSeek-V3 architecture with 64 heads, 384 routed experts (8 active, 1 shared), one
        // dense layer first, vocabulary 163840, n_group = topk_group = 1 (no node limit).
        TransformerSpec kimi
            = mla(modern(dense("kimi-k2", 61, 7168, 64, 64, 18432, true, 163840, 4096)));
        kimi.experts = 384;
        kimi.topK = 8;
        kimi.expertFfn = 2048;
        kimi.sharedExperts = 1;
        kimi.firstDenseLayers = 1;
        add(kimi);
        // Qwen3 MoE: Hugging Face Qwen/Qwen3-235B-A22B and Qwen/Qwen3-30B-A3B config.json
        // (head_dim 128, 4 kv heads, 128 experts, 8 active, every layer MoE, no shared expert,
        // untied embeddings); sequence 4096 as the Megatron-Bridge tables train them.
        TransformerSpec q235
            = modern(dense("qwen3-235b-a22b", 94, 4096, 64, 4, 12288, true, 151936, 4096));
        q235.headDim = 128;
        q235.experts = 128;
        q235.topK = 8;
        q235.expertFfn = 1536;
        q235.qkNorm = true; // q_norm / k_norm (modeling_qwen3_moe.py)
        add(q235);
        TransformerSpec q30
            = modern(dense("qwen3-30b-a3b", 48, 2048, 32, 4, 6144, true, 151936, 4096));
        q30.headDim = 128;
        q30.experts = 128;
        q30.topK = 8;
        q30.expertFfn = 768;
        q30.qkNorm = true;
        add(q30);
        // GPT-OSS-120B: Hugging Face openai/gpt-oss-120b config.json (36 layers, hidden 2880,
        // 64 heads of 64, 8 kv heads, 128 experts of 2880, 4 active, vocabulary 201088,
        // layer_types alternating sliding_attention (window 128) and full_attention starting
        // with a sliding layer, attention sinks); sequence 4096 (the model card's training
        // context before YaRN extension).
        TransformerSpec oss
            = modern(dense("gpt-oss-120b", 36, 2880, 64, 8, 2880, true, 201088, 4096));
        oss.headDim = 64;
        oss.experts = 128;
        oss.topK = 4;
        oss.expertFfn = 2880;
        oss.slidingWindow = 128;
        oss.windowEvery = 2;
        oss.windowOffset = 0;
        oss.attentionSinks = true;
        oss.activationClamp = 7.0; // swiglu_limit
        oss.linearBias = true; // attention_bias and the experts' biases
        // rope_scaling: YaRN, factor 32, no mscale / mscale_all_dim: attention factor
        // 0.1 ln 32 + 1 (Megatron-Core yarn_rotary_pos_embedding.py, _yarn_get_mscale).
        oss.ropeAttentionFactor = 0.1 * std::log(32.0) + 1.0;
        add(oss);
        // Validation set: Narayanan et al. 2021 Table 1 and Korthikanti et al. 2022 Table 3.
        add(dense("megatron-1.7b", 24, 2304, 24, 24, 9216, false, 51200, 2048));
        add(dense("megatron-3.6b", 30, 3072, 32, 32, 12288, false, 51200, 2048));
        add(dense("megatron-7.5b", 36, 4096, 32, 32, 16384, false, 51200, 2048));
        add(dense("megatron-18.4b", 40, 6144, 48, 48, 24576, false, 51200, 2048));
        add(dense("megatron-39.1b", 48, 8192, 64, 64, 32768, false, 51200, 2048));
        add(dense("megatron-76.1b", 60, 10240, 80, 80, 40960, false, 51200, 2048));
        add(dense("megatron-145.6b", 80, 12288, 96, 96, 49152, false, 51200, 2048));
        add(dense("megatron-310.1b", 96, 16384, 128, 128, 65536, false, 51200, 2048));
        add(dense("megatron-529.6b", 105, 20480, 128, 128, 81920, false, 51200, 2048));
        add(dense("megatron-1t", 128, 25600, 160, 160, 102400, false, 51200, 2048));
        add(dense("gpt-22b", 48, 6144, 64, 64, 24576, false, 51200, 2048));
        add(dense("mt-nlg-530b", 105, 20480, 128, 128, 81920, false, 51200, 2048));
        return p;
    }();
    return all;
}

} // namespace

std::optional<TransformerSpec> modelPreset(const std::string &key)
{
    auto it = presets().find(key);
    if (it == presets().end())
        return std::nullopt;
    return it->second;
}

std::vector<std::string> modelPresetKeys()
{
    std::vector<std::string> keys;
    for (const auto &[k, v] : presets())
        keys.push_back(k);
    return keys;
}

} // namespace weft
