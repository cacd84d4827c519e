// The long-context demonstrations' own computations (core/demonstrations.h): RoPE in bfloat16 at
// position 4096, and the layer patterns of Gemma 3 and Llama 4.
#include "core/demonstrations.h"
#include "core/ensure.h"

#include "core/rope.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace poslab {

// ============================================================================ RoPE in bfloat16
Check RopeBf16Input::validate() const {
    if (auto e = rope.validate()) return e;
    if (positions.empty() || positions.size() > 64)
        return ParamError{"positions", "1 to 64 increasing positions", formatInt(std::int64_t(positions.size())) + " positions"};
    std::int64_t prev = -1;
    for (auto p : positions) {
        if (p <= prev || p > 16384) return ParamError{"positions", "increasing positions from 0 to 16384", formatInt(p)};
        prev = p;
    }
    return std::nullopt;
}

namespace {

RopePathErrors pathErrors(RopeParams rp, Precision anglePrecision, const std::vector<std::int64_t>& asked) {
    rp.angle_precision = anglePrecision;
    RopePathErrors r;
    r.anglePrecision = ropeAnglePrecision(rp);
    const std::int64_t last = asked.back();
    const Positions all = arangePositions(0, last + 1);
    const RopePrecisionErrors e = ropePrecisionErrors(rp, all);
    for (Eigen::Index p = 0; p < e.angle.rows(); ++p) {
        const double phase = e.angle.row(p).cwiseAbs().maxCoeff();
        if (phase > r.maxPhaseError) {
            r.maxPhaseError = phase;
            r.maxPhaseAt = p;
        }
    }
    for (auto p : asked) r.phaseError.push_back(e.angle.row(Eigen::Index(p)).cwiseAbs().maxCoeff());
    r.maxCosSinError = e.max_abs.size() ? e.max_abs.maxCoeff() : 0.0;
    r.firstCollision = ropeFirstCollision(rp, last + 1);
    for (const auto& c : ropePositionCollisions(rp, all)) r.collidingPositions += std::int64_t(c.positions.size());
    return r;
}

}  // namespace

Result<RopeBf16Result> demoRopeBf16(const RopeBf16Input& in) {
    if (auto e = in.validate()) return *e;
    RopeBf16Result r;
    // The legacy path builds the angles in the model's dtype (for double and float32: the same
    // dtype as transformers main's).
    const bool reduced = in.rope.precision == Precision::BFloat16 || in.rope.precision == Precision::Float16;
    r.legacy = pathErrors(in.rope, reduced ? in.rope.precision : Precision::Float32, in.positions);
    r.main = pathErrors(in.rope, Precision::Float32, in.positions);
    return r;
}

