#include "ui/io/layerconfig.h"

#include "core/layers.h"
#include "ui/io/families.h"
#include "ui/io/gguf.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonValue>

#include <cmath>

namespace poslab::ui {

namespace {
// The words people read about model configs (errors, reports), translated in the context "ModelConfig"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and ModelConfig::tr works off the GUI thread).
struct ModelConfig {
    Q_DECLARE_TR_FUNCTIONS(ModelConfig)
};
}  // namespace

bool jsonTruthy(const QJsonValue& v) {
    if (v.isNull() || v.isUndefined()) return false;
    if (v.isBool()) return v.toBool();
    if (v.isDouble()) return v.toDouble() != 0.0;
    if (v.isString()) return !v.toString().isEmpty();
    if (v.isArray()) return !v.toArray().isEmpty();
    if (v.isObject()) return !v.toObject().isEmpty();
    return true;
}

namespace {

struct LayerError {
    QString message;
};

bool present(const QJsonObject& o, const char* key) {
    return o.contains(QLatin1String(key)) && !o.value(QLatin1String(key)).isNull();
}
QJsonValue val(const QJsonObject& o, const char* key) { return o.value(QLatin1String(key)); }


std::string describe(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? "true" : "false";
    case QJsonValue::Double: return formatNumber(v.toDouble());
    case QJsonValue::String: return "\"" + printableText(v.toString().toStdString(), 40).toStdString() + "\"";
    case QJsonValue::Array: return "a list of " + std::to_string(v.toArray().size());
    case QJsonValue::Object: return "an object";
    default: return "null";
    }
}

[[noreturn]] void bad(const QString& key, const std::string& valid, const std::string& got) {
    throw LayerError{key + ModelConfig::tr(" must be ") + QString::fromStdString(valid) + QStringLiteral(", got ") +
                     QString::fromStdString(got)};
}

// An integer of the file in [lo, hi].
std::int64_t integer(const QJsonObject& o, const char* key, double lo, double hi) {
    const QJsonValue v = val(o, key);
    const std::string valid = "an integer from " + formatBound(lo) + " to " + formatBound(hi);
    if (!v.isDouble()) bad(QString::fromLatin1(key), valid, describe(v));
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < lo || d > hi) bad(QString::fromLatin1(key), valid, formatNumber(d));
    return static_cast<std::int64_t>(d);
}
std::int64_t integerOr(const QJsonObject& o, const char* key, double lo, double hi, std::int64_t def) {
    return present(o, key) ? integer(o, key, lo, hi) : def;
}
double number(const QJsonObject& o, const char* key, double lo, double hi, double def) {
    if (!present(o, key)) return def;
    const QJsonValue v = val(o, key);
    const std::string valid = "a number from " + formatBound(lo) + " to " + formatBound(hi);
    if (!v.isDouble()) bad(QString::fromLatin1(key), valid, describe(v));
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < lo || d > hi) bad(QString::fromLatin1(key), valid, formatNumber(d));
    return d;
}
QString familyOf(const QJsonObject& o) {
    QString t = o.value(QLatin1String("model_type")).toString();
    if (t.endsWith(QLatin1String("_text"))) t.chop(5);
    return t;
}

// The RoPE keys a per-type parse must not see from the top level.
void dropRopeKeys(QJsonObject& c) {
    for (const char* k : {"rope_parameters", "rope_scaling", "rope_theta", "rope_local_base_freq", "global_rope_theta",
                          "local_rope_theta"})
        c.remove(QLatin1String(k));
}

}  // namespace

bool isPerLayerTypeBlock(const QJsonObject& block) {
    if (block.isEmpty()) return false;
    for (const QString& k : block.keys())
        if (k != QLatin1String("full_attention") && k != QLatin1String("sliding_attention") && k != QLatin1String("chunked_attention"))
            return false;
    return true;
}

