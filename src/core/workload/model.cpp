#include "workload/model.h"

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

double TransformerSpec::layerParams(int i) const
{
    const double h = hidden;
    const double kv = heads > 0 ? h * kvHeads / heads : h;
    const double attn = h * (h + 2 * kv) + h * h; // QKV + output projection
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
        // DeepSeek-V3 technical report (2024), sec. 4.2: 61 layers, first 3 dense, 1 shared +
        // 256 routed experts of 2048, 8 active. MLA approximated as MHA (128 heads).
        TransformerSpec ds
            = modern(dense("deepseek-v3", 61, 7168, 128, 128, 18432, true, 129280, 4096));
        ds.experts = 256;
        ds.topK = 8;
        ds.expertFfn = 2048;
        ds.sharedExperts = 1;
        ds.firstDenseLayers = 3;
        add(ds);
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
