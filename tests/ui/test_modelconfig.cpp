// Model configuration files (ui/io/modelconfig.h): config.json in the v4 and v5 forms gives
// exactly the parameters transformers main computes with (every rope type, the factor/original
// interplay, where original_max_position_embeddings comes from, DeepSeek's rope head dim);
// BLOOM/MPT/T5/GPT-2/BERT select their methods; every bad value is one message naming the key.
#include "support/markertranslator.h"
#include "support/testsupport.h"

#include "core/demonstrations.h"
#include "ui/io/families.h"
#include "ui/io/modelconfig.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>

using namespace poslab;
using namespace poslab::ui;
using namespace testsupport;

Q_DECLARE_METATYPE(poslab::RopeParams)

namespace {

QByteArray js(const QJsonObject& o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

// The golden case's v5 config rewritten in the v4 form: rope_theta and partial_rotary_factor at
// the top level, the rest in rope_scaling under `type` (typeKey) unless default.
QJsonObject toV4(QJsonObject cfg, const QString& typeKey) {
    QJsonObject block = cfg.take("rope_parameters").toObject();
    cfg["rope_theta"] = block.take("rope_theta");
    if (block.contains("partial_rotary_factor")) cfg["partial_rotary_factor"] = block.take("partial_rotary_factor");
    const QString type = block.take("rope_type").toString();
    if (type != "default") {
        block[typeKey] = type;
        cfg["rope_scaling"] = block;
    }
    return cfg;
}

RopeParams rope(int headDim, double base, std::int64_t maxPos) {
    RopeParams r;
    r.head_dim = headDim;
    r.base = base;
    r.max_positions = maxPos;
    return r;
}

// A small GGUF writer (little-endian), independent of the reader.
class Gguf {
public:
    explicit Gguf(std::uint32_t version = 3, std::uint64_t tensors = 0) {
        raw("GGUF", 4);
        put<std::uint32_t>(version);
        put<std::uint64_t>(tensors);
        countAt_ = bytes_.size();
        put<std::uint64_t>(0);
    }
    template <class T>
    void put(T v) { raw(reinterpret_cast<const char*>(&v), sizeof v); }
    void raw(const char* p, std::size_t n) { bytes_.append(p, static_cast<qsizetype>(n)); }
    void str(const std::string& s) { put<std::uint64_t>(s.size()); raw(s.data(), s.size()); }
    void key(const std::string& k, std::uint32_t type) { str(k); put<std::uint32_t>(type); bump(); }
    Gguf& u32(const std::string& k, std::uint32_t v) { key(k, 4); put(v); return *this; }
    Gguf& u64(const std::string& k, std::uint64_t v) { key(k, 10); put(v); return *this; }
    Gguf& f32(const std::string& k, float v) { key(k, 6); put(v); return *this; }
    Gguf& f64(const std::string& k, double v) { key(k, 12); put(v); return *this; }
    Gguf& text(const std::string& k, const std::string& v) { key(k, 8); str(v); return *this; }
    Gguf& boolean(const std::string& k, std::uint8_t v) { key(k, 7); put(v); return *this; }
    Gguf& strings(const std::string& k, const std::vector<std::string>& v) {
        key(k, 9); put<std::uint32_t>(8); put<std::uint64_t>(v.size());
        for (const auto& x : v) str(x);
        return *this;
    }
    Gguf& floats(const std::string& k, const std::vector<float>& v) {
        key(k, 9); put<std::uint32_t>(6); put<std::uint64_t>(v.size());
        for (float x : v) put(x);
        return *this;
    }
    QByteArray bytes() const { return bytes_; }
    QByteArray& data() { return bytes_; }

private:
    void bump() {
        std::uint64_t n;
        std::memcpy(&n, bytes_.constData() + countAt_, 8);
        ++n;
        std::memcpy(bytes_.data() + countAt_, &n, 8);
    }
    QByteArray bytes_;
    std::size_t countAt_ = 0;
};

Gguf llamaGguf(std::uint32_t version = 3) {
    Gguf g(version, 291);
    g.text("general.architecture", "llama")
        .text("general.name", "Llama 3.1 8B")
        .u32("llama.context_length", 131072)
        .u32("llama.embedding_length", 4096)
        .u32("llama.attention.head_count", 32)
        .u32("llama.attention.head_count_kv", 8)
        .f32("llama.rope.freq_base", 500000.0f)
        .u32("llama.rope.dimension_count", 128)
        .strings("tokenizer.ggml.tokens", {"<s>", "</s>", "hello", ""})
        .floats("tokenizer.ggml.scores", {0.f, -1.f, -2.f, -3.f})
        .u64("general.file_type", 15);
    return g;
}

// A Llama 3.1 GGUF's header with tensor infos: token_embd.weight ([4096, embdRows] F32 at offset 0)
// and rope_freqs.weight (`count` F32 values right after it), padded to the data section's start
// (alignment 32).
QByteArray llamaRopeFreqsHeader(std::uint64_t count, std::uint64_t embdRows, std::uint32_t type = 0) {
    Gguf g(3, 2);
    g.text("general.architecture", "llama")
        .u32("llama.context_length", 131072)
        .u32("llama.embedding_length", 4096)
        .u32("llama.attention.head_count", 32)
        .f32("llama.rope.freq_base", 500000.0f)
        .u32("llama.rope.dimension_count", 128);
    g.str("token_embd.weight");
    g.put<std::uint32_t>(2);
    g.put<std::uint64_t>(4096);
    g.put<std::uint64_t>(embdRows);
    g.put<std::uint32_t>(0);
    g.put<std::uint64_t>(0);
    g.str("rope_freqs.weight");
    g.put<std::uint32_t>(1);
    g.put<std::uint64_t>(count);
    g.put<std::uint32_t>(type);
    g.put<std::uint64_t>(4096 * 4 * embdRows);   // after token_embd (a multiple of 32)
    while (g.data().size() % 32) g.data().append('\0');
    return g.bytes();
}

// The whole file with a token_embd of one row; `cut` bytes are removed from the end.
QByteArray llamaWithRopeFreqs(const std::vector<float>& freqs, int cut = 0, std::uint32_t type = 0) {
    QByteArray b = llamaRopeFreqsHeader(freqs.size(), 1, type);
    b.append(QByteArray(4096 * 4, '\0'));
    b.append(reinterpret_cast<const char*>(freqs.data()), static_cast<qsizetype>(4 * freqs.size()));
    return b.left(b.size() - cut);
}

// transformers' _compute_llama3_parameters, written out: the divisor of each pair's frequency.
std::vector<float> llama3Divisors(double base, int rotary, double factor, double low, double high, double original) {
    std::vector<float> out;
    for (int i = 0; i < rotary / 2; ++i) {
        const double inv = 1.0 / std::pow(base, 2.0 * i / rotary);
        const double wavelen = 2 * M_PI / inv;
        double scaled;
        if (wavelen < original / high) scaled = inv;
        else if (wavelen > original / low) scaled = inv / factor;
        else {
            const double smooth = (original / wavelen - low) / (high - low);
            scaled = (1 - smooth) * inv / factor + smooth * inv;
        }
        out.push_back(static_cast<float>(inv / scaled));
    }
    return out;
}

ModelConfigResult ggufConfig(const QByteArray& b) { return parseGgufConfig(b.constData(), static_cast<std::size_t>(b.size())); }

}  // namespace

class TestModelConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // What is wrong with a config is said in words a translator reaches (context "ModelConfig").
    void errorsAreTranslated_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("words");
        QTest::addRow("array") << QByteArray("[]") << "not a config.json (the top level is not an object)";
        QTest::addRow("llama without heads") << QByteArray(R"({"model_type":"llama","hidden_size":64,"max_position_embeddings":128})")
                                             << "head_dim is missing, and so is hidden_size or num_attention_heads";
    }
    void errorsAreTranslated() {
        QFETCH(QByteArray, json);
        QFETCH(QString, words);
        const testsupport::MarkerTranslator marker("ModelConfig");
        const ModelConfigResult r = parseHfConfig(json);
        QVERIFY(!r.config);
        QVERIFY2(r.error.contains(marker.mark() + words), qPrintable(r.error));
    }

    void goldenBothForms_data();
    void goldenBothForms();
    void ropeMapping_data();
    void ropeMapping();
    void families_data();
    void families();
    void familyTable();
    void familyLookup_data();
    void familyLookup();
    void badValues_data();
    void badValues();
    void keysFromFile();
    void readsFiles();
    void ggufRope_data();
    void ggufRope();
    void ggufFamilies();
    void ggufCorrupt_data();
    void ggufCorrupt();
    void ggufEveryTruncation();
    void ggufRopeFreqs_data();
    void ggufRopeFreqs();
    void ggufLargeFileIsMappedNotRead();
    void demonstrationModelsAreTheShippedConfigs_data();
    void demonstrationModelsAreTheShippedConfigs();
};

