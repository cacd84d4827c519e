#include "core/layers.h"
#include "core/ensure.h"

namespace poslab {

const ParamTable<LayerPattern>& layerPatternTable() {
    using K = ParamKind;
    using L = LayerPattern;
    auto hasModel = [](const L& p) { return !p.empty(); };
    static const ParamTable<LayerPattern> t = {
        field<&L::model_type>({.name = "model_type", .kind = K::Text, .label = "Model type",
                               .help = "the model family the layer pattern came from"})
            .when(hasModel),
        field<&L::layer_types>({.name = "layer_types", .kind = K::Text, .label = "Layer types",
                                .help = "one type per layer, comma-separated: full, sliding, chunked", .unset = "no pattern",
                                .maxChars = 4096 * 8})   // 4096 layers of "chunked," (layerPatternProblem: at most 4096)
            .when(hasModel),
        field<&L::rope_layers>({.name = "rope_layers", .kind = K::IntList, .lo = 0, .hi = 1, .label = "RoPE layers",
                                .help = "one flag per layer: 1 = the layer applies RoPE, 0 = NoPE", .maxEntries = 4096})
            .when(hasModel),
        field<&L::layer>({.name = "layer", .kind = K::Int, .lo = 0, .hi = 1e9, .label = "Layer",
                          .help = "0-based layer of the model shown (with --config)"})
            .when(hasModel),
        field<&L::window>({.name = "window", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition),
                           .optional = true, .label = "Sliding window", .help = "the sliding layers' window",
                           .unit = "tokens", .unset = "none"})
            .when(hasModel),
        field<&L::chunk>({.name = "chunk", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition),
                          .optional = true, .label = "Chunk", .help = "the chunked layers' chunk size", .unit = "tokens",
                          .unset = "none"})
            .when(hasModel),
        field<&L::bidirectional>({.name = "bidirectional", .kind = K::Bool, .label = "Bidirectional",
                                  .help = "an encoder: every layer attends both ways; a window W reaches |i − j| ≤ ⌊W/2⌋"})
            .when(hasModel),
        field<&L::temperature_tuning>({.name = "temperature_tuning", .kind = K::RealList, .lo = 0, .hi = 1e12,
                                       .label = "Temperature tuning", .help = "NoPE layers: [floor_scale, attn_scale]",
                                       .unset = "off", .maxEntries = 2})
            .when(hasModel),
        field<&L::qk_norm>({.name = "qk_norm", .kind = K::Choice, .label = "q/k norm", .help = "q/k RMS norm of the model"})
            .when(hasModel),
        field<&L::qk_norm_rope_only>({.name = "qk_norm_rope_only", .kind = K::Bool, .label = "q/k norm on RoPE layers only",
                                      .help = "Llama 4: the q/k norm only on the RoPE layers"})
            .when(hasModel),
        field<&L::norm_eps>({.name = "norm_eps", .kind = K::Real, .lo = 0, .hi = 1, .label = "Norm eps",
                             .help = "eps of the model's q/k norm"})
            .when(hasModel),
        field<&L::softmax_scale>({.name = "softmax_scale", .kind = K::Real, .lo = 0, .hi = 1e6, .loOpen = true,
                                  .optional = true, .label = "Softmax scale", .help = "the model's score scale",
                                  .unset = "1/√dim"})
            .when(hasModel),
        field<&L::sink>({.name = "sink", .kind = K::RealList, .lo = -1e4, .hi = 1e4, .label = "Sink logits",
                         .help = "the model's sink logit per head", .unset = "none", .maxEntries = 4096})
            .when(hasModel),
        field<&L::softcap>({.name = "softcap", .kind = K::Real, .lo = 0, .hi = 1e6, .loOpen = true, .optional = true,
                            .label = "Logit soft-cap", .help = "the model's logit soft-cap C (every layer)", .unset = "none"})
            .when(hasModel),
        field<&L::query_scaling>({.name = "query_scaling", .kind = K::RealList, .lo = 0, .hi = 1e12, .label = "Query scaling",
                                  .help = "every layer: [N, β], queries × 1 + β·ln(1 + ⌊p/N⌋)", .unset = "off",
                                  .maxEntries = 2})
            .when(hasModel),
    };
    return t;
}

std::optional<std::vector<LayerType>> parseLayerTypes(const std::string& text) {
    std::vector<LayerType> out;
    if (text.empty()) return out;
    std::size_t a = 0;
    while (a <= text.size()) {
        std::size_t b = text.find(',', a);
        if (b == std::string::npos) b = text.size();
        std::string word = text.substr(a, b - a);
        while (!word.empty() && word.front() == ' ') word.erase(word.begin());
        while (!word.empty() && word.back() == ' ') word.pop_back();
        auto t = enumFromKey<LayerType>(word);
        if (!t) return std::nullopt;
        out.push_back(*t);
        a = b + 1;
    }
    return out;
}

