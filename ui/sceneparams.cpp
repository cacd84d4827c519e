#include "ui/sceneparams.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

namespace {

bool eq(const RopeParams& a, const RopeParams& b) {
    return a.head_dim == b.head_dim && a.base == b.base && a.partial_rotary_factor == b.partial_rotary_factor &&
           a.rotary_dim == b.rotary_dim && a.scaling == b.scaling && a.factor == b.factor &&
           a.max_positions == b.max_positions && a.original_max_positions == b.original_max_positions &&
           a.seq_len == b.seq_len && a.beta_fast == b.beta_fast && a.beta_slow == b.beta_slow &&
           a.mscale == b.mscale && a.mscale_all_dim == b.mscale_all_dim && a.truncate == b.truncate &&
           a.attention_factor == b.attention_factor && a.low_freq_factor == b.low_freq_factor &&
           a.high_freq_factor == b.high_freq_factor && a.short_factor == b.short_factor &&
           a.long_factor == b.long_factor && a.theta == b.theta && a.layout == b.layout &&
           a.precision == b.precision;
}
bool eq(const XposParams& a, const XposParams& b) {
    return a.head_dim == b.head_dim && a.scale_base == b.scale_base && a.precision == b.precision;
}
bool eq(const SinusoidalParams& a, const SinusoidalParams& b) {
    return a.dim == b.dim && a.base == b.base && a.min_timescale == b.min_timescale && a.layout == b.layout &&
           a.frequencies == b.frequencies && a.precision == b.precision;
}
bool eq(const LearnedParams& a, const LearnedParams& b) {
    return a.dim == b.dim && a.table_size == b.table_size && a.seed == b.seed;
}
bool eq(const ShawParams& a, const ShawParams& b) {
    return a.max_relative_position == b.max_relative_position && a.dim == b.dim && a.seed == b.seed;
}
bool eq(const T5Params& a, const T5Params& b) {
    return a.num_buckets == b.num_buckets && a.max_distance == b.max_distance &&
           a.bidirectional == b.bidirectional && a.heads == b.heads && a.seed == b.seed;
}
bool eq(const TransformerXLParams& a, const TransformerXLParams& b) {
    return a.dim == b.dim && a.clamp_len == b.clamp_len && a.seed == b.seed;
}
bool eq(const AlibiParams& a, const AlibiParams& b) {
    return a.heads == b.heads && a.bias_max == b.bias_max && a.symmetric == b.symmetric &&
           a.precision == b.precision;
}

QString scalingTitle(RopeScaling s) {
    switch (s) {
    case RopeScaling::None: return {};
    case RopeScaling::Linear: return QStringLiteral("linear");
    case RopeScaling::Dynamic: return QStringLiteral("dynamic NTK");
    case RopeScaling::Yarn: return QStringLiteral("YaRN");
    case RopeScaling::LongRope: return QStringLiteral("LongRoPE");
    case RopeScaling::Llama3: return QStringLiteral("Llama 3");
    }
    return {};
}

int headCount(const ScoreParams& p) {
    if (p.method == Method::Alibi) return p.alibi.heads;
    if (p.method == Method::T5) return p.t5.heads;
    return 1;
}

}  // namespace

bool sameScoreParams(const ScoreParams& a, const ScoreParams& b) {
    return a.method == b.method && a.dim == b.dim && a.content == b.content && a.seed == b.seed &&
           a.head == b.head && a.causal == b.causal && a.softmax == b.softmax && a.precision == b.precision &&
           eq(a.rope, b.rope) && eq(a.xpos, b.xpos) && eq(a.sinusoidal, b.sinusoidal) &&
           eq(a.learned, b.learned) && eq(a.shaw, b.shaw) && eq(a.t5, b.t5) &&
           eq(a.transformer_xl, b.transformer_xl) && eq(a.alibi, b.alibi);
}

bool operator==(const MethodConfig& a, const MethodConfig& b) {
    return a.label == b.label && sameScoreParams(a.params, b.params);
}

bool SceneParams::operator==(const SceneParams& o) const {
    return methods == o.methods && length == o.length && positions == o.positions && pairs == o.pairs &&
           head == o.head && view == o.view && presetKey == o.presetKey;
}

ScoreParams effectiveParams(const SceneParams& scene, int config) {
    ScoreParams p = scene.methods.at(static_cast<std::size_t>(config)).params;
    p.head = std::clamp(scene.head, 0, std::max(1, headCount(p)) - 1);
    p.causal = scene.view.causal;
    p.softmax = scene.view.softmax;
    return p;
}

