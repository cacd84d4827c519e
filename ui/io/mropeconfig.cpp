#include "ui/io/mropeconfig.h"
#include "core/format.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>
#include <cstring>

namespace poslab::ui {

namespace {
// The words people read about model configs (errors, reports), translated in the context "ModelConfig"
// (Q_DECLARE_TR_FUNCTIONS: lupdate extracts them, and ModelConfig::tr works off the GUI thread).
struct ModelConfig {
    Q_DECLARE_TR_FUNCTIONS(ModelConfig)
};
}  // namespace

namespace {

std::optional<MropeModel> modelOf(QString t) {
    for (const char* suffix : {"_text", "_moe"})
        if (t.endsWith(QLatin1String(suffix))) t.chop(static_cast<int>(std::strlen(suffix)));
    if (t == QLatin1String("qwen2_vl")) return MropeModel::Qwen2VL;
    if (t == QLatin1String("qwen2_5_vl")) return MropeModel::Qwen25VL;
    if (t == QLatin1String("qwen3_vl")) return MropeModel::Qwen3VL;
    return std::nullopt;
}

QString compact(const QJsonValue& v) {
    if (v.isArray()) {
        QStringList parts;
        for (const auto& x : v.toArray()) parts << (x.isDouble() ? QString::fromStdString(formatNumber(x.toDouble())) : QStringLiteral("?"));
        return "[" + parts.join(QStringLiteral(", ")) + "]";
    }
    if (v.isDouble()) return QString::fromStdString(formatNumber(v.toDouble()));
    if (v.isString()) return "\"" + v.toString().left(40) + "\"";
    if (v.isNull()) return QStringLiteral("null");
    return QStringLiteral("a JSON ") + (v.isObject() ? QStringLiteral("object") : v.isBool() ? QStringLiteral("boolean") : QStringLiteral("value"));
}

}  // namespace

bool isQwenVlModelType(const QString& modelType) { return modelOf(modelType).has_value(); }

QString readMropeConfig(const QJsonObject& top, const QJsonObject& read, ModelFileConfig& out) {
    const QString type = top.value(QLatin1String("model_type")).toString(read.value(QLatin1String("model_type")).toString());
    const auto model = modelOf(type);
    if (!model || out.params.method != Method::Rope) return {};
    ConfigReport& rep = out.report;
    const QString textPrefix = top != read ? QStringLiteral("text_config.") : QString();
    MropeParams m;
    m.model = *model;
    m.mrope_layout = *model == MropeModel::Qwen3VL ? MropeLayout::Interleaved : MropeLayout::Sectioned;

    // The sections: the RoPE block's mrope_section (v5 rope_parameters, else v4 rope_scaling).
    const QString blockName = read.contains(QLatin1String("rope_parameters")) ? QStringLiteral("rope_parameters") : QStringLiteral("rope_scaling");
    const QJsonObject block = read.value(blockName).toObject();
    const QString sectionKey = textPrefix + blockName + QStringLiteral(".mrope_section");
    const int half = out.params.ropeParams().rotaryDim() / 2;
    if (block.contains(QLatin1String("mrope_section"))) {
        const QJsonValue v = block.value(QLatin1String("mrope_section"));
        bool ok = v.isArray() && v.toArray().size() == 3;
        if (ok)
            for (const auto& x : v.toArray()) {
                ok = ok && x.isDouble() && x.toDouble() >= 0 && x.toDouble() <= 32768 && x.toDouble() == std::floor(x.toDouble());
                if (ok) m.mrope_section.push_back(static_cast<std::int64_t>(x.toDouble()));
            }
        if (!ok || !mropeAxes(half, m.mrope_section, m.mrope_layout))
            return sectionKey + ModelConfig::tr(" must be three non-negative integers summing to head_dim/2 = %1, got %2").arg(half).arg(compact(v));
    } else if (*model == MropeModel::Qwen3VL) {
        m.mrope_section = {24, 20, 20};   // Qwen3VLTextRotaryEmbedding: rope_parameters.get("mrope_section", [24, 20, 20])
        if (!mropeAxes(half, m.mrope_section, m.mrope_layout))
            return sectionKey + ModelConfig::tr(" is missing, and the default [24, 20, 20] does not sum to head_dim/2 = %1").arg(half);
        rep.defaults[sectionKey] = QStringLiteral("[24, 20, 20] (Qwen3-VL's default)");
    } else {
        return sectionKey + ModelConfig::tr(" is missing (apply_multimodal_rotary_pos_emb reads it)");
    }
    const QString layoutText = m.mrope_layout == MropeLayout::Interleaved ? QStringLiteral("interleaved") : QStringLiteral("sectioned");
    const QString sectionText = ModelConfig::tr("M-RoPE sections [%1, %2, %3] (%4): the frequencies following t, h and w")
                                    .arg(m.mrope_section[0]).arg(m.mrope_section[1]).arg(m.mrope_section[2]).arg(layoutText);
    const QString blockTop = textPrefix + blockName;
    if (rep.used.count(blockTop)) rep.used[blockTop] += QStringLiteral("; ") + sectionText;
    else rep.used[blockTop] = sectionText;
    rep.ignored.erase(blockTop);
    if (block.contains(QLatin1String("mrope_interleaved")))
        rep.notModelled.erase(textPrefix + blockName + QStringLiteral(".mrope_interleaved"));

    // The vision encoder's merge size (and Qwen2.5-VL's temporal spacing).
    const QJsonObject vision = top.value(QLatin1String("vision_config")).toObject();
    QStringList visionUsed;
    if (vision.contains(QLatin1String("spatial_merge_size"))) {
        const QJsonValue v = vision.value(QLatin1String("spatial_merge_size"));
        if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 64 || v.toDouble() != std::floor(v.toDouble()))
            return ModelConfig::tr("vision_config.spatial_merge_size must be an integer from 1 to 64, got ") + compact(v);
        m.merge = static_cast<int>(v.toDouble());
        visionUsed << QStringLiteral("spatial_merge_size %1").arg(m.merge);
    } else {
        rep.defaults[QStringLiteral("vision_config.spatial_merge_size")] = ModelConfig::tr("2 (the class default)");
    }
    if (*model == MropeModel::Qwen25VL) {
        if (vision.contains(QLatin1String("tokens_per_second"))) {
            const QJsonValue v = vision.value(QLatin1String("tokens_per_second"));
            if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 1000 || v.toDouble() != std::floor(v.toDouble()))
                return ModelConfig::tr("vision_config.tokens_per_second must be an integer from 1 to 1000, got ") + compact(v);
            m.tokens_per_second = static_cast<int>(v.toDouble());
            visionUsed << QStringLiteral("tokens_per_second %1").arg(m.tokens_per_second);
        } else {
            m.tokens_per_second = 4;
            rep.defaults[QStringLiteral("vision_config.tokens_per_second")] = ModelConfig::tr("4 (the class default; the hub's files say 2)");
        }
    }
    if (top.contains(QLatin1String("vision_config"))) {
        rep.ignored.erase(QStringLiteral("vision_config"));
        rep.used[QStringLiteral("vision_config")] =
            (visionUsed.isEmpty() ? ModelConfig::tr("the class defaults") : visionUsed.join(QStringLiteral(", "))) +
            ModelConfig::tr(": the multimodal position ids (compute positions); the encoder's own 2-D RoPE is --vision qwen");
    }
    out.mrope = m;
    return {};
}

}  // namespace poslab::ui
