#include "ui/io/configreport.h"
#include "ui/io/layerconfig.h"

#include "core/layers.h"
#include "ui/io/gguf.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonValue>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace poslab::ui {

namespace {
// The words people read about model configs (errors, reports), translated in the context "ModelConfig"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and ModelConfig::tr works off the GUI thread).
struct ModelConfig {
    Q_DECLARE_TR_FUNCTIONS(ModelConfig)
};
}  // namespace

namespace {

bool present(const QJsonObject& o, const QString& key) { return o.contains(key) && !o.value(key).isNull(); }


QString num(double x) { return QString::fromStdString(formatNumber(x)); }

// "Base θ = 500000" for a parameter path of scoreParamTable().
QString describeJson(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return num(v.toDouble());
    case QJsonValue::String: return QStringLiteral("\"") + printableText(v.toString().toStdString(), 40) + QStringLiteral("\"");
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return ModelConfig::tr("an object");
    default: return QStringLiteral("null");
    }
}

QString describePath(const ScoreParams& p, const std::string& path) {
    const Param<ScoreParams>* param = findParam(scoreParamTable(), path);
    if (!param) return QString::fromStdString(path);
    const std::string label = param->info.label.empty() ? std::string(param->info.name) : std::string(param->info.label);
    std::string value = formatParamValue(param->info, param->get(p));
    if (value.size() > 60) value = value.substr(0, 57) + "…";
    return QString::fromStdString(label + " = " + value);
}

