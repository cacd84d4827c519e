#pragma once
// A model's layer pattern (docs/spec/cli.md and conventions.md, "Added in 0.3"): today's open models
// apply different positional schemes to different layers. The pattern is compact — one layer
// type and one RoPE flag per layer, the model's window, chunk, temperature tuning, q/k norm,
// softmax scale and sinks, and one set of RoPE parameters per layer type — and layerParams()
// turns it into the parameters of one layer, exactly as transformers main builds that layer:
//   rope        the RoPE parameters of the layer's type (rope_full / rope_sliding / rope_chunked:
//               a nested config gives one per type; a flat one the same to every type)
//   attention   window (sliding layers), chunk (chunked layers), nope = !rope_layers[i],
//               (bidirectional: the model's layers attend both ways, which the scene's causal flag
//               and visibleTo(attention, !bidirectional) express; layerParams() leaves it there),
//               temperature tuning (NoPE layers only: Llama 4), q/k norm (every layer, or only the
//               RoPE layers when qk_norm_rope_only: Llama 4), softmax scale, sinks, logit soft-cap
//               and query scaling (every layer).
// An empty `layer_types` means no pattern (a scene of one scheme).
#include "core/attention.h"
#include "core/rope.h"

#include <string>
#include <vector>

namespace poslab {

struct LayerPattern {
    std::string model_type;                     // the config's model_type ("gemma3_text"), for people
    std::string layer_types;                    // one per layer, comma-separated: full, sliding, chunked
    std::vector<std::int64_t> rope_layers;      // one per layer: 1 = applies RoPE, 0 = NoPE
    std::int64_t layer = 0;                     // the layer shown, 0 .. L−1
    std::optional<std::int64_t> window;         // sliding layers' window
    std::optional<std::int64_t> chunk;          // chunked layers' chunk
    bool bidirectional = false;                 // an encoder (ModernBERT): every layer attends both ways, a
                                                // window W reaches ⌊W/2⌋ each side (|i − j| ≤ ⌊W/2⌋)
    std::vector<double> temperature_tuning;     // NoPE layers: [F, S] or empty
    QkNorm qk_norm = QkNorm::None;
    bool qk_norm_rope_only = false;             // Llama 4: q/k norm on RoPE layers only
    double norm_eps = 1e-6;
    std::optional<double> softmax_scale;
    std::vector<double> sink;
    std::optional<double> softcap;              // logit soft-cap of every layer (Gemma 2)
    std::vector<double> query_scaling;          // every layer: [N, β] (Ministral 3) or empty
    RopeParams rope_full, rope_sliding, rope_chunked;   // per layer type

    bool operator==(const LayerPattern&) const = default;
    bool empty() const { return layer_types.empty(); }
    // Cross-field rules: types parse, rope_layers has one entry per layer, layer in range, a
    // window for sliding layers, a chunk for chunked ones.
    Check validate() const;
};

// The own fields of LayerPattern (its RopeParams are nested by scoreParamTable() as groups
// model_rope_full, model_rope_sliding, model_rope_chunked).
const ParamTable<LayerPattern>& layerPatternTable();

// The layer types of a pattern (nullopt on a word that is not a type; validate() reports it).
std::optional<std::vector<LayerType>> parseLayerTypes(const std::string& text);
std::string layerTypesText(const std::vector<LayerType>& types);
std::int64_t layerCount(const LayerPattern& p);

// One layer of the pattern. Precondition: 0 <= layer < layerCount(p). The other fields are read
// as they are (the layers view draws a pattern whose RoPE values someone is still typing):
// p.validate() says whether they make a model.
struct LayerParams {
    LayerType type = LayerType::Full;
    bool rope = true;
    RopeParams ropeParams;
    AttentionParams attention;
};
LayerParams layerParams(const LayerPattern& p, std::int64_t layer);

// The first layer of type t, or nullopt.
std::optional<std::int64_t> firstLayerOfType(const LayerPattern& p, LayerType t);

}  // namespace poslab
