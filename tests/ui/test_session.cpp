// Sessions: save → open gives the same scene and the same bytes; decks keep their order, titles
// and current scene; every kind of broken file gets one clear line naming the field (and never
// a crash); unknown fields are reported; missing fields take their defaults.
#include "support/markertranslator.h"
#include "support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

#include "ui/render/theme.h"
#include "ui/io/session.h"

using namespace poslab;
using namespace poslab::ui;

namespace {

using testsupport::readAll;

// ---- A generator of varied scenes that validate ---------------------------------------------

class SceneGen {
public:
    explicit SceneGen(quint32 seed) : rng_(seed) {}

    int uniform(int lo, int hi) { return lo + int(rng_.bounded(quint32(hi - lo + 1))); }
    bool coin() { return rng_.bounded(2u) == 1; }
    // Doubles with full mantissas, to exercise the shortest round-trip printing.
    double around(double x) { return x * std::exp(rng_.generateDouble() * 2.0 - 1.0); }
    double any() {
        switch (uniform(0, 4)) {
        case 0: return around(1.0);
        case 1: return -around(1e-7);
        case 2: return around(1e15);
        case 3: return double(uniform(-1000, 1000));
        default: return std::ldexp(rng_.generateDouble(), uniform(-60, 60));
        }
    }
    std::uint64_t seed() {
        switch (uniform(0, 3)) {
        case 0: return 0;
        case 1: return rng_.bounded(1000u);
        case 2: return std::numeric_limits<std::uint64_t>::max() - rng_.bounded(1000u);  // above 2^63
        default: return rng_.generate64();
        }
    }
    QString text() {
        static const QStringList pool = {QString(), QStringLiteral("A"), QStringLiteral("Llama 3 \"8B\""),
                                         QStringLiteral("θ = 10⁴ · ∑ — naïve"), QStringLiteral("tab\there\nnew line\\"),
                                         QStringLiteral("emoji 🧭 pair"), QString(QChar(0x01)) + QStringLiteral("ctl")};
        return pool[uniform(0, int(pool.size()) - 1)];
    }

