#include "ui/session.h"

#include "ui/atomicfile.h"
#include "ui/render/theme.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>

#ifndef POSLAB_VERSION
#define POSLAB_VERSION "0.1.0"
#endif

namespace poslab::ui {

QString poslabVersion() { return QStringLiteral(POSLAB_VERSION); }

namespace {

// ---- Enum spellings (as the command line spells them) ------------------------------------------

template <class E>
struct EnumName {
    E value;
    const char* key;
};

constexpr EnumName<Content> kContents[] = {
    {Content::Ones, "ones"}, {Content::Random, "random"}, {Content::Formula, "formula"}};
constexpr EnumName<Precision> kPrecisions[] = {{Precision::Float32, "float32"}, {Precision::Double, "double"}};
constexpr EnumName<RopeScaling> kScalings[] = {
    {RopeScaling::None, "none"},     {RopeScaling::Linear, "linear"},     {RopeScaling::Dynamic, "dynamic"},
    {RopeScaling::Yarn, "yarn"},     {RopeScaling::LongRope, "longrope"}, {RopeScaling::Llama3, "llama3"}};
constexpr EnumName<RopeLayout> kRopeLayouts[] = {{RopeLayout::Half, "half"}, {RopeLayout::Interleaved, "interleaved"}};
constexpr EnumName<SinusoidalLayout> kSinLayouts[] = {
    {SinusoidalLayout::Interleaved, "interleaved"}, {SinusoidalLayout::Concat, "concat"}};
constexpr EnumName<SinusoidalFrequencies> kSinFrequencies[] = {
    {SinusoidalFrequencies::Vaswani, "vaswani"}, {SinusoidalFrequencies::Tensor2Tensor, "tensor2tensor"}};
constexpr EnumName<HeatmapColormap> kColormaps[] = {
    {HeatmapColormap::Auto, "auto"}, {HeatmapColormap::Viridis, "viridis"}, {HeatmapColormap::Diverging, "diverging"}};

template <class E, std::size_t N>
const char* enumKey(const EnumName<E> (&table)[N], E v) {
    for (const auto& e : table)
        if (e.value == v) return e.key;
    return table[0].key;
}

// The key of each method's parameter struct in a method object.
const char* structKey(Method m) {
    switch (m) {
    case Method::Rope: return "rope";
    case Method::Xpos: return "xpos";
    case Method::Sinusoidal: return "sinusoidal";
    case Method::Learned: return "learned";
    case Method::Shaw: return "shaw";
    case Method::T5: return "t5";
    case Method::TransformerXL: return "transformer_xl";
    case Method::Alibi: return "alibi";
    case Method::NoPE: return nullptr;
    }
    return nullptr;
}

// ---- Writer: an ordered JSON tree, printed deterministically -----------------------------------

struct J {
    enum Kind { Null, Bool, Int, Double, String, Array, Object } kind = Null;
    bool b = false;
    std::int64_t i = 0;
    double d = 0;
    QString s;
    std::vector<J> items;
    std::vector<std::pair<const char*, J>> fields;

    J() = default;
    static J boolean(bool v) { J j; j.kind = Bool; j.b = v; return j; }
    static J integer(std::int64_t v) { J j; j.kind = Int; j.i = v; return j; }
    static J number(double v) { J j; j.kind = Double; j.d = v; return j; }
    static J string(const QString& v) { J j; j.kind = String; j.s = v; return j; }
    static J string(const char* v) { return string(QString::fromUtf8(v)); }
    static J array() { J j; j.kind = Array; return j; }
    static J object() { J j; j.kind = Object; return j; }
    static J seed(std::uint64_t v) {
        // JSON readers keep integers exactly up to 2^63−1; larger seeds are written as strings.
        if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return integer(std::int64_t(v));
        return string(QString::number(v));
    }
    J& add(const char* key, J v) { fields.emplace_back(key, std::move(v)); return *this; }
    J& push(J v) { items.push_back(std::move(v)); return *this; }