void TestModelConfig::goldenBothForms_data() {
    QTest::addColumn<QJsonObject>("config");
    QTest::addColumn<QJsonObject>("output");
    for (const auto& v : golden("rope_init_transformers_main.json").value("cases").toArray()) {
        const QJsonObject c = v.toObject();
        const QJsonObject cfg = c["params"].toObject()["config"].toObject();
        const QByteArray name = c["name"].toString().toUtf8();
        QTest::newRow(name + "_v5") << cfg << c["output"].toObject();
        QTest::newRow(name + "_v4_type") << toV4(cfg, "type") << c["output"].toObject();
        QTest::newRow(name + "_v4_rope_type") << toV4(cfg, "rope_type") << c["output"].toObject();
    }
}

// inv_freq and attention_factor as ROPE_INIT_FUNCTIONS on main print them (relative 2e-6).
void TestModelConfig::goldenBothForms() {
    QFETCH(QJsonObject, config);
    QFETCH(QJsonObject, output);
    const ModelConfigResult r = parseHfConfig(js(config));
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.method, Method::Rope);
    const RopeFrequencies f = ropeFrequencies(r.config->params.ropeParams());
    const Vector want = toVector(output["inv_freq"].toArray());
    QCOMPARE(f.inv_freq.size(), want.size());
    QVERIFY2(maxRelDiff(f.inv_freq, want) <= 2e-6, qPrintable(QString::number(maxRelDiff(f.inv_freq, want))));
    const double af = output["attention_factor"].toDouble();
    QVERIFY(std::abs(f.attention_factor - af) <= 2e-6 * af);
}