    // Random values everywhere, type-valid (finite, in range of the C++ type); the selected method
    // is then retried until the core's validate() accepts it.
    ScoreParams params() {
        for (int attempt = 0; attempt < 1000; ++attempt) {
            ScoreParams p;
            p.method = kAllMethods[std::size_t(uniform(0, int(kAllMethods.size()) - 1))];
            p.dim = 4 * uniform(1, 64);
            p.content = std::array{Content::Ones, Content::Random, Content::Formula}[std::size_t(uniform(0, 2))];
            p.seed = seed();
            p.head = uniform(0, 3);
            p.causal = coin();
            p.softmax = coin();
            p.precision = coin() ? Precision::Float32 : Precision::Double;
            RopeParams& r = p.rope;
            r.head_dim = uniform(-5, 300);
            r.base = around(10000.0);
            r.partial_rotary_factor = coin() ? 1.0 : 0.5;
            r.rotary_dim = r.partial_rotary_factor == 1.0 && coin() ? p.dim / 2 : 0;
            r.scaling = std::array{RopeScaling::None, RopeScaling::Linear, RopeScaling::Dynamic, RopeScaling::Yarn,
                                   RopeScaling::LongRope, RopeScaling::Llama3}[std::size_t(uniform(0, 5))];
            if (coin() || r.scaling == RopeScaling::Linear || r.scaling == RopeScaling::Dynamic ||
                r.scaling == RopeScaling::Llama3)
                r.factor = around(4.0);
            r.max_positions = uniform(1, 200000);
            if (coin()) r.original_max_positions = uniform(1, 8192);
            if (coin()) r.seq_len = uniform(1, 300000);
            r.beta_fast = around(32.0);
            r.beta_slow = around(1.0);
            if (coin()) r.mscale = around(1.0);
            if (coin()) r.mscale_all_dim = around(0.7);
            r.truncate = coin();
            if (coin()) r.attention_factor = around(1.1);
            r.low_freq_factor = around(1.0);
            r.high_freq_factor = r.low_freq_factor * (1.5 + rng_.generateDouble() * 4);
            const int half = (r.rotary_dim ? r.rotary_dim : int(p.dim * r.partial_rotary_factor)) / 2;
            if (r.scaling == RopeScaling::LongRope || coin()) {
                for (int i = 0; i < half; ++i) r.short_factor.push_back(around(1.5));
                for (int i = 0; i < half; ++i) r.long_factor.push_back(around(3.0));
            }
            if (uniform(0, 5) == 0)
                for (int i = 0; i < half; ++i) r.theta.push_back(around(0.1));
            r.layout = coin() ? RopeLayout::Half : RopeLayout::Interleaved;
            r.precision = coin() ? Precision::Float32 : Precision::Double;
            p.xpos = XposParams{uniform(-3, 300), around(512.0), coin() ? Precision::Float32 : Precision::Double};
            p.sinusoidal.dim = uniform(0, 999);
            p.sinusoidal.base = around(10000.0);
            p.sinusoidal.min_timescale = around(1.0);
            p.sinusoidal.layout = coin() ? SinusoidalLayout::Interleaved : SinusoidalLayout::Concat;
            p.sinusoidal.frequencies = coin() ? SinusoidalFrequencies::Vaswani : SinusoidalFrequencies::Tensor2Tensor;
            p.sinusoidal.precision = coin() ? Precision::Float32 : Precision::Double;
            p.learned = LearnedParams{uniform(1, 99), std::int64_t(uniform(1, 100000)), seed()};
            p.shaw = ShawParams{std::int64_t(uniform(1, 64)), uniform(1, 99), seed()};
            p.t5.num_buckets = 2 * uniform(2, 32);
            p.t5.max_distance = uniform(130, 5000);
            p.t5.bidirectional = coin();
            p.t5.heads = uniform(4, 16);
            p.t5.seed = seed();
            p.transformer_xl = TransformerXLParams{2 * uniform(1, 99), std::int64_t(uniform(0, 99)), seed()};
            p.alibi = AlibiParams{uniform(4, 64), around(8.0), coin(), coin() ? Precision::Float32 : Precision::Double};
            AttentionParams& a = p.attention;
            if (coin()) a.window = uniform(1, 5000);
            else if (coin()) a.chunk = uniform(1, 9000);
            a.nope = coin();
            if (coin()) a.temperature_tuning = {double(uniform(1, 9000)), around(0.1)};
            a.qk_norm = std::array{QkNorm::None, QkNorm::Before, QkNorm::After}[std::size_t(uniform(0, 2))];
            a.norm_eps = around(1e-6);
            if (coin()) a.softmax_scale = around(0.1);
            if (coin()) a.sink = {around(1.0), around(-1.0), around(2.0), around(0.5)};
            if (coin()) a.softcap = around(50.0);
            if (coin()) a.query_scaling = {double(uniform(1, 20000)), around(0.1)};
            if (coin()) {
                LayerPattern& m = p.model;
                const int n = uniform(1, 40);
                std::string types;
                for (int i = 0; i < n; ++i) types += std::string(i ? "," : "") + std::array{"full", "sliding", "chunked"}[std::size_t(uniform(0, 2))];
                m.model_type = "gemma3_text";
                m.layer_types = types;
                for (int i = 0; i < n; ++i) m.rope_layers.push_back(coin());
                m.layer = uniform(0, n - 1);
                m.window = uniform(1, 5000);
                m.chunk = uniform(1, 9000);
                m.bidirectional = coin();
                if (coin()) m.temperature_tuning = {8192, around(0.1)};
                m.qk_norm = coin() ? QkNorm::After : QkNorm::None;
                m.qk_norm_rope_only = coin();
                m.norm_eps = around(1e-5);
                if (coin()) m.softmax_scale = around(0.07);
                if (coin()) m.softcap = around(30.0);
                if (coin()) m.query_scaling = {16384, around(0.1)};
                m.rope_full.base = around(1e6);
                m.rope_full.head_dim = p.dim;
                m.rope_sliding.base = around(1e4);
                m.rope_sliding.head_dim = p.dim;
                m.rope_chunked = m.rope_full;
                m.rope_chunked.layout = RopeLayout::Interleaved;
            }
            ScoreParams eff = p;
            if (!eff.validate()) return p;
        }
        qFatal("SceneGen: no valid parameters after 1000 attempts");
        return {};
    }

