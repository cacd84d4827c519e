// A layer's attention structure (core/attention.h): masks exactly as masking_utils builds them
// (golden sliding-window and chunked cases), Llama 4's temperature tuning (golden), GPT-OSS sinks
// (golden softmax weights and row sums), q/k norm, softmax scale, NoPE layers, the decay's
// visible range, and the layer pattern (core/layers.h). Gemma 2's logit soft-cap and Ministral 3's
// query scaling against tests/data/family/softcap_query_scaling.json (an independent plain-Python
// transcription of those families' code, its generator beside it) in scores, softmax, decay and
// contributions.
#include "support/testsupport.h"

#include "core/attention.h"
#include "core/contributions.h"
#include "core/decay.h"
#include "core/layers.h"
#include "core/scores.h"

using namespace poslab;
using namespace testsupport;

class TestAttention : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void masksMatchGolden_data();
    void masksMatchGolden();
    void bidirectionalWindow();
    void visibleTo_data();
    void visibleTo();
    void temperatureMatchesGolden_data();
    void temperatureMatchesGolden();
    void sinksMatchGolden();
    void sinkRowsSumToOneMinusSinkMass();
    void softmaxScaleReplacesInverseSqrtDim();
    void qkNormNormalisesRows_data();
    void qkNormNormalisesRows();
    void nopeLayerIgnoresPositions();
    void decayStopsWhereTheLayerStopsSeeing();
    void summaryCoversVisibleCellsOnly();
    void maskedKeysAreNeverComputed();
    void validation_data();
    void validation();
    void layerPatternGivesEachLayer();
    void layerPatternValidation_data();
    void layerPatternValidation();
    void softcapAndQueryScalingMatchReference_data();
    void softcapAndQueryScalingMatchReference();
    void softcapAndQueryScalingOfALayer();
};

// Golden masks: allowed[0][i][j] for an 8 × 8 sequence.
void TestAttention::masksMatchGolden_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("chunk");
    QTest::newRow("gemma3_sliding_W3") << "modern_gemma3.json" << "sliding_window_mask_W3_q8_offset0" << 3 << 0;
    QTest::newRow("llama4_chunked_C3") << "modern_llama4.json" << "chunked_mask_C3_q8_offset0" << 0 << 3;
}

void TestAttention::masksMatchGolden() {
    QFETCH(QString, file);
    QFETCH(QString, name);
    QFETCH(int, window);
    QFETCH(int, chunk);
    const auto allowed = goldenCase(file, name).value("output").toObject().value("allowed").toArray().at(0).toArray();
    AttentionParams a;
    if (window) a.window = window;
    if (chunk) a.chunk = chunk;
    QVERIFY(!a.validate());
    // Through the scores: masked cells are −∞ (and 0 after softmax).
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 4;
    p.causal = true;
    p.attention = a;
    const Positions pos = arangePositions(0, 8);
    auto s = scores(p, pos, pos, 8);
    QVERIFY(s.ok());
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const bool want = allowed.at(i).toArray().at(j).toInt() == 1;
            QCOMPARE(visible(a, true, i, j, 8), want);
            QCOMPARE(std::isfinite(s.value()(i, j)), want);
        }
}

void TestAttention::bidirectionalWindow() {
    AttentionParams a;
    a.window = 5;   // |i − j| <= 2
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 10; ++j) QCOMPARE(visible(a, false, i, j, 10), std::abs(i - j) <= 2);
}

void TestAttention::visibleTo_data() {
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("chunk");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("expected");   // −1 = unlimited
    QTest::newRow("full") << 0 << 0 << true << -1;
    QTest::newRow("window128_causal") << 128 << 0 << true << 127;
    QTest::newRow("window128_bidirectional") << 128 << 0 << false << 64;
    QTest::newRow("window1_causal") << 1 << 0 << true << 0;
    QTest::newRow("chunk8192") << 0 << 8192 << false << 8191;
}

void TestAttention::visibleTo() {
    QFETCH(int, window);
    QFETCH(int, chunk);
    QFETCH(bool, causal);
    QFETCH(int, expected);
    AttentionParams a;
    if (window) a.window = window;
    if (chunk) a.chunk = chunk;
    const auto v = poslab::visibleTo(a, causal);
    QCOMPARE(v ? static_cast<int>(*v) : -1, expected);
}

