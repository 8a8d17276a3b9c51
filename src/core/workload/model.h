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
    bool tiedEmbeddings = false; ///< output layer shares the input embedding matrix
    bool rope = false; ///< rotary position embedding applied to Q and K in every layer
    bool dropout = true; ///< hidden and attention dropout (GPT-3 / Megatron 2021-22; Llama: none)
    // Mixture of experts (experts == 0: dense model).
    int experts = 0; ///< E, routed experts per MoE layer
    int topK = 0; ///< k, experts per token
    int expertFfn = 0; ///< hidden size of one expert's MLP
    int sharedExperts = 0; ///< always-active experts of size expertFfn (DeepSeek)
    int firstDenseLayers = 0; ///< the first layers keep a dense MLP (DeepSeek-V3: 3)
    int moeEvery = 1; ///< every n-th layer (after the dense ones) is MoE (1: all)

    [[nodiscard]] bool isMoe() const { return experts > 0 && topK > 0; }
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

/// Built-in model presets: gpt3-175b, llama3-8b/70b/405b, mixtral-8x7b, deepseek-v3 (its
/// multi-head latent attention approximated as MHA of the same hidden size and head count) and
/// the GPT models of the validation set (megatron-1.7b ... megatron-1t, mt-nlg-530b, gpt-22b).
std::optional<TransformerSpec> modelPreset(const std::string &key);
/// Keys of all presets, in a stable order.
std::vector<std::string> modelPresetKeys();

} // namespace weft