    bool scalar() const { return kind != Array && kind != Object; }
};

J optNumber(const std::optional<double>& v) { return v ? J::number(*v) : J(); }
J optInteger(const std::optional<std::int64_t>& v) { return v ? J::integer(*v) : J(); }
template <class T>
J numbers(const std::vector<T>& v) {
    J a = J::array();
    for (const auto& x : v) {
        if constexpr (std::is_floating_point_v<T>) a.push(J::number(x));
        else a.push(J::integer(static_cast<std::int64_t>(x)));
    }
    return a;
}

void appendNumber(QByteArray& out, double x) {
    if (!std::isfinite(x)) { out += "null"; return; }   // refused on reading: "expected a number"
    if (x == 0) { out += '0'; return; }                  // also −0
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip form
    out.append(buf, static_cast<qsizetype>(r.ptr - buf));
}

void appendString(QByteArray& out, const QString& s) {
    // Quotes, backslashes and control characters escaped; everything else as UTF-8.
    QString e;
    e.reserve(s.size());
    for (const QChar c : s) {
        switch (c.unicode()) {
        case u'"': e += QLatin1String("\\\""); break;
        case u'\\': e += QLatin1String("\\\\"); break;
        case u'\n': e += QLatin1String("\\n"); break;
        case u'\r': e += QLatin1String("\\r"); break;
        case u'\t': e += QLatin1String("\\t"); break;
        default:
            if (c.unicode() < 0x20) e += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
            else e += c;
        }
    }
    out += '"';
    out += e.toUtf8();
    out += '"';
}

void print(QByteArray& out, const J& j, bool compact, int indent) {
    const auto newline = [&](int level) {
        if (compact) return;
        out += '\n';
        out += QByteArray(level * 2, ' ');
    };
    switch (j.kind) {
    case J::Null: out += "null"; return;
    case J::Bool: out += j.b ? "true" : "false"; return;
    case J::Int: out += QByteArray::number(static_cast<qlonglong>(j.i)); return;
    case J::Double: appendNumber(out, j.d); return;
    case J::String: appendString(out, j.s); return;
    case J::Array: {
        if (j.items.empty()) { out += "[]"; return; }
        bool allScalar = true;
        for (const auto& x : j.items) allScalar = allScalar && x.scalar();
        out += '[';
        for (std::size_t k = 0; k < j.items.size(); ++k) {
            if (k) out += compact || allScalar ? (compact ? "," : ", ") : ",";
            if (!allScalar) newline(indent + 1);
            print(out, j.items[k], compact, indent + 1);
        }
        if (!allScalar) newline(indent);
        out += ']';
        return;
    }
    case J::Object: {
        if (j.fields.empty()) { out += "{}"; return; }
        out += '{';
        for (std::size_t k = 0; k < j.fields.size(); ++k) {
            if (k) out += ',';
            newline(indent + 1);
            appendString(out, QString::fromLatin1(j.fields[k].first));
            out += compact ? ":" : ": ";
            print(out, j.fields[k].second, compact, indent + 1);
        }
        newline(indent);
        out += '}';
        return;
    }
    }
}

// ---- Scene → tree ---------------------------------------------------------------------------------

J ropeJson(const RopeParams& p) {
    J o = J::object();
    o.add("head_dim", J::integer(p.head_dim))
        .add("base", J::number(p.base))
        .add("partial_rotary_factor", J::number(p.partial_rotary_factor))
        .add("rotary_dim", J::integer(p.rotary_dim))
        .add("scaling", J::string(enumKey(kScalings, p.scaling)))
        .add("factor", optNumber(p.factor))
        .add("max_positions", J::integer(p.max_positions))
        .add("original_max_positions", optInteger(p.original_max_positions))
        .add("seq_len", optInteger(p.seq_len))
        .add("beta_fast", J::number(p.beta_fast))
        .add("beta_slow", J::number(p.beta_slow))
        .add("mscale", optNumber(p.mscale))
        .add("mscale_all_dim", optNumber(p.mscale_all_dim))
        .add("truncate", J::boolean(p.truncate))
        .add("attention_factor", optNumber(p.attention_factor))
        .add("low_freq_factor", J::number(p.low_freq_factor))
        .add("high_freq_factor", J::number(p.high_freq_factor))
        .add("short_factor", numbers(p.short_factor))
        .add("long_factor", numbers(p.long_factor))
        .add("theta", numbers(p.theta))
        .add("layout", J::string(enumKey(kRopeLayouts, p.layout)))
        .add("precision", J::string(enumKey(kPrecisions, p.precision)));
    return o;
}

J methodJson(const MethodConfig& c) {
    const ScoreParams& p = c.params;
    J o = J::object();
    o.add("label", J::string(c.label))
        .add("method", J::string(QString::fromUtf8(std::string(methodKey(p.method)).c_str())))
        .add("dim", J::integer(p.dim))
        .add("content", J::string(enumKey(kContents, p.content)))
        .add("seed", J::seed(p.seed))
        .add("head", J::integer(p.head))
        .add("causal", J::boolean(p.causal))
        .add("softmax", J::boolean(p.softmax))
        .add("precision", J::string(enumKey(kPrecisions, p.precision)))
        .add("rope", ropeJson(p.rope));
    {
        J x = J::object();
        x.add("head_dim", J::integer(p.xpos.head_dim))
            .add("scale_base", J::number(p.xpos.scale_base))
            .add("precision", J::string(enumKey(kPrecisions, p.xpos.precision)));
        o.add("xpos", std::move(x));
    }
    {
        J x = J::object();
        x.add("dim", J::integer(p.sinusoidal.dim))
            .add("base", J::number(p.sinusoidal.base))
            .add("min_timescale", J::number(p.sinusoidal.min_timescale))
            .add("layout", J::string(enumKey(kSinLayouts, p.sinusoidal.layout)))
            .add("frequencies", J::string(enumKey(kSinFrequencies, p.sinusoidal.frequencies)))
            .add("precision", J::string(enumKey(kPrecisions, p.sinusoidal.precision)));
        o.add("sinusoidal", std::move(x));
    }
    {
        J x = J::object();
        x.add("dim", J::integer(p.learned.dim))
            .add("table_size", J::integer(p.learned.table_size))
            .add("seed", J::seed(p.learned.seed));
        o.add("learned", std::move(x));
    }
    {
        J x = J::object();
        x.add("max_relative_position", J::integer(p.shaw.max_relative_position))
            .add("dim", J::integer(p.shaw.dim))
            .add("seed", J::seed(p.shaw.seed));
        o.add("shaw", std::move(x));
    }
    {
        J x = J::object();
        x.add("num_buckets", J::integer(p.t5.num_buckets))
            .add("max_distance", J::integer(p.t5.max_distance))
            .add("bidirectional", J::boolean(p.t5.bidirectional))
            .add("heads", J::integer(p.t5.heads))
            .add("seed", J::seed(p.t5.seed));
        o.add("t5", std::move(x));
    }
    {
        J x = J::object();
        x.add("dim", J::integer(p.transformer_xl.dim))
            .add("clamp_len", J::integer(p.transformer_xl.clamp_len))
            .add("seed", J::seed(p.transformer_xl.seed));
        o.add("transformer_xl", std::move(x));
    }
    {
        J x = J::object();
        x.add("heads", J::integer(p.alibi.heads))
            .add("bias_max", J::number(p.alibi.bias_max))
            .add("symmetric", J::boolean(p.alibi.symmetric))
            .add("precision", J::string(enumKey(kPrecisions, p.alibi.precision)));
        o.add("alibi", std::move(x));
    }
    return o;
}

J viewJson(const ViewOptions& v) {
    J o = J::object();
    o.add("softmax", J::boolean(v.softmax))
        .add("causal", J::boolean(v.causal))
        .add("colormap", J::string(enumKey(kColormaps, v.colormap)))
        .add("show_difference", J::boolean(v.showDifference))
        .add("decay_max_distance", J::integer(v.decayMaxDistance))
        .add("decay_log_x", J::boolean(v.decayLogX))
        .add("decay_log_y", J::boolean(v.decayLogY))
        .add("decay_show_bound", J::boolean(v.decayShowBound))
        .add("show_pairs", J::boolean(v.showPairs))
        .add("show_heatmap", J::boolean(v.showHeatmap))
        .add("show_decay", J::boolean(v.showDecay))
        .add("show_frequencies", J::boolean(v.showFrequencies))
        .add("theme", J::string(v.theme))
        .add("font_scale", J::number(v.fontScale));
    return o;
}

J sceneJson(const SessionScene& s) {
    const SceneParams& p = s.scene;
    J o = J::object();
    o.add("title", J::string(s.title))
        .add("notes", J::string(s.notes))
        .add("length", J::integer(p.length))
        .add("positions", numbers(p.positions))
        .add("pairs", numbers(p.pairs))
        .add("head", J::integer(p.head))
        .add("preset", J::string(p.presetKey))
        .add("view", viewJson(p.view));
    J methods = J::array();
    for (const auto& c : p.methods) methods.push(methodJson(c));
    o.add("methods", std::move(methods));
    return o;
}

// ---- Reader ---------------------------------------------------------------------------------------

QString describe(const QJsonValue& v) {
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const qint64 a = v.toInteger(0), b = v.toInteger(1);
        if (a == b) return QString::number(a);
        return QString::fromStdString(formatNumber(v.toDouble()));
    }
    case QJsonValue::String: {
        QString s = v.toString();
        if (s.size() > 40) s = s.left(37) + QStringLiteral("...");
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: return QStringLiteral("nothing");
    }
    return QStringLiteral("?");
}

// Throws nothing: the first failure is recorded and every later read is a no-op.
class Reader {
public:
    Reader(QString source, QStringList* warnings) : source_(std::move(source)), warnings_(warnings) {}