void TestAttention::temperatureMatchesGolden_data() {
    QTest::addColumn<int>("precision");
    QTest::newRow("float32") << int(Precision::Float32);
    QTest::newRow("double") << int(Precision::Double);
}

// Llama 4: q *= log1p(floor((pos+1)/floor_scale))·attn_scale + 1 (golden floor 4, scale 0.1).
void TestAttention::temperatureMatchesGolden() {
    QFETCH(int, precision);
    const auto c = goldenCase("modern_llama4.json", "temperature_tuning_floor4_scale0.1_past0_len40");
    const auto want = toDoubles(c.value("output").toObject().value("attn_scales").toArray());
    AttentionParams a;
    a.temperature_tuning = {4, 0.1};
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double got = temperatureScale(a, static_cast<std::int64_t>(i), Precision(precision));
        QVERIFY2(std::abs(got - want[i]) <= 2e-6 * std::abs(want[i]), qPrintable(QString("pos %1: %2 vs %3").arg(i).arg(got, 0, 'g', 17).arg(want[i], 0, 'g', 17)));
    }
    // Scout: 1 below pos 8191, then 1 + 0.1·ln 2 at 8191 (conventions.md).
    a.temperature_tuning = {8192, 0.1};
    QCOMPARE(temperatureScale(a, 8190, Precision::Double), 1.0);
    QVERIFY(std::abs(temperatureScale(a, 8191, Precision::Double) - 1.0693147) < 1e-6);
    QVERIFY(std::abs(temperatureScale(a, 16383, Precision::Double) - 1.1098612) < 1e-6);
}

// GPT-OSS eager_attention_forward, head 0 (sink logit 0): q, k the golden formula (already rotated:
// method nope), scale 1/√4, causal.
void TestAttention::sinksMatchGolden() {
    const auto c = goldenCase("modern_gpt_oss.json", "sinks_causal_sinks0_2");
    const auto out = c.value("output").toObject();
    const auto weights = out.value("attn_weights").toArray().at(0).toArray();
    const auto rowSums = toDoubles(out.value("row_sums").toArray().at(0).toArray());
    ScoreParams p;
    p.method = Method::NoPE;
    p.dim = 4;
    p.content = Content::Formula;
    p.causal = true;
    p.softmax = true;
    p.attention.sink = {0.0, 2.0};
    p.head = 0;
    const Positions pos = arangePositions(0, 6);
    std::vector<double> mass;
    auto s = scores(p, pos, pos, 6, &mass);
    QVERIFY(s.ok());
    QCOMPARE(mass.size(), std::size_t(6));
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            const double want = weights.at(i).toArray().at(j).toDouble();
            QVERIFY2(std::abs(s.value()(i, j) - want) <= 2e-6 * std::max(1e-3, std::abs(want)),
                     qPrintable(QString("(%1,%2): %3 vs %4").arg(i).arg(j).arg(s.value()(i, j), 0, 'g', 17).arg(want, 0, 'g', 17)));
        }
        QVERIFY(std::abs(s.value().row(i).sum() - rowSums[std::size_t(i)]) < 2e-6);
        QVERIFY(std::abs(1.0 - mass[std::size_t(i)] - rowSums[std::size_t(i)]) < 2e-6);
    }
}

void TestAttention::sinkRowsSumToOneMinusSinkMass() {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 8;
    p.content = Content::Random;
    p.softmax = true;
    p.causal = true;
    p.attention.window = 4;
    p.attention.sink = {1.5};
    const Positions pos = arangePositions(0, 12);
    std::vector<double> mass;
    auto s = scores(p, pos, pos, 12, &mass);
    QVERIFY(s.ok());
    for (int i = 0; i < 12; ++i) {
        QVERIFY(mass[std::size_t(i)] > 0 && mass[std::size_t(i)] < 1);
        QVERIFY(std::abs(s.value().row(i).sum() + mass[std::size_t(i)] - 1.0) < 1e-12);
    }
    // Without a sink the rows sum to 1.
    p.attention.sink.clear();
    auto t = scores(p, pos, pos, 12);
    for (int i = 0; i < 12; ++i) QVERIFY(std::abs(t.value().row(i).sum() - 1.0) < 1e-12);
}