    SceneParams scene() {
        for (int attempt = 0; attempt < 100; ++attempt) {
            SceneParams s;
            s.methods.clear();
            const int n = uniform(1, kMaxConfigs);
            for (int i = 0; i < n; ++i) s.methods.push_back(MethodConfig{text(), params()});
            s.length = coin() ? uniform(1, 512) : uniform(1, int(kMaxLength));
            s.positions.clear();
            const int np = uniform(0, 20);
            for (int i = 0; i < np; ++i) s.positions.push_back(uniform(0, int(s.length) + 100));   // past N is allowed
            s.pairs.clear();
            for (int i = uniform(0, 6); i > 0; --i) s.pairs.push_back(uniform(0, 40));
            s.head = uniform(0, 3);
            s.presetKey = coin() ? QString() : QStringLiteral("llama-3-8b");
            ViewOptions& v = s.view;
            v.softmax = coin();
            v.causal = coin();
            v.colormap = std::array{HeatmapColormap::Auto, HeatmapColormap::Viridis, HeatmapColormap::Diverging}[std::size_t(uniform(0, 2))];
            v.showDifference = coin();
            v.colorLink = std::array{ColorRangeLink::Auto, ColorRangeLink::Linked, ColorRangeLink::Own}[std::size_t(uniform(0, 2))];
            v.heatmapSquareCells = coin();
            v.decayMaxDistance = uniform(1, 1048576);
            v.decayLogX = coin();
            v.decayLogY = coin();
            v.decayShowBound = coin();
            // The view window: unset, or from < to within the valid ranges (past N is allowed).
            const auto window = [&](std::optional<std::int64_t>& from, std::optional<std::int64_t>& to, int hi) {
                from.reset();
                to.reset();
                if (coin()) from = uniform(0, hi - 1);
                if (coin()) to = uniform(int(from.value_or(0)) + 1, hi);
            };
            window(v.heatmapQueryFrom, v.heatmapQueryTo, int(kMaxLength));
            window(v.heatmapKeyFrom, v.heatmapKeyTo, int(kMaxLength));
            window(v.decayFrom, v.decayTo, int(kMaxDecayDistance + 1));
            v.showPairs = coin();
            v.showHeatmap = coin();
            v.showDecay = coin();
            v.showFrequencies = coin();
            v.theme = themeNames()[uniform(0, int(themeNames().size()) - 1)];
            v.fontScale = 0.5 + rng_.generateDouble() * 2.5;
            // A token layout (issue 30): N is its token count; the rule and layout vary.
            if (coin()) {
                const int text = uniform(1, 9);
                s.mrope.tokens = QStringLiteral("text:%1,image:1x4x%2,text:2").arg(text).arg(2 * uniform(1, 4)).toStdString();
                s.mrope.model = std::array{MropeModel::Qwen2VL, MropeModel::Qwen25VL, MropeModel::Qwen3VL}[std::size_t(uniform(0, 2))];
                s.methods[0].mropeLayout = coin() ? MropeLayout::Sectioned : MropeLayout::Interleaved;
                if (auto r = mropePositions(s.mrope)) s.length = r.value().ids.cols();
            }
            // The vision decay's encoder and patch (issue 30).
            if (coin()) {
                s.vision.encoder = coin() ? VisionRope::Qwen : VisionRope::Pixtral;
                s.vision.grid = QStringLiteral("1x%1x%2").arg(uniform(1, 40)).arg(uniform(1, 40)).toStdString();
                s.vision.head_dim = 4 * uniform(1, 32);
                if (coin()) s.visionPatch = {uniform(0, 3), uniform(0, 3)};
            }
            if (!sceneProblem(s)) return s;
        }
        qFatal("SceneGen: no valid scene after 100 attempts");
        return {};
    }

private:
    QRandomGenerator rng_;
};

// A valid session text with `field` (a JSON fragment "key": value) spliced into one object.
QByteArray withScene(const QByteArray& sceneFields) {
    return "{\"format\": \"poslab-session\", \"schema\": 1, \"scenes\": [{" + sceneFields + "}]}";
}
QByteArray withMethod(const QByteArray& methodFields) {
    return withScene("\"methods\": [{" + methodFields + "}]");
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // What a damaged session file gets is said in words a translator reaches (context "SessionFile").
    void errorsAreTranslated_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("words");
        QTest::addRow("empty") << QByteArray("  ") << "the file is empty, not a PosLab session";
        QTest::addRow("array") << QByteArray("[1]") << "not a PosLab session (the top level is not a JSON object)";
        QTest::addRow("schema 99") << QByteArray(R"({"format":"poslab-session","schema":99,"scenes":[{}]})")
                                   << "written by a newer PosLab (schema 99";
    }
    void errorsAreTranslated() {
        QFETCH(QByteArray, json);
        QFETCH(QString, words);
        const testsupport::MarkerTranslator marker("SessionFile");
        QString error;
        QVERIFY(!sessionFromJson(json, QStringLiteral("s.poslab"), &error));
        QVERIFY2(error.startsWith(QStringLiteral("s.poslab: ") + marker.mark() + words), qPrintable(error));
    }

    void layoutOfStructsIsKnown();
    void defaultSceneRoundTrip();
    void fileStartsWithFormatAndSchema();
    void roundTripRandomScenes_data();
    void roundTripRandomScenes();
    void roundTripDeck();
    void compactFormIsOneLineAndEquivalent();
    void hugeSeedsSurvive();
    void missingFieldsTakeDefaults();
    void malformed_data();
    void malformed();
    void unknownFieldsAreReported();
    void sceneLevelSectionsAreEveryConfigurations();
    void unknownThemeWarnsAndIsKept();
    void everyTruncationIsRefused();
    void mutatedFilesNeverCrash();
    void fileErrors();
    void failedSaveKeepsOldFile();
};

#define SIZE_IS(T, n) QVERIFY2(sizeof(T) == (n), QByteArray(#T " changed size (now " + QByteArray::number(qulonglong(sizeof(T))) + "): update ui/io/session.cpp").constData())
void TestSession::layoutOfStructsIsKnown() {
    // ui/io/session.cpp writes every field of these structs by name. If one of them gains a field,
    // its size changes and this test fails: add the field to session.cpp (writer and reader)
    // and to the generator above, then update the sizes here.
    SIZE_IS(RopeParams, 264);
    SIZE_IS(XposParams, 24);
    SIZE_IS(SinusoidalParams, 40);
    SIZE_IS(LearnedParams, 24);
    SIZE_IS(ShawParams, 24);
    SIZE_IS(T5Params, 32);
    SIZE_IS(TransformerXLParams, 24);
    SIZE_IS(AlibiParams, 24);
    SIZE_IS(AttentionParams, 160);
    SIZE_IS(LayerPattern, 1048);
    SIZE_IS(ScoreParams, 1720);
    SIZE_IS(MethodConfig, 1776);
    SIZE_IS(ViewOptions, 176);
    SIZE_IS(SceneParams, 560);
}