    bool failed() const { return !error_.isEmpty(); }
    const QString& error() const { return error_; }

    void fail(const QString& path, const QString& what) {
        if (failed()) return;
        error_ = path.isEmpty() ? source_ + QStringLiteral(": ") + what
                                : source_ + QStringLiteral(": ") + path + QStringLiteral(": ") + what;
    }
    void failGot(const QString& path, const QString& valid, const QJsonValue& got) {
        fail(path, valid + QStringLiteral(", got ") + describe(got));
    }
    void warn(const QString& text) {
        if (warnings_) warnings_->append(source_ + QStringLiteral(": ") + text);
    }

    // The object at `v`, reporting keys not in `known` as warnings.
    std::optional<QJsonObject> object(const QJsonValue& v, const QString& path, std::initializer_list<const char*> known) {
        if (failed()) return std::nullopt;
        if (!v.isObject()) { failGot(path, QStringLiteral("expected an object"), v); return std::nullopt; }
        const QJsonObject o = v.toObject();
        std::set<QString> names;
        for (const char* k : known) names.insert(QString::fromLatin1(k));
        for (auto it = o.begin(); it != o.end(); ++it)
            if (!names.count(it.key()))
                warn(QStringLiteral("unknown field %1, ignored").arg(join(path, it.key())));
        return o;
    }

