#include "ui/io/modelconfig.h"
#include "ui/io/mropeconfig.h"

#include "core/param.h"
#include "ui/io/configreport.h"
#include "ui/io/families.h"
#include "ui/io/gguf.h"
#include "ui/io/hfsnapshot.h"
#include "ui/io/layerconfig.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

QStringList ModelFileConfig::keys() const {
    QStringList out;
    for (const auto& [path, key] : fromFile)
        if (!out.contains(key)) out << key;
    out.sort();
    return out;
}

namespace {

// Thrown inside the parser, caught by parseHfConfig: the message.
struct ConfigError {
    QString message;
};

[[noreturn]] void bad(const QString& key, const std::string& valid, const std::string& got) {
    throw ConfigError{key + ModelConfig::tr(" must be ") + QString::fromStdString(valid) + QStringLiteral(", got ") +
                      QString::fromStdString(got)};
}

std::string describe(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool() ? "true" : "false";
    case QJsonValue::Double: return formatNumber(v.toDouble());
    case QJsonValue::String: return "\"" + printableText(v.toString().toStdString(), 40).toStdString() + "\"";
    case QJsonValue::Array: return "a list";
    case QJsonValue::Object: return "an object";
    default: return "null";
    }
}

// A JSON value as the parameter's kind (type errors name `key`).
ParamValue toValue(const ParamInfo& info, const QString& key, const QJsonValue& v) {
    switch (info.kind) {
    case ParamKind::Int: {
        if (!v.isDouble()) bad(key, info.valid(), describe(v));
        const double d = v.toDouble();
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.007199254740992e15)
            bad(key, info.valid(), formatNumber(d));
        return static_cast<std::int64_t>(d);
    }
    case ParamKind::Real:
        if (!v.isDouble()) bad(key, info.valid(), describe(v));
        return v.toDouble();
    case ParamKind::Bool:
        if (!v.isBool()) bad(key, info.valid(), describe(v));
        return v.toBool();
    case ParamKind::Choice:
        if (!v.isString()) bad(key, info.valid(), describe(v));
        return v.toString().toStdString();
    case ParamKind::RealList: {
        if (!v.isArray()) bad(key, info.valid(), describe(v));
        const QJsonArray a = v.toArray();
        if (static_cast<std::size_t>(a.size()) > info.maxEntries)
            bad(key, info.valid(), std::to_string(a.size()) + " entries");
        std::vector<double> out;
        out.reserve(static_cast<std::size_t>(a.size()));
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a[i].isDouble()) bad(key, info.valid(), describe(a[i]) + " at entry " + std::to_string(i));
            out.push_back(a[i].toDouble());
        }
        return out;
    }
    default:
        break;
    }
    bad(key, info.valid(), describe(v));
}

// A number of the file that is not itself a parameter (hidden_size, num_attention_heads, ...),
// checked as an integer in [lo, hi] through a ParamInfo of its own.
std::int64_t fileInt(const QString& key, const QJsonValue& v, double lo, double hi) {
    const ParamInfo info{.name = "value", .kind = ParamKind::Int, .lo = lo, .hi = hi};
    const ParamValue pv = toValue(info, key, v);
    if (auto e = info.check(pv)) bad(key, e->valid, e->got);
    return std::get<std::int64_t>(pv);
}

// Reads keys of the file into a ScoreParams through scoreParamTable().
class Reader {
public:
    explicit Reader(ModelFileConfig& out) : out_(out) {}

    // Checks and sets the parameter at `path` from the file's value at `key`.
    void set(const std::string& path, const QString& key, const QJsonValue& v) {
        const Param<ScoreParams>* p = findParam(scoreParamTable(), path);
        if (!p) throw ConfigError{ModelConfig::tr("internal: no parameter ") + QString::fromStdString(path)};
        const ParamValue pv = toValue(p->info, key, v);
        if (auto e = p->info.check(pv)) bad(key, e->valid, e->got);
        p->set(out_.params, pv);
        out_.fromFile[path] = key;
    }
    void setInt(const std::string& path, const QString& key, std::int64_t v) {
        set(path, key, QJsonValue(static_cast<double>(v)));
    }

private:
    ModelFileConfig& out_;
};

bool present(const QJsonObject& o, const char* key) { return o.contains(QLatin1String(key)) && !o.value(QLatin1String(key)).isNull(); }

// Python truthiness of a JSON value (None, 0, false, "" are false).
bool truthy(const QJsonValue& v) {
    if (v.isNull() || v.isUndefined()) return false;
    if (v.isBool()) return v.toBool();
    if (v.isDouble()) return v.toDouble() != 0.0;
    if (v.isString()) return !v.toString().isEmpty();
    return true;
}