void TestSession::defaultSceneRoundTrip() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("default.poslab"));
    const SceneParams scene;
    QString error;
    QVERIFY2(saveSession(path, scene, &error), qPrintable(error));
    QStringList warnings;
    const auto back = loadSession(path, &error, &warnings);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join('\n')));
    QVERIFY(*back == scene);
}

void TestSession::fileStartsWithFormatAndSchema() {
    const QByteArray json = sceneToJson(SceneParams{});
    QVERIFY2(json.startsWith("{\n  \"format\": \"poslab-session\",\n  \"schema\": 1,\n  \"app_version\": \""),
             json.left(120).constData());
    QVERIFY(json.contains("\"app_version\": \"" + poslabVersion().toUtf8() + "\""));
    QVERIFY(json.endsWith("}\n"));
    // Every RoPE option is written, also when unset (null), so a reader sees the whole scene.
    for (const char* key : {"\"partial_rotary_factor\"", "\"original_max_positions\": null", "\"seq_len\": null",
                            "\"mscale_all_dim\": null", "\"attention_factor\": null", "\"short_factor\": []",
                            "\"layout\": \"half\"", "\"transformer_xl\"", "\"font_scale\": 1"})
        QVERIFY2(json.contains(key), key);
}

void TestSession::roundTripRandomScenes_data() {
    QTest::addColumn<quint32>("seed");
    for (quint32 s = 1; s <= 60; ++s) QTest::newRow(qPrintable(QStringLiteral("generatorSeed%1").arg(s))) << s;
}

void TestSession::roundTripRandomScenes() {
    QFETCH(quint32, seed);
    SceneGen gen(seed);
    const SceneParams scene = gen.scene();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.poslab"));
    QString error;
    QVERIFY2(saveSession(path, scene, &error), qPrintable(error));
    const QByteArray first = readAll(path);
    QStringList warnings;
    const auto back = loadSession(path, &error, &warnings);
    QVERIFY2(back.has_value(), qPrintable(error + QStringLiteral("\n") + QString::fromUtf8(first)));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join('\n')));
    QVERIFY2(*back == scene, first.constData());
    // Saving what was opened gives the same bytes.
    const QString again = dir.filePath(QStringLiteral("again.poslab"));
    QVERIFY2(saveSession(again, *back, &error), qPrintable(error));
    QCOMPARE(readAll(again), first);
}

