#pragma once
// Shared pieces of the fuzz tests (tests/ui/test_fuzz_*.cpp, tests/app/test_fuzz_cli.cpp):
// a seeded random source, valid scenes of 1–4 configurations drawn from every method and every
// model preset, and mutations of JSON text (byte flips, truncation, deleted / duplicated keys,
// type swaps, extreme numbers, deep nesting). Everything is deterministic for a given seed, so
// a failure names the seed and iteration that reproduce it.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <random>
#include <variant>
#include <vector>

#include "core/method.h"
#include "ui/io/presets.h"
#include "ui/model/sceneparams.h"

namespace fuzzsupport {

// How many inputs a fuzz test tries: `n` in normal builds; a quarter under AddressSanitizer
// (the asan preset runs every input several times slower and the suite must stay in its time).
inline int scaled(int n) {
#if defined(__SANITIZE_ADDRESS__)
    return n / 4 > 0 ? n / 4 : 1;
#else
    return n;
#endif
}

class Rng {
public:
    explicit Rng(std::uint64_t seed) : g_(seed) {}
    // Uniform in [lo, hi].
    std::int64_t between(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(g_); }
    int index(std::size_t n) { return static_cast<int>(between(0, static_cast<std::int64_t>(n) - 1)); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(g_) < p; }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(index(v.size()))]; }
    QString pick(const QStringList& v) { return v[index(static_cast<std::size_t>(v.size()))]; }
    std::uint64_t next() { return g_(); }

private:
    std::mt19937_64 g_;
};

// Configurations to draw from: every method with its defaults, and every model preset.
inline std::vector<poslab::ScoreParams> configurationPool() {
    std::vector<poslab::ScoreParams> pool;
    for (poslab::Method m : poslab::kAllMethods) {
        poslab::ScoreParams p;
        p.method = m;
        p.dim = 16;
        pool.push_back(p);
    }
    for (const auto& preset : poslab::ui::modelPresets()) pool.push_back(preset.params);
    return pool;
}

// A scene that validates: 1–4 configurations from the pool, small lengths and settings varied.
inline poslab::ui::SceneParams validScene(Rng& rng, int configs) {
    static const std::vector<poslab::ScoreParams> pool = configurationPool();
    poslab::ui::SceneParams s;
    s.methods.clear();
    for (int c = 0; c < configs; ++c) {
        poslab::ui::MethodConfig mc;
        mc.params = rng.pick(pool);
        if (rng.chance(0.3)) mc.label = rng.pick(QStringList{QStringLiteral("A"), QStringLiteral("θ \"quoted\" <&>"), QStringLiteral("a,b\nc")});
        s.methods.push_back(mc);
    }
    s.length = rng.pick(std::vector<std::int64_t>{1, 2, 7, 40, 64, 300});
    s.positions.clear();
    for (int k = static_cast<int>(rng.between(0, 5)); k > 0; --k) s.positions.push_back(rng.between(0, 400));
    if (rng.chance(0.3)) s.pairs = {0, static_cast<int>(rng.between(0, 40))};
    s.head = static_cast<int>(rng.between(0, 3));
    s.view.softmax = rng.chance(0.5);
    s.view.causal = rng.chance(0.5);
    s.view.showDifference = rng.chance(0.7);
    s.view.colormap = static_cast<poslab::ui::HeatmapColormap>(rng.between(0, 2));
    s.view.decayMaxDistance = rng.pick(std::vector<std::int64_t>{1, 2, 100, 256, 5000});
    s.view.decayLogX = rng.chance(0.3);
    s.view.decayLogY = rng.chance(0.3);
    s.view.showPairs = rng.chance(0.8);
    s.view.showHeatmap = rng.chance(0.8);
    s.view.showDecay = rng.chance(0.8);
    s.view.showFrequencies = rng.chance(0.8);
    s.view.theme = rng.pick(QStringList{QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("projector")});
    s.view.fontScale = rng.pick(std::vector<double>{0.5, 1.0, 1.7, 3.0});
    return s;
}

// ---- Mutations of JSON text ---------------------------------------------------------------------

enum class Mutation { ByteFlip, Truncate, DeleteKey, DuplicateKey, TypeSwap, ExtremeNumber, DeepNesting, Stacked };
inline const std::vector<Mutation> kAllMutations = {Mutation::ByteFlip,     Mutation::Truncate,      Mutation::DeleteKey,
                                                    Mutation::DuplicateKey, Mutation::TypeSwap,      Mutation::ExtremeNumber,
                                                    Mutation::DeepNesting,  Mutation::Stacked};