// The first present key of `names` in o (its name in `found`).
QJsonValue firstOf(const QJsonObject& o, std::initializer_list<const char*> names, QString& found) {
    for (const char* n : names)
        if (present(o, n)) {
            found = QString::fromLatin1(n);
            return o.value(found);
        }
    return QJsonValue();
}

const char* const kRopeKeys[] = {"rope_parameters", "rope_scaling", "rope_theta", "partial_rotary_factor",
                                 "rotary_pct", "rotary_emb_base", "rotary_dim", "qk_rope_head_dim"};

// Heads and model dimension: num_attention_heads / n_head / n_heads / num_heads, hidden_size /
// n_embd / n_embed / d_model.
struct Shape {
    std::int64_t heads = 0, model = 0;
    QString headsKey, modelKey;
};
Shape readShape(const QJsonObject& o) {
    Shape s;
    const QJsonValue h = firstOf(o, {"num_attention_heads", "n_head", "n_heads", "num_heads"}, s.headsKey);
    if (!h.isUndefined() && !h.isNull()) s.heads = fileInt(s.headsKey, h, 1, 65536);
    const QJsonValue m = firstOf(o, {"hidden_size", "n_embd", "n_embed", "d_model"}, s.modelKey);
    if (!m.isUndefined() && !m.isNull()) s.model = fileInt(s.modelKey, m, 1, 16777216);
    return s;
}

void requireKey(const QJsonObject& o, const char* key, const QString& where) {
    if (!present(o, key))
        throw ConfigError{where + QString::fromLatin1(key) + ModelConfig::tr(" is missing")};
}

void readAlibi(const QJsonObject& o, const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::Alibi;
    if (s.heads == 0) throw ConfigError{ModelConfig::tr("n_head (the number of attention heads) is missing")};
    r.setInt("alibi.heads", s.headsKey, s.heads);
    out.heads = static_cast<int>(s.heads);
    if (s.model > 0) {
        if (s.model % s.heads != 0)
            bad(s.modelKey, "a multiple of " + s.headsKey.toStdString() + " (" + std::to_string(s.heads) + ")",
                std::to_string(s.model));
        r.setInt("dim", s.modelKey, s.model / s.heads);
    }
    const QJsonObject attn = o.value(QLatin1String("attn_config")).toObject();
    if (present(attn, "alibi_bias_max")) r.set("alibi.bias_max", QStringLiteral("attn_config.alibi_bias_max"), attn.value(QLatin1String("alibi_bias_max")));
    QString k;
    const QJsonValue ctx = firstOf(o, {"max_seq_len", "seq_length", "max_position_embeddings"}, k);
    if (!ctx.isUndefined() && !ctx.isNull()) out.contextLength = fileInt(k, ctx, 1, 1099511627776.0);
}

void readT5(const QJsonObject& o, const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::T5;
    r.set("t5.num_buckets", QStringLiteral("relative_attention_num_buckets"), o.value(QLatin1String("relative_attention_num_buckets")));
    if (present(o, "relative_attention_max_distance"))
        r.set("t5.max_distance", QStringLiteral("relative_attention_max_distance"), o.value(QLatin1String("relative_attention_max_distance")));
    if (s.heads > 0) {
        r.setInt("t5.heads", s.headsKey, s.heads);
        out.heads = static_cast<int>(s.heads);
    }
    if (present(o, "d_kv")) r.set("dim", QStringLiteral("d_kv"), o.value(QLatin1String("d_kv")));
    else if (s.model > 0 && s.heads > 0) r.setInt("dim", s.modelKey, s.model / s.heads);
}

void readLearned(const QJsonObject& o, const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::Learned;
    QString k;
    const QJsonValue n = firstOf(o, {"n_positions", "max_position_embeddings"}, k);
    if (n.isUndefined() || n.isNull()) throw ConfigError{ModelConfig::tr("n_positions / max_position_embeddings is missing")};
    r.set("learned.table_size", k, n);
    out.contextLength = std::get<std::int64_t>(findParam(scoreParamTable(), "learned.table_size")->get(out.params));
    if (s.model > 0) r.setInt("dim", s.modelKey, s.model);
    if (s.heads > 0) out.heads = static_cast<int>(s.heads);
}