void TestAttention::softmaxScaleReplacesInverseSqrtDim() {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 16;
    p.content = Content::Random;
    const Positions pos = arangePositions(0, 5);
    const Matrix base = scores(p, pos, pos, 5).value();
    p.attention.softmax_scale = 0.0625;   // Gemma 3 4B: 256^−½ with head_dim 16 here
    const Matrix scaled = scores(p, pos, pos, 5).value();
    QVERIFY((scaled - base * (0.0625 / 0.25)).cwiseAbs().maxCoeff() < 1e-12);
}

void TestAttention::qkNormNormalisesRows_data() {
    QTest::addColumn<int>("norm");
    QTest::newRow("before") << int(QkNorm::Before);
    QTest::newRow("after") << int(QkNorm::After);
}

// With eps 0 the normalised rows have mean square 1, so s·q·k with ones content and NoPE is
// s·dim; before/after a rotation the row norm is the same (rotations keep it).
void TestAttention::qkNormNormalisesRows() {
    QFETCH(int, norm);
    ScoreParams p;
    p.method = Method::NoPE;
    p.dim = 8;
    p.content = Content::Ones;
    p.precision = Precision::Double;
    p.attention.qk_norm = QkNorm(norm);
    p.attention.norm_eps = 0;
    const Positions pos = arangePositions(0, 3);
    // Content 3·ones would give 9·8/√8 without the norm; normalised: 8/√8 = √8.
    Matrix s = scores(p, pos, pos, 3).value();
    QVERIFY(std::abs(s(1, 0) - std::sqrt(8.0)) < 1e-12);
    p.content = Content::Random;
    p.method = Method::Rope;
    s = scores(p, pos, pos, 3).value();
    // Cauchy–Schwarz on unit-RMS rows: |s·q·k| <= s·dim.
    QVERIFY(s.cwiseAbs().maxCoeff() <= std::sqrt(8.0) + 1e-9);
    p.attention.qk_norm = QkNorm::None;
    const Matrix raw = scores(p, pos, pos, 3).value();
    QVERIFY((raw - s).cwiseAbs().maxCoeff() > 1e-3);   // the norm changes the scores
}

void TestAttention::nopeLayerIgnoresPositions() {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 8;
    p.content = Content::Ones;
    p.attention.nope = true;
    const Positions pos = arangePositions(0, 6);
    const Matrix s = scores(p, pos, pos, 6).value();
    QVERIFY((s.array() - s(0, 0)).abs().maxCoeff() < 1e-12);
    p.attention.nope = false;
    const Matrix r = scores(p, pos, pos, 6).value();
    QVERIFY((r.array() - r(0, 0)).abs().maxCoeff() > 0.1);
}

void TestAttention::decayStopsWhereTheLayerStopsSeeing() {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 16;
    p.causal = true;
    p.attention.window = 128;
    auto c = decayCurve(p, 1000);
    QVERIFY(c.ok());
    QCOMPARE(c.value().distance.back(), std::int64_t(127));
    QVERIFY(c.value().visibleTo.has_value());
    QCOMPARE(*c.value().visibleTo, std::int64_t(127));
    // The values it keeps are the full-attention curve's.
    ScoreParams full = p;
    full.attention.window.reset();
    auto f = decayCurve(full, 127);
    QVERIFY((c.value().value - f.value().value).cwiseAbs().maxCoeff() == 0.0);
    QVERIFY(!f.value().visibleTo);
    // Temperature tuning scales distance d by τ(d).
    ScoreParams t = full;
    t.attention.temperature_tuning = {4, 0.1};
    auto tc = decayCurve(t, 40);
    auto fc = decayCurve(full, 40);
    for (int d = 0; d <= 40; ++d)
        QVERIFY(std::abs(tc.value().value[d] - fc.value().value[d] * temperatureScale(t.attention, d, t.precision)) < 1e-12);
}

