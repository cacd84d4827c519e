// Model configuration files (ui/io/modelconfig.h): config.json in the v4 and v5 forms gives
// exactly the parameters transformers main computes with (every rope type, the factor/original
// interplay, where original_max_position_embeddings comes from, DeepSeek's rope head dim);
// BLOOM/MPT/T5/GPT-2/BERT select their methods; every bad value is one message naming the key.
#include "support/testsupport.h"

#include "ui/io/modelconfig.h"

#include <QJsonDocument>
#include <QTemporaryDir>

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

}  // namespace

class TestModelConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goldenBothForms_data();
    void goldenBothForms();
    void ropeMapping_data();
    void ropeMapping();
    void families_data();
    void families();
    void badValues_data();
    void badValues();
    void keysFromFile();
    void readsFiles();
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

    // DeepSeek-V3: the rotated head dim is qk_rope_head_dim, interleaved, mscale pair; its
    // max_position_embeddings (163840) is the extended length, original 4096 in the block.
    r = rope(64, 10000, 163840);
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
    // GPT-J: rotary_dim, n_embd/n_head/n_positions.
    r = rope(256, 10000, 2048);
    r.rotary_dim = 64;
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
    QTest::newRow("head_dim_odd") << QByteArray(R"({"head_dim":15})") << "head_dim must be an even integer from 2 to 65536 (the rope head dimension), got 15";
    QTest::newRow("max_pos_fraction")
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20.5})")
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
        << QByteArray(R"({"head_dim":16,"max_position_embeddings":20,"rope_parameters":{"rope_type":"llama3","factor":8,"low_freq_factor":4,"high_freq_factor":4}})")
        << "rope_parameters.high_freq_factor must be";
    QTest::newRow("longrope_short_count")
        << QByteArray(R"({"head_dim":8,"max_position_embeddings":20,"rope_scaling":{"type":"longrope","short_factor":[1,1,1],"long_factor":[1,1,1,1]}})")
        << "rope_scaling.short_factor must be 4 numbers (rotary_dim/2), got 3 numbers";
    QTest::newRow("longrope_entry_string")
        << QByteArray(R"({"head_dim":8,"max_position_embeddings":20,"rope_scaling":{"type":"longrope","short_factor":[1,"x",1,1],"long_factor":[1,1,1,1]}})")
        << "rope_scaling.short_factor must be a list of numbers, each from 1e-6 to 1e6 (at most 32768), got \"x\" at entry 1";
    QTest::newRow("no_head_dim") << QByteArray(R"({"max_position_embeddings":20})")
                                 << "head_dim is missing, and so is hidden_size or num_attention_heads";
    QTest::newRow("heads_zero") << QByteArray(R"({"hidden_size":64,"num_attention_heads":0})")
                                << "num_attention_heads must be an integer from 1 to 65536, got 0";
    QTest::newRow("bloom_alibi_heads") << QByteArray(R"({"model_type":"bloom","n_head":5000,"hidden_size":5000})")
                                       << "n_head must be an integer from 1 to 4096, got 5000";
    QTest::newRow("mpt_bias_max") << QByteArray(R"({"model_type":"mpt","n_heads":8,"d_model":64,"attn_config":{"alibi":true,"alibi_bias_max":0}})")
                                  << "attn_config.alibi_bias_max must be a number in (0, 1024], got 0";
    QTest::newRow("t5_buckets") << QByteArray(R"({"num_heads":8,"d_kv":64,"relative_attention_num_buckets":1})")
                                << "relative_attention_num_buckets must be";
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

QTEST_MAIN(TestModelConfig)
#include "test_modelconfig.moc"