// Why a key no family reads is not positional, by its name.
std::optional<QString> notPositional(const QString& k) {
    struct Rule {
        const char* key;
        const char* why;
    };
    static const Rule kExact[] = {
        {"vocab_size", "vocabulary size"}, {"intermediate_size", "MLP width"}, {"ffn_dim", "MLP width"}, {"n_inner", "MLP width"},
        {"hidden_act", "MLP activation"}, {"hidden_activation", "MLP activation"}, {"activation_function", "MLP activation"},
        {"initializer_range", "weight initialisation"}, {"init_std", "weight initialisation"},
        {"tie_word_embeddings", "embedding tying"}, {"torch_dtype", "the weights' dtype"}, {"dtype", "the weights' dtype"},
        {"transformers_version", "the writer's version"}, {"use_cache", "KV cache at inference"},
        {"attention_bias", "projection biases"}, {"mlp_bias", "projection biases"}, {"bias", "projection biases"},
        {"pretraining_tp", "tensor parallelism"}, {"num_key_value_heads", "grouped-query attention: heads share keys; the scene shows one head"},
        {"n_head_kv", "grouped-query attention: heads share keys; the scene shows one head"},
        {"num_kv_heads", "grouped-query attention: heads share keys; the scene shows one head"},
        {"multi_query", "multi-query attention: heads share keys; the scene shows one head"},
        {"quantization_config", "weight quantisation"}, {"_name_or_path", "where the file came from"}, {"auto_map", "custom code classes"},
        {"cache_implementation", "KV cache at inference"}, {"logit_scale", "scales the output logits, not the attention scores"},
        {"final_logit_softcapping", "soft-caps the output logits, not the attention scores"},
        {"task_specific_params", "generation settings"}, {"id2label", "classification labels"}, {"label2id", "classification labels"},
        {"problem_type", "classification head"}, {"type_vocab_size", "segment (token type) embeddings"},
        {"embedding_size", "embedding width"}, {"parallel_attn", "block layout (parallel attention and MLP)"},
        {"new_decoder_architecture", "block layout"}, {"use_parallel_residual", "block layout"}, {"layer_norm_type", "layer norms"},
        {"kv_lora_rank", "low-rank key/value projection"}, {"q_lora_rank", "low-rank query projection"},
        {"v_head_dim", "value head width"}, {"scale_attn_weights", "GPT-2 scales scores by head_dim^-1/2 (the scene's default)"},
        {"tie_embeddings", "embedding tying"}, {"head_dim_v", "value head width"}, {"num_nextn_predict_layers", "multi-token prediction"},
        {"first_k_dense_replace", "dense and expert layers"}, {"topk_method", "expert routing"}, {"scoring_func", "expert routing"},
        {"norm_topk_prob", "expert routing"}, {"ep_size", "expert parallelism"}, {"routed_scaling_factor", "expert routing"},
        {"aux_loss_alpha", "expert routing loss"}, {"seq_aux", "expert routing loss"}, {"topk_group", "expert routing"},
        {"n_group", "expert routing"}, {"output_router_logits", "expert routing"}, {"decoder_sparse_step", "expert layers"},
        {"mlp_only_layers", "expert layers"}, {"residual_dropout", "dropout"}, {"embedding_dropout", "dropout"},
        {"clip_qkv", "clips the q/k/v projections' values (not positional)"}, {"max_window_layers", "unused: no layer slides"},
        {"is_encoder_decoder", "the scene shows the stack the family table names"}, {"is_decoder", "the scene shows the stack the family table names"},
        {"num_beams", "generation settings"}, {"max_length", "generation settings"}, {"tokenizer_class", "tokenizer"},
        {"feed_forward_proj", "MLP activation"}, {"dense_act_fn", "MLP activation"}, {"d_ff", "MLP width"},
        {"num_decoder_layers", "decoder depth"}, {"classifier_dropout", "dropout"}, {"gradient_checkpointing", "training"},
        {"layernorm_embedding", "layer norms"}, {"scale_embedding", "embedding scale"}, {"use_scaled_rope", "Meta's name for the llama3 scaling (rope_scaling says it)"},
        {"rope_traditional", "MLX's layout flag (the family table gives the layout)"}, {"embd_pdrop", "dropout"},
        {"summary_type", "classification head"}, {"summary_use_proj", "classification head"}, {"summary_activation", "classification head"},
        {"summary_proj_to_labels", "classification head"}, {"summary_first_dropout", "dropout"}, {"n_ctx", "GPT-2's former name of n_positions (n_positions is read)"},
        {"apply_residual_connection_post_layernorm", "block layout"}, {"slow_but_exact", "BLOOM inference path"},
        {"offset_alibi", "BLOOM inference path"}, {"pretraining_tp", "tensor parallelism"}, {"skip_bias_add", "block layout"},
        {"skip_bias_add_qkv", "block layout"}, {"masked_softmax_fusion", "kernel choice"}, {"unk_token_id", "special tokens"},
        {"attn_implementation", "kernel choice"}, {"_attn_implementation", "kernel choice"}, {"use_flash_attn", "kernel choice"},
        {"n_embed", "model width"}, {"bias_dropout_fusion", "kernel choice"}, {"learned_pos_emb", "MPT: see attn_config"},
        {"no_bias", "projection biases"}, {"norm_type", "layer norms"}, {"init_device", "weight initialisation"},
        {"logit_scale", "scales the output logits"}, {"verbose", "logging"}, {"emb_pdrop", "dropout"}, {"resid_pdrop", "dropout"},
        {"expansion_ratio", "MLP width"}, {"ffn_config", "MLP"}, {"use_sliding_window", "no layer slides"},
        {"bos_token_id", "special tokens"}, {"eos_token_id", "special tokens"}, {"pad_token_id", "special tokens"},
    };
    for (const Rule& r : kExact)
        if (k == QLatin1String(r.key)) return ModelConfig::tr("not positional: ") + QLatin1String(r.why);
    const QString l = k.toLower();
    if (l.contains(QLatin1String("dropout")) || l.contains(QLatin1String("pdrop"))) return ModelConfig::tr("not positional: dropout");
    if (l.endsWith(QLatin1String("token_id")) || l.endsWith(QLatin1String("token_ids")) || l.endsWith(QLatin1String("token_index")))
        return ModelConfig::tr("not positional: special tokens");
    if (l.contains(QLatin1String("expert")) || l.contains(QLatin1String("moe")) || l.contains(QLatin1String("router")))
        return ModelConfig::tr("not positional: mixture of experts");
    if (l.contains(QLatin1String("norm_eps")) || l.contains(QLatin1String("epsilon")) || l.endsWith(QLatin1String("_eps")))
        return ModelConfig::tr("not positional: eps of the layer norms");
    if (l.contains(QLatin1String("vocab"))) return ModelConfig::tr("not positional: vocabulary");
    if (l.contains(QLatin1String("initializer"))) return ModelConfig::tr("not positional: weight initialisation");
    return std::nullopt;
}

const char* const kRopeKeys[] = {"rope_parameters", "rope_scaling", "rope_theta", "partial_rotary_factor", "rotary_pct",
                                 "rotary_emb_base", "rotary_dim", "original_max_position_embeddings", "rope_interleave"};

}  // namespace

std::optional<QString> validationError(const ModelFileConfig& out) {
    const auto e = out.params.validate();
    if (!e) return std::nullopt;
    const std::string group(methodParamGroup(out.params.method));
    QString key = QString::fromStdString(e->parameter);
    for (const std::string& path : {group + "." + e->parameter, e->parameter})
        if (auto f = out.fromFile.find(path); f != out.fromFile.end()) key = f->second;
    if (e->parameter == "head_dim" || e->parameter == "dim")
        if (auto f = out.fromFile.find("dim"); f != out.fromFile.end()) key = f->second;
    return key + ModelConfig::tr(" must be ") + QString::fromStdString(e->valid) + QStringLiteral(", got ") +
           printableText(e->got, 60);
}