void TestModelConfig::ropeMapping_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<RopeParams>("want");

    RopeParams r = rope(128, 500000, 131072);
    r.scaling = RopeScaling::Llama3;
    r.factor = 8;
    r.original_max_positions = 8192;
    QTest::newRow("llama3_v4_hidden_over_heads")
        << QByteArray(R"({"hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,"rope_theta":500000.0,
            "rope_scaling":{"rope_type":"llama3","factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,
            "original_max_position_embeddings":8192}})") << r;

    // YaRN with both factor and original: the factor is kept (the transformers bug dropped it).
    r = rope(64, 10000, 8192);
    r.scaling = RopeScaling::Yarn;
    r.factor = 16;
    r.original_max_positions = 2048;
    QTest::newRow("yarn_factor_and_original_v5")
        << QByteArray(R"({"head_dim":64,"hidden_size":999,"num_attention_heads":7,"max_position_embeddings":8192,
            "rope_parameters":{"rope_type":"yarn","rope_theta":10000,"factor":16,"original_max_position_embeddings":2048}})") << r;
    // YaRN without factor: unset (→ max/original = 4), original from the block.
    r.factor.reset();
    QTest::newRow("yarn_no_factor_v4")
        << QByteArray(R"({"head_dim":64,"max_position_embeddings":8192,
            "rope_scaling":{"type":"yarn","original_max_position_embeddings":2048}})") << r;
    // A top-level original_max_position_embeddings (Phi-3 style) wins over the block's.
    r.original_max_positions = 4096;
    QTest::newRow("yarn_top_level_original_wins")
        << QByteArray(R"({"head_dim":64,"max_position_embeddings":8192,"original_max_position_embeddings":4096,
            "rope_scaling":{"type":"yarn","original_max_position_embeddings":2048}})") << r;
    // Betas `or` 32/1: 0 and null are the defaults; truncate false; explicit attention factor.
    r = rope(64, 150000, 131072);
    r.scaling = RopeScaling::Yarn;
    r.factor = 32;
    r.original_max_positions = 4096;
    r.truncate = false;
    r.attention_factor = 1.5;
    QTest::newRow("yarn_gpt_oss_like_betas_falsy")
        << QByteArray(R"({"head_dim":64,"max_position_embeddings":131072,"rope_parameters":{"rope_type":"yarn","rope_theta":150000,
            "factor":32,"beta_fast":0,"beta_slow":null,"truncate":false,"attention_factor":1.5,"original_max_position_embeddings":4096}})") << r;
    r.attention_factor.reset();
    r.truncate = true;
    r.beta_fast = 16;
    r.beta_slow = 2;
    QTest::newRow("yarn_betas")
        << QByteArray(R"({"head_dim":64,"max_position_embeddings":131072,"rope_parameters":{"rope_type":"yarn","rope_theta":150000,
            "factor":32,"beta_fast":16,"beta_slow":2,"original_max_position_embeddings":4096}})") << r;

    // DeepSeek-V3: the head is qk_nope_head_dim + qk_rope_head_dim = 192 channels, RoPE on the
    // qk_rope_head_dim = 64 of them (frequencies over 64), interleaved, mscale pair; its
    // max_position_embeddings (163840) is the extended length, original 4096 in the block.
    r = rope(192, 10000, 163840);
    r.rotary_dim = 64;
    r.scaling = RopeScaling::Yarn;
    r.factor = 40;
    r.original_max_positions = 4096;
    r.mscale = 1.0;
    r.mscale_all_dim = 1.0;
    r.layout = RopeLayout::Interleaved;
    QTest::newRow("deepseek_v3")
        << QByteArray(R"({"model_type":"deepseek_v3","hidden_size":7168,"num_attention_heads":128,"qk_rope_head_dim":64,
            "qk_nope_head_dim":128,"head_dim":64,"rope_interleave":true,"max_position_embeddings":163840,"rope_theta":10000,
            "rope_scaling":{"type":"yarn","factor":40,"beta_fast":32,"beta_slow":1,"mscale":1.0,"mscale_all_dim":1.0,
            "original_max_position_embeddings":4096}})") << r;

    r = rope(16, 10000, 2048);
    r.scaling = RopeScaling::Linear;
    r.factor = 2;
    QTest::newRow("linear_v4_type_head_dim_null")
        << QByteArray(R"({"head_dim":null,"hidden_size":64,"num_attention_heads":4,"max_position_embeddings":2048,
            "rope_scaling":{"type":"linear","factor":2}})") << r;
    r.scaling = RopeScaling::Dynamic;
    QTest::newRow("dynamic_v5")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":2048,"rope_parameters":{"rope_type":"dynamic","rope_theta":10000,"factor":2}})") << r;

    // LongRoPE (Phi-3 style): factors, top-level original, factor unset.
    r = rope(8, 10000, 131072);
    r.scaling = RopeScaling::LongRope;
    r.original_max_positions = 4096;
    r.short_factor = {1, 1.5, 2, 3};
    r.long_factor = {2, 4, 8, 16};
    QTest::newRow("longrope_phi3_v4")
        << QByteArray(R"({"hidden_size":32,"num_attention_heads":4,"max_position_embeddings":131072,"original_max_position_embeddings":4096,
            "rope_scaling":{"type":"longrope","short_factor":[1,1.5,2,3],"long_factor":[2,4,8,16]}})") << r;
    r.factor = 20;
    r.attention_factor = 1.25;
    r.original_max_positions = 8192;
    QTest::newRow("longrope_v5_factor_in_params")
        << QByteArray(R"({"head_dim":8,"max_position_embeddings":131072,"rope_parameters":{"rope_type":"longrope","rope_theta":10000,
            "factor":20,"attention_factor":1.25,"original_max_position_embeddings":8192,"short_factor":[1,1.5,2,3],"long_factor":[2,4,8,16]}})") << r;

    // Partial rotary: top level (v4), in the block (v5), NeoX's rotary_pct / rotary_emb_base.
    r = rope(80, 10000, 4096);
    r.partial_rotary_factor = 0.4;
    QTest::newRow("partial_v4_phi")
        << QByteArray(R"({"hidden_size":2560,"num_attention_heads":32,"max_position_embeddings":4096,"partial_rotary_factor":0.4,"rope_theta":10000})") << r;
    QTest::newRow("partial_v5_block")
        << QByteArray(R"({"hidden_size":2560,"num_attention_heads":32,"max_position_embeddings":4096,
            "rope_parameters":{"rope_type":"default","rope_theta":10000,"partial_rotary_factor":0.4}})") << r;
    r = rope(128, 10000, 2048);
    r.partial_rotary_factor = 0.25;
    QTest::newRow("neox_rotary_pct")
        << QByteArray(R"({"model_type":"gpt_neox","hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":2048,
            "rotary_pct":0.25,"rotary_emb_base":10000})") << r;
    // GPT-J: rotary_dim, n_embd/n_head/n_positions; rotate_every_two rotates pairs (2i, 2i + 1)
    // (modeling_gptj.py:57-70).
    r = rope(256, 10000, 2048);
    r.rotary_dim = 64;
    r.layout = RopeLayout::Interleaved;
    QTest::newRow("gptj_rotary_dim")
        << QByteArray(R"({"model_type":"gptj","n_embd":4096,"n_head":16,"n_positions":2048,"rotary_dim":64})") << r;
    // v5 nested per layer type: the full-attention parameters.
    r = rope(256, 1000000, 131072);
    r.scaling = RopeScaling::Linear;
    r.factor = 8;
    QTest::newRow("v5_nested_layer_types")
        << QByteArray(R"({"head_dim":256,"max_position_embeddings":131072,"rope_parameters":{
            "sliding_attention":{"rope_type":"default","rope_theta":10000},
            "full_attention":{"rope_type":"linear","rope_theta":1000000,"factor":8}}})") << r;
    // No theta anywhere: 10000.
    QTest::newRow("no_theta_default") << QByteArray(R"({"hidden_size":64,"num_attention_heads":4,"max_position_embeddings":128,"model_type":"llama"})")
                                      << rope(16, 10000, 128);
}

