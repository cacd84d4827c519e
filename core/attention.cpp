#include "core/attention.h"

#include "core/ensure.h"

#include <algorithm>
#include <cmath>

namespace poslab {

std::string_view layerTypeConfigKey(LayerType t) {
    switch (t) {
    case LayerType::Full: return "full_attention";
    case LayerType::Sliding: return "sliding_attention";
    case LayerType::Chunked: return "chunked_attention";
    }
    return "full_attention";
}

const ParamTable<AttentionParams>& attentionParamTable() {
    using K = ParamKind;
    using A = AttentionParams;
    static const ParamTable<AttentionParams> t = {
        field<&A::window>({.name = "window", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition),
                           .optional = true, .label = "Sliding window W",
                           .help = "sliding window: causal i − W < j ≤ i (W keys with the query); without --causal |i − j| ≤ ⌊W/2⌋",
                           .unit = "tokens", .unset = "none", .resets = "chunk"}),
        field<&A::chunk>({.name = "chunk", .kind = K::Int, .lo = 1, .hi = static_cast<double>(kMaxPosition),
                          .optional = true, .label = "Chunk C",
                          .help = "chunked attention: j ≤ i and ⌊j/C⌋ = ⌊i/C⌋ (implies causal)", .unit = "tokens",
                          .unset = "none", .resets = "window"}),
        field<&A::nope>({.name = "nope", .kind = K::Bool, .label = "NoPE layer",
                         .help = "this layer applies no positional encoding"}),
        field<&A::temperature_tuning>({.name = "temperature_tuning", .kind = K::RealList, .lo = 0, .hi = 1e12,
                                       .label = "Temperature tuning F,S",
                                       .help = "Llama 4 NoPE layers: query row i times log1p(⌊(i+1)/F⌋)·S + 1",
                                       .unset = "off", .validNote = "(two numbers F ≥ 1, S)", .maxEntries = 2}),
        field<&A::qk_norm>({.name = "qk_norm", .kind = K::Choice, .label = "q/k norm",
                            .help = "RMS-normalise q and k rows (x·rsqrt(mean(x²)+eps)) before or after the rotation",
                            .choiceLabels = {"none", "before the rotation", "after the rotation"}}),
        field<&A::norm_eps>({.name = "norm_eps", .kind = K::Real, .lo = 0, .hi = 1, .label = "Norm eps",
                             .help = "eps of the q/k norm"})
            .when([](const A& a) { return a.qk_norm != QkNorm::None; }),
        field<&A::softmax_scale>({.name = "softmax_scale", .kind = K::Real, .lo = 0, .hi = 1e6, .loOpen = true,
                                  .optional = true, .label = "Softmax scale",
                                  .help = "score scale instead of 1/√dim (Gemma 3: query_pre_attn_scalar^−½)",
                                  .unset = "1/√dim"}),
        field<&A::sink>({.name = "sink", .kind = K::RealList, .lo = -1e4, .hi = 1e4, .label = "Sink logits",
                         .help = "a sink logit per head, appended unscaled to each row (GPT-OSS); rows sum to 1 − p_sink",
                         .unset = "none", .maxEntries = 4096}),
        field<&A::softcap>({.name = "softcap", .kind = K::Real, .lo = 0, .hi = 1e6, .loOpen = true, .optional = true,
                            .label = "Logit soft-cap",
                            .help = "Gemma 2: each scaled score s ↦ C·tanh(s/C) before the mask and softmax",
                            .unset = "none"}),
        field<&A::query_scaling>({.name = "query_scaling", .kind = K::RealList, .lo = 0, .hi = 1e12,
                                  .label = "Query scaling N,β",
                                  .help = "Ministral 3: the query at position p times 1 + β·ln(1 + ⌊p/N⌋) after RoPE",
                                  .unset = "off", .validNote = "(two numbers N ≥ 1, β)", .maxEntries = 2}),
    };
    return t;
}