QJsonObject textConfigObject(const QJsonObject& top) {
    const QJsonValue t = top.value(QLatin1String("text_config"));
    if (!t.isObject()) return top;
    for (const char* k : {"num_hidden_layers", "rope_theta", "rope_parameters", "rope_scaling", "head_dim", "hidden_size"})
        if (present(top, k)) return top;
    QJsonObject inner = t.toObject();
    if (!inner.contains(QLatin1String("model_type")) && top.contains(QLatin1String("model_type")))
        inner.insert(QStringLiteral("model_type"), top.value(QLatin1String("model_type")));
    return inner;
}

QJsonObject withFamilyDefaults(const QJsonObject& o) {
    struct Default {
        const char* family;
        const char* key;
        double value;
    };
    static const Default kDefaults[] = {
        {"gemma3", "head_dim", 256},        {"gemma3", "num_attention_heads", 8},  {"gemma3", "hidden_size", 2304},
        {"gemma3", "num_hidden_layers", 26}, {"gemma3", "max_position_embeddings", 131072},
        {"llama4", "head_dim", 128},        {"llama4", "num_attention_heads", 40}, {"llama4", "hidden_size", 5120},
        {"llama4", "num_hidden_layers", 48}, {"llama4", "max_position_embeddings", 131072},
        {"gpt_oss", "head_dim", 64},        {"gpt_oss", "num_attention_heads", 64}, {"gpt_oss", "hidden_size", 2880},
        {"gpt_oss", "num_hidden_layers", 36}, {"gpt_oss", "max_position_embeddings", 131072},
        {"cohere2", "max_position_embeddings", 8192},
        {"smollm3", "num_hidden_layers", 36}, {"smollm3", "max_position_embeddings", 32768},
        {"modernbert", "num_hidden_layers", 22}, {"modernbert", "max_position_embeddings", 8192},
        // MistralConfig / MinistralConfig: sliding_window 4096 when the file has no such key.
        {"mistral", "sliding_window", 4096}, {"ministral", "sliding_window", 4096},
    };
    QJsonObject out = o;
    const QString family = familyOf(o);
    for (const auto& d : kDefaults)
        if (family == QLatin1String(d.family) && !out.contains(QLatin1String(d.key)))
            out.insert(QLatin1String(d.key), d.value);
    return out;
}