void TestSession::roundTripDeck() {
    SceneGen gen(4242);
    Session deck;
    deck.scenes.clear();
    for (int i = 0; i < 7; ++i)
        deck.scenes.push_back(SessionScene{QStringLiteral("Slide %1").arg(i + 1), i % 2 ? QStringLiteral("say: \"rotate\"") : QString(),
                                           gen.scene()});
    deck.current = 5;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lecture.poslab"));
    QString error;
    QVERIFY2(saveSessionFile(path, deck, &error), qPrintable(error));
    const auto back = loadSessionFile(path, &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QCOMPARE(back->scenes.size(), deck.scenes.size());
    QCOMPARE(back->current, 5);
    for (std::size_t i = 0; i < deck.scenes.size(); ++i) {
        QCOMPARE(back->scenes[i].title, deck.scenes[i].title);
        QCOMPARE(back->scenes[i].notes, deck.scenes[i].notes);
        QVERIFY(back->scenes[i].scene == deck.scenes[i].scene);
    }
    // loadSession gives the current scene.
    const auto current = loadSession(path, &error);
    QVERIFY(current.has_value());
    QVERIFY(*current == deck.scenes[5].scene);
    QCOMPARE(sessionToJson(*back), readAll(path));
}

void TestSession::compactFormIsOneLineAndEquivalent() {
    SceneGen gen(7);
    const SceneParams scene = gen.scene();
    const QByteArray compact = sceneToJson(scene, true);
    QVERIFY(!compact.contains('\n'));
    QVERIFY(compact.startsWith("{\"format\":\"poslab-session\",\"schema\":1,"));
    QString error;
    const auto back = sessionFromJson(compact, QStringLiteral("metadata"), &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(back->scenes.front().scene == scene);
}

void TestSession::hugeSeedsSurvive() {
    SceneParams scene;
    scene.methods.front().params.seed = std::numeric_limits<std::uint64_t>::max();
    scene.methods.front().params.learned.seed = (std::uint64_t{1} << 63);
    scene.methods.front().params.t5.seed = (std::uint64_t{1} << 63) - 1;
    const QByteArray json = sceneToJson(scene);
    QVERIFY(json.contains("\"seed\": \"18446744073709551615\""));
    QVERIFY(json.contains("\"seed\": \"9223372036854775808\""));
    QVERIFY(json.contains("\"seed\": 9223372036854775807"));
    QString error;
    const auto back = sessionFromJson(json, QStringLiteral("t"), &error);
    QVERIFY2(back.has_value(), qPrintable(error));
    QVERIFY(back->scenes.front().scene == scene);
}

void TestSession::missingFieldsTakeDefaults() {
    QString error;
    QStringList warnings;
    const auto s = sessionFromJson("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{}]}", QStringLiteral("min"),
                                   &error, &warnings);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY(warnings.isEmpty());
    QVERIFY(s->scenes.front().scene == SceneParams{});
    // A method object with only its method: the other fields keep their defaults.
    const auto t = sessionFromJson(withMethod("\"method\": \"alibi\""), QStringLiteral("min"), &error);
    QVERIFY2(t.has_value(), qPrintable(error));
    ScoreParams expected;
    expected.method = Method::Alibi;
    QVERIFY((t->scenes.front().scene.methods.front().params == expected));
}

void TestSession::malformed_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");   // the error must contain this (after "src: ")
    const QByteArray valid = sceneToJson(SceneParams{});
    QTest::newRow("emptyFile") << QByteArray() << "the file is empty";
    QTest::newRow("whitespaceOnly") << QByteArray(" \n\t ") << "the file is empty";
    QTest::newRow("truncatedHalf") << valid.left(valid.size() / 2) << "the file is truncated";
    QTest::newRow("plainText") << QByteArray("hello") << "not valid JSON";
    QTest::newRow("binaryGarbage") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11) << "not valid JSON";
    QTest::newRow("topLevelArray") << QByteArray("[1,2]") << "not a PosLab session (the top level is not a JSON object)";
    QTest::newRow("noFormat") << QByteArray("{\"schema\":1,\"scenes\":[{}]}") << "not a PosLab session (no \"format\": \"poslab-session\")";
    QTest::newRow("otherFormat") << QByteArray("{\"format\":\"jupyter\",\"schema\":1}") << "not a PosLab session";
    QTest::newRow("schema2") << QByteArray("{\"format\":\"poslab-session\",\"schema\":2,\"app_version\":\"0.9.0\",\"scenes\":[{\"new\":1}]}")
                             << "written by a newer PosLab (schema 2, version 0.9.0), this version reads schema 1";
    QTest::newRow("schema99_noVersion") << QByteArray("{\"format\":\"poslab-session\",\"schema\":99}")
                                        << "written by a newer PosLab (schema 99), this version reads schema 1";
    QTest::newRow("schemaString") << QByteArray("{\"format\":\"poslab-session\",\"schema\":\"1\"}") << "schema: a positive integer, got \"1\"";
    QTest::newRow("schemaZero") << QByteArray("{\"format\":\"poslab-session\",\"schema\":0}") << "schema: a positive integer, got 0";
    QTest::newRow("schemaFraction") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1.5}") << "schema: a positive integer, got 1.5";
    QTest::newRow("scenesMissing") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1}") << "scenes: expected an array of 1 to 1000 scenes, got nothing";
    QTest::newRow("scenesObject") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":{}}") << "scenes: expected an array of 1 to 1000 scenes, got an object";
    QTest::newRow("scenesEmpty") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[]}") << "scenes: 1 to 1000 scenes, got 0";
    QTest::newRow("sceneNumber") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[3]}") << "scenes[0]: expected an object, got 3";
    QTest::newRow("currentPastEnd") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"current\":3,\"scenes\":[{}]}") << "current: an integer from 0 to 0, got 3";
    QTest::newRow("currentNegative") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"current\":-1,\"scenes\":[{},{}]}") << "current: an integer from 0 to 1, got -1";
    QTest::newRow("lengthString") << withScene("\"length\": \"64\"") << "scenes[0].length: an integer from 1 to 1048576, got \"64\"";
    QTest::newRow("lengthZero") << withScene("\"length\": 0") << "scenes[0].length: an integer from 1 to 1048576, got 0";
    QTest::newRow("length1e300") << withScene("\"length\": 1e300") << "scenes[0].length: an integer from 1 to 1048576, got 1e+300";
    QTest::newRow("lengthFraction") << withScene("\"length\": 2.5") << "scenes[0].length: an integer from 1 to 1048576, got 2.5";
    QTest::newRow("lengthNull") << withScene("\"length\": null") << "scenes[0].length: an integer from 1 to 1048576, got null";
    QTest::newRow("positionsNotArray") << withScene("\"positions\": 5") << "scenes[0].positions: a list of integers, each from 0 to 1099511627776 (at most 4096), got 5";
    QTest::newRow("positionNegative") << withScene("\"positions\": [-1]") << "scenes[0].positions: a list of integers, each from 0 to 1099511627776 (at most 4096), got -1 at entry 0";
    QTest::newRow("positionHuge") << withScene("\"positions\": [1e15]") << "scenes[0].positions: a list of integers, each from 0 to 1099511627776 (at most 4096), got 1000000000000000 at entry 0";
    QTest::newRow("positionsTooMany") << withScene("\"positions\": [" + QByteArray("0,").repeated(5000) + "0]")
                                      << "scenes[0].positions: at most 4096 entries, got 5001";
    QTest::newRow("headHuge") << withScene("\"head\": 99999") << "scenes[0].head: an integer from 0 to 4095, got 99999";
    QTest::newRow("viewNotObject") << withScene("\"view\": []") << "scenes[0].view: expected an object, got an array";
    QTest::newRow("fontScaleTen") << withScene("\"view\": {\"font_scale\": 10}") << "scenes[0].view.font_scale: a number from 0.5 to 3, got 10";
    QTest::newRow("decayDistanceZero") << withScene("\"view\": {\"decay_max_distance\": 0}")
                                       << "scenes[0].view.decay_max_distance: an integer from 1 to 1048576, got 0";
    QTest::newRow("softmaxNumber") << withScene("\"view\": {\"softmax\": 1}") << "scenes[0].view.softmax: true or false, got 1";
    QTest::newRow("linkColorRangesUnknown") << withScene("\"view\": {\"link_color_ranges\": \"sometimes\"}")
                                            << "scenes[0].view.link_color_ranges: one of auto, linked, own, got \"sometimes\"";
    QTest::newRow("colormapUnknown") << withScene("\"view\": {\"colormap\": \"jet\"}")
                                     << "scenes[0].view.colormap: one of auto, viridis, diverging, got \"jet\"";
    QTest::newRow("methodsEmpty") << withScene("\"methods\": []") << "scenes[0].methods: 1 to 4 configurations, got 0";
    QTest::newRow("methodsFive") << withScene("\"methods\": [{},{},{},{},{}]") << "scenes[0].methods: 1 to 4 configurations, got 5";
    QTest::newRow("methodUnknown") << withMethod("\"method\": \"rope2\"")
                                   << "scenes[0].methods[0].method: one of nope, sinusoidal, learned, shaw, t5, transformer-xl, alibi, rope, xpos, got \"rope2\"";
    QTest::newRow("dimHuge") << withMethod("\"dim\": 1000000000") << "scenes[0].methods[0].dim: an integer from 1 to 65536, got 1000000000";
    QTest::newRow("dimOddForRope") << withMethod("\"method\": \"rope\", \"dim\": 63")
                                   << "scenes[0].methods[0].dim: an even integer from 2 to 65536 (the rope head dimension), got 63";
    QTest::newRow("contentUnknown") << withMethod("\"content\": \"zeros\"") << "scenes[0].methods[0].content: one of ones, random, formula, got \"zeros\"";
    QTest::newRow("seedNegative") << withMethod("\"seed\": -1") << "scenes[0].methods[0].seed: an integer from 0 to 18446744073709551615, got -1";
    QTest::newRow("seedWord") << withMethod("\"seed\": \"lucky\"") << "scenes[0].methods[0].seed: an integer from 0 to 18446744073709551615, got \"lucky\"";
    QTest::newRow("ropeNotObject") << withMethod("\"rope\": \"fast\"") << "scenes[0].methods[0].rope: expected an object, got \"fast\"";
    QTest::newRow("ropeBaseString") << withMethod("\"rope\": {\"base\": \"abc\"}") << "scenes[0].methods[0].rope.base: a number in (1, 1e12], got \"abc\"";
    QTest::newRow("ropeBaseOverflow") << withMethod("\"rope\": {\"base\": 1e999}") << "not valid JSON (illegal number at byte";
    QTest::newRow("ropeBaseBelowOne") << withMethod("\"rope\": {\"base\": 0.5}") << "scenes[0].methods[0].rope.base: a number in (1, 1e12], got 0.5";
    QTest::newRow("ropeScalingUnknown") << withMethod("\"rope\": {\"scaling\": \"ntk\"}")
                                        << "scenes[0].methods[0].rope.scaling: one of none, linear, dynamic, yarn, longrope, llama3, got \"ntk\"";
    QTest::newRow("ropeLinearWithoutFactor") << withMethod("\"rope\": {\"scaling\": \"linear\"}")
                                             << "scenes[0].methods[0].rope.factor: a number from 1e-6 to 1e6 (required for linear, dynamic and llama3 scaling), got none";
    QTest::newRow("ropeFactorWord") << withMethod("\"rope\": {\"factor\": \"big\"}") << "scenes[0].methods[0].rope.factor: a number from 1e-6 to 1e6, got \"big\"";
    QTest::newRow("ropeMaxPositionsFraction") << withMethod("\"rope\": {\"max_positions\": 4096.5}") << "scenes[0].methods[0].rope.max_positions: an integer from 1 to 1099511627776, got 4096.5";
    QTest::newRow("ropeShortFactorWrongCount") << withMethod("\"rope\": {\"scaling\": \"longrope\", \"short_factor\": [1, 2], \"long_factor\": [1, 2]}")
                                               << "scenes[0].methods[0].rope.short_factor:";
    QTest::newRow("ropeThetaNotNumbers") << withMethod("\"rope\": {\"theta\": [1, \"x\"]}") << "scenes[0].methods[0].rope.theta[1]: a list of numbers, each in (0, 1e6] (at most 32768), got \"x\"";
    QTest::newRow("ropeTruncateString") << withMethod("\"rope\": {\"truncate\": \"yes\"}") << "scenes[0].methods[0].rope.truncate: true or false, got \"yes\"";
    QTest::newRow("alibiHeadsZero") << withMethod("\"method\": \"alibi\", \"alibi\": {\"heads\": 0}") << "scenes[0].methods[0].alibi.heads: an integer from 1 to";
    QTest::newRow("alibiHeadsHugeIntOverflow") << withMethod("\"method\": \"alibi\", \"alibi\": {\"heads\": 9e18}") << "scenes[0].methods[0].alibi.heads: an integer from 1 to 4096, got 9000000000000000000";
    QTest::newRow("t5OddBuckets") << withMethod("\"method\": \"t5\", \"t5\": {\"num_buckets\": 31}") << "scenes[0].methods[0].t5.num_buckets:";
    QTest::newRow("xposScaleBaseNegative") << withMethod("\"method\": \"xpos\", \"xpos\": {\"scale_base\": -5}")
                                           << "scenes[0].methods[0].xpos.scale_base: a number in (0, 1e12], got -5";
    QTest::newRow("secondSceneBad") << QByteArray("{\"format\":\"poslab-session\",\"schema\":1,\"scenes\":[{},{\"length\":-4}]}")
                                    << "scenes[1].length: an integer from 1 to 1048576, got -4";
    QTest::newRow("secondConfigBad") << withScene("\"methods\": [{}, {\"method\": \"sinusoidal\", \"sinusoidal\": {\"base\": 1}}]")
                                     << "scenes[0].methods[1].sinusoidal.base: a number in (1, 1e30], got 1";
    QTest::newRow("deepNesting") << withScene("\"title\": " + QByteArray(5000, '[') + QByteArray(5000, ']')) << "not valid JSON";
}