inline const char* mutationName(Mutation m) {
    switch (m) {
    case Mutation::ByteFlip: return "byteFlip";
    case Mutation::Truncate: return "truncate";
    case Mutation::DeleteKey: return "deleteKey";
    case Mutation::DuplicateKey: return "duplicateKey";
    case Mutation::TypeSwap: return "typeSwap";
    case Mutation::ExtremeNumber: return "extremeNumber";
    case Mutation::DeepNesting: return "deepNesting";
    case Mutation::Stacked: return "stacked";
    }
    return "?";
}

// Numbers at and beyond every limit, and number-like text JSON does not allow.
inline const QStringList& extremeNumbers() {
    static const QStringList v = {
        QStringLiteral("0"), QStringLiteral("-0"), QStringLiteral("-1"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("0.5"),
        QStringLiteral("-0.5"), QStringLiteral("1e308"), QStringLiteral("-1e308"), QStringLiteral("1e999"), QStringLiteral("-1e999"),
        QStringLiteral("1e-320"), QStringLiteral("4.9e-324"), QStringLiteral("2147483647"), QStringLiteral("2147483648"),
        QStringLiteral("-2147483649"), QStringLiteral("4294967296"), QStringLiteral("9007199254740993"),
        QStringLiteral("9223372036854775807"), QStringLiteral("9223372036854775808"), QStringLiteral("-9223372036854775809"),
        QStringLiteral("18446744073709551615"), QStringLiteral("18446744073709551616"), QStringLiteral("123456789012345678901234567890"),
        QStringLiteral("65536"), QStringLiteral("65537"), QStringLiteral("1048577"), QStringLiteral("1e6"), QStringLiteral("1e12"),
        QStringLiteral("1.0000000000000002"), QStringLiteral("3.5"), QStringLiteral("NaN"), QStringLiteral("nan"),
        QStringLiteral("Infinity"), QStringLiteral("-Infinity"), QStringLiteral("\"NaN\""), QStringLiteral("\"inf\""),
        QStringLiteral("\"-1\""), QStringLiteral("\"18446744073709551616\""), QStringLiteral("\"1e3\""), QStringLiteral("0x10"),
        QStringLiteral("1e"), QStringLiteral("--1"), QStringLiteral("01")};
    return v;
}

// Values of every JSON type (and sizes), to put where another type was.
inline QJsonValue anyValue(Rng& rng) {
    switch (rng.between(0, 12)) {
    case 0: return QJsonValue(QJsonValue::Null);
    case 1: return true;
    case 2: return false;
    case 3: return QString();
    case 4: return QStringLiteral("rope");
    case 5: return QString(static_cast<int>(rng.between(1000, 70000)), QLatin1Char('x'));
    case 6: return static_cast<double>(rng.between(-5, 70000));
    case 7: return 1e300;
    case 8: return -3.75;
    case 9: return QJsonArray();
    case 10: return QJsonArray{1, 2, QStringLiteral("x"), QJsonValue(QJsonValue::Null)};
    case 11: return QJsonObject();
    default: return QJsonObject{{QStringLiteral("method"), QStringLiteral("alibi")}, {QStringLiteral("zz"), 1}};
    }
}

using PathStep = std::variant<QString, qsizetype>;
using Path = std::vector<PathStep>;

inline void collectPaths(const QJsonValue& v, Path& at, std::vector<Path>& out) {
    out.push_back(at);
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            at.push_back(it.key());
            collectPaths(it.value(), at, out);
            at.pop_back();
        }
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            at.push_back(i);
            collectPaths(a.at(i), at, out);
            at.pop_back();
        }
    }
}

// Rebuilds `v` with the node at path[from…] replaced by f(node) (nullopt from f = removed).
template <class F>
QJsonValue editAt(const QJsonValue& v, const Path& path, std::size_t from, F&& f) {
    if (from == path.size()) return f(v).value_or(QJsonValue(QJsonValue::Undefined));
    if (const auto* key = std::get_if<QString>(&path[from])) {
        QJsonObject o = v.toObject();
        const QJsonValue child = editAt(o.value(*key), path, from + 1, f);
        if (child.isUndefined()) o.remove(*key);
        else o.insert(*key, child);
        return o;
    }
    const qsizetype i = std::get<qsizetype>(path[from]);
    QJsonArray a = v.toArray();
    const QJsonValue child = editAt(a.at(i), path, from + 1, f);
    if (child.isUndefined()) a.removeAt(i);
    else a.replace(i, child);
    return a;
}