std::optional<QString> readLayerPattern(const QJsonObject& o, ModelFileConfig& out,
                                        const std::function<ModelConfigResult(const QJsonObject&)>& parse) {
    if (out.params.method != Method::Rope) return std::nullopt;
    const char* layersKey = present(o, "num_hidden_layers") ? "num_hidden_layers"
                            : present(o, "n_layer")         ? "n_layer"
                            : present(o, "num_layers")      ? "num_layers"
                                                            : nullptr;
    try {
        const QString family = familyOf(o);
        const Family* fam = findFamily(family.toStdString());
        if (!layersKey) {
            if (present(o, "layer_types")) bad(QStringLiteral("num_hidden_layers"), "the number of layers (layer_types is given)", "nothing");
            return std::nullopt;
        }
        const std::int64_t n = integer(o, layersKey, 1, 4096);
        const auto un = static_cast<std::size_t>(n);
        LayerPattern& m = out.params.model;
        m = LayerPattern{};
        m.model_type = printableText(o.value(QLatin1String("model_type")).toString().toStdString()).toStdString();

        // RoPE flags first: Llama 4's layer types follow them.
        std::vector<std::int64_t> rope(un, 1);
        const bool noRopeFamily = family == QLatin1String("llama4") || family == QLatin1String("smollm3");
        if (noRopeFamily) {
            const QJsonValue list = val(o, "no_rope_layers");
            if (jsonTruthy(list)) {
                if (!list.isArray()) bad(QStringLiteral("no_rope_layers"), "a list of 0/1 flags (1 = the layer uses RoPE)", describe(list));
                const QJsonArray a = list.toArray();
                // Upstream indexes it by layer: at least one entry per layer.
                if (a.size() < n)
                    bad(QStringLiteral("no_rope_layers"), "at least one flag per layer (" + std::to_string(n) + ")",
                        std::to_string(a.size()) + " flags");
                for (std::size_t i = 0; i < un; ++i) {
                    const QJsonValue e = a[static_cast<qsizetype>(i)];
                    if (!(e.isDouble() && (e.toDouble() == 0 || e.toDouble() == 1)) && !e.isBool())
                        bad(QStringLiteral("no_rope_layers[%1]").arg(i), "0 or 1 (1 = the layer uses RoPE)", describe(e));
                    rope[i] = e.isBool() ? e.toBool() : static_cast<std::int64_t>(e.toDouble());
                }
                out.fromFile["model.rope_layers"] = QStringLiteral("no_rope_layers");
            } else {
                const char* ik = present(o, "no_rope_layer_interval") ? "no_rope_layer_interval" : "nope_layer_interval";
                const std::int64_t interval = integerOr(o, ik, 1, 4096, 4);
                for (std::size_t i = 0; i < un; ++i) rope[i] = (static_cast<std::int64_t>(i) + 1) % interval != 0;
            }
        }

        // Layer types.
        std::vector<LayerType> types(un, LayerType::Full);
        if (present(o, "layer_types")) {
            const QJsonValue lt = val(o, "layer_types");
            if (!lt.isArray()) bad(QStringLiteral("layer_types"), "a list of one type per layer", describe(lt));
            const QJsonArray a = lt.toArray();
            if (a.size() != n)
                bad(QStringLiteral("layer_types"),
                    "a list of " + QString::fromLatin1(layersKey).toStdString() + " (" + std::to_string(n) + ") types",
                    std::to_string(a.size()) + " entries");
            for (std::size_t i = 0; i < un; ++i) {
                const QString s = a[static_cast<qsizetype>(i)].toString();
                if (s == QLatin1String("full_attention")) types[i] = LayerType::Full;
                else if (s == QLatin1String("sliding_attention")) types[i] = LayerType::Sliding;
                else if (s == QLatin1String("chunked_attention")) types[i] = LayerType::Chunked;
                else
                    bad(QStringLiteral("layer_types[%1]").arg(i), "one of full_attention, sliding_attention, chunked_attention",
                        describe(a[static_cast<qsizetype>(i)]));
            }
            out.fromFile["model.layer_types"] = QStringLiteral("layer_types");
        } else if (family == QLatin1String("gemma3") || family == QLatin1String("cohere2") || family == QLatin1String("exaone4")) {
            const std::int64_t def = family == QLatin1String("gemma3") ? 6 : 4;
            const QJsonValue pv = val(o, "sliding_window_pattern");
            if (family == QLatin1String("exaone4") && pv.isString()) {
                const QString pat = pv.toString();
                if (pat.isEmpty()) bad(QStringLiteral("sliding_window_pattern"), "a pattern of L and G, or an integer", describe(pv));
                for (std::size_t i = 0; i < un; ++i)
                    types[i] = pat.at(static_cast<qsizetype>(i % static_cast<std::size_t>(pat.size()))) == QLatin1Char('L') ? LayerType::Sliding
                                                                                                                          : LayerType::Full;
            } else {
                const std::int64_t pattern = integerOr(o, "sliding_window_pattern", 1, 4096, def);
                for (std::size_t i = 0; i < un; ++i)
                    types[i] = (static_cast<std::int64_t>(i) + 1) % pattern ? LayerType::Sliding : LayerType::Full;
            }
            if (family == QLatin1String("exaone4") && present(o, "sliding_window") == false && o.contains(QLatin1String("sliding_window")))
                std::fill(types.begin(), types.end(), LayerType::Full);   // sliding_window: null
        } else if (family == QLatin1String("olmo3")) {
            for (std::size_t i = 0; i < un; ++i) types[i] = (i + 1) % 4 ? LayerType::Sliding : LayerType::Full;
        } else if (family == QLatin1String("gpt_oss")) {
            for (std::size_t i = 0; i < un; ++i) types[i] = (i + 1) % 2 ? LayerType::Sliding : LayerType::Full;
        } else if (family == QLatin1String("llama4")) {
            for (std::size_t i = 0; i < un; ++i) types[i] = rope[i] ? LayerType::Chunked : LayerType::Full;
        } else if (family == QLatin1String("modernbert")) {
            const std::int64_t every = integerOr(o, "global_attn_every_n_layers", 1, 4096, 3);
            for (std::size_t i = 0; i < un; ++i)
                types[i] = static_cast<std::int64_t>(i) % every == 0 ? LayerType::Full : LayerType::Sliding;
        } else if (fam && fam->windows == FamilyWindows::EveryLayerIfSet && present(o, "sliding_window")) {
            // Mistral, Mixtral, Ministral, Phi-3, Starcoder2: sliding_window on every layer (null: none).
            std::fill(types.begin(), types.end(), LayerType::Sliding);
        } else if (fam && fam->windows == FamilyWindows::Qwen2) {
            // configuration_qwen2.py: sliding_window only with use_sliding_window, on layers >= max_window_layers.
            if (jsonTruthy(val(o, "use_sliding_window")) && present(o, "sliding_window")) {
                const std::int64_t from = integerOr(o, "max_window_layers", 0, 1e9, 28);
                for (std::size_t i = 0; i < un; ++i)
                    types[i] = static_cast<std::int64_t>(i) >= from ? LayerType::Sliding : LayerType::Full;
            }
        } else if (fam && fam->windows == FamilyWindows::Gemma2Even) {
            // configuration_gemma2.py: sliding if (i + 1) % 2 else full (even layers slide).
            if (!o.contains(QLatin1String("sliding_window")) || present(o, "sliding_window"))
                for (std::size_t i = 0; i < un; ++i) types[i] = (i + 1) % 2 ? LayerType::Sliding : LayerType::Full;
        }
        if (family == QLatin1String("cohere2") || family == QLatin1String("exaone4")) {
            const bool anySliding = std::find(types.begin(), types.end(), LayerType::Sliding) != types.end();
            for (std::size_t i = 0; i < un; ++i) rope[i] = !anySliding || types[i] == LayerType::Sliding;
        }
        m.layer_types = layerTypesText(types);
        m.rope_layers = rope;
        const bool hasSliding = std::find(types.begin(), types.end(), LayerType::Sliding) != types.end();
        const bool hasChunked = std::find(types.begin(), types.end(), LayerType::Chunked) != types.end();

        // Window and chunk.
        if (hasSliding) {
            const char* wk = family == QLatin1String("modernbert") ? "local_attention" : "sliding_window";
            std::optional<std::int64_t> def;
            if (family == QLatin1String("gemma3") || family == QLatin1String("cohere2") || family == QLatin1String("exaone4") ||
                family == QLatin1String("olmo3") || family == QLatin1String("gemma2"))
                def = 4096;
            if (family == QLatin1String("gpt_oss") || family == QLatin1String("modernbert")) def = 128;
            if (present(o, wk)) {
                m.window = integer(o, wk, 1, static_cast<double>(kMaxPosition));
                out.fromFile["model.window"] = QString::fromLatin1(wk);
            } else if (def) {
                m.window = def;
            } else {
                throw LayerError{QString::fromLatin1(wk) + ModelConfig::tr(" is missing (the model has sliding layers)")};
            }
        }
        if (hasChunked) {
            if (present(o, "attention_chunk_size")) {
                m.chunk = integer(o, "attention_chunk_size", 1, static_cast<double>(kMaxPosition));
                out.fromFile["model.chunk"] = QStringLiteral("attention_chunk_size");
            } else if (family == QLatin1String("llama4") && !o.contains(QLatin1String("attention_chunk_size"))) {
                m.chunk = 8192;
            } else {
                throw LayerError{ModelConfig::tr("attention_chunk_size is missing (the model has chunked layers)")};
            }
        }

        // Per-family extras.
        // ModernBERT is an encoder: its local layers see |i − j| ≤ local_attention // 2
        // (modeling_modernbert.py: `window_mask = distance <= local_attention // 2`), the global
        // ones every key.
        m.bidirectional = family == QLatin1String("modernbert");
        if (family == QLatin1String("llama4")) {
            // Python truthiness: the hub's Scout config has had `4` here.
            if (!o.contains(QLatin1String("attn_temperature_tuning")) || jsonTruthy(val(o, "attn_temperature_tuning")))
                m.temperature_tuning = {static_cast<double>(integerOr(o, "floor_scale", 1, 1e12, 8192)),
                                        number(o, "attn_scale", 0, 1e6, 0.1)};
            if (!o.contains(QLatin1String("use_qk_norm")) || jsonTruthy(val(o, "use_qk_norm"))) {
                m.qk_norm = QkNorm::After;
                m.qk_norm_rope_only = true;
                m.norm_eps = number(o, "rms_norm_eps", 0, 1, 1e-5);
            }
        } else if (fam && fam->qkNorm == FamilyQkNorm::RmsPerHeadBefore) {
            // Gemma 3, Qwen3, EXAONE 4: q_norm/k_norm = RMSNorm(head_dim) before RoPE.
            m.qk_norm = QkNorm::Before;
            m.norm_eps = number(o, "rms_norm_eps", 0, 1, 1e-6);
        }
        if (fam && fam->scale == FamilyScale::QueryPreAttnScalar) {
            const double q = number(o, "query_pre_attn_scalar", 1e-12, 1e12, 256);
            m.softmax_scale = 1.0 / std::sqrt(q);
        }
        if (fam && fam->scale == FamilyScale::AttentionMultiplier)
            m.softmax_scale = number(o, "attention_multiplier", 1e-12, 1e6, 1.0);   // Granite: scaling = attention_multiplier
        if (fam && fam->scale == FamilyScale::DeepseekMscale) {
            // yarn_apply_mscale: qk_head_dim**-0.5, times mscale² when rope_type != default and
            // mscale_all_dim is truthy; yarn_get_mscale is 1 for a factor <= 1 (math.log, double).
            const double qk = static_cast<double>(integerOr(o, "qk_nope_head_dim", 0, 65536, 128) +
                                                  integerOr(o, "qk_rope_head_dim", 1, 65536, 64));
            double scale = 1.0 / std::sqrt(qk);
            const RopeParams& r = out.params.rope;
            if (r.scaling != RopeScaling::None && r.mscale_all_dim && *r.mscale_all_dim != 0 && r.factor && *r.factor > 1) {
                const double ms = 0.1 * *r.mscale_all_dim * std::log(*r.factor) + 1.0;
                scale = scale * ms * ms;
            }
            m.softmax_scale = scale;
        }

        // RoPE parameters per layer type.
        m.rope_full = m.rope_sliding = m.rope_chunked = out.params.rope;
        auto perType = [&](const QJsonObject& c, const QString& where) -> RopeParams {
            const ModelConfigResult r = parse(c);
            if (!r.config) {
                QString msg = r.error;
                // "rope_parameters.factor must …" and "rope_parameters must be an object …" both
                // name the per-type block they are about (rope_parameters.sliding_attention…).
                if (!where.isEmpty() && (msg.startsWith(QLatin1String("rope_parameters.")) || msg.startsWith(QLatin1String("rope_parameters "))))
                    msg.replace(0, 15, QStringLiteral("rope_parameters.") + where);
                throw LayerError{msg};
            }
            RopeParams rp = r.config->params.rope;
            rp.head_dim = out.params.dim;
            return rp;
        };
        const QJsonValue rpv = val(o, "rope_parameters");
        const QJsonObject rpo = rpv.toObject();
        const bool nested = rpv.isObject() && isPerLayerTypeBlock(rpo);
        const std::pair<LayerType, RopeParams LayerPattern::*> slots[] = {
            {LayerType::Full, &LayerPattern::rope_full}, {LayerType::Sliding, &LayerPattern::rope_sliding},
            {LayerType::Chunked, &LayerPattern::rope_chunked}};
        if (nested) {
            for (const auto& [t, slot] : slots) {
                const QString key = QString::fromUtf8(layerTypeConfigKey(t).data());
                const bool used = std::find(types.begin(), types.end(), t) != types.end();
                if (!rpo.contains(key)) {
                    if (used) throw LayerError{QStringLiteral("rope_parameters.") + key + ModelConfig::tr(" is missing (the model has such layers)")};
                    continue;
                }
                QJsonObject c = o;
                c.insert(QStringLiteral("rope_parameters"), rpo.value(key));
                m.*slot = perType(c, key);
            }
            if (!rpo.contains(QLatin1String("full_attention")))
                m.rope_full = rpo.contains(QLatin1String("sliding_attention")) ? m.rope_sliding : m.rope_chunked;
            for (const auto& [t, slot] : slots)
                if (!rpo.contains(QString::fromUtf8(layerTypeConfigKey(t).data()))) m.*slot = m.rope_full;
        } else if (family == QLatin1String("gemma3")) {
            // v4: rope_theta (1e6) and rope_scaling → global layers, rope_local_base_freq (1e4) → local.
            QJsonObject full = o;
            if (!present(o, "rope_theta") && !rpv.isObject()) full.insert(QStringLiteral("rope_theta"), 1e6);
            m.rope_full = perType(full, {});
            QJsonObject local = o;
            dropRopeKeys(local);
            local.insert(QStringLiteral("rope_theta"), present(o, "rope_local_base_freq") ? val(o, "rope_local_base_freq") : QJsonValue(1e4));
            m.rope_sliding = perType(local, {});
            m.rope_chunked = m.rope_full;
        } else if (family == QLatin1String("modernbert")) {
            QJsonObject full = o;
            dropRopeKeys(full);
            full.insert(QStringLiteral("rope_theta"), present(o, "global_rope_theta") ? val(o, "global_rope_theta") : QJsonValue(160000.0));
            m.rope_full = perType(full, {});
            QJsonObject local = o;
            dropRopeKeys(local);
            local.insert(QStringLiteral("rope_theta"), present(o, "local_rope_theta")    ? val(o, "local_rope_theta")
                                                       : present(o, "global_rope_theta") ? val(o, "global_rope_theta")
                                                                                         : QJsonValue(10000.0));
            m.rope_sliding = perType(local, {});
            m.rope_chunked = m.rope_full;
        } else if ((family == QLatin1String("llama4") || family == QLatin1String("smollm3")) && !present(o, "rope_theta") &&
                   !(rpv.isObject() && rpo.contains(QLatin1String("rope_theta")))) {
            // The family's default θ (Llama4TextConfig.default_theta 5e5, SmolLM3 2e6).
            QJsonObject c = o;
            c.insert(QStringLiteral("rope_theta"), family == QLatin1String("llama4") ? 5e5 : 2e6);
            m.rope_full = m.rope_sliding = m.rope_chunked = perType(c, {});
        }
        // The family table's layout (families.h); DeepSeek-V3 rotates interleaved pairs only with
        // rope_interleave (default true).
        const bool interleaved = fam && fam->layout == RopeLayout::Interleaved &&
                                 (family != QLatin1String("deepseek_v3") || !present(o, "rope_interleave") || jsonTruthy(val(o, "rope_interleave")));
        for (RopeParams* r : {&m.rope_full, &m.rope_sliding, &m.rope_chunked}) {
            r->head_dim = out.params.dim;
            r->precision = out.params.precision;
            if (interleaved) r->layout = RopeLayout::Interleaved;
        }
        if (auto e = m.validate()) bad(QString::fromStdString(e->parameter), e->valid, e->got);
        out.params.applyLayer(0);
        if (auto e = out.params.validate()) bad(QString::fromStdString(e->parameter), e->valid, e->got);
    } catch (const LayerError& e) {
        return e.message;
    }
    return std::nullopt;
}

}  // namespace poslab::ui