void TestSession::malformed() {
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    QString error;
    QStringList warnings;
    const auto s = sessionFromJson(json, QStringLiteral("bad.poslab"), &error, &warnings);
    QVERIFY2(!s.has_value(), "a malformed session was accepted");
    QVERIFY2(error.startsWith(QStringLiteral("bad.poslab: ")), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(QStringLiteral("\n   got: %1\nwanted: %2").arg(error, message)));
    QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
}

void TestSession::unknownFieldsAreReported() {
    QByteArray json = sceneToJson(SceneParams{});
    json.replace("\"schema\": 1,", "\"schema\": 1,\n  \"author\": \"me\",");
    json.replace("\"font_scale\": 1", "\"font_scale\": 1, \"zoom\": 2");
    // The first "truncate" is the configuration's rope group (the model's per-type groups follow).
    const qsizetype at = json.indexOf("\"truncate\": true,");
    json.replace(at, qsizetype(sizeof("\"truncate\": true,") - 1), "\"truncate\": true, \"rope_knob\": {\"a\": 1},");
    QString error;
    QStringList warnings;
    const auto s = sessionFromJson(json, QStringLiteral("extra.poslab"), &error, &warnings);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY(s->scenes.front().scene == SceneParams{});
    QCOMPARE(warnings, (QStringList{QStringLiteral("extra.poslab: unknown field author, ignored"),
                                    QStringLiteral("extra.poslab: unknown field scenes[0].view.zoom, ignored"),
                                    QStringLiteral("extra.poslab: unknown field scenes[0].methods[0].rope.rope_knob, ignored")}));
}