// Transformer-XL (model_type transfo-xl, modeling_transfo_xl.py): the relative sinusoid of d_head
// per head (else d_model / n_head), distances clamped at clamp_len when it is > 0.
void readTransformerXl(const QJsonObject& o, const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::TransformerXL;
    if (present(o, "d_head")) r.set("dim", QStringLiteral("d_head"), o.value(QLatin1String("d_head")));
    else if (s.model > 0 && s.heads > 0) r.setInt("dim", s.modelKey, s.model / s.heads);
    else throw ConfigError{ModelConfig::tr("d_head (or d_model and n_head) is missing")};
    if (truthy(o.value(QLatin1String("clamp_len"))) && o.value(QLatin1String("clamp_len")).toDouble() > 0)
        r.set("transformer_xl.clamp_len", QStringLiteral("clamp_len"), o.value(QLatin1String("clamp_len")));
    if (s.heads > 0) out.heads = static_cast<int>(s.heads);
}

// Fixed sinusoidal positions added to the embeddings (DistilBERT's sinusoidal_pos_embds: sin on
// the even, cos on the odd channels, base 10000), as wide as the model.
void readSinusoidal(const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::Sinusoidal;
    if (s.model == 0) throw ConfigError{ModelConfig::tr("d_model (the model dimension) is missing")};
    r.setInt("dim", s.modelKey, s.model);
    if (s.heads > 0) out.heads = static_cast<int>(s.heads);
}