    static QString join(const QString& path, const QString& key) {
        return path.isEmpty() ? key : path + QLatin1Char('.') + key;
    }

    void boolean(const QJsonObject& o, const char* key, const QString& path, bool& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (!v.isBool()) { failGot(join(path, QLatin1String(key)), QStringLiteral("expected true or false"), v); return; }
        out = v.toBool();
    }

    void string(const QJsonObject& o, const char* key, const QString& path, QString& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (!v.isString()) { failGot(join(path, QLatin1String(key)), QStringLiteral("expected a string"), v); return; }
        out = v.toString();
    }

    // An integral JSON number within [lo, hi]. `range` empty = "an integer" (the core's
    // validate() gives the precise range afterwards).
    std::optional<std::int64_t> integerValue(const QJsonValue& v, const QString& path, std::int64_t lo, std::int64_t hi,
                                             bool explicitRange) {
        if (failed()) return std::nullopt;
        const QString valid = explicitRange ? QStringLiteral("an integer from %1 to %2").arg(lo).arg(hi)
                                            : QStringLiteral("an integer");
        if (!v.isDouble()) { failGot(path, valid, v); return std::nullopt; }
        const qint64 a = v.toInteger(0), b = v.toInteger(1);
        if (a != b || a < lo || a > hi) { failGot(path, valid, v); return std::nullopt; }
        return a;
    }

    template <class T>
    void integer(const QJsonObject& o, const char* key, const QString& path, T& out,
                 std::int64_t lo = std::numeric_limits<T>::min(), std::int64_t hi = std::numeric_limits<T>::max()) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        const bool explicitRange = lo != std::int64_t(std::numeric_limits<T>::min()) ||
                                   hi != std::int64_t(std::numeric_limits<T>::max());
        if (auto x = integerValue(v, join(path, QLatin1String(key)), lo, hi, explicitRange)) out = static_cast<T>(*x);
    }

    void optInteger(const QJsonObject& o, const char* key, const QString& path, std::optional<std::int64_t>& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (v.isNull()) { out.reset(); return; }
        if (auto x = integerValue(v, join(path, QLatin1String(key)), std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max(), false))
            out = *x;
        else if (!failed())
            fail(join(path, QLatin1String(key)), QStringLiteral("an integer or null"));
    }

    void seed(const QJsonObject& o, const char* key, const QString& path, std::uint64_t& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        const QString p = join(path, QLatin1String(key));
        const QString valid = QStringLiteral("an integer from 0 to 18446744073709551615");
        if (v.isString()) {
            bool ok = false;
            const qulonglong x = v.toString().toULongLong(&ok);
            if (!ok || v.toString().startsWith(QLatin1Char('-')) || v.toString().startsWith(QLatin1Char('+'))) {
                failGot(p, valid, v);
                return;
            }
            out = x;
            return;
        }
        if (failed()) return;
        const qint64 a = v.toInteger(-1), b = v.toInteger(-2);
        if (!v.isDouble() || a != b || a < 0) { failGot(p, valid, v); return; }
        out = static_cast<std::uint64_t>(a);
    }

    std::optional<double> numberValue(const QJsonValue& v, const QString& path) {
        if (failed()) return std::nullopt;
        // QJsonDocument turns numbers too large for a double (1e999) into ±infinity: refuse them.
        if (!v.isDouble() || !std::isfinite(v.toDouble())) { failGot(path, QStringLiteral("expected a finite number"), v); return std::nullopt; }
        return v.toDouble();
    }

    void number(const QJsonObject& o, const char* key, const QString& path, double& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (auto x = numberValue(v, join(path, QLatin1String(key)))) out = *x;
    }

    void number(const QJsonObject& o, const char* key, const QString& path, double& out, double lo, double hi) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        const QString p = join(path, QLatin1String(key));
        auto x = numberValue(v, p);
        if (!x) return;
        if (*x < lo || *x > hi) {
            failGot(p, QStringLiteral("a number from %1 to %2").arg(QString::fromStdString(formatNumber(lo)),
                                                                  QString::fromStdString(formatNumber(hi))), v);
            return;
        }
        out = *x;
    }

    void optNumber(const QJsonObject& o, const char* key, const QString& path, std::optional<double>& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        if (v.isNull()) { out.reset(); return; }
        const QString p = join(path, QLatin1String(key));
        if (!v.isDouble() || !std::isfinite(v.toDouble())) { failGot(p, QStringLiteral("expected a finite number or null"), v); return; }
        out = v.toDouble();
    }

    template <class E, std::size_t N>
    void enumeration(const QJsonObject& o, const char* key, const QString& path, const EnumName<E> (&table)[N], E& out) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        const QString s = v.toString();
        if (v.isString())
            for (const auto& e : table)
                if (s == QLatin1String(e.key)) { out = e.value; return; }
        QStringList keys;
        for (const auto& e : table) keys << QString::fromLatin1(e.key);
        failGot(join(path, QLatin1String(key)), QStringLiteral("one of ") + keys.join(QStringLiteral(", ")), v);
    }

    template <class T>
    void numberList(const QJsonObject& o, const char* key, const QString& path, std::vector<T>& out, std::size_t maxCount,
                    std::int64_t lo = 0, std::int64_t hi = 0) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (failed() || v.isUndefined()) return;
        const QString p = join(path, QLatin1String(key));
        if (!v.isArray()) { failGot(p, QStringLiteral("expected an array of numbers"), v); return; }
        const QJsonArray a = v.toArray();
        if (static_cast<std::size_t>(a.size()) > maxCount) {
            fail(p, QStringLiteral("at most %1 entries, got %2").arg(maxCount).arg(a.size()));
            return;
        }
        std::vector<T> values;
        values.reserve(static_cast<std::size_t>(a.size()));
        for (qsizetype k = 0; k < a.size(); ++k) {
            const QString pk = p + QStringLiteral("[%1]").arg(k);
            if constexpr (std::is_floating_point_v<T>) {
                auto x = numberValue(a.at(k), pk);
                if (!x) return;
                values.push_back(*x);
            } else {
                auto x = integerValue(a.at(k), pk, lo, hi, true);
                if (!x) return;
                values.push_back(static_cast<T>(*x));
            }
        }
        out = std::move(values);
    }