void TestModelConfig::ropeMapping() {
    QFETCH(QByteArray, json);
    QFETCH(RopeParams, want);
    const ModelConfigResult r = parseHfConfig(json);
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.method, Method::Rope);
    const RopeParams got = r.config->params.ropeParams();
    QCOMPARE(got.head_dim, want.head_dim);
    QCOMPARE(got.base, want.base);
    QCOMPARE(got.partial_rotary_factor, want.partial_rotary_factor);
    QCOMPARE(got.rotary_dim, want.rotary_dim);
    QCOMPARE(got.scaling, want.scaling);
    QCOMPARE(got.factor, want.factor);
    QCOMPARE(got.max_positions, want.max_positions);
    QCOMPARE(got.original_max_positions, want.original_max_positions);
    QCOMPARE(got.beta_fast, want.beta_fast);
    QCOMPARE(got.beta_slow, want.beta_slow);
    QCOMPARE(got.mscale, want.mscale);
    QCOMPARE(got.mscale_all_dim, want.mscale_all_dim);
    QCOMPARE(got.truncate, want.truncate);
    QCOMPARE(got.attention_factor, want.attention_factor);
    QCOMPARE(got.short_factor, want.short_factor);
    QCOMPARE(got.long_factor, want.long_factor);
    QCOMPARE(got.layout, want.layout);
    QVERIFY(got == want);
    QCOMPARE(r.config->contextLength, std::optional<std::int64_t>(want.max_positions));
}

void TestModelConfig::families_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<Method>("method");
    QTest::addColumn<int>("dim");
    QTest::addColumn<int>("heads");
    QTest::addColumn<double>("number");   // alibi bias_max, t5 max_distance, learned table size
    QTest::newRow("bloom") << QByteArray(R"({"model_type":"bloom","n_head":32,"hidden_size":4096,"seq_length":2048})")
                           << Method::Alibi << 128 << 32 << 8.0;
    QTest::newRow("mpt") << QByteArray(R"({"model_type":"mpt","n_heads":32,"d_model":4096,"max_seq_len":2048,
                            "attn_config":{"alibi":true,"alibi_bias_max":16}})") << Method::Alibi << 128 << 32 << 16.0;
    QTest::newRow("t5") << QByteArray(R"({"model_type":"t5","num_heads":12,"d_model":768,"d_kv":64,
                            "relative_attention_num_buckets":32,"relative_attention_max_distance":256})")
                        << Method::T5 << 64 << 12 << 256.0;
    QTest::newRow("gpt2") << QByteArray(R"({"model_type":"gpt2","n_head":12,"n_embd":768,"n_positions":1024})")
                          << Method::Learned << 768 << 12 << 1024.0;
    QTest::newRow("bert") << QByteArray(R"({"model_type":"bert","num_attention_heads":12,"hidden_size":768,"max_position_embeddings":512})")
                          << Method::Learned << 768 << 12 << 512.0;
}

// The family table (ui/io/families.h): one row per model_type, each naming its modeling file;
// the scheme, masking and layout the conventions (0.4) state for the families named there.
void TestModelConfig::familyTable() {
    QSet<QString> seen;
    for (const Family& f : poslab::ui::families()) {
        const QString type = QString::fromUtf8(f.modelType.data(), qsizetype(f.modelType.size()));
        QVERIFY2(!seen.contains(type), qPrintable(type));
        seen.insert(type);
        QCOMPARE(findFamily(f.modelType), &f);
        const QString source = QString::fromUtf8(f.source.data(), qsizetype(f.source.size()));
        QVERIFY2(source.startsWith(QStringLiteral("models/")) && source.endsWith(QStringLiteral(".py")), qPrintable(source));
    }
    QVERIFY(seen.size() >= 40);
    QCOMPARE(findFamily("gemma3_text"), findFamily("gemma3"));
    QVERIFY(findFamily("no_such_model") == nullptr);
    QCOMPARE(&llamaStyleFamily(), findFamily("llama"));
    QCOMPARE(findFamily("cohere")->layout, RopeLayout::Interleaved);
    QCOMPARE(findFamily("deepseek_v2")->layout, RopeLayout::Interleaved);
    QCOMPARE(findFamily("gptj")->layout, RopeLayout::Interleaved);
    QCOMPARE(findFamily("llama")->layout, RopeLayout::Half);
    QCOMPARE(findFamily("gemma2")->scale, FamilyScale::QueryPreAttnScalar);
    QVERIFY(findFamily("gemma2")->softcapKey == "attn_logit_softcapping");
    QVERIFY(findFamily("gemma3")->softcapKey.empty());   // stored but not applied
    QVERIFY(!findFamily("bert")->causal);
    QVERIFY(!findFamily("modernbert")->causal);
    QVERIFY(findFamily("gpt2")->causal);
    QCOMPARE(findFamily("bloom")->scheme, FamilyScheme::Alibi);
    QCOMPARE(findFamily("ministral3")->queryScale, FamilyQueryScale::Ministral3);
    QCOMPARE(findFamily("olmo2")->qkNorm, FamilyQkNorm::RmsProjectionBefore);
}

void TestModelConfig::familyLookup_data() {
    QTest::addColumn<QString>("architecture");
    QTest::addColumn<QString>("family");   // "" = none
    QTest::newRow("Gemma2ForCausalLM") << "Gemma2ForCausalLM" << "gemma2";
    QTest::newRow("GemmaForCausalLM") << "GemmaForCausalLM" << "gemma";
    QTest::newRow("BertForMaskedLM") << "BertForMaskedLM" << "bert";
    QTest::newRow("BertModel") << "BertModel" << "bert";
    QTest::newRow("XLMRobertaModel") << "XLMRobertaModel" << "xlm-roberta";
    QTest::newRow("GPT2LMHeadModel") << "GPT2LMHeadModel" << "gpt2";
    QTest::newRow("Qwen2MoeForCausalLM") << "Qwen2MoeForCausalLM" << "qwen2_moe";
    QTest::newRow("TransfoXLLMHeadModel") << "TransfoXLLMHeadModel" << "";
    QTest::newRow("Gemma3nForCausalLM") << "Gemma3nForCausalLM" << "";
}

