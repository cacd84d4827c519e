// Model presets (ui/io/presets.h, the files in resources/presets read by the config reader):
// every preset gives exactly what the C++ presets of 0.4 gave (tests/data/presets_0.4.json),
// validates and carries the numbers of its public configuration (typed in here from the
// configs, not read back from the code), and the RoPE presets give the reference frequencies
// (Llama 3.1 against the transformers golden case).
#include "support/testsupport.h"

#include "ui/io/presets.h"

#include "core/demonstrations.h"
#include "core/json.h"

#include <QFile>

using namespace poslab;
using namespace poslab::ui;

namespace {
// The presets as tests/data/presets_0.4.json holds them: every parameter of the score table and,
// for RoPE, the frequencies and attention factor (what tests/data/presets_0.4.json was dumped
// with from the C++ presets of 0.4, core/presets.cpp, before they became files).
std::string presetSnapshot() {
    JsonWriter j(JsonWriter::Style::Pretty);
    j.beginObject().key("presets").beginArray();
    for (const auto& m : modelPresets()) {
        j.beginObject();
        j.key("key").string(m.key).key("name").string(m.name).key("source").string(m.source).key("note").string(m.note);
        j.key("heads").integer(m.heads);
        j.key("params").beginObject();
        for (const auto& e : scoreParamTable()) j.key(e.path()).value(e.get(m.params));
        j.endObject();
        if (m.params.method == Method::Rope) {
            const auto f = ropeFrequencies(m.params.ropeParams());
            j.key("inv_freq").vector(f.inv_freq).key("attention_factor").number(f.attention_factor).key("rotary_dim").integer(f.rotary_dim);
        }
        j.endObject();
    }
    j.endArray().endObject();
    return j.text();
}
}  // namespace

class TestPresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPresetValidates_data();
    void everyPresetValidates();
    void publicNumbers_data();
    void publicNumbers();
    void ropeDetails();
    void phi3LongRopeLists();
    void llama31MatchesGolden();
    void keysUniqueAndFound();
    void sameAsTheCodedPresets();
    void llama3DemonstrationIsThePreset();
};

void TestPresets::everyPresetValidates_data() {
    QTest::addColumn<QString>("key");
    for (const auto& p : modelPresets()) QTest::newRow(p.key.c_str()) << QString::fromStdString(p.key);
}

void TestPresets::everyPresetValidates() {
    QFETCH(QString, key);
    const ModelPreset* p = findPreset(key.toStdString());
    QVERIFY(p);
    const Check c = p->params.validate();
    QVERIFY2(!c, c ? c->message().c_str() : "");
    QVERIFY(!p->name.empty() && !p->source.empty() && !p->note.empty());
    QVERIFY(p->heads >= 1);
    // A small summary works for every preset (the view's first use).
    auto s = scoresSummary(p->params, 8);
    QVERIFY2(s.ok(), s.ok() ? "" : s.error().message().c_str());
}

void TestPresets::publicNumbers_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("dim");
    QTest::addColumn<int>("heads");
    QTest::addColumn<double>("number");   // the preset's characteristic number (see the row name)
    QTest::newRow("transformer-base_dmodel512_h8") << "transformer-base" << "sinusoidal" << 512 << 8 << 10000.0;
    QTest::newRow("bert-base_table512_d768_h12") << "bert-base" << "learned" << 768 << 12 << 512.0;
    QTest::newRow("gpt2_table1024_d768_h12") << "gpt2" << "learned" << 768 << 12 << 1024.0;
    QTest::newRow("t5-base_buckets32_maxdist128_h12_dkv64") << "t5-base" << "t5" << 64 << 12 << 128.0;
    QTest::newRow("transformer-xl-wt103_dhead64_h16_clamp1000") << "transformer-xl-wt103" << "transformer-xl" << 64 << 16 << 1000.0;
    QTest::newRow("bloom_h112_headdim128") << "bloom" << "alibi" << 128 << 112 << 8.0;
    QTest::newRow("mpt-7b_h32_biasmax8") << "mpt-7b" << "alibi" << 128 << 32 << 8.0;
    QTest::newRow("gpt-j-6b_headdim256_base1e4") << "gpt-j-6b" << "rope" << 256 << 16 << 10000.0;
    QTest::newRow("gpt-neox-20b_headdim96_base1e4") << "gpt-neox-20b" << "rope" << 96 << 64 << 10000.0;
    QTest::newRow("llama-2-7b_headdim128_base1e4") << "llama-2-7b" << "rope" << 128 << 32 << 10000.0;
    QTest::newRow("llama-3.1-8b_headdim128_base5e5") << "llama-3.1-8b" << "rope" << 128 << 32 << 500000.0;
    QTest::newRow("mistral-7b_headdim128_base1e4") << "mistral-7b" << "rope" << 128 << 32 << 10000.0;
    QTest::newRow("qwen2-7b_headdim128_base1e6") << "qwen2-7b" << "rope" << 128 << 28 << 1e6;
    QTest::newRow("phi-3-mini-128k_headdim96_base1e4") << "phi-3-mini-128k" << "rope" << 96 << 32 << 10000.0;
    // MLA: the head is qk_nope_head_dim + qk_rope_head_dim = 192 wide, RoPE on the 64 of q_pe.
    QTest::newRow("deepseek-v3_headdim192_base1e4") << "deepseek-v3" << "rope" << 192 << 128 << 10000.0;
}