// --summary covers the visible cells only (brute force over the matrix).
void TestAttention::summaryCoversVisibleCellsOnly() {
    for (bool softmax : {false, true}) {
        ScoreParams p;
        p.method = Method::Rope;
        p.dim = 8;
        p.content = Content::Random;
        p.causal = true;
        p.softmax = softmax;
        p.attention.chunk = 5;
        p.attention.sink = {0.5};
        const std::int64_t n = 23;
        const Positions pos = arangePositions(0, n);
        const Matrix m = scores(p, pos, pos, n).value();
        double sum = 0, mn = 1e300, mx = -1e300;
        for (std::int64_t i = 0; i < n; ++i)
            for (std::int64_t j = 0; j < n; ++j)
                if (visible(p.attention, true, i, j, n)) {
                    sum += m(i, j);
                    mn = std::min(mn, m(i, j));
                    mx = std::max(mx, m(i, j));
                }
        auto s = scoresSummary(p, n);
        QVERIFY(s.ok());
        QVERIFY2(std::abs(s.value().sum - sum) < 1e-9 * std::max(1.0, std::abs(sum)), qPrintable(QString::number(s.value().sum - sum)));
        QVERIFY(std::abs(s.value().min - mn) < 1e-12);
        QVERIFY(std::abs(s.value().max - mx) < 1e-12);
    }
}

// A 131 072-position sequence with a 1024 window: the softmax of sampled rows computes only the
// keys they see, and the normaliser is exact: a row asked with all of its visible keys sums to 1.
void TestAttention::maskedKeysAreNeverComputed() {
    ScoreParams p;
    p.method = Method::Rope;
    p.dim = 128;
    p.causal = true;
    p.softmax = true;
    p.attention.window = 1024;
    const std::int64_t n = 131072;
    Positions pos;
    for (int k = 0; k < 512; ++k) pos.push_back(static_cast<std::int64_t>(k) * (n - 1) / 511);
    QElapsedTimer t;
    t.start();
    auto s = scores(p, pos, pos, n);
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message().c_str());
    qInfo("512 x 512 sampled softmax, N = 131072, window 1024: %lld ms", static_cast<long long>(t.elapsed()));
    auto row = scores(p, Positions{n - 1}, arangePositions(n - 1024, n), n);
    QVERIFY(row.ok());
    QVERIFY(std::abs(row.value().sum() - 1.0) < 1e-12);
    auto partial = scores(p, Positions{n - 1}, arangePositions(n - 512, n), n);
    QVERIFY(partial.value().sum() < 1.0 - 1e-9);   // half of its keys: less than the whole row
}

void TestAttention::validation_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("window_0") << "window0" << "window";
    QTest::newRow("chunk_0") << "chunk0" << "chunk";
    QTest::newRow("window_and_chunk") << "both" << "chunk";
    QTest::newRow("temperature_one_number") << "tt1" << "temperature_tuning";
    QTest::newRow("temperature_floor_below_1") << "tt0" << "temperature_tuning";
    QTest::newRow("softmax_scale_0") << "scale0" << "softmax_scale";
    QTest::newRow("sink_head_past_end") << "sinkhead" << "head";
}

void TestAttention::validation() {
    QFETCH(QString, field);
    QFETCH(QString, expected);
    ScoreParams p;
    AttentionParams& a = p.attention;
    if (field == "window0") a.window = 0;
    if (field == "chunk0") a.chunk = 0;
    if (field == "both") a.window = 4, a.chunk = 4;
    if (field == "tt1") a.temperature_tuning = {4};
    if (field == "tt0") a.temperature_tuning = {0.5, 0.1};
    if (field == "scale0") a.softmax_scale = 0;
    if (field == "sinkhead") a.sink = {0, 1}, p.head = 2;
    const auto e = p.validate();
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->parameter), expected);
}