// Sessions saved before the M-RoPE sections became each configuration's own kept them with the
// scene's token layout: they are read as the sections of every configuration that has none of
// its own (not dropped with an "unknown field" warning).
void TestSession::sceneLevelSectionsAreEveryConfigurations() {
    const QByteArray json = withScene(
        "\"length\": 11, \"mrope\": {\"tokens\": \"text:3,image:1x4x6,text:2\", \"mrope_section\": [8, 12, 12], \"mrope_layout\": \"interleaved\"},"
        " \"methods\": [{\"method\": \"rope\"}, {\"method\": \"rope\", \"mrope\": {\"mrope_section\": [16, 8, 8]}}]");
    QString error;
    QStringList warnings;
    const auto s = sessionFromJson(json, QStringLiteral("old.poslab"), &error, &warnings);
    QVERIFY2(s.has_value(), qPrintable(error));
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
    const auto& m = s->scenes.front().scene.methods;
    QCOMPARE(m.size(), std::size_t(2));
    QCOMPARE(m[0].mropeSection, (std::vector<std::int64_t>{8, 12, 12}));
    QCOMPARE(m[0].mropeLayout, MropeLayout::Interleaved);
    QCOMPARE(m[1].mropeSection, (std::vector<std::int64_t>{16, 8, 8}));   // its own
    QCOMPARE(m[1].mropeLayout, MropeLayout::Sectioned);
    QCOMPARE(s->scenes.front().scene.mrope.tokens, std::string("text:3,image:1x4x6,text:2"));
}