void readRope(const QJsonObject& o, const Shape& s, ModelFileConfig& out, Reader& r) {
    out.params.method = Method::Rope;
    // The RoPE block: v5 rope_parameters (possibly per layer type), else v4 rope_scaling.
    QJsonObject block;
    QString blockName;
    if (present(o, "rope_parameters")) {
        const QJsonValue v = o.value(QLatin1String("rope_parameters"));
        if (!v.isObject()) bad(QStringLiteral("rope_parameters"), "an object", describe(v));
        block = v.toObject();
        blockName = QStringLiteral("rope_parameters");
        // Per layer type ({"full_attention": {...}, "sliding_attention": {...}}): the full one.
        if (isPerLayerTypeBlock(block)) {
            const QString layer = block.contains(QLatin1String("full_attention")) ? QStringLiteral("full_attention") : block.keys().front();
            const QJsonValue inner = block.value(layer);
            blockName += "." + printableText(layer.toStdString());
            if (!inner.isObject()) bad(blockName, "an object", describe(inner));
            block = inner.toObject();
        }
    } else if (present(o, "rope_scaling")) {
        const QJsonValue v = o.value(QLatin1String("rope_scaling"));
        if (!v.isObject()) bad(QStringLiteral("rope_scaling"), "an object or null", describe(v));
        block = v.toObject();
        blockName = QStringLiteral("rope_scaling");
    }
    const QString pre = blockName + ".";
    auto inBlock = [&](const char* k) { return present(block, k); };
    auto blockValue = [&](const char* k) { return block.value(QLatin1String(k)); };
    auto blockKey = [&](const char* k) { return pre + QString::fromLatin1(k); };

    // rope_type (`type` in v4 rope_scaling). A block without a type (or with a null one) that holds
    // more than θ and the partial factor is refused: dropping its scaling would draw plain RoPE.
    QString type = QStringLiteral("default");
    QString typeKey;
    const char* const kValidTypes = "one of default, linear, dynamic, yarn, longrope, llama3";
    for (const char* k : {"rope_type", "type"})
        if (block.contains(QLatin1String(k)) && block.value(QLatin1String(k)).isNull()) bad(pre + QLatin1String(k), kValidTypes, "null");
    const QJsonValue t = firstOf(block, {"rope_type", "type"}, typeKey);
    if (!t.isUndefined() && !t.isNull()) {
        if (!t.isString()) bad(pre + typeKey, kValidTypes, describe(t));
        type = t.toString();
        // Phi-3's older names (`"type": "su"`; "yarn" spelled in `type` is read as it is).
        if (type == QLatin1String("su")) {
            type = QStringLiteral("longrope");
            out.report.used[blockName.section(QLatin1Char('.'), 0, 0)] = ModelConfig::tr("type su read as longrope (its older name); ");
        }
    } else if (!block.isEmpty()) {
        QStringList scalingKeys;
        for (const QString& k : block.keys())
            if (k != QLatin1String("rope_theta") && k != QLatin1String("partial_rotary_factor")) scalingKeys << printableText(k.toStdString(), 40);
        if (!scalingKeys.isEmpty())
            bad(pre + QStringLiteral("rope_type"),
                std::string(kValidTypes) + " (the block has " + scalingKeys.join(QStringLiteral(", ")).toStdString() +
                    ": a scaling without its type)",
                "nothing");
    }
    static const std::map<QString, RopeScaling> kTypes = {
        {QStringLiteral("default"), RopeScaling::None}, {QStringLiteral("linear"), RopeScaling::Linear},
        {QStringLiteral("dynamic"), RopeScaling::Dynamic}, {QStringLiteral("yarn"), RopeScaling::Yarn},
        {QStringLiteral("longrope"), RopeScaling::LongRope}, {QStringLiteral("llama3"), RopeScaling::Llama3},
        // Qwen2-VL / 2.5-VL's v4 "type": "mrope" is rewritten to default (its sections: ui/io/mropeconfig.h).
        {QStringLiteral("mrope"), RopeScaling::None}};
    const auto it = kTypes.find(type);
    if (it == kTypes.end()) bad(pre + typeKey, "one of default, linear, dynamic, yarn, longrope, llama3", describe(t));
    const RopeScaling scaling = it->second;
    if (!typeKey.isEmpty()) r.set("rope.scaling", pre + typeKey, QJsonValue(QString::fromStdString(std::string(enumKey(scaling)))));

    // Head dimension.
    const Family* family = familyFor(o);
    if (present(o, "qk_rope_head_dim") && family && family->rotated == FamilyRotated::LastQkRope) {
        // DeepSeek MLA (modeling_deepseek_v2.py, forward): a head's q and k are
        // cat(q_nope, q_pe), qk_nope_head_dim + qk_rope_head_dim channels, of which RoPE rotates
        // the qk_rope_head_dim of q_pe (its frequencies over that width). The scene's head holds
        // both: dim = nope + rope, rotary_dim = rope; the unrotated channels add their
        // position-free term to every score (docs/spec/conventions.md "Added in 0.4").
        const QJsonValue nv = o.value(QLatin1String("qk_nope_head_dim"));
        double nope = 128;   // DeepseekV2Config / DeepseekV3Config default
        if (present(o, "qk_nope_head_dim")) {
            if (!nv.isDouble() || nv.toDouble() < 0 || nv.toDouble() > 65536 || nv.toDouble() != std::floor(nv.toDouble()))
                bad(QStringLiteral("qk_nope_head_dim"), "an integer from 0 to 65536", describe(nv));
            nope = nv.toDouble();
        }
        const QJsonValue rv = o.value(QLatin1String("qk_rope_head_dim"));
        r.set("rope.rotary_dim", QStringLiteral("qk_rope_head_dim"), rv);
        r.setInt("dim", present(o, "qk_nope_head_dim") ? QStringLiteral("qk_nope_head_dim") : QStringLiteral("qk_rope_head_dim"),
                 static_cast<std::int64_t>(nope + rv.toDouble()));
    } else if (present(o, "qk_rope_head_dim")) {
        r.set("dim", QStringLiteral("qk_rope_head_dim"), o.value(QLatin1String("qk_rope_head_dim")));
    } else if (truthy(o.value(QLatin1String("head_dim")))) {
        r.set("dim", QStringLiteral("head_dim"), o.value(QLatin1String("head_dim")));
    } else {
        if (s.heads == 0 || s.model == 0)
            throw ConfigError{ModelConfig::tr("head_dim is missing, and so is hidden_size or num_attention_heads")};
        r.setInt("dim", s.modelKey, s.model / s.heads);   // Python //
    }
    out.params.rope.head_dim = out.params.dim;
    if (s.heads > 0) out.heads = static_cast<int>(s.heads);

    // Base θ: the block's rope_theta, else the top level's (NeoX v4: rotary_emb_base), else 10000.
    if (inBlock("rope_theta")) r.set("rope.base", blockKey("rope_theta"), blockValue("rope_theta"));
    else if (present(o, "rope_theta")) r.set("rope.base", QStringLiteral("rope_theta"), o.value(QLatin1String("rope_theta")));
    else if (present(o, "rotary_emb_base")) r.set("rope.base", QStringLiteral("rotary_emb_base"), o.value(QLatin1String("rotary_emb_base")));

    // Partial rotary: the block's, else the top level's (NeoX v4: rotary_pct); GPT-J: rotary_dim.
    if (inBlock("partial_rotary_factor")) r.set("rope.partial_rotary_factor", blockKey("partial_rotary_factor"), blockValue("partial_rotary_factor"));
    else if (present(o, "partial_rotary_factor")) r.set("rope.partial_rotary_factor", QStringLiteral("partial_rotary_factor"), o.value(QLatin1String("partial_rotary_factor")));
    else if (present(o, "rotary_pct")) r.set("rope.partial_rotary_factor", QStringLiteral("rotary_pct"), o.value(QLatin1String("rotary_pct")));
    if (present(o, "rotary_dim")) r.set("rope.rotary_dim", QStringLiteral("rotary_dim"), o.value(QLatin1String("rotary_dim")));

    // max_position_embeddings (GPT-style n_positions).
    QString maxKey;
    const QJsonValue maxV = firstOf(o, {"max_position_embeddings", "n_positions"}, maxKey);
    if (!maxV.isUndefined() && !maxV.isNull()) {
        r.set("rope.max_positions", maxKey, maxV);
        out.contextLength = out.params.rope.max_positions;
    } else if (scaling != RopeScaling::None) {
        throw ConfigError{ModelConfig::tr("max_position_embeddings is missing (needed by rope_type ") + type + ")"};
    }

    if (o.value(QLatin1String("rope_interleave")).toBool(false))
        r.set("rope.layout", QStringLiteral("rope_interleave"), QJsonValue(QStringLiteral("interleaved")));

    if (scaling == RopeScaling::None) return;

    // original_max_position_embeddings (llama3, yarn, longrope): top level wins (Phi-3), else the block's.
    if (scaling == RopeScaling::Yarn || scaling == RopeScaling::LongRope || scaling == RopeScaling::Llama3) {
        if (present(o, "original_max_position_embeddings"))
            r.set("rope.original_max_positions", QStringLiteral("original_max_position_embeddings"), o.value(QLatin1String("original_max_position_embeddings")));
        else if (inBlock("original_max_position_embeddings"))
            r.set("rope.original_max_positions", blockKey("original_max_position_embeddings"), blockValue("original_max_position_embeddings"));
    }

    // factor: required for linear, dynamic, llama3; yarn/longrope default to max/original.
    const bool factorRequired = scaling == RopeScaling::Linear || scaling == RopeScaling::Dynamic || scaling == RopeScaling::Llama3;
    if (inBlock("factor")) r.set("rope.factor", blockKey("factor"), blockValue("factor"));
    else if (factorRequired) requireKey(block, "factor", pre);

    switch (scaling) {
    case RopeScaling::Yarn:
        // beta_fast/beta_slow: `get(...) or 32` / `or 1`.
        if (truthy(blockValue("beta_fast"))) r.set("rope.beta_fast", blockKey("beta_fast"), blockValue("beta_fast"));
        if (truthy(blockValue("beta_slow"))) r.set("rope.beta_slow", blockKey("beta_slow"), blockValue("beta_slow"));
        if (inBlock("mscale")) r.set("rope.mscale", blockKey("mscale"), blockValue("mscale"));
        if (inBlock("mscale_all_dim")) r.set("rope.mscale_all_dim", blockKey("mscale_all_dim"), blockValue("mscale_all_dim"));
        if (inBlock("attention_factor")) r.set("rope.attention_factor", blockKey("attention_factor"), blockValue("attention_factor"));
        if (inBlock("truncate")) r.set("rope.truncate", blockKey("truncate"), blockValue("truncate"));
        break;
    case RopeScaling::LongRope:
        requireKey(block, "short_factor", pre);
        requireKey(block, "long_factor", pre);
        r.set("rope.short_factor", blockKey("short_factor"), blockValue("short_factor"));
        r.set("rope.long_factor", blockKey("long_factor"), blockValue("long_factor"));
        if (inBlock("attention_factor")) r.set("rope.attention_factor", blockKey("attention_factor"), blockValue("attention_factor"));
        break;
    case RopeScaling::Llama3:
        requireKey(block, "low_freq_factor", pre);
        requireKey(block, "high_freq_factor", pre);
        r.set("rope.low_freq_factor", blockKey("low_freq_factor"), blockValue("low_freq_factor"));
        r.set("rope.high_freq_factor", blockKey("high_freq_factor"), blockValue("high_freq_factor"));
        break;
    default:
        break;
    }
}

}  // namespace