private:
    QString source_;
    QStringList* warnings_;
    QString error_;
};

constexpr std::size_t kMaxListEntries = 32768;   // rotary_dim/2 for head_dim 65536
constexpr std::size_t kMaxPositionsEntries = 4096;

void readRope(Reader& r, const QJsonValue& v, const QString& path, RopeParams& p) {
    auto o = r.object(v, path, {"head_dim", "base", "partial_rotary_factor", "rotary_dim", "scaling", "factor",
                                "max_positions", "original_max_positions", "seq_len", "beta_fast", "beta_slow",
                                "mscale", "mscale_all_dim", "truncate", "attention_factor", "low_freq_factor",
                                "high_freq_factor", "short_factor", "long_factor", "theta", "layout", "precision"});
    if (!o) return;
    r.integer(*o, "head_dim", path, p.head_dim);
    r.number(*o, "base", path, p.base);
    r.number(*o, "partial_rotary_factor", path, p.partial_rotary_factor);
    r.integer(*o, "rotary_dim", path, p.rotary_dim);
    r.enumeration(*o, "scaling", path, kScalings, p.scaling);
    r.optNumber(*o, "factor", path, p.factor);
    r.integer(*o, "max_positions", path, p.max_positions);
    r.optInteger(*o, "original_max_positions", path, p.original_max_positions);
    r.optInteger(*o, "seq_len", path, p.seq_len);
    r.number(*o, "beta_fast", path, p.beta_fast);
    r.number(*o, "beta_slow", path, p.beta_slow);
    r.optNumber(*o, "mscale", path, p.mscale);
    r.optNumber(*o, "mscale_all_dim", path, p.mscale_all_dim);
    r.boolean(*o, "truncate", path, p.truncate);
    r.optNumber(*o, "attention_factor", path, p.attention_factor);
    r.number(*o, "low_freq_factor", path, p.low_freq_factor);
    r.number(*o, "high_freq_factor", path, p.high_freq_factor);
    r.numberList(*o, "short_factor", path, p.short_factor, kMaxListEntries);
    r.numberList(*o, "long_factor", path, p.long_factor, kMaxListEntries);
    r.numberList(*o, "theta", path, p.theta, kMaxListEntries);
    r.enumeration(*o, "layout", path, kRopeLayouts, p.layout);
    r.enumeration(*o, "precision", path, kPrecisions, p.precision);
}

