#pragma once
// The transformer being trained (simulator.md, Inputs 2): dense or MoE, MHA/GQA, gated or plain
// MLP. Presets cover the models named in the design documents and the validation set.

#include <optional>
#include <string>
#include <vector>

namespace weft {

/// Shape of a decoder-only transformer. All sizes are element counts; `seq` is tokens.
struct TransformerSpec
{
    std::string name; ///< preset key or a free name
    int layers = 1; ///< l
    int hidden = 1; ///< h
    int heads = 1; ///< a (query heads)
    int kvHeads = 1; ///< g (key/value heads; = heads for MHA)
    int ffn = 4; ///< f, dense MLP hidden size
    bool gatedMlp = false; ///< SwiGLU (3 matrices) instead of 2
    int vocab = 1; ///< V
    int seq = 1; ///< s, sequence length in tokens
    /// Dimension of one attention head; 0: hidden / heads. Explicit where the projections are
    /// wider or narrower than the hidden size (Qwen3: 128 with 64 heads of a 4096 hidden;
    /// GPT-OSS: 64 with 64 heads of a 2880 hidden).
    int headDim = 0;
    /// Multi-head latent attention (DeepSeek-V2 paper, Liu et al. 2024, sec. 2.1.2, eqs. 9-19;
    /// used by DeepSeek-V3 and Kimi K2): queries and keys/values are compressed to low-rank
    /// latents (qLoraRank, kvLoraRank) and expanded per head into a non-rotary part
    /// (qkNopeHeadDim), a decoupled rotary part (qkRopeHeadDim, the key's shared by all heads)
    /// and values of vHeadDim. kvLoraRank == 0: standard multi-head / grouped-query attention.
    int qLoraRank = 0, kvLoraRank = 0, qkNopeHeadDim = 0, qkRopeHeadDim = 0, vHeadDim = 0;
    /// Sliding-window attention (GPT-OSS): layers whose index i satisfies i % windowEvery ==
    /// windowOffset attend to the last `slidingWindow` tokens only (causal); the others attend
    /// to the whole sequence. slidingWindow == 0: every layer full. GPT-OSS alternates a
    /// 128-token window (even layers) and full attention (odd layers).
    int slidingWindow = 0;
    int windowEvery = 1, windowOffset = 0;
    /// Learned per-head attention-sink logits (GPT-OSS): one extra softmax term per head, no
    /// GEMM; carried for completeness, its cost is negligible and not modelled: the fused kernel
    /// keeps them (cuDNN >= 9.13.1 with Transformer Engine >= 2.8, softmax_type "learnable":
    /// transformer_engine/common/fused_attn/fused_attn.cpp, nvte_get_fused_attn_backend, v2.13;
    /// only FlashAttention, FP8 attention before cuDNN 9.21, p2p context parallelism and
    /// deterministic mode fall back, dot_product_attention/utils.py get_attention_backend).
    bool attentionSinks = false;
    /// GLU inputs clamped to +-activationClamp before the activation (GPT-OSS: 7.0, with the up
    /// half offset by 1); 0: no clamp. Megatron-Core applies it outside its fused bias-GLU kernel
    /// (megatron/core/fusions/fused_bias_geglu.py: chunk, two clamps, a concatenation), so it
    /// costs element-wise passes over the expert MLP's first output (costmodel.cpp).
    double activationClamp = 0;
    /// Biases on the linear layers (GPT-OSS). Transformer Engine adds them in the GEMM epilogue,
    /// except the routed experts' second bias, which Megatron-Core's grouped MLP adds per expert
    /// after the GEMM, weighted by the routing probability (moe/experts.py, _apply_bias).
    bool linearBias = false;
    /// RMSNorm of each query and key head before RoPE (Qwen3: q_norm and k_norm in its Hugging
    /// Face modeling code; Megatron-Core --qk-layernorm, two Transformer Engine norm kernels a
    /// layer, forward and backward). Element-wise cost only (costmodel.cpp).
    bool qkNorm = false;
    bool tiedEmbeddings = false; ///< output layer shares the input embedding matrix
    bool rope = false; ///< rotary position embedding applied to Q and K in every layer
    /// YaRN's attention factor ("concentration", mscale) that scales the rotary cos/sin tables
    /// (Peng et al. 2023, YaRN, sec. 3.4: 0.1 ln(s) + 1 for a context extension factor s, or the
    /// ratio of the mscale and mscale_all_dim terms where a config gives both); 1: plain RoPE or
    /// YaRN without scaling (DeepSeek-V3, Kimi K2: mscale = mscale_all_dim). GPT-OSS: factor 32,
    /// 0.1 ln 32 + 1 = 1.3466. Megatron-Core's fused RoPE (Transformer Engine) takes no scale, so
    /// a factor other than 1 runs RoPE as unfused element-wise PyTorch ops (costmodel.cpp).
    double ropeAttentionFactor = 1;
    bool dropout = true; ///< hidden and attention dropout (GPT-3 / Megatron 2021-22; Llama: none)
    // Mixture of experts (experts == 0: dense model).
    int experts = 0; ///< E, routed experts per MoE layer
    int topK = 0; ///< k, experts per token
    int expertFfn = 0; ///< hidden size of one expert's MLP
    int sharedExperts = 0; ///< always-active experts of size expertFfn (DeepSeek)
    int firstDenseLayers = 0; ///< the first layers keep a dense MLP (DeepSeek-V3: 3)
    int moeEvery = 1; ///< every n-th layer (after the dense ones) is MoE (1: all)
    /// Node-limited routing: each token's experts on at most this many EP groups of nodes
    /// (DeepSeek-V3 report sec. 2.1.2: M = 4 of 8 groups; Megatron-Core --moe-router-group-topk
    /// with --moe-router-num-groups). 0: unrestricted.
    int routerGroupTopK = 0;