void TestModelConfig::familyLookup() {
    QFETCH(QString, architecture);
    QFETCH(QString, family);
    const Family* f = familyOfArchitecture(architecture.toStdString());
    QCOMPARE(f ? QString::fromUtf8(f->modelType.data(), qsizetype(f->modelType.size())) : QString(), family);
}

void TestModelConfig::families() {
    QFETCH(QByteArray, json);
    QFETCH(Method, method);
    QFETCH(int, dim);
    QFETCH(int, heads);
    QFETCH(double, number);
    const ModelConfigResult r = parseHfConfig(json);
    QVERIFY2(r.config, qPrintable(r.error));
    const ScoreParams& p = r.config->params;
    QCOMPARE(p.method, method);
    QCOMPARE(p.dim, dim);
    QCOMPARE(r.config->heads, heads);
    QVERIFY(!p.validate());
    if (method == Method::Alibi) {
        QCOMPARE(p.alibi.heads, heads);
        QCOMPARE(p.alibi.bias_max, number);
    } else if (method == Method::T5) {
        QCOMPARE(p.t5.heads, heads);
        QCOMPARE(p.t5.num_buckets, 32);
        QCOMPARE(double(p.t5.max_distance), number);
    } else {
        QCOMPARE(double(p.learned.table_size), number);
    }
}

void TestModelConfig::badValues_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("factor_negative")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":2048,"rope_scaling":{"type":"linear","factor":-2}})")
        << "rope_scaling.factor must be a number from 1e-6 to 1e6, got -2";
    QTest::newRow("theta_string")
        << QByteArray(R"({"head_dim":16,"rope_theta":"10000"})") << "rope_theta must be a number in (1, 1e12], got \"10000\"";
    QTest::newRow("theta_one_in_block")
        << QByteArray(R"({"head_dim":16,"rope_parameters":{"rope_type":"default","rope_theta":1}})")
        << "rope_parameters.rope_theta must be a number in (1, 1e12], got 1";
    QTest::newRow("head_dim_odd") << QByteArray(R"({"model_type":"llama","head_dim":15})") << "head_dim must be an even integer from 2 to 65536 (the rope head dimension), got 15";
    QTest::newRow("max_pos_fraction")
        << QByteArray(R"({"model_type":"llama","head_dim":16,"max_position_embeddings":20.5})")
        << "max_position_embeddings must be an integer from 1 to 1099511627776, got 20.5";
    QTest::newRow("unknown_type")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20,"rope_scaling":{"type":"ntk-by-parts"}})")
        << "rope_scaling.type must be one of default, linear, dynamic, yarn, longrope, llama3, got \"ntk-by-parts\"";
    QTest::newRow("linear_without_factor")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20,"rope_scaling":{"type":"linear"}})")
        << "rope_scaling.factor is missing";
    QTest::newRow("llama3_without_low")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20,"rope_parameters":{"rope_type":"llama3","factor":8,"high_freq_factor":4}})")
        << "rope_parameters.low_freq_factor is missing";
    QTest::newRow("llama3_low_not_below_high")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20,"rope_parameters":{"rope_type":"llama3","factor":8,"low_freq_factor":4,"high_freq_factor":2}})")
        << "rope_parameters.high_freq_factor must be";
    QTest::newRow("longrope_short_count")
        << QByteArray(R"({"head_dim":8,"max_position_embeddings":20,"rope_scaling":{"type":"longrope","short_factor":[1,1,1],"long_factor":[1,1,1,1]}})")
        << "rope_scaling.short_factor must be 4 numbers (rotary_dim/2), got 3 numbers";
    QTest::newRow("longrope_entry_string")
        << QByteArray(R"({"head_dim":8,"max_position_embeddings":20,"rope_scaling":{"type":"longrope","short_factor":[1,"x",1,1],"long_factor":[1,1,1,1]}})")
        << "rope_scaling.short_factor must be a list of numbers, each from 1e-6 to 1e6 (at most 32768), got \"x\" at entry 1";
    QTest::newRow("no_head_dim") << QByteArray(R"({"model_type":"llama","max_position_embeddings":20})")
                                 << "head_dim is missing, and so is hidden_size or num_attention_heads";
    QTest::newRow("heads_zero") << QByteArray(R"({"hidden_size":64,"num_attention_heads":0})")
                                << "num_attention_heads must be an integer from 1 to 65536, got 0";
    QTest::newRow("bloom_alibi_heads") << QByteArray(R"({"model_type":"bloom","n_head":5000,"hidden_size":5000})")
                                       << "n_head must be an integer from 1 to 4096, got 5000";
    QTest::newRow("mpt_bias_max") << QByteArray(R"({"model_type":"mpt","n_heads":8,"d_model":64,"attn_config":{"alibi":true,"alibi_bias_max":0}})")
                                  << "attn_config.alibi_bias_max must be a number in (0, 1024], got 0";
    QTest::newRow("t5_buckets") << QByteArray(R"({"num_heads":8,"d_kv":64,"relative_attention_num_buckets":1})")
                                << "relative_attention_num_buckets must be";
    QTest::newRow("theta_string_newline")
        << QByteArray(R"({"head_dim":16,"rope_theta":"1\n2"})") << "rope_theta must be a number in (1, 1e12], got \"1\\x0a2\"";
    QTest::newRow("not_json") << QByteArray("{\"head_dim\": 16,") << "not a JSON config";
    QTest::newRow("array") << QByteArray("[1,2]") << "not a config.json (the top level is not an object)";
    QTest::newRow("rope_scaling_list") << QByteArray(R"({"head_dim":16,"rope_scaling":[1]})")
                                       << "rope_scaling must be an object or null, got a list";
}

void TestModelConfig::badValues() {
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    const ModelConfigResult r = parseHfConfig(json);
    QVERIFY(!r.config);
    QVERIFY2(r.error.startsWith(error), qPrintable(r.error));
    QVERIFY(!r.error.contains('\n'));
}