std::string layerTypesText(const std::vector<LayerType>& types) {
    std::string out;
    for (auto t : types) {
        if (!out.empty()) out += ',';
        out += enumKey(t);
    }
    return out;
}

std::int64_t layerCount(const LayerPattern& p) {
    auto t = parseLayerTypes(p.layer_types);
    return t ? static_cast<std::int64_t>(t->size()) : 0;
}

Check LayerPattern::validate() const {
    if (auto e = checkParams(layerPatternTable(), *this)) return e;
    for (const RopeParams* r : {&rope_full, &rope_sliding, &rope_chunked})
        if (auto e = checkParams(ropeParamTable(), *r)) return e;
    if (empty()) return std::nullopt;
    const auto types = parseLayerTypes(layer_types);
    if (!types) return ParamError{"layer_types", "a comma-separated list of full, sliding, chunked", layer_types.substr(0, 60)};
    const auto n = static_cast<std::int64_t>(types->size());
    if (n > 4096) return ParamError{"layer_types", "at most 4096 layers", formatInt(n)};
    if (static_cast<std::int64_t>(rope_layers.size()) != n)
        return ParamError{"rope_layers", "one flag per layer (" + formatInt(n) + ")",
                          formatInt(static_cast<std::int64_t>(rope_layers.size())) + " flags"};
    if (layer < 0 || layer >= n)
        return ParamError{"layer", "an integer from 0 to " + formatInt(n - 1) + " (the model has " + formatInt(n) + " layers)",
                          formatInt(layer)};
    for (auto t : *types) {
        if (t == LayerType::Sliding && !window)
            return ParamError{"window", "a window for the sliding layers", "none"};
        if (t == LayerType::Chunked && !chunk) return ParamError{"chunk", "a chunk size for the chunked layers", "none"};
    }
    if (!temperature_tuning.empty() && (temperature_tuning.size() != 2 || !(temperature_tuning[0] >= 1)))
        return ParamError{"temperature_tuning", "two numbers F ≥ 1, S", formatInt(static_cast<std::int64_t>(temperature_tuning.size())) + " numbers"};
    if (!query_scaling.empty() && (query_scaling.size() != 2 || !(query_scaling[0] >= 1)))
        return ParamError{"query_scaling", "two numbers N ≥ 1, β", formatInt(static_cast<std::int64_t>(query_scaling.size())) + " numbers"};
    for (const RopeParams* r : {&rope_full, &rope_sliding, &rope_chunked})
        if (auto e = r->validate()) return e;
    return std::nullopt;
}

LayerParams layerParams(const LayerPattern& p, std::int64_t layer) {
    POSLAB_ENSURE(layer >= 0 && layer < layerCount(p), "0 <= layer < layerCount(p)");
    LayerParams out;
    const auto types = parseLayerTypes(p.layer_types).value_or(std::vector<LayerType>{});
    if (layer < 0 || layer >= static_cast<std::int64_t>(types.size())) return out;
    const auto i = static_cast<std::size_t>(layer);
    out.type = types[i];
    out.rope = i < p.rope_layers.size() ? p.rope_layers[i] != 0 : true;
    out.ropeParams = out.type == LayerType::Sliding ? p.rope_sliding : out.type == LayerType::Chunked ? p.rope_chunked : p.rope_full;
    AttentionParams& a = out.attention;
    if (out.type == LayerType::Sliding) a.window = p.window;
    if (out.type == LayerType::Chunked) a.chunk = p.chunk;
    a.nope = !out.rope;
    if (!out.rope) a.temperature_tuning = p.temperature_tuning;
    if (!p.qk_norm_rope_only || out.rope) a.qk_norm = p.qk_norm;
    a.norm_eps = p.norm_eps;
    a.softmax_scale = p.softmax_scale;
    a.sink = p.sink;
    a.softcap = p.softcap;
    a.query_scaling = p.query_scaling;
    return out;
}

std::optional<std::int64_t> firstLayerOfType(const LayerPattern& p, LayerType t) {
    const auto types = parseLayerTypes(p.layer_types);
    if (!types) return std::nullopt;
    for (std::size_t i = 0; i < types->size(); ++i)
        if ((*types)[i] == t) return static_cast<std::int64_t>(i);
    return std::nullopt;
}

}  // namespace poslab