namespace {
// A config object's method and parameters; with `layers`, also its layer pattern (layerconfig.h).
ModelConfigResult parseHfObject(const QJsonObject& o, bool layers) {
    ModelFileConfig out;
    Reader r(out);
    try {
        out.modelType = printableText(o.value(QLatin1String("model_type")).toString().toStdString());
        const Shape s = readShape(o);
        const QJsonObject attn = o.value(QLatin1String("attn_config")).toObject();
        bool hasRope = false;
        for (const char* k : kRopeKeys) hasRope = hasRope || present(o, k);
        QString via;
        const Family* family = familyFor(o, &via);
        const QString name = out.modelType.isEmpty() ? via : out.modelType;
        // Keys that show a scheme other than RoPE are read as that scheme, or refused; never RoPE.
        if (present(o, "position_embedding_type")) {
            const QJsonValue pe = o.value(QLatin1String("position_embedding_type"));
            // absolute (BERT's learned positions), rope / rotary / rope_gptj (Cohere2: RoPE).
            if (!pe.isString() || (pe.toString() != QLatin1String("absolute") && !pe.toString().startsWith(QLatin1String("rope")) &&
                                   !pe.toString().startsWith(QLatin1String("rotary"))))
                bad(QStringLiteral("position_embedding_type"),
                    "absolute (learned positions) or a RoPE kind: PosLab does not model relative_key / relative_key_query "
                    "position embeddings",
                    describe(pe));
        }
        const bool learnedKeys = present(o, "n_positions") ||
                                 o.value(QLatin1String("position_embedding_type")).toString() == QLatin1String("absolute");
        if (truthy(o.value(QLatin1String("sinusoidal_pos_embds")))) {
            readSinusoidal(s, out, r);
        } else if (out.modelType == QLatin1String("transfo-xl")) {
            readTransformerXl(o, s, out, r);
        } else if (truthy(o.value(QLatin1String("alibi"))) || attn.value(QLatin1String("alibi")).toBool(false) ||
            (family && family->scheme == FamilyScheme::Alibi)) {
            readAlibi(o, s, out, r);
        } else if (present(o, "relative_attention_num_buckets") || (family && family->scheme == FamilyScheme::T5)) {
            if (!present(o, "relative_attention_num_buckets"))
                throw ConfigError{ModelConfig::tr("relative_attention_num_buckets is missing (model_type ") + name +
                                  ModelConfig::tr(" uses T5 relative buckets)")};
            readT5(o, s, out, r);
        } else if (family && family->scheme == FamilyScheme::Learned) {
            readLearned(o, s, out, r);
        } else if (family || hasRope) {
            readRope(o, s, out, r);
        } else if (learnedKeys) {
            // An unknown family whose keys show learned absolute positions.
            readLearned(o, s, out, r);
        } else {
            const char* what = present(o, "clamp_len") || present(o, "mem_len")
                                   ? " (its keys clamp_len / mem_len are Transformer-XL's relative positions with memory: "
                                     "give --method transformer-xl instead)"
                                   : present(o, "max_source_positions") ? " (an encoder-decoder with sinusoidal and learned positions)" : "";
            throw ConfigError{(name.isEmpty() ? ModelConfig::tr("the file names no model_type or architectures")
                                              : QStringLiteral("model_type ") + name + ModelConfig::tr(" is not a family PosLab reads")) +
                              QStringLiteral(", and it has no RoPE key (rope_theta, rope_parameters, rope_scaling): its positional "
                                             "scheme is not modelled") +
                              QString::fromLatin1(what)};
        }
        // Cross-field rules (list lengths, rotary_dim vs partial factor, ...): the core's
        // validate(), its field named by the file's key.
        if (auto e = validationError(out)) throw ConfigError{*e};
    } catch (const ConfigError& e) {
        return {std::nullopt, e.message};
    }
    if (layers)
        if (auto err = readLayerPattern(o, out, [](const QJsonObject& c) { return parseHfObject(c, false); }))
            return {std::nullopt, *err};
    return {out, {}};
}
}  // namespace