    [[nodiscard]] bool isMoe() const { return experts > 0 && topK > 0; }
    [[nodiscard]] bool isMla() const { return kvLoraRank > 0; }
    /// Head dimension of the query-key product: qkNope + qkRope for MLA, else headDim (or h/a).
    [[nodiscard]] double qkHeadDim() const;
    /// Head dimension of the values (and the attention output per head).
    [[nodiscard]] double vHeadDimOf() const;
    /// Output widths of the attention's input projections per token, elements: queries (all
    /// heads), keys and values (kv heads; MLA: their up-projections, all heads).
    [[nodiscard]] double queryWidth() const { return heads * qkHeadDim(); }
    [[nodiscard]] double keyWidth() const;
    [[nodiscard]] double valueWidth() const;
    /// Parameters of one layer's attention block (projections; MLA: down, up and output
    /// projections and the latent norms), elements.
    [[nodiscard]] double attentionParams() const;
    /// Whether layer `i` uses the sliding window.
    [[nodiscard]] bool isWindowLayer(int i) const;
    /// Keys one query of layer `i` attends to on average over the sequence, counted as the
    /// full square convention does (s for a full layer; the causal window's 2(w - w(w-1)/(2s))
    /// so that halving by causality gives the exact window count, at most s).
    [[nodiscard]] double attendedKeys(int i) const;
    /// Whether layer `i` (0-based) has a MoE MLP.
    [[nodiscard]] bool isMoeLayer(int i) const;
    /// Number of MoE layers.
    [[nodiscard]] int moeLayers() const;
    /// Parameters of one transformer layer (attention + MLP or experts + norms), elements.
    [[nodiscard]] double layerParams(int i) const;
    /// Expert parameters of layer `i` (routed experts only; sharded over EP), elements.
    [[nodiscard]] double layerExpertParams(int i) const;
    /// Input embedding (V*h) parameters; the output layer has the same count unless tied.
    [[nodiscard]] double embeddingParams() const { return double(vocab) * hidden; }
    /// All parameters of the model, elements.
    [[nodiscard]] double totalParams() const;
};

/// Built-in model presets: gpt3-175b, llama3-8b/70b/405b, mixtral-8x7b, mixtral-8x22b,
/// deepseek-v3 and kimi-k2 (MLA), qwen3-235b-a22b, qwen3-30b-a3b, gpt-oss-120b (sliding
/// window) and the GPT models of the validation set (megatron-1.7b ... megatron-1t, mt-nlg-530b,
/// gpt-22b). Each preset's comment names the source of its numbers.
std::optional<TransformerSpec> modelPreset(const std::string &key);
/// Keys of all presets, in a stable order.
std::vector<std::string> modelPresetKeys();

} // namespace weft