const Family* familyFor(const QJsonObject& o, QString* via) {
    const QString type = o.value(QLatin1String("model_type")).toString();
    if (!type.isEmpty()) return findFamily(type.toStdString());
    const QJsonArray arch = o.value(QLatin1String("architectures")).toArray();
    if (!arch.isEmpty() && arch[0].isString()) {
        if (via) *via = printableText(arch[0].toString().toStdString(), 60);
        return familyOfArchitecture(arch[0].toString().toStdString());
    }
    return nullptr;
}

std::optional<QString> finishHfConfig(const QJsonObject& top, const QJsonObject& read, ModelFileConfig& out) {
    ConfigReport& rep = out.report;
    QString via;
    const Family* fam = familyFor(read, &via);
    const Family& f = fam ? *fam : llamaStyleFamily();
    const bool rope = out.params.method == Method::Rope;
    const QString name = out.modelType.isEmpty() ? via : out.modelType;
    rep.family = fam ? QString::fromUtf8(fam->modelType.data(), static_cast<qsizetype>(fam->modelType.size()))
                     : ModelConfig::tr("llama (assumed)");
    rep.source = QString::fromUtf8(f.source.data(), static_cast<qsizetype>(f.source.size()));
    if (!fam) {
        const QString who = name.isEmpty() ? ModelConfig::tr("The file names no model_type")
                                           : ModelConfig::tr("model_type %1 is not in PosLab's family table").arg(name);
        rep.warnings << who + (rope ? QStringLiteral(": read as a Llama-style decoder (causal, RoPE pairs (i, i + r/2), softmax "
                                                     "scale head_dim^-1/2)")
                                    : ModelConfig::tr(": read as a causal decoder with %1")
                                          .arg(QString::fromUtf8(familySchemeText(out.params.method == Method::Alibi ? FamilyScheme::Alibi
                                                                                 : out.params.method == Method::T5  ? FamilyScheme::T5
                                                                                                                     : FamilyScheme::Learned)
                                                                     .data())));
    }

    // Causal: the family's own masking (T5: the encoder's stack; an unknown family: a decoder).
    const bool causal = fam ? fam->causal : out.params.method != Method::T5;
    out.params.causal = causal;
    LayerPattern& m = out.params.model;
    if (!m.empty()) m.bidirectional = !causal;
    // A config without layers: the family's layout on its one set of RoPE parameters.
    if (rope && m.empty() && f.layout == RopeLayout::Interleaved &&
        (f.modelType != "deepseek_v3" || !present(read, QStringLiteral("rope_interleave")) ||
         jsonTruthy(read.value(QLatin1String("rope_interleave")))))
        out.params.rope.layout = RopeLayout::Interleaved;

    // Gemma 2's soft-cap (class default 50; null switches it off): every layer's scores.
    const QString softcapKey = QString::fromUtf8(f.softcapKey.data(), static_cast<qsizetype>(f.softcapKey.size()));
    std::optional<double> softcap;
    if (!softcapKey.isEmpty()) {
        if (!read.contains(softcapKey)) {
            softcap = 50.0;
            rep.defaults[softcapKey] = ModelConfig::tr("50 (the family's default)");
        } else if (read.value(softcapKey).isDouble() && read.value(softcapKey).toDouble() > 0 &&
                   read.value(softcapKey).toDouble() <= 1e6) {
            softcap = read.value(softcapKey).toDouble();
        } else if (!read.value(softcapKey).isNull()) {
            return softcapKey + ModelConfig::tr(" must be a number in (0, 1e6] or null, got ") + describeJson(read.value(softcapKey));
        }
    }
    // The RoPE block (v5 rope_parameters, else v4 rope_scaling).
    const QString blockKey = present(read, QStringLiteral("rope_parameters")) ? QStringLiteral("rope_parameters") : QStringLiteral("rope_scaling");
    const QJsonObject block = read.value(blockKey).toObject();
    std::vector<double> queryScaling;
    if (f.queryScale == FamilyQueryScale::Ministral3 && present(block, QStringLiteral("llama_4_scaling_beta"))) {
        const double beta = block.value(QLatin1String("llama_4_scaling_beta")).toDouble();
        const double n = present(block, QStringLiteral("original_max_position_embeddings"))
                             ? block.value(QLatin1String("original_max_position_embeddings")).toDouble()
                             : static_cast<double>(out.params.rope.max_positions);
        queryScaling = {n, beta};
        const QJsonValue nv = block.value(QLatin1String("original_max_position_embeddings"));
        if (!block.value(QLatin1String("llama_4_scaling_beta")).isDouble() || !(nv.isUndefined() || nv.isNull() || nv.isDouble()) ||
            !(beta >= 0 && beta <= 1e12 && n >= 1 && n <= 1e12))
            return blockKey + QStringLiteral(".llama_4_scaling_beta must be a number from 0 to 1e12 (with "
                                                  "original_max_position_embeddings ≥ 1), got ") +
                   describeJson(block.value(QLatin1String("llama_4_scaling_beta")));
    }
    // Both act on every layer: the pattern's, and the layer shown.
    m.softcap = out.params.attention.softcap = softcap;
    m.query_scaling = out.params.attention.query_scaling = queryScaling;
    if (m.empty()) m.softcap.reset(), m.query_scaling.clear();

    for (const char* k : {"num_hidden_layers", "n_layer", "num_layers"})
        if (read.value(QLatin1String(k)).isDouble() && read.value(QLatin1String(k)).toDouble() >= 1 &&
            read.value(QLatin1String(k)).toDouble() <= 4096) {
            out.layerCount = static_cast<std::int64_t>(read.value(QLatin1String(k)).toDouble());
            break;
        }

    // ----- the report -----
    std::map<QString, QStringList> fromFile;   // top-level key → what it set
    for (const auto& [path, key] : out.fromFile) {
        const QString topKey = key.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('['), 0, 0);
        const QString d = describePath(out.params, path);
        if (!fromFile[topKey].contains(d)) fromFile[topKey] << d;
    }
    const bool hasPattern = !m.empty();
    const auto types = parseLayerTypes(m.layer_types).value_or(std::vector<LayerType>{});
    const auto count = [&](LayerType t) { return static_cast<int>(std::count(types.begin(), types.end(), t)); };
    const QString patternText =
        hasPattern ? ModelConfig::tr("%1 layers: %2 full, %3 sliding, %4 chunked")
                         .arg(types.size())
                         .arg(count(LayerType::Full))
                         .arg(count(LayerType::Sliding))
                         .arg(count(LayerType::Chunked))
                   : QString();
    const double scale = scoreScale(out.params.attention, out.params.dim);

    auto classify = [&](const QJsonObject& o, const QString& prefix) {
        for (const QString& k : o.keys()) {
            const QString key = prefix + k;
            const QJsonValue v = o.value(k);
            const QString pre = rep.used.count(key) ? rep.used[key] : QString();
            auto use = [&](const QString& what) { rep.used[key] = pre + what; };
            auto ignore = [&](const QString& why) { rep.ignored[key] = why; };
            auto notModelled = [&](const QString& what) { rep.notModelled[key] = what; };
            if (auto it = fromFile.find(k); it != fromFile.end()) {
                use(it->second.join(QStringLiteral("; ")));
                // DeepSeek MLA: the head's width is nope + rope, RoPE on the rope part, and the
                // softmax scale is computed from the same sum.
                if (k == QLatin1String("qk_nope_head_dim") && f.scale == FamilyScale::DeepseekMscale)
                    rep.used[key] += QStringLiteral(" (qk_nope_head_dim + qk_rope_head_dim: the %1 unrotated channels pass RoPE "
                                                    "unchanged and add their position-free term to every score); softmax scale = "
                                                    "(qk_nope_head_dim + qk_rope_head_dim)^-1/2 · mscale² = %2")
                                         .arg(num(v.toDouble()))
                                         .arg(num(scale));
                continue;
            }
            if (k == QLatin1String("model_type")) {
                if (fam) use(ModelConfig::tr("family %1 (%2)").arg(rep.family, rep.source));
                else use(ModelConfig::tr("not in the family table: read as a Llama-style decoder (see warnings)"));
            } else if (k == QLatin1String("architectures")) {
                if (!via.isEmpty() && fam) use(ModelConfig::tr("family %1 from %2 (no model_type)").arg(rep.family, via));
                else ignore(ModelConfig::tr("model classes (the family comes from model_type)"));
            } else if (k == QLatin1String("text_config") && prefix.isEmpty() && &o == &top && top != read) {
                use(ModelConfig::tr("the text model: its keys are listed as text_config.KEY"));
            } else if (k == QLatin1String("vision_config") || k == QLatin1String("audio_config")) {
                ignore(ModelConfig::tr("the %1 encoder: not read (text positions only)").arg(k.section(QLatin1Char('_'), 0, 0)));
            } else if (k == QLatin1String("num_attention_heads") || k == QLatin1String("n_head") || k == QLatin1String("n_heads") ||
                       k == QLatin1String("num_heads")) {
                if (v.isDouble()) use(ModelConfig::tr("%1 attention heads (the scene shows one)").arg(num(v.toDouble())));
                else ignore(ModelConfig::tr("not a number"));
            } else if (k == QLatin1String("hidden_size") || k == QLatin1String("n_embd") || k == QLatin1String("d_model") ||
                       k == QLatin1String("n_embed")) {
                ignore(ModelConfig::tr("model width: not positional (the head dimension comes from another key)"));
            } else if (k == QLatin1String("num_hidden_layers") || k == QLatin1String("n_layer") || k == QLatin1String("num_layers")) {
                if (hasPattern) use(patternText);
                else ignore(ModelConfig::tr("every layer applies the same positional scheme"));
            } else if (k == QLatin1String("sliding_window") || k == QLatin1String("local_attention")) {
                if (m.window && count(LayerType::Sliding) > 0)
                    use(ModelConfig::tr("window %1 on the sliding layers (%2)").arg(*m.window).arg(causal ? ModelConfig::tr("key j seen iff i − W < j ≤ i") : QStringLiteral("|i − j| ≤ ⌊W/2⌋")));
                else if (v.isNull()) ignore(ModelConfig::tr("null: no window"));
                else if (f.windows == FamilyWindows::Qwen2) ignore(ModelConfig::tr("use_sliding_window is false: no layer slides"));
                else if (!rope) notModelled(ModelConfig::tr("a sliding window (the %1 scene draws full attention)").arg(QString::fromUtf8(familySchemeText(f.scheme).data())));
                else ignore(ModelConfig::tr("no layer of this family slides"));
            } else if (k == QLatin1String("use_sliding_window")) {
                use(jsonTruthy(v) && count(LayerType::Sliding) > 0 ? ModelConfig::tr("true: layers from max_window_layers on slide")
                                                               : ModelConfig::tr("false: no layer slides"));
            } else if (k == QLatin1String("max_window_layers")) {
                if (count(LayerType::Sliding) > 0) use(ModelConfig::tr("the first sliding layer: %1").arg(num(v.toDouble())));
                else ignore(ModelConfig::tr("no layer slides (use_sliding_window is false)"));
            } else if (k == QLatin1String("sliding_window_pattern") || k == QLatin1String("global_attn_every_n_layers") ||
                       k == QLatin1String("no_rope_layer_interval") || k == QLatin1String("nope_layer_interval") ||
                       k == QLatin1String("attention_chunk_size") || k == QLatin1String("no_rope_layers") ||
                       k == QLatin1String("layer_types")) {
                if (hasPattern) use(ModelConfig::tr("the layer pattern: ") + patternText);
                else ignore(ModelConfig::tr("no layer pattern (%1)").arg(rope ? ModelConfig::tr("no layer count") : ModelConfig::tr("not a RoPE model")));
            } else if (k == QLatin1String("rope_local_base_freq") || k == QLatin1String("local_rope_theta")) {
                if (hasPattern) use(ModelConfig::tr("RoPE θ of the sliding layers = %1").arg(num(m.rope_sliding.base)));
                else ignore(ModelConfig::tr("no layer pattern"));
            } else if (k == QLatin1String("global_rope_theta")) {
                if (hasPattern) use(ModelConfig::tr("RoPE θ of the full layers = %1").arg(num(m.rope_full.base)));
                else ignore(ModelConfig::tr("no layer pattern"));
            } else if (k == QLatin1String("query_pre_attn_scalar")) {
                if (f.scale == FamilyScale::QueryPreAttnScalar && hasPattern)
                    use(ModelConfig::tr("softmax scale = query_pre_attn_scalar^-1/2 = %1").arg(num(scale)));
                else ignore(ModelConfig::tr("this family's scale is %1").arg(QString::fromStdString(familyScaleText(f))));
            } else if (k == QLatin1String("attention_multiplier")) {
                if (f.scale == FamilyScale::AttentionMultiplier && hasPattern) use(ModelConfig::tr("softmax scale = %1").arg(num(scale)));
                else ignore(ModelConfig::tr("this family's scale is %1").arg(QString::fromStdString(familyScaleText(f))));
            } else if (k == QLatin1String("qk_nope_head_dim")) {
                if (f.scale == FamilyScale::DeepseekMscale) {
                    use(ModelConfig::tr("softmax scale = (qk_nope_head_dim + qk_rope_head_dim)^-1/2 · mscale² = %1").arg(num(scale)));
                } else {
                    ignore(ModelConfig::tr("not read by this family"));
                }
            } else if (k == QLatin1String("rope_interleave")) {
                use(QStringLiteral("layout %1").arg(out.params.rope.layout == RopeLayout::Interleaved ? QStringLiteral("interleaved (2i, 2i + 1)")
                                                                                                     : ModelConfig::tr("half (i, i + r/2)")));
            } else if (k == QLatin1String("attn_logit_softcapping")) {
                if (!softcapKey.isEmpty() && softcap)
                    use(QStringLiteral("logit soft-cap %1: every score s ↦ %1·tanh(s/%1) after the scale, before the mask and "
                                       "softmax (%2:201-206)")
                            .arg(num(*softcap), rep.source));
                else if (!softcapKey.isEmpty()) ignore(ModelConfig::tr("null: no soft-cap"));
                else ignore(ModelConfig::tr("stored, but this family's attention does not apply it (%1)").arg(rep.source));
            } else if (k == QLatin1String("attn_temperature_tuning") || k == QLatin1String("floor_scale") || k == QLatin1String("attn_scale")) {
                if (!m.temperature_tuning.empty())
                    use(ModelConfig::tr("temperature tuning of the NoPE layers: floor_scale %1, attn_scale %2")
                            .arg(num(m.temperature_tuning[0]), num(m.temperature_tuning[1])));
                else if (f.queryScale == FamilyQueryScale::Llama4Temperature) use(ModelConfig::tr("off: no temperature tuning"));
                else ignore(ModelConfig::tr("not read by this family"));
            } else if (k == QLatin1String("use_qk_norm") || k == QLatin1String("qk_layernorm")) {
                if (m.qk_norm != QkNorm::None) use(ModelConfig::tr("q/k norm %1 RoPE").arg(m.qk_norm == QkNorm::After ? QStringLiteral("after") : QStringLiteral("before")));
                else if (f.qkNorm == FamilyQkNorm::LayerNormIfKey && jsonTruthy(v))
                    notModelled(ModelConfig::tr("LayerNorm of q and k (mean removed) before RoPE (%1); the scene does not normalise").arg(rep.source));
                else if (f.qkNorm == FamilyQkNorm::LayerNormIfKey || f.queryScale == FamilyQueryScale::Llama4Temperature)
                    use(ModelConfig::tr("false: no q/k norm"));
                else ignore(ModelConfig::tr("not read by this family"));
            } else if (k == QLatin1String("rms_norm_eps")) {
                if (m.qk_norm != QkNorm::None) use(ModelConfig::tr("eps of the q/k norm = %1").arg(num(m.norm_eps)));
                else if (f.qkNorm == FamilyQkNorm::RmsProjectionBefore)
                    notModelled(QStringLiteral("q_norm/k_norm: RMSNorm over the whole q and k projections (all heads) before RoPE "
                                               "(%1): each token's factor depends on every head's channels, and the scene "
                                               "holds one head's, so it does not normalise")
                                    .arg(rep.source));
                else ignore(ModelConfig::tr("not positional: eps of the layer norms"));
            } else if (k == QLatin1String("alibi")) {
                if (out.params.method == Method::Alibi) {
                    use(QStringLiteral("ALiBi"));
                    if (f.modelType == "falcon")
                        rep.notModelled[key + QStringLiteral(".scale")] =
                            QStringLiteral("Falcon multiplies the ALiBi bias by head_dim^-1/2 with the scores "
                                           "(modeling_falcon.py:405-406); the scene adds it unscaled");
                } else {
                    ignore(ModelConfig::tr("false: RoPE"));
                }
            } else if (k == QLatin1String("attn_config")) {
                const QJsonObject a = v.toObject();
                use(ModelConfig::tr("attention: %1").arg(out.params.method == Method::Alibi ? QStringLiteral("ALiBi") : ModelConfig::tr("see its keys")));
                if (present(a, QStringLiteral("softmax_scale")))
                    rep.notModelled[key + QStringLiteral(".softmax_scale")] =
                        ModelConfig::tr("scores × %1 instead of head_dim^-1/2; the ALiBi scene keeps head_dim^-1/2").arg(num(a.value(QLatin1String("softmax_scale")).toDouble()));
            } else if (k == QLatin1String("position_embedding_type")) {
                use(QStringLiteral("%1 positions").arg(v.toString()));
            } else if (k == QLatin1String("max_position_embeddings") || k == QLatin1String("n_positions") || k == QLatin1String("max_seq_len") ||
                       k == QLatin1String("seq_length")) {
                if (out.contextLength) use(ModelConfig::tr("context length %1 (the views' training context)").arg(*out.contextLength));
                else ignore(ModelConfig::tr("another key gives the context length"));
            } else if ((k == QLatin1String("attention_types") || k == QLatin1String("window_size")) && f.windows == FamilyWindows::GptNeoLocal) {
                notModelled(ModelConfig::tr("local layers see only the last window_size keys (%1:62-72); the learned-position scene draws full attention").arg(rep.source));
            } else if (k == QLatin1String("pad_token_id") && f.positionOffset == "pad_token_id + 1") {
                notModelled(ModelConfig::tr("positions start at row pad_token_id + 1 of the learned table (%1:137); the scene starts at row 0").arg(rep.source));
            } else if (std::find_if(std::begin(kRopeKeys), std::end(kRopeKeys), [&](const char* r) { return k == QLatin1String(r); }) !=
                       std::end(kRopeKeys)) {
                if (v.isNull()) ignore(QStringLiteral("null"));
                else if (!rope) ignore(ModelConfig::tr("not a RoPE model (%1)").arg(QString::fromUtf8(familySchemeText(f.scheme).data())));
                else ignore(ModelConfig::tr("another key sets it (rope_parameters or the block's own value wins)"));
            } else if (auto why = notPositional(k)) {
                ignore(*why);
            } else {
                ignore(ModelConfig::tr("not read by PosLab (no positional or attention meaning known to it)"));
            }
        }
    };
    classify(top, QString());
    if (top != read) {
        // The text model's keys (the family defaults added to it are not the file's keys).
        QJsonObject inner = top.value(QLatin1String("text_config")).toObject();
        if (!inner.contains(QLatin1String("model_type")) && read.contains(QLatin1String("model_type")))
            inner.insert(QStringLiteral("model_type"), read.value(QLatin1String("model_type")));
        QJsonObject own;
        for (const QString& k : top.value(QLatin1String("text_config")).toObject().keys()) own.insert(k, inner.value(k));
        classify(own, QStringLiteral("text_config."));
    }
    // Ministral 3's query scaling sits inside the RoPE block (a used key): said with what it set.
    if (!queryScaling.empty()) {
        const QString key = (top != read ? QStringLiteral("text_config.") : QString()) + blockKey;
        if (rep.used.count(key))
            rep.used[key] += ModelConfig::tr("; query scaling: queries × 1 + %1·ln(1 + ⌊p/%2⌋) after RoPE (%3:105-107, 146-150)")
                                 .arg(num(queryScaling[1]), num(queryScaling[0]), rep.source);
    }

    // Defaults taken (the family's class defaults added to `read` are not the file's keys).
    const QJsonObject textConfig = top.value(QLatin1String("text_config")).toObject();
    auto fileHas = [&](const QString& k) { return top.contains(k) || (top != read && textConfig.contains(k)); };
    if (rope) {
        if (!out.fromFile.count("rope.base")) rep.defaults[QStringLiteral("rope_theta")] = num(hasPattern ? m.rope_full.base : out.params.rope.base);
        if (!out.fromFile.count("rope.scaling")) rep.defaults[QStringLiteral("rope_type")] = ModelConfig::tr("default (no scaling)");
        if (f.rotated == FamilyRotated::LastQkRope && fileHas(QStringLiteral("qk_rope_head_dim")) &&
            !fileHas(QStringLiteral("qk_nope_head_dim")))
            rep.defaults[QStringLiteral("qk_nope_head_dim")] = ModelConfig::tr("128 (the family's default): head dimension %1").arg(out.params.dim);
        if (!fileHas(QStringLiteral("head_dim")) && !fileHas(QStringLiteral("qk_rope_head_dim"))) {
            const QString from = out.fromFile.count("dim") ? out.fromFile.at("dim") : QString();
            rep.defaults[QStringLiteral("head_dim")] =
                from.isEmpty() || from == QLatin1String("head_dim") ? ModelConfig::tr("%1 (the family's default)").arg(out.params.dim)
                                                                     : ModelConfig::tr("%1 = %2 / attention heads").arg(out.params.dim).arg(from);
        }
        if (!fileHas(QStringLiteral("max_position_embeddings")) && !fileHas(QStringLiteral("n_positions")))
            rep.defaults[QStringLiteral("max_position_embeddings")] = QString::number(out.params.rope.max_positions);
        if (hasPattern && !fileHas(QStringLiteral("num_hidden_layers")) && !fileHas(QStringLiteral("n_layer")) &&
            !fileHas(QStringLiteral("num_layers")))
            rep.defaults[QStringLiteral("num_hidden_layers")] = ModelConfig::tr("%1 (the family's default)").arg(types.size());
        const RopeParams& r = out.params.rope;
        if (r.scaling == RopeScaling::Yarn) {
            if (!out.fromFile.count("rope.beta_fast")) rep.defaults[QStringLiteral("beta_fast")] = QStringLiteral("32");
            if (!out.fromFile.count("rope.beta_slow")) rep.defaults[QStringLiteral("beta_slow")] = QStringLiteral("1");
        }
        if ((r.scaling == RopeScaling::Yarn || r.scaling == RopeScaling::LongRope) && !out.fromFile.count("rope.factor"))
            rep.defaults[QStringLiteral("factor")] = num(r.resolvedFactor()) + ModelConfig::tr(" = max / original max positions");
        if ((r.scaling == RopeScaling::Yarn || r.scaling == RopeScaling::LongRope || r.scaling == RopeScaling::Llama3) &&
            !out.fromFile.count("rope.original_max_positions"))
            rep.defaults[QStringLiteral("original_max_position_embeddings")] = QString::number(r.max_positions);
        if (hasPattern && count(LayerType::Sliding) > 0 && m.window && !fileHas(QStringLiteral("sliding_window")) &&
            !fileHas(QStringLiteral("local_attention")))
            rep.defaults[QStringLiteral("sliding_window")] = QString::number(*m.window);
        if (hasPattern && count(LayerType::Chunked) > 0 && !out.fromFile.count("model.chunk") && m.chunk)
            rep.defaults[QStringLiteral("attention_chunk_size")] = QString::number(*m.chunk);
        if (hasPattern && !out.fromFile.count("model.layer_types") && !read.contains(QLatin1String("layer_types")))
            rep.defaults[QStringLiteral("layer_types")] = ModelConfig::tr("the family's pattern: ") + patternText;
        if (f.scale == FamilyScale::QueryPreAttnScalar && !read.contains(QLatin1String("query_pre_attn_scalar")))
            rep.defaults[QStringLiteral("query_pre_attn_scalar")] = QStringLiteral("256");
    }
    // The family's masking changes what is valid (a decoder's T5 buckets: max_distance above
    // num_buckets/2, not /4): checked again as the model is read.
    return validationError(out);
}