void TestAttention::layerPatternGivesEachLayer() {
    LayerPattern m;
    m.layer_types = "sliding,sliding,full,chunked";
    m.rope_layers = {1, 1, 0, 1};
    m.window = 512;
    m.chunk = 8192;
    m.temperature_tuning = {8192, 0.1};
    m.qk_norm = QkNorm::After;
    m.qk_norm_rope_only = true;
    m.rope_full.base = 1e6;
    m.rope_sliding.base = 1e4;
    m.rope_chunked.base = 5e5;
    QVERIFY(!m.validate());
    QCOMPARE(layerCount(m), std::int64_t(4));
    const LayerParams l0 = layerParams(m, 0), l2 = layerParams(m, 2), l3 = layerParams(m, 3);
    QCOMPARE(l0.type, LayerType::Sliding);
    QCOMPARE(*l0.attention.window, std::int64_t(512));
    QCOMPARE(l0.ropeParams.base, 1e4);
    QVERIFY(l0.attention.temperature_tuning.empty());
    QCOMPARE(l0.attention.qk_norm, QkNorm::After);
    QCOMPARE(l2.type, LayerType::Full);
    QVERIFY(!l2.rope && l2.attention.nope);
    QCOMPARE(l2.attention.temperature_tuning.size(), std::size_t(2));
    QCOMPARE(l2.attention.qk_norm, QkNorm::None);   // Llama 4: no q/k norm on NoPE layers
    QVERIFY(!l2.attention.window && !l2.attention.chunk);
    QCOMPARE(l3.ropeParams.base, 5e5);
    QCOMPARE(*l3.attention.chunk, std::int64_t(8192));
    QCOMPARE(*firstLayerOfType(m, LayerType::Full), std::int64_t(2));
    ScoreParams p;
    p.dim = 32;
    p.model = m;
    p.applyLayer(3);
    QCOMPARE(p.model.layer, std::int64_t(3));
    QCOMPARE(p.rope.base, 5e5);
    QCOMPARE(p.rope.head_dim, 32);
    QCOMPARE(p.attention.type(), LayerType::Chunked);
    QVERIFY(!p.validate());
}

void TestAttention::layerPatternValidation_data() {
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown_type") << "type" << "layer_types";
    QTest::newRow("rope_layers_wrong_length") << "ropelen" << "rope_layers";
    QTest::newRow("layer_past_end") << "layer" << "layer";
    QTest::newRow("sliding_without_window") << "nowindow" << "window";
    QTest::newRow("chunked_without_chunk") << "nochunk" << "chunk";
}

void TestAttention::layerPatternValidation() {
    QFETCH(QString, what);
    QFETCH(QString, expected);
    LayerPattern m;
    m.layer_types = "sliding,full,chunked";
    m.rope_layers = {1, 1, 1};
    m.window = 8;
    m.chunk = 16;
    QVERIFY(!m.validate());
    if (what == "type") m.layer_types = "sliding,full,linear";
    if (what == "ropelen") m.rope_layers = {1, 1};
    if (what == "layer") m.layer = 3;
    if (what == "nowindow") m.window.reset();
    if (what == "nochunk") m.chunk.reset();
    const auto e = m.validate();
    QVERIFY(e.has_value());
    QCOMPARE(QString::fromStdString(e->parameter), expected);
}


namespace {
QJsonObject familyCase(const QString& name) {
    const QJsonObject f = loadJson(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/family/softcap_query_scaling.json"));
    for (const auto& c : f.value("cases").toArray())
        if (c.toObject().value("name").toString() == name) return c.toObject();
    return {};
}

ScoreParams familyParams(const QJsonObject& p) {
    ScoreParams s;
    s.method = Method::Rope;
    s.precision = Precision::Double;
    s.content = Content::Formula;
    s.dim = p.value("dim").toInt();
    s.rope.head_dim = s.dim;
    s.rope.base = p.value("base").toDouble();
    s.causal = p.value("causal").toBool();
    if (!p.value("softmax_scale").isNull()) s.attention.softmax_scale = p.value("softmax_scale").toDouble();
    if (!p.value("softcap").isNull()) s.attention.softcap = p.value("softcap").toDouble();
    if (p.value("query_scaling").isArray()) s.attention.query_scaling = toDoubles(p.value("query_scaling").toArray());
    return s;
}
}  // namespace

void TestAttention::softcapAndQueryScalingMatchReference_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"softcap_only", "softcap_gemma2_scale", "query_scaling_only", "query_scaling_bidirectional",
                          "softcap_and_query_scaling"})
        QTest::newRow(n) << QString::fromLatin1(n);
}