void TestModelConfig::keysFromFile() {
    const ModelConfigResult r = parseHfConfig(R"({"hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,
        "rope_theta":500000.0,"vocab_size":128256,"rope_scaling":{"rope_type":"llama3","factor":8.0,"low_freq_factor":1.0,
        "high_freq_factor":4.0,"original_max_position_embeddings":8192}})");
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->fromFile.at("dim"), QStringLiteral("hidden_size"));
    QCOMPARE(r.config->fromFile.at("rope.base"), QStringLiteral("rope_theta"));
    QCOMPARE(r.config->fromFile.at("rope.factor"), QStringLiteral("rope_scaling.factor"));
    QCOMPARE(r.config->fromFile.at("rope.original_max_positions"), QStringLiteral("rope_scaling.original_max_position_embeddings"));
    QCOMPARE(r.config->fromFile.count("rope.beta_fast"), std::size_t(0));
    const QStringList keys = r.config->keys();
    QVERIFY(keys.contains("rope_scaling.rope_type"));
    QVERIFY(keys.contains("max_position_embeddings"));
    QVERIFY(!keys.contains("vocab_size"));
    QCOMPARE(r.config->heads, 32);
}

void TestModelConfig::readsFiles() {
    QTemporaryDir dir;
    const QString good = dir.filePath("config.json");
    QFile f(good);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"head_dim":16,"rope_theta":500})");
    f.close();
    const ModelConfigResult r = readModelConfigFile(good);
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.rope.base, 500.0);
    const ModelConfigResult missing = readModelConfigFile(dir.filePath("nope.json"));
    QVERIFY(!missing.config);
    QVERIFY2(missing.error.startsWith("cannot read"), qPrintable(missing.error));
}

void TestModelConfig::ggufRope_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<RopeParams>("want");
    RopeParams r = rope(128, 500000, 131072);
    QTest::newRow("llama_v3") << llamaGguf(3).bytes() << r;
    QTest::newRow("llama_v2") << llamaGguf(2).bytes() << r;
    Gguf y = llamaGguf(3);
    y.text("llama.rope.scaling.type", "yarn").f32("llama.rope.scaling.factor", 4.0f).u32("llama.rope.scaling.original_context_length", 32768);
    r.scaling = RopeScaling::Yarn;
    r.factor = 4;
    r.original_max_positions = 32768;
    QTest::newRow("yarn") << y.bytes() << r;
    Gguf lin = llamaGguf(3);
    lin.text("llama.rope.scaling.type", "linear").f64("llama.rope.scaling.factor", 2.0);
    r = rope(128, 500000, 131072);
    r.scaling = RopeScaling::Linear;
    r.factor = 2;
    QTest::newRow("linear_f64") << lin.bytes() << r;
    // Partial rotary (phi2-style): dimension_count < head dim → rotary_dim; key_length as head dim.
    Gguf p(3);
    p.text("general.architecture", "phi2").u32("phi2.embedding_length", 2560).u32("phi2.attention.head_count", 32)
        .u32("phi2.rope.dimension_count", 32).u32("phi2.context_length", 2048);
    r = rope(80, 10000, 2048);
    r.rotary_dim = 32;
    QTest::newRow("phi2_partial") << p.bytes() << r;
    Gguf k(3);
    k.text("general.architecture", "gemma").u32("gemma.embedding_length", 3072).u32("gemma.attention.head_count", 16)
        .u32("gemma.attention.key_length", 256).f32("gemma.rope.freq_base", 10000.f).u32("gemma.context_length", 8192);
    QTest::newRow("gemma_key_length") << k.bytes() << rope(256, 10000, 8192);
}

void TestModelConfig::ggufRope() {
    QFETCH(QByteArray, bytes);
    QFETCH(RopeParams, want);
    const ModelConfigResult r = ggufConfig(bytes);
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.method, Method::Rope);
    const RopeParams got = r.config->params.ropeParams();
    QCOMPARE(got.head_dim, want.head_dim);
    QCOMPARE(got.base, want.base);
    QCOMPARE(got.rotary_dim, want.rotary_dim);
    QCOMPARE(got.scaling, want.scaling);
    QCOMPARE(got.factor, want.factor);
    QCOMPARE(got.max_positions, want.max_positions);
    QCOMPARE(got.original_max_positions, want.original_max_positions);
    QVERIFY(got == want);
    QVERIFY(r.config->keys().contains(QStringLiteral("%1.context_length").arg(r.config->modelType)));
}

void TestModelConfig::ggufFamilies() {
    Gguf b(3);
    b.text("general.architecture", "bloom").u32("bloom.embedding_length", 1024).u32("bloom.attention.head_count", 16)
        .f32("bloom.attention.max_alibi_bias", 8.f);
    ModelConfigResult r = ggufConfig(b.bytes());
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.method, Method::Alibi);
    QCOMPARE(r.config->params.alibi.heads, 16);
    QCOMPARE(r.config->params.dim, 64);
    Gguf g(3);
    g.text("general.architecture", "gpt2").u32("gpt2.embedding_length", 768).u32("gpt2.attention.head_count", 12)
        .u32("gpt2.context_length", 1024);
    r = ggufConfig(g.bytes());
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.method, Method::Learned);
    QCOMPARE(r.config->params.learned.table_size, std::int64_t{1024});
    QCOMPARE(r.config->params.dim, 768);
}