Check AttentionParams::validate() const {
    if (auto e = checkParams(attentionParamTable(), *this)) return e;
    if (window && chunk)
        return ParamError{"chunk", "a sliding window or a chunk, not both", "window " + formatInt(*window) + " and chunk " + formatInt(*chunk)};
    if (!temperature_tuning.empty()) {
        if (temperature_tuning.size() != 2)
            return ParamError{"temperature_tuning", "two numbers F,S (floor_scale, attn_scale)",
                              formatInt(static_cast<std::int64_t>(temperature_tuning.size())) + " numbers"};
        if (!(temperature_tuning[0] >= 1))
            return ParamError{"temperature_tuning", "F ≥ 1 (floor_scale, in tokens)", formatNumber(temperature_tuning[0])};
    }
    if (!query_scaling.empty()) {
        if (query_scaling.size() != 2)
            return ParamError{"query_scaling", "two numbers N,β (original_max_position_embeddings, llama_4_scaling_beta)",
                              formatInt(static_cast<std::int64_t>(query_scaling.size())) + " numbers"};
        if (!(query_scaling[0] >= 1))
            return ParamError{"query_scaling", "N ≥ 1 (original_max_position_embeddings, in tokens)", formatNumber(query_scaling[0])};
    }
    return std::nullopt;
}

KeyRange visibleKeys(const AttentionParams& a, bool causal, std::int64_t i, std::int64_t length) {
    POSLAB_ENSURE(i >= 0 && i < length, "0 <= i < length");
    // Of a.validate(), the part this needs (the whole of it per query would not be cheap).
    POSLAB_ENSURE((!a.chunk || *a.chunk >= 1) && (!a.window || *a.window >= 1), "a.validate(): window and chunk >= 1");
    const std::int64_t end = length - 1;
    if (a.chunk) return {i - i % *a.chunk, i};
    if (a.window) {
        const std::int64_t w = *a.window;
        if (causal) return {std::max<std::int64_t>(0, i - w + 1), i};
        const std::int64_t h = w / 2;
        return {std::max<std::int64_t>(0, i - h), std::min(end, i + h)};
    }
    return {0, causal ? i : end};
}

std::optional<std::int64_t> visibleTo(const AttentionParams& a, bool causal) {
    if (a.chunk) return *a.chunk - 1;
    if (a.window) return causal ? *a.window - 1 : *a.window / 2;
    return std::nullopt;
}

double temperatureScale(const AttentionParams& a, std::int64_t i, Precision precision) {
    if (a.temperature_tuning.size() != 2) return 1.0;
    const double F = a.temperature_tuning[0], S = a.temperature_tuning[1];
    if (precision == Precision::Float32) {
        // torch: log1p(floor((cache_position.float() + 1.0) / floor_scale)) * attn_scale + 1.0, float32.
        const float p = static_cast<float>(i) + 1.0f;
        const float q = std::floor(p / static_cast<float>(F));
        const float l = std::log1p(q);
        return static_cast<double>(l * static_cast<float>(S) + 1.0f);
    }
    return std::log1p(std::floor((static_cast<double>(i) + 1.0) / F)) * S + 1.0;
}

double queryScale(const AttentionParams& a, std::int64_t i, Precision precision) {
    double f = temperatureScale(a, i, precision);
    if (a.query_scaling.size() == 2) {
        const double N = a.query_scaling[0], beta = a.query_scaling[1];
        double m;
        if (precision == Precision::Float32) {
            // torch: 1 + beta * log(1 + floor(position_ids / N)), float32 (modeling_ministral3.py:105-107).
            const float q = std::floor(static_cast<float>(i) / static_cast<float>(N));
            m = static_cast<double>(1.0f + static_cast<float>(beta) * std::log(1.0f + q));
        } else {
            m = 1.0 + beta * std::log(1.0 + std::floor(static_cast<double>(i) / N));
        }
        f = roundTo(precision, f * m);
    }
    return f;
}

double softcapScore(const AttentionParams& a, double s, Precision precision) {
    if (!a.softcap || std::isinf(s)) return s;
    const double c = *a.softcap;
    return roundTo(precision, roundTo(precision, std::tanh(roundTo(precision, s / c))) * c);
}

void softcapScores(const AttentionParams& a, Matrix& s, Precision precision) {
    if (!a.softcap) return;
    for (Eigen::Index i = 0; i < s.size(); ++i) s.data()[i] = softcapScore(a, s.data()[i], precision);
}

void rmsNormRows(Matrix& x, double eps, Precision precision) {
    const auto n = static_cast<double>(x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const double ms = x.row(r).squaredNorm() / n;
        const double f = roundTo(precision, 1.0 / std::sqrt(roundTo(precision, ms) + eps));
        for (Eigen::Index c = 0; c < x.cols(); ++c) x(r, c) = roundTo(precision, x(r, c) * f);
    }
}

double scoreScale(const AttentionParams& a, int dim) {
    return a.softmax_scale ? *a.softmax_scale : 1.0 / std::sqrt(static_cast<double>(dim));
}

}  // namespace poslab