void TestPresets::publicNumbers() {
    QFETCH(QString, key);
    QFETCH(QString, method);
    QFETCH(int, dim);
    QFETCH(int, heads);
    QFETCH(double, number);
    const ModelPreset* p = findPreset(key.toStdString());
    QVERIFY(p);
    QCOMPARE(QString::fromUtf8(methodKey(p->params.method).data()), method);
    QCOMPARE(p->params.dim, dim);
    QCOMPARE(p->heads, heads);
    switch (p->params.method) {
    case Method::Sinusoidal: QCOMPARE(p->params.sinusoidal.base, number); break;
    case Method::Learned: QCOMPARE(double(p->params.learned.table_size), number); break;
    case Method::T5:
        QCOMPARE(double(p->params.t5.max_distance), number);
        QCOMPARE(p->params.t5.num_buckets, 32);
        QCOMPARE(p->params.t5.heads, heads);
        break;
    case Method::TransformerXL: QCOMPARE(double(p->params.transformer_xl.clamp_len), number); break;
    case Method::Alibi:
        QCOMPARE(p->params.alibi.bias_max, number);
        QCOMPARE(p->params.alibi.heads, heads);
        break;
    case Method::Rope: QCOMPARE(p->params.rope.base, number); break;
    default: QFAIL("unexpected method");
    }
}

void TestPresets::ropeDetails() {
    const auto* gptj = findPreset("gpt-j-6b");
    QCOMPARE(gptj->params.rope.rotary_dim, 64);
    QCOMPARE(gptj->params.rope.layout, RopeLayout::Interleaved);
    QCOMPARE(gptj->params.rope.max_positions, std::int64_t(2048));
    const auto* neox = findPreset("gpt-neox-20b");
    QCOMPARE(neox->params.rope.partial_rotary_factor, 0.25);
    QCOMPARE(neox->params.ropeParams().rotaryDim(), 24);
    QCOMPARE(neox->params.rope.layout, RopeLayout::Half);
    QCOMPARE(findPreset("llama-2-7b")->params.rope.max_positions, std::int64_t(4096));
    QCOMPARE(findPreset("mistral-7b")->params.rope.max_positions, std::int64_t(32768));
    QCOMPARE(findPreset("qwen2-7b")->params.rope.max_positions, std::int64_t(32768));
    const auto& l3 = findPreset("llama-3.1-8b")->params.rope;
    QCOMPARE(l3.scaling, RopeScaling::Llama3);
    QCOMPARE(*l3.factor, 8.0);
    QCOMPARE(l3.low_freq_factor, 1.0);
    QCOMPARE(l3.high_freq_factor, 4.0);
    QCOMPARE(*l3.original_max_positions, std::int64_t(8192));
    QCOMPARE(l3.max_positions, std::int64_t(131072));
    const auto& ds = findPreset("deepseek-v3")->params.rope;
    QCOMPARE(ds.scaling, RopeScaling::Yarn);
    QCOMPARE(*ds.factor, 40.0);
    QCOMPARE(*ds.original_max_positions, std::int64_t(4096));
    QCOMPARE(ds.max_positions, std::int64_t(163840));
    QCOMPARE(ds.beta_fast, 32.0);
    QCOMPARE(ds.beta_slow, 1.0);
    QCOMPARE(*ds.mscale, 1.0);
    QCOMPARE(*ds.mscale_all_dim, 1.0);
    QCOMPARE(ds.rotaryDim(), 64);
    // mscale = mscale_all_dim: the YaRN attention factor is exactly 1 (conventions.md).
    QCOMPARE(ropeFrequencies(findPreset("deepseek-v3")->params.ropeParams()).attention_factor, 1.0);
}