// ============================================================================ layer patterns
namespace {

std::string repeatTypes(std::int64_t layers, const std::function<std::string(std::int64_t)>& typeOf) {
    std::string out;
    for (std::int64_t i = 0; i < layers; ++i) out += (i ? "," : "") + typeOf(i);
    return out;
}

DemoLayerModel gemma3() {
    // google/gemma-3-27b-it config.json (text_config): 62 layers, sliding_window 1024,
    // sliding_window_pattern 6 (class default), rope_theta 1e6 (default) with rope_scaling linear
    // ×8 for the global layers, rope_local_base_freq 1e4 for the sliding ones, head_dim 128,
    // query_pre_attn_scalar 168, max_position_embeddings 131072 (class default), q/k RMSNorm
    // before the rotation (eps 1e-6).
    DemoLayerModel m;
    m.key = "gemma-3-27b";
    m.name = "Gemma 3 27B";
    m.context = 131072;
    const std::int64_t layers = 62;
    LayerPattern p;
    p.model_type = "gemma3_text";
    p.layer_types = repeatTypes(layers, [](std::int64_t i) { return (i + 1) % 6 ? "sliding" : "full"; });
    p.rope_layers.assign(std::size_t(layers), 1);
    p.window = 1024;
    p.qk_norm = QkNorm::Before;
    p.norm_eps = 1e-6;
    p.softmax_scale = 1.0 / std::sqrt(168.0);
    RopeParams rope;
    rope.head_dim = 128;
    rope.max_positions = m.context;
    p.rope_sliding = rope;
    p.rope_sliding.base = 10000.0;
    p.rope_full = rope;
    p.rope_full.base = 1e6;
    p.rope_full.scaling = RopeScaling::Linear;
    p.rope_full.factor = 8.0;
    p.rope_chunked = p.rope_full;
    m.params.method = Method::Rope;
    m.params.dim = 128;
    m.params.causal = true;   // a decoder (modeling file: is_causal = True), as its config reads
    m.params.model = p;
    m.params.applyLayer(0);
    return m;
}

DemoLayerModel llama4() {
    // meta-llama/Llama-4-Scout-17B-16E config.json (text_config): 48 layers, attention_chunk_size
    // 8192, no_rope_layers [] → every 4th layer NoPE (and global), the others chunked RoPE;
    // rope_theta 5e5, llama3 scaling ×16 from 8192 (low/high_freq_factor 1), interleaved pairs,
    // max_position_embeddings 10 485 760; attn_temperature_tuning (floor_scale 8192, attn_scale
    // 0.1) on the NoPE layers; use_qk_norm: L2 (RMS) norm after the rotation on the RoPE layers,
    // eps rms_norm_eps 1e-5.
    DemoLayerModel m;
    m.key = "llama-4-scout";
    m.name = "Llama 4 Scout";
    m.context = 10485760;
    const std::int64_t layers = 48;
    LayerPattern p;
    p.model_type = "llama4_text";
    p.layer_types = repeatTypes(layers, [](std::int64_t i) { return (i + 1) % 4 ? "chunked" : "full"; });
    for (std::int64_t i = 0; i < layers; ++i) p.rope_layers.push_back((i + 1) % 4 ? 1 : 0);
    p.chunk = 8192;
    p.temperature_tuning = {8192.0, 0.1};
    p.qk_norm = QkNorm::After;
    p.qk_norm_rope_only = true;
    p.norm_eps = 1e-5;
    RopeParams rope;
    rope.head_dim = 128;
    rope.base = 5e5;
    rope.scaling = RopeScaling::Llama3;
    rope.factor = 16.0;
    rope.low_freq_factor = 1.0;
    rope.high_freq_factor = 1.0;
    rope.original_max_positions = 8192;
    rope.max_positions = m.context;
    rope.layout = RopeLayout::Interleaved;
    p.rope_full = p.rope_sliding = p.rope_chunked = rope;
    m.params.method = Method::Rope;
    m.params.dim = 128;
    m.params.causal = true;   // a decoder (modeling file: is_causal = True), as its config reads
    m.params.model = p;
    m.params.applyLayer(0);
    return m;
}

}  // namespace

const std::vector<DemoLayerModel>& demoLayerModels() {
    static const std::vector<DemoLayerModel> models = {gemma3(), llama4()};
    return models;
}

LayerSummary summariseLayers(const LayerPattern& model, std::int64_t far, const std::vector<std::int64_t>& temperatureAt,
                             Precision precision) {
    POSLAB_ENSURE(!model.validate(), "model.validate()");
    POSLAB_ENSURE(layerCount(model) >= 1, "the model has a layer");
    LayerSummary s;
    s.layers = layerCount(model);
    bool localSeen = false, globalSeen = false, nopeSeen = false;
    for (std::int64_t i = 0; i < s.layers; ++i) {
        const LayerParams lp = layerParams(model, i);
        const bool global = lp.type == LayerType::Full;
        ++(global ? s.global : s.local);
        ++(lp.rope ? s.rope : s.nope);
        if (global && !lp.rope) ++s.globalNope;
        // Causal: every model of the demonstration is a decoder.
        const std::optional<std::int64_t> reach = visibleTo(lp.attention, true);
        if (!reach || *reach >= far) ++s.seeingFar;
        if (!global && reach) s.localReach = std::max(s.localReach.value_or(0), *reach);
        if (lp.rope && !global && !localSeen) {
            localSeen = true;
            s.localBase = lp.ropeParams.base;
            s.localFactor = lp.ropeParams.resolvedFactor();
        }
        if (lp.rope && global && !globalSeen) {
            globalSeen = true;
            s.globalBase = lp.ropeParams.base;
            s.globalFactor = lp.ropeParams.resolvedFactor();
        }
        if (!lp.rope && !nopeSeen) {
            nopeSeen = true;
            for (auto p : temperatureAt) s.temperature.push_back(temperatureScale(lp.attention, p, precision));
        }
    }
    if (!nopeSeen) s.temperature.assign(temperatureAt.size(), 1.0);
    return s;
}

}  // namespace poslab