// One mutation of a JSON document's text (the result need not be JSON).
inline QByteArray mutate(const QByteArray& json, Rng& rng, Mutation m) {
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    const auto randomPath = [&](bool allowRoot) -> Path {
        std::vector<Path> paths;
        Path at;
        collectPaths(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()), at, paths);
        if (!allowRoot && paths.size() > 1) paths.erase(paths.begin());
        return rng.pick(paths);
    };
    const auto rootValue = [&] { return doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()); };
    const auto toText = [](const QJsonValue& v) {
        return v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                           : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    };
    switch (m) {
    case Mutation::ByteFlip: {
        QByteArray out = json;
        if (out.isEmpty()) return out;
        for (int k = static_cast<int>(rng.between(1, 8)); k > 0; --k) {
            const int at = rng.index(static_cast<std::size_t>(out.size()));
            out[at] = rng.chance(0.5) ? char(out[at] ^ (1 << rng.between(0, 7))) : char(rng.between(0, 255));
        }
        return out;
    }
    case Mutation::Truncate: return json.left(rng.between(0, json.size()));
    case Mutation::DeleteKey: {
        if (doc.isNull()) return json;
        const Path p = randomPath(false);
        if (p.empty()) return json;
        return toText(editAt(rootValue(), p, 0, [](const QJsonValue&) -> std::optional<QJsonValue> { return std::nullopt; }));
    }
    case Mutation::DuplicateKey: {
        // "key":value → "key":value,"key":other or "key":other,"key":value: JSON readers differ
        // on which one wins; a session reader must take one of them, not crash.
        if (doc.isNull()) return json;
        std::vector<Path> keyed;
        {
            std::vector<Path> paths;
            Path at;
            collectPaths(rootValue(), at, paths);
            for (const auto& p : paths)
                if (!p.empty() && std::holds_alternative<QString>(p.back())) keyed.push_back(p);
        }
        if (keyed.empty()) return json;
        const Path p = rng.pick(keyed);
        const QString key = std::get<QString>(p.back());
        QJsonValue original;
        QByteArray out = toText(editAt(rootValue(), p, 0, [&](const QJsonValue& v) -> std::optional<QJsonValue> {
            original = v;
            return QJsonValue(QStringLiteral("__poslab_fuzz_dup__"));
        }));
        const auto valueText = [](const QJsonValue& v) { return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).mid(1).chopped(1); };
        const QByteArray other = valueText(anyValue(rng)), orig = valueText(original);
        const QByteArray keyText = valueText(QJsonValue(key)) + ':';
        out.replace("\"__poslab_fuzz_dup__\"", rng.chance(0.5) ? orig + ',' + keyText + other : other + ',' + keyText + orig);
        return out;
    }
    case Mutation::TypeSwap: {
        if (doc.isNull()) return json;
        const Path p = randomPath(false);
        const QJsonValue v = anyValue(rng);
        return toText(editAt(rootValue(), p, 0, [&](const QJsonValue&) -> std::optional<QJsonValue> { return v; }));
    }
    case Mutation::ExtremeNumber: {
        static const QRegularExpression numRe(QStringLiteral("(?<=[:\\[,])-?[0-9][0-9.eE+-]*"));
        const QString text = QString::fromUtf8(json);
        std::vector<std::pair<qsizetype, qsizetype>> spans;
        for (auto it = numRe.globalMatch(text); it.hasNext();) {
            const auto mm = it.next();
            spans.emplace_back(mm.capturedStart(), mm.capturedLength());
        }
        if (spans.empty()) return json;
        QString out = text;
        const auto [at, len] = rng.pick(spans);
        out.replace(at, len, rng.pick(extremeNumbers()));
        return out.toUtf8();
    }
    case Mutation::DeepNesting: {
        if (doc.isNull()) return json;
        const Path p = randomPath(false);
        const int depth = static_cast<int>(rng.pick(std::vector<std::int64_t>{2, 60, 500, 1023, 1024, 1025, 4000, 100000}));
        const bool arrays = rng.chance(0.5);
        const QByteArray open = arrays ? QByteArray("[") : QByteArray("{\"a\":");
        const QByteArray close = arrays ? QByteArray("]") : QByteArray("}");
        static const QByteArray marker = "\"__poslab_fuzz_nest__\"";
        QByteArray out = toText(editAt(rootValue(), p, 0, [](const QJsonValue&) -> std::optional<QJsonValue> {
            return QJsonValue(QStringLiteral("__poslab_fuzz_nest__"));
        }));
        const QByteArray nest = open.repeated(depth) + QByteArray("1") + close.repeated(depth);
        out.replace(marker, nest);
        return out;
    }
    case Mutation::Stacked: {
        QByteArray out = json;
        for (int k = static_cast<int>(rng.between(2, 4)); k > 0; --k)
            out = mutate(out, rng, kAllMutations[static_cast<std::size_t>(rng.between(0, 6))]);
        return out;
    }
    }
    return json;
}

}  // namespace fuzzsupport