void finishGgufConfig(const GgufMetadata& meta, ModelFileConfig& out) {
    ConfigReport& rep = out.report;
    const Family* fam = findFamily(out.modelType.toStdString());
    rep.family = fam ? QString::fromUtf8(fam->modelType.data(), static_cast<qsizetype>(fam->modelType.size())) : out.modelType;
    rep.source = ModelConfig::tr("llama.cpp GGUF metadata (general.architecture %1)").arg(out.modelType);
    out.params.causal = fam ? fam->causal : out.params.method != Method::T5;
    if (const GgufValue* b = meta.find(out.modelType.toStdString() + ".block_count"))
        if (auto* x = std::get_if<std::uint64_t>(&b->value); x && *x >= 1 && *x <= 4096) out.layerCount = static_cast<std::int64_t>(*x);
    if (fam && fam->layout == RopeLayout::Interleaved && out.params.method == Method::Rope) out.params.rope.layout = RopeLayout::Interleaved;
    std::map<QString, QStringList> fromFile;
    for (const auto& [path, key] : out.fromFile) {
        const QString d = describePath(out.params, path);
        if (!fromFile[key].contains(d)) fromFile[key] << d;
    }
    for (const auto& [k, v] : meta.kv) {
        const QString key = printableText(k, 120);
        if (auto it = fromFile.find(key); it != fromFile.end()) rep.used[key] = it->second.join(QStringLiteral("; "));
        else if (k == "general.architecture") rep.used[key] = QStringLiteral("family %1").arg(rep.family);
        else if (k.rfind("general.", 0) == 0) rep.ignored[key] = ModelConfig::tr("not positional: the file's description");
        else if (k.rfind("tokenizer.", 0) == 0) rep.ignored[key] = ModelConfig::tr("not positional: tokenizer");
        else if (k.find("attention.head_count") != std::string::npos) rep.used[key] = ModelConfig::tr("attention heads (the scene shows one)");
        else if (k.find("rope") != std::string::npos || k.find("sliding_window") != std::string::npos || k.find("softcap") != std::string::npos)
            rep.notModelled[key] = ModelConfig::tr("a positional or attention key PosLab's GGUF reader does not apply");
        else rep.ignored[key] = ModelConfig::tr("not read by PosLab (no positional meaning known to it)");
    }
    if (!meta.ropeFreqs.empty()) rep.used[QStringLiteral("rope_freqs.weight")] = fromFile.count(QStringLiteral("rope_freqs.weight"))
                                                                                    ? fromFile[QStringLiteral("rope_freqs.weight")].join(QStringLiteral("; "))
                                                                                    : ModelConfig::tr("per-pair frequency divisors");
}

}  // namespace poslab::ui