void TestModelConfig::ggufCorrupt_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");
    QTest::newRow("wrong_magic") << QByteArray("GGUG\3\0\0\0", 8) << "not a GGUF file";
    QTest::newRow("version_1") << Gguf(1).bytes() << "unsupported GGUF version, 2 or 3, got 1";
    QTest::newRow("version_4") << Gguf(4).bytes() << "unsupported GGUF version, 2 or 3, got 4";
    QTest::newRow("big_endian") << Gguf(0x03000000).bytes() << "unsupported GGUF version, 2 or 3, got 50331648";
    {
        Gguf g(3);
        std::uint64_t n = std::uint64_t{1} << 62;
        std::memcpy(g.data().data() + 16, &n, 8);
        QTest::newRow("absurd_kv_count") << g.bytes() << "invalid GGUF metadata count";
    }
    QTest::newRow("absurd_tensor_count") << Gguf(3, std::uint64_t{1} << 40).bytes() << "invalid GGUF tensor count";
    {
        Gguf g(3);
        g.key("tokenizer.ggml.tokens", 9);
        g.put<std::uint32_t>(8);
        g.put<std::uint64_t>(std::uint64_t{1} << 60);
        QTest::newRow("absurd_array_count") << g.bytes() << "truncated GGUF header: array tokenizer.ggml.tokens of 1152921504606846976";
    }
    {
        Gguf g(3);
        g.key("general.architecture", 8);
        g.put<std::uint64_t>(std::uint64_t{1} << 50);
        QTest::newRow("absurd_string_length") << g.bytes() << "invalid GGUF string value: length at most 1048576";
    }
    {
        Gguf g(3);
        g.put<std::uint64_t>(std::uint64_t{1} << 40);   // key length (the count was not bumped: it is 0)
        g.put<std::uint64_t>(0);
        std::uint64_t one = 1;
        std::memcpy(g.data().data() + 16, &one, 8);
        QTest::newRow("absurd_key_length") << g.bytes() << "invalid GGUF key: length at most 65535";
    }
    {
        Gguf g(3);
        g.key("x", 13);
        g.put<std::uint32_t>(0);
        QTest::newRow("bad_type") << g.bytes() << "invalid GGUF value type of x, 0 to 12, got 13";
    }
    {
        Gguf g(3);
        g.key("phi2.embedding_l\n\n", 13);   // found by fuzz_gguf: file text in a message is escaped
        g.put<std::uint32_t>(0);
        QTest::newRow("bad_type_key_with_newline") << g.bytes() << "invalid GGUF value type of phi2.embedding_l\\x0a\\x0a, 0 to 12, got 13";
    }
    {
        Gguf g(3);
        g.text("general.architecture", "lla\nma").u32("lla\nma.embedding_length", 64).u32("lla\nma.attention.head_count", 0);
        QTest::newRow("arch_with_newline") << g.bytes() << "lla\\x0ama.attention.head_count must be an integer from 1 to 65536, got 0";
    }
    {
        Gguf g(3);
        g.boolean("x", 2);
        QTest::newRow("bad_bool") << g.bytes() << "invalid GGUF bool x, 0 or 1, got 2";
    }
    {
        Gguf g = llamaGguf();
        g.u32("llama.context_length", 5);
        QTest::newRow("duplicate_key") << g.bytes() << "invalid GGUF metadata: key llama.context_length appears twice";
    }
    {
        Gguf g(3);
        g.key("deep", 9);
        for (int i = 0; i < 6; ++i) { g.put<std::uint32_t>(9); g.put<std::uint64_t>(1); }
        QTest::newRow("nested_too_deep") << g.bytes() << "invalid GGUF array deep: nested deeper than 4";
    }
    {
        Gguf g(3);
        g.u32("llama.context_length", 5);
        QTest::newRow("no_architecture") << g.bytes() << "general.architecture is missing";
    }
    {
        Gguf g(3);
        g.text("general.architecture", "llama").u32("llama.embedding_length", 4096).u32("llama.attention.head_count", 32)
            .f32("llama.rope.freq_base", -1.f);
        QTest::newRow("bad_freq_base") << g.bytes() << "llama.rope.freq_base must be a number in (1, 1e12], got -1";
    }
    {
        Gguf g(3);
        g.text("general.architecture", "llama").u32("llama.embedding_length", 4096).u32("llama.attention.head_count", 0);
        QTest::newRow("zero_heads") << g.bytes() << "llama.attention.head_count must be an integer from 1 to 65536, got 0";
    }
    {
        Gguf g = llamaGguf();
        g.text("llama.rope.scaling.type", "longrope");
        QTest::newRow("bad_scaling_type") << g.bytes() << "llama.rope.scaling.type must be one of none, linear, yarn, got \"longrope\"";
    }
    {
        Gguf g = llamaGguf();
        g.text("llama.rope.scaling.type", "linear").f32("llama.rope.scaling.factor", 0.f);
        QTest::newRow("bad_factor") << g.bytes() << "llama.rope.scaling.factor must be a number from 1e-6 to 1e6, got 0";
    }
    {
        Gguf g = llamaGguf();
        g.strings("llama.context_length_list", {"a"});
        g.data().chop(1);
        QTest::newRow("truncated_in_array") << g.bytes() << "truncated GGUF header";
    }
}

void TestModelConfig::ggufCorrupt() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    const ModelConfigResult r = ggufConfig(bytes);
    QVERIFY(!r.config);
    QVERIFY2(r.error.startsWith(error), qPrintable(r.error));
    QVERIFY(!r.error.contains('\n'));
}

// Every proper prefix of a valid header is refused as truncated (never read past the end: the
// prefix is copied to a buffer of exactly its size, so ASan/valgrind would see an overread).
void TestModelConfig::ggufEveryTruncation() {
    const QByteArray full = llamaGguf().bytes();
    QVERIFY(ggufConfig(full).config);
    for (qsizetype n = 0; n < full.size(); ++n) {
        std::vector<char> buf(full.constData(), full.constData() + n);
        const ModelConfigResult r = parseGgufConfig(buf.data(), buf.size());
        QVERIFY2(!r.config, qPrintable(QString::number(n)));
        QVERIFY2(n < 4 ? r.error.startsWith("not a GGUF") : r.error.startsWith("truncated GGUF header"),
                 qPrintable(QString::number(n) + ": " + r.error));
    }
}

// A GGUF of 10 GiB (a sparse file: token_embd.weight of 10 GiB, rope_freqs.weight after it at the
// very end): the metadata, the tensor infos and rope_freqs' 256 bytes are read through the
// mapping; the file's other pages are never touched (reading 10 GiB of holes takes seconds).
void TestModelConfig::ggufLargeFileIsMappedNotRead() {
    QTemporaryDir dir;
    const QString path = dir.filePath("model.gguf");
    const std::vector<float> divisors = llama3Divisors(500000, 128, 8, 1, 4, 8192);
    const std::uint64_t rows = 655360;   // 4096 x 655360 F32 = 10 GiB
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray header = llamaRopeFreqsHeader(divisors.size(), rows);
        f.write(header);
        QVERIFY(f.resize(header.size() + qint64(4096 * 4 * rows)));
        QVERIFY(f.seek(f.size()));
        f.write(reinterpret_cast<const char*>(divisors.data()), qint64(4 * divisors.size()));
    }
    QVERIFY(QFileInfo(path).size() > (qint64{10} << 30));
    QElapsedTimer t;
    t.start();
    const ModelConfigResult r = readModelConfigFile(path);
    QVERIFY2(r.config, qPrintable(r.error));
    QCOMPARE(r.config->params.rope.base, 500000.0);
    QCOMPARE(r.config->params.rope.scaling, RopeScaling::Llama3);
    QCOMPARE(r.config->params.rope.factor, 8.0);
    QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
}

