#pragma once
// The attention structure of one layer (docs/spec/cli.md "Added in 0.3", conventions.md "Added in
// 0.3"): which keys a query sees (full, sliding window, chunk), whether the layer applies its
// positional encoding at all (NoPE layers), Llama 4's temperature tuning, q/k RMS norm, the
// softmax scale and GPT-OSS's per-head sink logits.
//
// Visibility (masking_utils.py), query i, key j, 0 <= i, j < N:
//   full, causal           j <= i
//   full, bidirectional    every j
//   window W, causal       i − W < j <= i                      (W keys including the query)
//   window W, bidirectional |i − j| <= ⌊W/2⌋                   (ModernBERT's local layers)
//   chunk C (always causal) j <= i and ⌊j/C⌋ = ⌊i/C⌋
// Every visible set of a query is one contiguous range of keys: visibleKeys() returns it, and
// the score computations never touch a key outside it (masked cells cost nothing).
//
// Temperature tuning (Llama 4 NoPE layers), F = floor_scale, S = attn_scale, query at position i:
//   τ(i) = log1p(⌊(i + 1)/F⌋)·S + 1   (float32 as PyTorch computes it in Precision::Float32)
// q/k norm: each q and k row x → x·rsqrt(mean(x²) + eps) before or after the rotation (Llama 4's
// L2Norm is this RMS form; Gemma 3's RMSNorm with weight 1 + w, w = 0).
// Softmax scale: the score factor s instead of 1/sqrt(dim).
// Query scaling (Ministral 3, `llama_4_scaling_beta`), N = original_max_position_embeddings, β,
// query at position p, after RoPE (keys untouched):
//   q ×= 1 + β·ln(1 + ⌊p/N⌋)          (float32 as PyTorch computes it in Precision::Float32)
// Logit soft-cap C (Gemma 2, `attn_logit_softcapping`): each scaled score s (with the method's
// relative term) ↦ C·tanh(s/C), after the scale and before the mask and softmax (the eager path
// of modeling_gemma2.py: weights / C, tanh, × C, then + mask).
// Sinks (GPT-OSS): logit σ_h appended (unscaled) to each row after masking; softmax over the
// visible keys and the sink; the sink's column is dropped, so a row sums to 1 − p_sink with
// p_sink = exp(σ_h − m)/(exp(σ_h − m) + Σ_j exp(x_j − m)).
#include "core/param.h"
#include "core/types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace poslab {

enum class QkNorm { None, Before, After };
template <>
struct EnumKeys<QkNorm> {
    static constexpr std::array<EnumKey<QkNorm>, 3> keys{
        {{QkNorm::None, "none"}, {QkNorm::Before, "before"}, {QkNorm::After, "after"}}};
};

// The three mask types of today's models (config.layer_types).
enum class LayerType { Full, Sliding, Chunked };
template <>
struct EnumKeys<LayerType> {
    static constexpr std::array<EnumKey<LayerType>, 3> keys{
        {{LayerType::Full, "full"}, {LayerType::Sliding, "sliding"}, {LayerType::Chunked, "chunked"}}};
};
// "full_attention", "sliding_attention", "chunked_attention" (transformers' spelling).
std::string_view layerTypeConfigKey(LayerType t);

struct AttentionParams {
    std::optional<std::int64_t> window;       // sliding window W >= 1 (unset: no window)
    std::optional<std::int64_t> chunk;        // chunk C >= 1 (unset: no chunks); implies causal
    bool nope = false;                        // the layer applies no positional encoding
    std::vector<double> temperature_tuning;   // empty, or [F, S]: F >= 1, S >= 0
    QkNorm qk_norm = QkNorm::None;
    double norm_eps = 1e-6;                   // eps of the q/k norm, [0, 1]
    std::optional<double> softmax_scale;      // unset: 1/sqrt(dim)
    std::vector<double> sink;                 // a sink logit per head (empty: none)
    std::optional<double> softcap;            // logit soft-cap C > 0 (unset: none)
    std::vector<double> query_scaling;        // empty, or [N, β]: N >= 1, β >= 0 (Ministral 3)

    Check validate() const;   // the table's ranges, then: window and chunk not both; F, S; N, β
    bool operator==(const AttentionParams&) const = default;

    LayerType type() const { return chunk ? LayerType::Chunked : window ? LayerType::Sliding : LayerType::Full; }
    bool masks(bool causal) const { return causal || window.has_value() || chunk.has_value(); }
    // Causal in effect: the scene's causal flag, or a chunk (chunked attention is causal).
    bool causalWith(bool causal) const { return causal || chunk.has_value(); }
};

// Every parameter of AttentionParams declared once (options --window, --chunk, --nope,
// --temperature-tuning, --qk-norm, --norm-eps, --softmax-scale, --sink, --softcap, --query-scaling).
const ParamTable<AttentionParams>& attentionParamTable();

// The keys query i sees in a sequence of `length` tokens: [first, last] (inclusive; never empty,
// the query sees itself). Precondition: a.validate() (its window and chunk >= 1 checked; the whole
// of it per query would be no cheap check), 0 <= i < length.
struct KeyRange {
    std::int64_t first = 0, last = 0;
    bool contains(std::int64_t j) const { return j >= first && j <= last; }
};
KeyRange visibleKeys(const AttentionParams& a, bool causal, std::int64_t i, std::int64_t length);
inline bool visible(const AttentionParams& a, bool causal, std::int64_t i, std::int64_t j, std::int64_t length) {
    return visibleKeys(a, causal, i, length).contains(j);
}

// The largest distance i − j >= 0 any query sees (window W causal: W − 1; bidirectional ⌊W/2⌋;
// chunk C: C − 1); nullopt when unlimited (full attention).
std::optional<std::int64_t> visibleTo(const AttentionParams& a, bool causal);

// τ(i) of temperature tuning for a query at position i (1 when tuning is off).
double temperatureScale(const AttentionParams& a, std::int64_t i, Precision precision);

// The factor the query row at position i is multiplied by: τ(i) of temperature tuning times
// Ministral 3's 1 + β·ln(1 + ⌊i/N⌋) (1 when both are off), each rounded as PyTorch in float32.
double queryScale(const AttentionParams& a, std::int64_t i, Precision precision);
// Whether queryScale() is 1 at every position.
inline bool queryScaled(const AttentionParams& a) { return !a.temperature_tuning.empty() || !a.query_scaling.empty(); }

// C·tanh(s/C) of the soft-cap (s unchanged without one; −∞ stays −∞), rounded per step in float32.
double softcapScore(const AttentionParams& a, double s, Precision precision);
// softcapScore() of every entry, in place.
void softcapScores(const AttentionParams& a, Matrix& s, Precision precision);

// Rows x → x·rsqrt(mean(x²) + eps), in place (float32 rounding in Precision::Float32).
void rmsNormRows(Matrix& x, double eps, Precision precision);

// The score factor: softmax_scale, else 1/sqrt(dim).
double scoreScale(const AttentionParams& a, int dim);

}  // namespace poslab