// Scores (before softmax, masked cells excluded), softmax weights, the decay curve and the per-pair
// contributions with their capped total, each to 1e-12 of the reference.
void TestAttention::softcapAndQueryScalingMatchReference() {
    QFETCH(QString, name);
    const QJsonObject c = familyCase(name);
    QVERIFY2(!c.isEmpty(), qPrintable(name));
    const QJsonObject out = c.value("output").toObject();
    ScoreParams p = familyParams(c.value("params").toObject());
    QVERIFY(!p.validate());
    const std::int64_t n = c.value("params").toObject().value("length").toInt();
    const Positions all = arangePositions(0, n);
    auto s = scores(p, all, all, n);
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message().c_str());
    const QJsonArray want = out.value("scores").toArray();
    for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            const QJsonValue w = want.at(int(i)).toArray().at(int(j));
            if (w.isNull()) continue;
            QVERIFY2(std::abs(s.value()(i, j) - w.toDouble()) < 1e-12,
                     qPrintable(QStringLiteral("score (%1, %2): %3, want %4").arg(i).arg(j).arg(s.value()(i, j), 0, 'g', 17).arg(w.toDouble(), 0, 'g', 17)));
        }
    p.softmax = true;
    auto w = scores(p, all, all, n);
    QVERIFY(w.ok());
    QVERIFY2(maxAbsDiff(w.value(), toMatrix(out.value("softmax"))) < 1e-12, qPrintable(name));
    p.softmax = false;
    auto d = decayCurve(p, n - 1);
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message().c_str());
    const Vector wd = toVector(out.value("decay").toArray());
    for (Eigen::Index t = 0; t < wd.size(); ++t)
        QVERIFY2(std::abs(d.value().value[t] - wd[t]) < 1e-12,
                 qPrintable(QStringLiteral("decay(%1): %2, want %3").arg(t).arg(d.value().value[t], 0, 'g', 17).arg(wd[t], 0, 'g', 17)));
    std::vector<std::int64_t> dist(all.begin(), all.end());
    auto ct = pairContributions(p, dist);
    QVERIFY2(ct.ok(), ct.ok() ? "" : ct.error().message().c_str());
    // Reference: distances × pairs; PosLab: pairs × distances.
    QVERIFY2(maxAbsDiff(ct.value().value, toMatrix(out.value("contributions")).transpose()) < 1e-12, qPrintable(name));
    const bool capped = !c.value("params").toObject().value("softcap").isNull();
    QCOMPARE(ct.value().capped.has_value(), capped);
    if (capped) QVERIFY(maxRelDiff(*ct.value().capped, toVector(out.value("capped_total").toArray())) < 1e-12);
}

// A layer pattern's soft-cap and query scaling reach every layer, with the validate() ranges.
void TestAttention::softcapAndQueryScalingOfALayer() {
    LayerPattern m;
    m.layer_types = "sliding,full";
    m.rope_layers = {1, 1};
    m.window = 4;
    m.softcap = 50.0;
    m.query_scaling = {16384, 0.1};
    QVERIFY(!m.validate());
    for (std::int64_t l : {0, 1}) {
        const LayerParams lp = layerParams(m, l);
        QCOMPARE(lp.attention.softcap, std::optional<double>(50.0));
        QCOMPARE(lp.attention.query_scaling, (std::vector<double>{16384, 0.1}));
    }
    // Ministral 3: 1 + 0.1·ln(1 + ⌊p/16384⌋).
    const AttentionParams a = layerParams(m, 0).attention;
    QCOMPARE(queryScale(a, 16383, Precision::Double), 1.0);
    QCOMPARE(queryScale(a, 16384, Precision::Double), 1.0 + 0.1 * std::log(2.0));
    QCOMPARE(queryScale(a, 131072, Precision::Double), 1.0 + 0.1 * std::log(9.0));
    AttentionParams bad;
    bad.query_scaling = {0.5, 0.1};
    QVERIFY(bad.validate());
    QCOMPARE(QString::fromStdString(bad.validate()->parameter), QStringLiteral("query_scaling"));
    bad.query_scaling = {1.0};
    QVERIFY(bad.validate());
    bad.query_scaling.clear();
    bad.softcap = 0.0;
    QCOMPARE(QString::fromStdString(bad.validate()->parameter), QStringLiteral("softcap"));
}

QTEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