void TestPresets::phi3LongRopeLists() {
    const auto& r = findPreset("phi-3-mini-128k")->params.rope;
    QCOMPARE(r.scaling, RopeScaling::LongRope);
    QCOMPARE(*r.original_max_positions, std::int64_t(4096));
    QCOMPARE(r.max_positions, std::int64_t(131072));
    QCOMPARE(r.long_factor.size(), std::size_t(48));
    QCOMPARE(r.short_factor.size(), std::size_t(48));
    // First and last entries of the config's lists.
    QCOMPARE(r.long_factor.front(), 1.0700000524520874);
    QCOMPARE(r.long_factor.back(), 64.76000213623047);
    QCOMPARE(r.short_factor.front(), 1.1);
    QCOMPARE(r.short_factor.back(), 3.049999999999997);
    for (std::size_t i = 1; i < 48; ++i) QVERIFY(r.long_factor[i] >= r.long_factor[i - 1]);   // searched factors grow
    // Default factor 131072/4096 = 32: attention factor sqrt(1 + ln 32 / ln 4096) (Phi-3's 1.1902…).
    const double af = ropeFrequencies(findPreset("phi-3-mini-128k")->params.ropeParams()).attention_factor;
    QVERIFY(std::abs(af - std::sqrt(1 + std::log(32.0) / std::log(4096.0))) <= 1e-12);
}

void TestPresets::llama31MatchesGolden() {
    const auto c = testsupport::goldenCase("rope_init_transformers_main.json", "llama3_1_real_d128_theta5e5_f8");
    const Vector want = testsupport::toVector(c["output"].toObject()["inv_freq"].toArray());
    const RopeFrequencies f = ropeFrequencies(findPreset("llama-3.1-8b")->params.ropeParams());
    QVERIFY(testsupport::maxRelDiff(f.inv_freq, want) <= 2e-6);
}

void TestPresets::keysUniqueAndFound() {
    QStringList keys;
    for (const auto& p : modelPresets()) keys << QString::fromStdString(p.key);
    QCOMPARE(keys.size(), 15);
    QCOMPARE(keys.removeDuplicates(), 0);
    QVERIFY(findPreset("no-such-model") == nullptr);
}

// Every preset, read from its file, gives the parameters (every entry of the score table), the
// frequencies and the attention factor the presets coded in C++ gave, to the last bit (the
// numbers are written in their shortest round-trip form).
void TestPresets::sameAsTheCodedPresets() {
    QFile f(QStringLiteral(POSLAB_SOURCE_DIR "/tests/data/presets_0.4.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonArray want = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("presets")).toArray();
    const QJsonArray got = QJsonDocument::fromJson(QByteArray::fromStdString(presetSnapshot())).object().value(QLatin1String("presets")).toArray();
    QCOMPARE(got.size(), want.size());
    for (qsizetype i = 0; i < want.size(); ++i) {
        QJsonObject w = want[i].toObject();
        const QJsonObject g = got[i].toObject();
        const QString key = w.value(QLatin1String("key")).toString();
        // One deliberate change since the snapshot (issue 28): DeepSeek-V3's head is its
        // qk_nope_head_dim + qk_rope_head_dim = 192 channels with RoPE on the 64 of q_pe (it was
        // the 64 rotated ones alone); the frequencies and the attention factor are the same.
        if (key == QLatin1String("deepseek-v3")) {
            QJsonObject params = w.value(QLatin1String("params")).toObject();
            params[QStringLiteral("dim")] = 192;
            params[QStringLiteral("rope.head_dim")] = 192;
            params[QStringLiteral("rope.rotary_dim")] = 64;
            w[QLatin1String("params")] = params;
        }
        const auto same = [&](const QJsonObject& a, const QJsonObject& b, const QString& in) {
            for (const QString& k : b.keys())
                QVERIFY2(a.value(k) == b.value(k),
                         qPrintable(key + QStringLiteral(": ") + in + k + QStringLiteral(" is ") +
                                    QString::fromUtf8(QJsonDocument(QJsonArray{a.value(k)}).toJson(QJsonDocument::Compact)) +
                                    QStringLiteral(", was ") + QString::fromUtf8(QJsonDocument(QJsonArray{b.value(k)}).toJson(QJsonDocument::Compact))));
            QCOMPARE(a.keys(), b.keys());
        };
        same(g.value(QLatin1String("params")).toObject(), w.value(QLatin1String("params")).toObject(), QStringLiteral("params."));
        if (QTest::currentTestFailed()) return;
        same(g, w, QString());
        if (QTest::currentTestFailed()) return;
    }
}

// The Llama 3 bands demonstration (core, which reads no files) shows the llama-3.1-8b preset.
void TestPresets::llama3DemonstrationIsThePreset() {
    QVERIFY(demoParams(DemoId::Llama3Bands) == findPreset("llama-3.1-8b")->params);
}

QTEST_GUILESS_MAIN(TestPresets)
#include "test_presets.moc"