ModelConfigResult parseHfConfig(const QByteArray& json) {
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &perr);
    if (perr.error != QJsonParseError::NoError)
        return {std::nullopt, ModelConfig::tr("not a JSON config (") + perr.errorString() + ModelConfig::tr(" at byte ") +
                                  QString::number(perr.offset) + ")"};
    if (!doc.isObject()) return {std::nullopt, ModelConfig::tr("not a config.json (the top level is not an object)")};
    const QJsonObject top = doc.object();
    const QJsonObject read = withFamilyDefaults(textConfigObject(top));
    ModelConfigResult r = parseHfObject(read, true);
    if (r.config)
        if (auto e = finishHfConfig(top, read, *r.config)) {
            r.config.reset();
            r.error = *e;
        }
    if (r.config)
        if (const QString e = readMropeConfig(top, read, *r.config); !e.isEmpty()) return {std::nullopt, e};
    return r;
}

namespace {

QJsonValue ggufJson(const GgufValue& v) {
    if (v.isArray) return QJsonArray();
    if (auto* x = std::get_if<std::int64_t>(&v.value)) return static_cast<double>(*x);
    if (auto* x = std::get_if<std::uint64_t>(&v.value)) return static_cast<double>(*x);
    if (auto* x = std::get_if<double>(&v.value)) return *x;
    if (auto* x = std::get_if<bool>(&v.value)) return *x;
    return QString::fromStdString(std::get<std::string>(v.value));
}

// llama.cpp stores Llama 3 scaling as the tensor rope_freqs.weight: per pair, the divisor of the
// unscaled frequency (inv_freq_scaled = inv_freq / rope_freqs). If transformers' llama3 rule
// reproduces those frequencies (relative 1e-6) with factor = max(rope_freqs), low/high freq
// factors 1 and 4 and the original context rope.scaling.original_context_length (else 8192, Llama
// 3.1's), the configuration is that llama3 scaling; otherwise the frequencies are set exactly as
// explicit per-pair θ.
void ropeFreqsScaling(const GgufMetadata& m, ModelFileConfig& out) {
    RopeParams& rp = out.params.rope;
    rp.head_dim = out.params.dim;
    const RopeParams plain = out.params.ropeParams();
    const int half = plain.rotaryDim() / 2;
    if (static_cast<int>(m.ropeFreqs.size()) != half)
        throw ConfigError{ModelConfig::tr("rope_freqs.weight must have rotary_dim/2 = %1 values, got %2").arg(half).arg(m.ropeFreqs.size())};
    RopeParams base = plain;
    base.scaling = RopeScaling::None;
    base.precision = Precision::Double;
    const Vector inv = ropeDefaultFrequencies(base).inv_freq;
    Vector want(half);
    for (int i = 0; i < half; ++i) want[i] = inv[i] / m.ropeFreqs[static_cast<std::size_t>(i)];
    RopeParams l3 = base;
    l3.scaling = RopeScaling::Llama3;
    l3.factor = *std::max_element(m.ropeFreqs.begin(), m.ropeFreqs.end());
    l3.low_freq_factor = 1;
    l3.high_freq_factor = 4;
    if (!l3.original_max_positions || l3.original_max_positions == l3.max_positions) l3.original_max_positions = 8192;
    bool match = !l3.validate() && l3.factor > 1;
    if (match) {
        const Vector got = ropeFrequencies(l3, std::nullopt).inv_freq;
        for (int i = 0; i < half && match; ++i) match = std::abs(got[i] - want[i]) <= 1e-6 * std::abs(want[i]);
    }
    const QString src = QStringLiteral("rope_freqs.weight");
    if (match) {
        rp.scaling = RopeScaling::Llama3;
        rp.factor = l3.factor;
        rp.low_freq_factor = 1;
        rp.high_freq_factor = 4;
        rp.original_max_positions = l3.original_max_positions;
        for (const char* p : {"rope.scaling", "rope.factor", "rope.low_freq_factor", "rope.high_freq_factor"}) out.fromFile[p] = src;
        if (!out.fromFile.count("rope.original_max_positions")) out.fromFile["rope.original_max_positions"] = src;
    } else {
        rp.scaling = RopeScaling::None;
        rp.theta.assign(want.data(), want.data() + want.size());
        out.fromFile["rope.theta"] = src;
    }
}

ModelConfigResult configFromGguf(const GgufMetadata& m) {
    ModelFileConfig out;
    Reader r(out);
    try {
        const GgufValue* archV = m.find("general.architecture");
        if (!archV || !std::holds_alternative<std::string>(archV->value))
            throw ConfigError{ModelConfig::tr("general.architecture is missing (or not a string)")};
        const std::string arch = std::get<std::string>(archV->value);
        out.modelType = printableText(arch);
        auto key = [&](const char* k) { return printableText(arch + "." + k); };
        auto value = [&](const char* k) -> std::optional<QJsonValue> {
            const GgufValue* v = m.find(arch + "." + k);
            if (!v) return std::nullopt;
            return ggufJson(*v);
        };
        auto integer = [&](const char* k, double lo, double hi) -> std::optional<std::int64_t> {
            if (auto v = value(k)) return fileInt(key(k), *v, lo, hi);
            return std::nullopt;
        };
        const auto heads = integer("attention.head_count", 1, 65536);
        const auto model = integer("embedding_length", 1, 16777216);
        if (heads) out.heads = static_cast<int>(*heads);
        auto setDimFromModel = [&](bool perHead) {
            if (!model) return;
            if (perHead && heads) r.setInt("dim", key("embedding_length"), *model / *heads);
            else if (!perHead) r.setInt("dim", key("embedding_length"), *model);
        };

        if (arch == "bloom" || arch == "mpt") {
            out.params.method = Method::Alibi;
            if (!heads) throw ConfigError{key("attention.head_count") + ModelConfig::tr(" is missing")};
            r.setInt("alibi.heads", key("attention.head_count"), *heads);
            setDimFromModel(true);
            if (auto v = value("attention.max_alibi_bias")) r.set("alibi.bias_max", key("attention.max_alibi_bias"), *v);
            if (auto c = integer("context_length", 1, 1099511627776.0)) out.contextLength = *c;
        } else if (arch == "t5" || arch == "t5encoder") {
            out.params.method = Method::T5;
            if (auto v = value("attention.relative_buckets_count")) r.set("t5.num_buckets", key("attention.relative_buckets_count"), *v);
            if (heads) r.setInt("t5.heads", key("attention.head_count"), *heads);
            if (auto v = value("attention.key_length")) r.set("dim", key("attention.key_length"), *v);
            else setDimFromModel(true);
        } else if (arch == "gpt2" || arch == "starcoder" || arch == "bert" || arch == "gptneox_learned") {
            out.params.method = Method::Learned;
            const auto ctx = value("context_length");
            if (!ctx) throw ConfigError{key("context_length") + ModelConfig::tr(" is missing")};
            r.set("learned.table_size", key("context_length"), *ctx);
            out.contextLength = out.params.learned.table_size;
            setDimFromModel(false);
        } else {
            out.params.method = Method::Rope;
            if (auto v = value("attention.key_length")) r.set("dim", key("attention.key_length"), *v);
            else if (model && heads) setDimFromModel(true);
            else throw ConfigError{key("attention.head_count") + QStringLiteral(" or ") + key("embedding_length") + ModelConfig::tr(" is missing")};
            out.params.rope.head_dim = out.params.dim;
            if (auto v = value("rope.freq_base")) r.set("rope.base", key("rope.freq_base"), *v);
            if (auto v = value("rope.dimension_count")) {
                const std::int64_t n = fileInt(key("rope.dimension_count"), *v, 2, 65536);
                if (n != out.params.dim) r.setInt("rope.rotary_dim", key("rope.dimension_count"), n);
                else out.fromFile["rope.rotary_dim"] = key("rope.dimension_count");
            }
            if (auto v = value("context_length")) {
                r.set("rope.max_positions", key("context_length"), *v);
                out.contextLength = out.params.rope.max_positions;
            }
            if (auto v = value("rope.scaling.type")) {
                static const std::map<QString, RopeScaling> kTypes = {{QStringLiteral("none"), RopeScaling::None},
                                                                      {QStringLiteral("linear"), RopeScaling::Linear},
                                                                      {QStringLiteral("yarn"), RopeScaling::Yarn}};
                const auto it = v->isString() ? kTypes.find(v->toString()) : kTypes.end();
                if (it == kTypes.end()) bad(key("rope.scaling.type"), "one of none, linear, yarn", describe(*v));
                r.set("rope.scaling", key("rope.scaling.type"), QJsonValue(QString::fromStdString(std::string(enumKey(it->second)))));
            }
            if (out.params.rope.scaling != RopeScaling::None) {
                if (auto v = value("rope.scaling.factor")) r.set("rope.factor", key("rope.scaling.factor"), *v);
                if (auto v = value("rope.scaling.original_context_length"))
                    r.set("rope.original_max_positions", key("rope.scaling.original_context_length"), *v);
            }
            if (!m.ropeFreqs.empty()) ropeFreqsScaling(m, out);
        }
        if (auto e = out.params.validate()) {
            const std::string group(methodParamGroup(out.params.method));
            QString k = QString::fromStdString(e->parameter);
            for (const std::string& path : {group + "." + e->parameter, e->parameter})
                if (auto f = out.fromFile.find(path); f != out.fromFile.end()) k = f->second;
            bad(k, e->valid, e->got);
        }
    } catch (const ConfigError& e) {
        return {std::nullopt, e.message};
    }
    return {out, {}};
}

}  // namespace