void readMethod(Reader& r, const QJsonValue& v, const QString& path, MethodConfig& c) {
    auto o = r.object(v, path, {"label", "method", "dim", "content", "seed", "head", "causal", "softmax", "precision",
                                "rope", "xpos", "sinusoidal", "learned", "shaw", "t5", "transformer_xl", "alibi"});
    if (!o) return;
    ScoreParams& p = c.params;
    r.string(*o, "label", path, c.label);
    {
        const QJsonValue m = o->value(QLatin1String("method"));
        if (!m.isUndefined() && !r.failed()) {
            const auto method = m.isString() ? methodFromKey(m.toString().toStdString()) : std::nullopt;
            if (!method) {
                QStringList keys;
                for (Method k : kAllMethods) keys << QString::fromUtf8(std::string(methodKey(k)).c_str());
                r.failGot(Reader::join(path, QStringLiteral("method")), QStringLiteral("one of ") + keys.join(QStringLiteral(", ")), m);
            } else {
                p.method = *method;
            }
        }
    }
    r.integer(*o, "dim", path, p.dim, 1, kMaxDim);
    r.enumeration(*o, "content", path, kContents, p.content);
    r.seed(*o, "seed", path, p.seed);
    r.integer(*o, "head", path, p.head, 0, 4095);
    r.boolean(*o, "causal", path, p.causal);
    r.boolean(*o, "softmax", path, p.softmax);
    r.enumeration(*o, "precision", path, kPrecisions, p.precision);
    if (o->contains(QLatin1String("rope"))) readRope(r, o->value(QLatin1String("rope")), Reader::join(path, QStringLiteral("rope")), p.rope);
    if (o->contains(QLatin1String("xpos"))) {
        const QString pp = Reader::join(path, QStringLiteral("xpos"));
        if (auto x = r.object(o->value(QLatin1String("xpos")), pp, {"head_dim", "scale_base", "precision"})) {
            r.integer(*x, "head_dim", pp, p.xpos.head_dim);
            r.number(*x, "scale_base", pp, p.xpos.scale_base);
            r.enumeration(*x, "precision", pp, kPrecisions, p.xpos.precision);
        }
    }
    if (o->contains(QLatin1String("sinusoidal"))) {
        const QString pp = Reader::join(path, QStringLiteral("sinusoidal"));
        if (auto x = r.object(o->value(QLatin1String("sinusoidal")), pp,
                              {"dim", "base", "min_timescale", "layout", "frequencies", "precision"})) {
            r.integer(*x, "dim", pp, p.sinusoidal.dim);
            r.number(*x, "base", pp, p.sinusoidal.base);
            r.number(*x, "min_timescale", pp, p.sinusoidal.min_timescale);
            r.enumeration(*x, "layout", pp, kSinLayouts, p.sinusoidal.layout);
            r.enumeration(*x, "frequencies", pp, kSinFrequencies, p.sinusoidal.frequencies);
            r.enumeration(*x, "precision", pp, kPrecisions, p.sinusoidal.precision);
        }
    }
    if (o->contains(QLatin1String("learned"))) {
        const QString pp = Reader::join(path, QStringLiteral("learned"));
        if (auto x = r.object(o->value(QLatin1String("learned")), pp, {"dim", "table_size", "seed"})) {
            r.integer(*x, "dim", pp, p.learned.dim);
            r.integer(*x, "table_size", pp, p.learned.table_size);
            r.seed(*x, "seed", pp, p.learned.seed);
        }
    }
    if (o->contains(QLatin1String("shaw"))) {
        const QString pp = Reader::join(path, QStringLiteral("shaw"));
        if (auto x = r.object(o->value(QLatin1String("shaw")), pp, {"max_relative_position", "dim", "seed"})) {
            r.integer(*x, "max_relative_position", pp, p.shaw.max_relative_position);
            r.integer(*x, "dim", pp, p.shaw.dim);
            r.seed(*x, "seed", pp, p.shaw.seed);
        }
    }
    if (o->contains(QLatin1String("t5"))) {
        const QString pp = Reader::join(path, QStringLiteral("t5"));
        if (auto x = r.object(o->value(QLatin1String("t5")), pp, {"num_buckets", "max_distance", "bidirectional", "heads", "seed"})) {
            r.integer(*x, "num_buckets", pp, p.t5.num_buckets);
            r.integer(*x, "max_distance", pp, p.t5.max_distance);
            r.boolean(*x, "bidirectional", pp, p.t5.bidirectional);
            r.integer(*x, "heads", pp, p.t5.heads);
            r.seed(*x, "seed", pp, p.t5.seed);
        }
    }
    if (o->contains(QLatin1String("transformer_xl"))) {
        const QString pp = Reader::join(path, QStringLiteral("transformer_xl"));
        if (auto x = r.object(o->value(QLatin1String("transformer_xl")), pp, {"dim", "clamp_len", "seed"})) {
            r.integer(*x, "dim", pp, p.transformer_xl.dim);
            r.integer(*x, "clamp_len", pp, p.transformer_xl.clamp_len);
            r.seed(*x, "seed", pp, p.transformer_xl.seed);
        }
    }
    if (o->contains(QLatin1String("alibi"))) {
        const QString pp = Reader::join(path, QStringLiteral("alibi"));
        if (auto x = r.object(o->value(QLatin1String("alibi")), pp, {"heads", "bias_max", "symmetric", "precision"})) {
            r.integer(*x, "heads", pp, p.alibi.heads);
            r.number(*x, "bias_max", pp, p.alibi.bias_max);
            r.boolean(*x, "symmetric", pp, p.alibi.symmetric);
            r.enumeration(*x, "precision", pp, kPrecisions, p.alibi.precision);
        }
    }
}