void TestModelConfig::ggufRopeFreqs_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expect");   // "llama3", "theta" or the error
    QTest::newRow("llama 3.1 divisors") << llamaWithRopeFreqs(llama3Divisors(500000, 128, 8, 1, 4, 8192)) << "llama3";
    std::vector<float> other(64);
    for (int i = 0; i < 64; ++i) other[std::size_t(i)] = 1.0f + float(i) / 64.0f;
    QTest::newRow("other divisors") << llamaWithRopeFreqs(other) << "theta";
    QTest::newRow("63 values") << llamaWithRopeFreqs(std::vector<float>(63, 1.0f))
                               << "rope_freqs.weight must have rotary_dim/2 = 64 values, got 63";
    QTest::newRow("data cut") << llamaWithRopeFreqs(llama3Divisors(500000, 128, 8, 1, 4, 8192), 5)
                              << "truncated GGUF data: rope_freqs.weight needs 256 bytes";
    std::vector<float> zero = other;
    zero[3] = 0;
    QTest::newRow("f16 tensor") << llamaWithRopeFreqs(other, 0, 1)
                                << "invalid GGUF rope_freqs.weight: an F32 vector of 1 to 32768 values, got type 1";
    std::vector<float> nan = other;
    nan[7] = std::nanf("");
    QTest::newRow("nan divisor") << llamaWithRopeFreqs(nan) << "invalid GGUF rope_freqs.weight[7], a finite number > 0, got nan";
    QTest::newRow("zero divisor") << llamaWithRopeFreqs(zero) << "invalid GGUF rope_freqs.weight[3], a finite number > 0, got 0";
}

// Llama 3 scaling in GGUF lives in rope_freqs.weight: read from the mapped data section, it gives
// exactly transformers' llama3 inv_freq (or, for other divisors, the same frequencies as θ).
void TestModelConfig::ggufRopeFreqs() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expect);
    const ModelConfigResult r = ggufConfig(bytes);
    if (expect != "llama3" && expect != "theta") {
        QVERIFY(!r.config);
        QVERIFY2(r.error.startsWith(expect), qPrintable(r.error));
        return;
    }
    QVERIFY2(r.config, qPrintable(r.error));
    const RopeParams rp = r.config->params.ropeParams();
    if (expect == "llama3") {
        QCOMPARE(rp.scaling, RopeScaling::Llama3);
        QCOMPARE(rp.factor, 8.0);
        QCOMPARE(rp.original_max_positions.value_or(0), std::int64_t(8192));
        QCOMPARE(rp.max_positions, std::int64_t(131072));
        QCOMPARE(r.config->fromFile.at("rope.scaling"), QStringLiteral("rope_freqs.weight"));
        QVERIFY(rp.theta.empty());
    } else {
        QCOMPARE(rp.scaling, RopeScaling::None);
        QCOMPARE(static_cast<int>(rp.theta.size()), 64);
    }
    // Either way the frequencies are the model's: inv_freq / rope_freqs (float32 divisors).
    RopeParams dbl = rp;
    dbl.precision = Precision::Double;
    const Vector got = ropeFrequencies(dbl, std::nullopt).inv_freq;
    const auto div = expect == "llama3" ? llama3Divisors(500000, 128, 8, 1, 4, 8192) : [] {
        std::vector<float> o(64);
        for (int i = 0; i < 64; ++i) o[std::size_t(i)] = 1.0f + float(i) / 64.0f;
        return o;
    }();
    for (int i = 0; i < 64; ++i) {
        const double want = 1.0 / std::pow(500000.0, 2.0 * i / 128) / div[std::size_t(i)];
        QVERIFY2(std::abs(got[i] - want) <= 1e-6 * want, qPrintable(QString("pair %1: %2 vs %3").arg(i).arg(got[i]).arg(want)));
    }
}

// The models of "Local and global layers" (core/demonstrations.h demoLayerModels) are the
// configurations shipped in resources/models, read as the window and `--config` read them.
void TestModelConfig::demonstrationModelsAreTheShippedConfigs_data() {
    QTest::addColumn<int>("model");
    for (std::size_t k = 0; k < demoLayerModels().size(); ++k) QTest::newRow(demoLayerModels()[k].key.c_str()) << int(k);
}

void TestModelConfig::demonstrationModelsAreTheShippedConfigs() {
    QFETCH(int, model);
    const DemoLayerModel& m = demoLayerModels()[std::size_t(model)];
    const ModelConfigResult r = readModelConfigFile(QStringLiteral(POSLAB_SOURCE_DIR "/resources/models/") + QString::fromStdString(m.key) + ".json");
    QVERIFY2(r.config, qPrintable(r.error));
    const ScoreParams& file = r.config->params;
    // Every declared parameter of the scene (the pattern's groups included): the differences by name.
    QStringList differ;
    for (const auto& entry : scoreParamTable())
        if (!(entry.get(file) == entry.get(m.params)))
            differ << QStringLiteral("%1: file %2, demonstration %3")
                          .arg(QString::fromStdString(entry.path()), QString::fromStdString(formatParamValue(entry.info, entry.get(file))),
                               QString::fromStdString(formatParamValue(entry.info, entry.get(m.params))));
    QVERIFY2(differ.isEmpty(), qPrintable(differ.join(QLatin1Char('\n'))));
    QVERIFY(file.model == m.params.model);
    QCOMPARE(r.config->contextLength.value_or(0), m.context);
}

QTEST_MAIN(TestModelConfig)
#include "test_modelconfig.moc"