ModelConfigResult parseGgufConfig(const char* data, std::size_t size) {
    const GgufResult g = parseGgufMetadata(data, size);
    if (!g.meta) return {std::nullopt, g.error};
    ModelConfigResult r = configFromGguf(*g.meta);
    if (r.config) finishGgufConfig(*g.meta, *r.config);
    return r;
}

ModelConfigResult readModelConfigFile(const QString& path) {
    if (QFileInfo(path).isDir()) {   // a Hugging Face snapshot or cache folder
        QString error;
        const QString file = configFileInFolder(path, &error);
        if (file.isEmpty()) return {std::nullopt, error};
        return readModelConfigFile(file);
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {std::nullopt, ModelConfig::tr("cannot read: ") + f.errorString()};
    const QByteArray magic = f.peek(4);
    if (looksLikeGguf(magic.constData(), static_cast<std::size_t>(magic.size()))) {
        f.close();
        const GgufResult g = readGgufMetadata(path);
        if (!g.meta) return {std::nullopt, g.error};
        ModelConfigResult r = configFromGguf(*g.meta);
        if (r.config) finishGgufConfig(*g.meta, *r.config);
        return r;
    }
    // A config.json is small; refuse to read something huge as one.
    constexpr qint64 kMaxJson = qint64{64} << 20;
    if (f.size() > kMaxJson)
        return {std::nullopt, ModelConfig::tr("not a config.json or GGUF file (") + QString::number(f.size()) +
                                  ModelConfig::tr(" bytes, a config.json is at most 64 MiB)")};
    return parseHfConfig(f.readAll());
}

}  // namespace poslab::ui