void readView(Reader& r, const QJsonValue& v, const QString& path, ViewOptions& view) {
    auto o = r.object(v, path, {"softmax", "causal", "colormap", "show_difference", "decay_max_distance", "decay_log_x",
                                "decay_log_y", "decay_show_bound", "show_pairs", "show_heatmap", "show_decay",
                                "show_frequencies", "theme", "font_scale"});
    if (!o) return;
    r.boolean(*o, "softmax", path, view.softmax);
    r.boolean(*o, "causal", path, view.causal);
    r.enumeration(*o, "colormap", path, kColormaps, view.colormap);
    r.boolean(*o, "show_difference", path, view.showDifference);
    r.integer(*o, "decay_max_distance", path, view.decayMaxDistance, 1, 1048576);
    r.boolean(*o, "decay_log_x", path, view.decayLogX);
    r.boolean(*o, "decay_log_y", path, view.decayLogY);
    r.boolean(*o, "decay_show_bound", path, view.decayShowBound);
    r.boolean(*o, "show_pairs", path, view.showPairs);
    r.boolean(*o, "show_heatmap", path, view.showHeatmap);
    r.boolean(*o, "show_decay", path, view.showDecay);
    r.boolean(*o, "show_frequencies", path, view.showFrequencies);
    r.string(*o, "theme", path, view.theme);
    if (!r.failed() && o->contains(QLatin1String("theme")) && !themeNames().contains(view.theme))
        r.warn(QStringLiteral("%1: unknown theme \"%2\" (known: %3), drawn as light")
                   .arg(Reader::join(path, QStringLiteral("theme")), view.theme, themeNames().join(QStringLiteral(", "))));
    r.number(*o, "font_scale", path, view.fontScale, 0.5, 3.0);
}

// Where a core ParamError of configuration `config` points in the file.
QString paramPath(const QString& methodPath, Method method, const std::string& parameter) {
    const QString name = QString::fromStdString(parameter);
    if (parameter == "dim" || parameter == "head_dim") return methodPath + QStringLiteral(".dim");
    if (parameter == "seed" || parameter == "content" || parameter == "precision")
        return methodPath + QLatin1Char('.') + name;
    if (const char* s = structKey(method)) return methodPath + QLatin1Char('.') + QLatin1String(s) + QLatin1Char('.') + name;
    return methodPath + QLatin1Char('.') + name;
}

void readScene(Reader& r, const QJsonValue& v, const QString& path, SessionScene& s) {
    auto o = r.object(v, path, {"title", "notes", "length", "positions", "pairs", "head", "preset", "view", "methods"});
    if (!o) return;
    SceneParams& p = s.scene;
    r.string(*o, "title", path, s.title);
    r.string(*o, "notes", path, s.notes);
    r.integer(*o, "length", path, p.length, 1, kMaxLength);
    // Positions of interest at or past the length are allowed (the pair view leaves them out).
    r.numberList(*o, "positions", path, p.positions, kMaxPositionsEntries, 0, kMaxPosition);
    r.numberList(*o, "pairs", path, p.pairs, kMaxListEntries, 0, std::int64_t(kMaxListEntries) - 1);
    r.integer(*o, "head", path, p.head, 0, 4095);
    r.string(*o, "preset", path, p.presetKey);
    if (o->contains(QLatin1String("view"))) readView(r, o->value(QLatin1String("view")), Reader::join(path, QStringLiteral("view")), p.view);
    if (o->contains(QLatin1String("methods")) && !r.failed()) {
        const QString mp = Reader::join(path, QStringLiteral("methods"));
        const QJsonValue mv = o->value(QLatin1String("methods"));
        if (!mv.isArray()) {
            r.failGot(mp, QStringLiteral("expected an array of 1 to %1 configurations").arg(kMaxConfigs), mv);
            return;
        }
        const QJsonArray a = mv.toArray();
        if (a.isEmpty() || a.size() > kMaxConfigs) {
            r.fail(mp, QStringLiteral("1 to %1 configurations, got %2").arg(kMaxConfigs).arg(a.size()));
            return;
        }
        p.methods.assign(static_cast<std::size_t>(a.size()), MethodConfig{});
        for (qsizetype k = 0; k < a.size(); ++k)
            readMethod(r, a.at(k), mp + QStringLiteral("[%1]").arg(k), p.methods[static_cast<std::size_t>(k)]);
    }
    if (r.failed()) return;
    // Method parameters: the core's own validation, pointed at the field that fails.
    for (std::size_t k = 0; k < p.methods.size(); ++k) {
        const ScoreParams eff = effectiveParams(p, static_cast<int>(k));
        if (auto e = eff.validate()) {
            r.fail(paramPath(Reader::join(path, QStringLiteral("methods[%1]").arg(k)), eff.method, e->parameter),
                   QString::fromStdString(e->valid) + QStringLiteral(", got ") + QString::fromStdString(e->got));
            return;
        }
    }
    // Anything else the scene's own check knows about.
    if (auto problem = sceneProblem(p)) r.fail(path, *problem);
}

}  // namespace

QByteArray sessionToJson(const Session& session, bool compact) {
    J root = J::object();
    root.add("format", J::string("poslab-session"))
        .add("schema", J::integer(kSessionSchema))
        .add("app_version", J::string(poslabVersion()))
        .add("current", J::integer(session.current));
    J scenes = J::array();
    for (const auto& s : session.scenes) scenes.push(sceneJson(s));
    root.add("scenes", std::move(scenes));
    QByteArray out;
    print(out, root, compact, 0);
    if (!compact) out += '\n';
    return out;
}