QString configTitle(const SceneParams& scene, int config) {
    const auto& c = scene.methods.at(static_cast<std::size_t>(config));
    QString title = c.label;
    if (title.isEmpty()) {
        const auto& p = c.params;
        switch (p.method) {
        case Method::NoPE: title = QStringLiteral("NoPE"); break;
        case Method::Sinusoidal: title = QStringLiteral("Sinusoidal"); break;
        case Method::Learned: title = QStringLiteral("Learned"); break;
        case Method::Shaw: title = QStringLiteral("Shaw"); break;
        case Method::T5: title = QStringLiteral("T5"); break;
        case Method::TransformerXL: title = QStringLiteral("Transformer-XL"); break;
        case Method::Alibi: title = QStringLiteral("ALiBi"); break;
        case Method::Xpos: title = QStringLiteral("xPos"); break;
        case Method::Rope:
            title = QStringLiteral("RoPE");
            if (p.rope.scaling != RopeScaling::None) title += QStringLiteral(" + ") + scalingTitle(p.rope.scaling);
            break;
        }
    }
    if (scene.methods.size() > 1) title = QString(QChar('A' + config)) + QStringLiteral(": ") + title;
    return title;
}

int pairCount(const ScoreParams& p) {
    switch (p.method) {
    case Method::Rope: {
        if (p.ropeParams().validate()) return 0;
        return p.ropeParams().rotaryDim() / 2;
    }
    case Method::Xpos: return p.dim / 2;
    case Method::Sinusoidal: return p.dim / 2;
    default: return 0;
    }
}

std::vector<int> defaultPairs(int count) {
    std::vector<int> out;
    if (count <= 0) return out;
    const int n = std::min(count, 4);
    for (int k = 0; k < n; ++k) {
        const int i = n == 1 ? 0 : static_cast<int>(std::lround(double(k) * (count - 1) / (n - 1)));
        if (out.empty() || out.back() != i) out.push_back(i);
    }
    return out;
}

std::vector<int> effectivePairs(const SceneParams& scene, int config) {
    const int count = pairCount(scene.methods.at(static_cast<std::size_t>(config)).params);
    std::vector<int> out;
    for (int i : scene.pairs)
        if (i >= 0 && i < count && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    if (out.empty()) return defaultPairs(count);
    return out;
}

std::optional<QString> configProblem(const SceneParams& scene, int config) {
    const auto p = effectiveParams(scene, config);
    if (auto e = p.validate()) return QString::fromStdString(e->message());
    return std::nullopt;
}

std::optional<QString> sceneProblem(const SceneParams& scene) {
    if (scene.methods.empty()) return QStringLiteral("methods: at least one configuration, got none");
    if (scene.length < 1 || scene.length > kMaxLength)
        return QStringLiteral("length: an integer from 1 to %1, got %2").arg(kMaxLength).arg(scene.length);
    // Positions of interest at or past N are not an error: the pair view leaves them out.
    for (auto pos : scene.positions)
        if (pos < 0) return QStringLiteral("positions: integers >= 0, got %1").arg(pos);
    for (int i = 0; i < static_cast<int>(scene.methods.size()); ++i) {
        if (auto e = configProblem(scene, i)) {
            if (scene.methods.size() > 1) return QString(QChar('A' + i)) + QStringLiteral(": ") + *e;
            return e;
        }
    }
    return std::nullopt;
}

QString formatValue(double v) { return QString::fromStdString(formatNumber(v)); }

QString positionsText(const Positions& p) {
    QStringList parts;
    for (auto x : p) parts << QString::number(x);
    return parts.join(QLatin1Char(','));
}

std::optional<Positions> parsePositions(const QString& text, std::size_t maxCount) {
    Positions out;
    const auto parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString part : parts) {
        part = part.trimmed();
        if (part.isEmpty()) continue;
        bool ok = false;
        if (part.contains(QLatin1Char(':'))) {
            const auto ab = part.split(QLatin1Char(':'));
            if (ab.size() != 2) return std::nullopt;
            bool okA = false, okB = false;
            const qint64 a = ab[0].trimmed().toLongLong(&okA);
            const qint64 b = ab[1].trimmed().toLongLong(&okB);
            if (!okA || !okB || a < 0 || b < a) return std::nullopt;
            if (static_cast<std::size_t>(b - a) + out.size() > maxCount) return std::nullopt;
            for (qint64 x = a; x < b; ++x) out.push_back(x);
        } else {
            const qint64 x = part.toLongLong(&ok);
            if (!ok || x < 0) return std::nullopt;
            out.push_back(x);
        }
        if (out.size() > maxCount) return std::nullopt;
    }
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace poslab::ui