void TestSession::unknownThemeWarnsAndIsKept() {
    SceneParams scene;
    scene.view.theme = QStringLiteral("neon");
    QString error;
    QStringList warnings;
    const auto s = sessionFromJson(sceneToJson(scene), QStringLiteral("t"), &error, &warnings);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->scenes.front().scene.view.theme, QStringLiteral("neon"));
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.front().contains(QStringLiteral("scenes[0].view.theme: unknown theme \"neon\"")), qPrintable(warnings.front()));
}

void TestSession::everyTruncationIsRefused() {
    SceneGen gen(99);
    Session deck;
    deck.scenes = {SessionScene{QStringLiteral("one"), {}, gen.scene()}, SessionScene{QStringLiteral("two"), {}, gen.scene()}};
    const QByteArray json = sessionToJson(deck);
    const qsizetype end = json.lastIndexOf('}');
    for (qsizetype n = 0; n < end; ++n) {
        QString error;
        const auto s = sessionFromJson(json.left(n), QStringLiteral("cut"), &error);
        QVERIFY2(!s.has_value(), qPrintable(QStringLiteral("prefix of %1 bytes accepted").arg(n)));
        QVERIFY2(error.contains(QStringLiteral("truncated")) || error.contains(QStringLiteral("empty")) ||
                     error.contains(QStringLiteral("not valid JSON")),
                 qPrintable(QStringLiteral("%1: %2").arg(n).arg(error)));
    }
}

void TestSession::mutatedFilesNeverCrash() {
    // Random byte edits of a valid deck: each is either accepted as a valid scene or refused
    // with a one-line message; nothing crashes, hangs or returns an invalid scene.
    SceneGen gen(5);
    Session deck;
    deck.scenes = {SessionScene{{}, {}, gen.scene()}, SessionScene{{}, {}, gen.scene()}};
    const QByteArray json = sessionToJson(deck);
    QRandomGenerator rng(12345);
    const QByteArray alphabet = "0123456789-+.eE\"{}[],:nulltruefalse xyz\\";
    int accepted = 0, refused = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        QByteArray m = json;
        const int edits = 1 + int(rng.bounded(4u));
        for (int e = 0; e < edits; ++e) {
            const qsizetype at = qsizetype(rng.bounded(quint32(m.size())));
            switch (rng.bounded(3u)) {
            case 0: m[at] = alphabet[qsizetype(rng.bounded(quint32(alphabet.size())))]; break;
            case 1: m.remove(at, 1 + qsizetype(rng.bounded(8u))); break;
            default: m.insert(at, alphabet[qsizetype(rng.bounded(quint32(alphabet.size())))]); break;
            }
        }
        QString error;
        QStringList warnings;
        const auto s = sessionFromJson(m, QStringLiteral("m"), &error, &warnings);
        if (s) {
            ++accepted;
            for (const auto& sc : s->scenes) QVERIFY2(!sceneProblemApartFromFiles(sc.scene), qPrintable(QString::fromUtf8(m)));
            QVERIFY(s->current >= 0 && s->current < int(s->scenes.size()));
        } else {
            ++refused;
            QVERIFY(error.startsWith(QStringLiteral("m: ")));
            QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        }
    }
    QVERIFY(refused > 0);
    qInfo("mutations: %d accepted, %d refused", accepted, refused);
}

void TestSession::fileErrors() {
    QTemporaryDir dir;
    QString error;
    QVERIFY(!loadSession(dir.filePath(QStringLiteral("missing.poslab")), &error));
    QVERIFY2(error.startsWith(QStringLiteral("cannot open ")) && error.contains(QStringLiteral("missing.poslab")), qPrintable(error));
    QVERIFY(!loadSession(dir.path(), &error));
    QVERIFY2(error.contains(QStringLiteral("is a directory")), qPrintable(error));
    QVERIFY(!saveSession(dir.filePath(QStringLiteral("no/dir/x.poslab")), SceneParams{}, &error));
    QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
}

void TestSession::failedSaveKeepsOldFile() {
    // A scene that is not valid still saves (autosave of work in progress), but a save into a
    // path that cannot be written leaves everything as it was.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("keep.poslab"));
    QString error;
    QVERIFY(saveSession(path, SceneParams{}, &error));
    const QByteArray before = readAll(path);
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("dir.poslab")));
    QVERIFY(!saveSession(dir.filePath(QStringLiteral("dir.poslab")), SceneParams{}, &error));
    QCOMPARE(readAll(path), before);
}

QTEST_MAIN(TestSession)
#include "test_session.moc"