QByteArray sceneToJson(const SceneParams& scene, bool compact) {
    Session s;
    s.scenes = {SessionScene{QString(), QString(), scene}};
    s.current = 0;
    return sessionToJson(s, compact);
}

std::optional<Session> sessionFromJson(const QByteArray& json, const QString& source, QString* error, QStringList* warnings) {
    const auto failWith = [&](const QString& what) -> std::optional<Session> {
        if (error) *error = source + QStringLiteral(": ") + what;
        return std::nullopt;
    };
    if (json.size() > kMaxSessionBytes)
        return failWith(QStringLiteral("too large for a session (%1 bytes, at most %2)").arg(json.size()).arg(kMaxSessionBytes));
    if (json.trimmed().isEmpty()) return failWith(QStringLiteral("the file is empty, not a PosLab session"));
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError) {
        const bool truncated = pe.offset >= json.trimmed().size() - 1 || pe.error == QJsonParseError::UnterminatedObject ||
                               pe.error == QJsonParseError::UnterminatedArray || pe.error == QJsonParseError::UnterminatedString;
        return failWith(QStringLiteral("not valid JSON (%1 at byte %2)%3")
                            .arg(pe.errorString())
                            .arg(pe.offset)
                            .arg(truncated ? QStringLiteral(": the file is truncated") : QStringLiteral(": the file is damaged")));
    }
    if (!doc.isObject()) return failWith(QStringLiteral("not a PosLab session (the top level is not a JSON object)"));
    const QJsonObject root = doc.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String("poslab-session"))
        return failWith(QStringLiteral("not a PosLab session (no \"format\": \"poslab-session\")"));
    const QJsonValue schemaValue = root.value(QLatin1String("schema"));
    const qint64 schema = schemaValue.toInteger(-1);
    if (!schemaValue.isDouble() || schema != schemaValue.toInteger(-2) || schema < 1)
        return failWith(QStringLiteral("schema: a positive integer, got %1").arg(describe(schemaValue)));
    if (schema > kSessionSchema)
        return failWith(QStringLiteral("written by a newer PosLab (schema %1%2), this version reads schema %3; update PosLab to open it")
                            .arg(schema)
                            .arg(root.value(QLatin1String("app_version")).isString()
                                     ? QStringLiteral(", version ") + root.value(QLatin1String("app_version")).toString()
                                     : QString())
                            .arg(kSessionSchema));

    Reader r(source, warnings);
    r.object(root, QString(), {"format", "schema", "app_version", "current", "scenes"});
    Session session;
    QString appVersion;
    r.string(root, "app_version", QString(), appVersion);
    const QJsonValue sv = root.value(QLatin1String("scenes"));
    if (!r.failed()) {
        if (!sv.isArray()) {
            r.failGot(QStringLiteral("scenes"), QStringLiteral("expected an array of 1 to %1 scenes").arg(kMaxSessionScenes), sv);
        } else {
            const QJsonArray a = sv.toArray();
            if (a.isEmpty() || a.size() > kMaxSessionScenes) {
                r.fail(QStringLiteral("scenes"), QStringLiteral("1 to %1 scenes, got %2").arg(kMaxSessionScenes).arg(a.size()));
            } else {
                session.scenes.assign(static_cast<std::size_t>(a.size()), SessionScene{});
                for (qsizetype k = 0; k < a.size() && !r.failed(); ++k)
                    readScene(r, a.at(k), QStringLiteral("scenes[%1]").arg(k), session.scenes[static_cast<std::size_t>(k)]);
            }
        }
    }
    if (!r.failed()) {
        r.integer(root, "current", QString(), session.current, 0, static_cast<std::int64_t>(session.scenes.size()) - 1);
    }
    if (r.failed()) {
        if (error) *error = r.error();
        return std::nullopt;
    }
    return session;
}

bool saveSessionFile(const QString& path, const Session& session, QString* error) {
    return writeFileAtomically(path, sessionToJson(session, false), error);
}

bool saveSession(const QString& path, const SceneParams& scene, QString* error) {
    return writeFileAtomically(path, sceneToJson(scene, false), error);
}

std::optional<Session> loadSessionFile(const QString& path, QString* error, QStringList* warnings) {
    QFile f(path);
    const QFileInfo info(path);
    if (info.isDir()) {
        if (error) *error = path + QStringLiteral(": is a directory, not a session file");
        return std::nullopt;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("cannot open %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    if (f.size() > kMaxSessionBytes) {
        if (error) *error = path + QStringLiteral(": too large for a session (%1 bytes, at most %2)").arg(f.size()).arg(kMaxSessionBytes);
        return std::nullopt;
    }
    const QByteArray data = f.read(kMaxSessionBytes + 1);
    if (f.error() != QFileDevice::NoError) {
        if (error) *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    return sessionFromJson(data, path, error, warnings);
}

std::optional<SceneParams> loadSession(const QString& path, QString* error, QStringList* warnings) {
    auto s = loadSessionFile(path, error, warnings);
    if (!s) return std::nullopt;
    return s->scenes.at(static_cast<std::size_t>(s->current)).scene;
}

}  // namespace poslab::ui
